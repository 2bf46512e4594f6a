import type { DocLinks } from '../doc-links.js';
import type { SearchIndex } from '../engines/index/index.js';
import { NotFound } from '../errors.js';
import type { HandlersOf } from '../register-routes.js';

/**
 * `GET /docs/{id}?sig=…`: a local document as a readable page (chunks addressable as `#c{n}`),
 * opened by signed link because a browser sends no bearer header. A missing or wrong signature is
 * the same 404 as an unknown id, so links cannot be probed. Only ids in the index resolve: nothing
 * outside it can be read.
 */
export function docHandlers(index: SearchIndex, links: DocLinks): HandlersOf<'docs.get'> {
  return {
    'docs.get': async ({ path }, c) => {
      const id = path.document_id;
      const html = links.verify(id, c.req.query('sig')) ? await index.renderDocumentHtml(id) : null;
      if (html === null) throw new NotFound('Document not found', { code: 'document_not_found' });
      c.header('cache-control', 'no-store');
      return html;
    },
  };
}
