/**
 * Parsing HTML sources into a linkedom document. linkedom builds the tree as written and does not
 * imply the `<html>`, `<head>` and `<body>` elements an HTML parser adds: a fragment
 * (`<!--{...}--><h2>Title</h2><p>Text</p>`, as documentation generators ship their pages) or a
 * valid page that leaves the tags out (`<!doctype html><title>T</title><p>Text</p>`) comes out
 * with its first element as the document element and an empty body, so no text would be read.
 */
import { parseHTML } from 'linkedom';

/** What may stand before a page's body when its tags are left out: head elements, comments. */
const HEAD_PART =
  /^(?:\s+|<!--[\s\S]*?-->|<!doctype[^>]*>|<\/?html\b[^>]*>|<\/?head\b[^>]*>|<(?:meta|link|base)\b[^>]*>|<title\b[^>]*>[\s\S]*?<\/title\s*>|<style\b[^>]*>[\s\S]*?<\/style\s*>)/i;

/**
 * The source as a whole document: unchanged when it has a `<body>` tag; otherwise its leading head
 * part (doctype, `<html>` and `<head>` tags, title, meta, link, base, style, comments) goes in a
 * head and the rest in a body.
 */
export function asDocument(html: string): string {
  if (/<body[\s>]/i.test(html)) return html;
  let rest = html;
  let head = '';
  for (let m = HEAD_PART.exec(rest); m && m[0].length > 0; m = HEAD_PART.exec(rest)) {
    if (!/^<(?:!doctype|\/?html|\/?head)\b/i.test(m[0])) head += m[0];
    rest = rest.slice(m[0].length);
  }
  const lang = /<html\b[^>]*\blang\s*=\s*["']?([\w-]+)/i.exec(html)?.[1];
  const body = rest.replace(/<\/html\s*>\s*$/i, '');
  return `<!doctype html><html${lang ? ` lang="${lang}"` : ''}><head>${head}</head><body>${body}</body></html>`;
}

/** parseHTML of {@link asDocument}: a document with a body, whatever tags the source left out. */
export const parseDocument = (html: string): ReturnType<typeof parseHTML>['document'] =>
  parseHTML(asDocument(html)).document;
