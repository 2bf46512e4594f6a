import type { Hono } from 'hono';
import type { AppEnv } from '../context.js';
import type { DocLinks } from '../doc-links.js';
import type { SearchIndex } from '../engines/index/index.js';
import { HttpError } from '../http-error.js';

/**
 * `GET /docs/{id}?sig=…`: a local document as a readable page (chunks addressable as `#c{n}`),
 * opened by signed link because a browser sends no bearer header. A missing or wrong signature is
 * the same 404 as an unknown id, so links cannot be probed. Only ids in the index resolve: nothing
 * outside it can be read.
 */
export function registerDocRoutes(app: Hono<AppEnv>, index: SearchIndex, links: DocLinks): void {
  app.get('/docs/:id', (c) => {
    const id = c.req.param('id');
    const html = links.verify(id, c.req.query('sig')) ? index.renderDocumentHtml(id) : null;
    if (html === null)
      throw new HttpError(404, 'Document not found', { code: 'document_not_found' });
    c.header('cache-control', 'no-store');
    return c.html(html);
  });
}
