import type { Block, ExtractedDocument } from '../types.js';
import { normalizeLanguage, parseDate } from './html-meta.js';
import { resolveUrl } from './html.js';
import { blocksToHtml } from './plain.js';

/** Splits `---` front matter (simple `key: value` lines) from the body. */
export function splitFrontMatter(source: string): { fields: Record<string, string>; body: string } {
  const m = /^\uFEFF?---\r?\n([\s\S]*?)\r?\n(?:---|\.\.\.)\r?\n?/.exec(source);
  if (!m) return { fields: {}, body: source };
  const fields: Record<string, string> = {};
  for (const line of (m[1] ?? '').split(/\r?\n/)) {
    const kv = /^([A-Za-z_][\w-]*)\s*:\s*(.*)$/.exec(line);
    if (!kv) continue;
    fields[kv[1]!.toLowerCase()] = (kv[2] ?? '').trim().replace(/^(["'])(.*)\1$/, '$2');
  }
  return { fields, body: source.slice(m[0].length) };
}

/** Strips inline Markdown (links, emphasis, code ticks) to plain text. */
function inlineText(s: string): string {
  return (
    s
      // Images are blocks of their own; their alt text is not running text (as in HTML).
      .replace(/!\[([^\]]*)\]\([^)]*\)/g, '')
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .replace(/`([^`]*)`/g, '$1')
      .replace(/(\*\*|__)(.+?)\1/g, '$2')
      .replace(/(^|[^\w*])[*_]([^*_]+)[*_](?=[^\w*]|$)/g, '$1$2')
      .replace(/\s+/g, ' ')
      .trim()
  );
}

/**
 * Reads Markdown: ATX and setext headings give the heading path, blank lines separate paragraphs,
 * list items are paragraphs, fenced code is kept verbatim, `![alt](src)` becomes an image. Front
 * matter `title`, `date`/`published`, `updated`/`lastmod`, `lang`, `url`, `category` are honoured.
 *
 * @param source - The file content.
 * @param fallbackTitle - Used when neither front matter nor a level-1 heading names the document.
 * @param fileUrl - The file's URL; relative image paths resolve against front matter `url`, else this.
 */
export function readMarkdown(
  source: string,
  fallbackTitle: string,
  fileUrl: string | null = null,
): ExtractedDocument {
  const { fields, body } = splitFrontMatter(source);
  const stated = fields['url'] && /^https?:\/\//i.test(fields['url']) ? fields['url'] : null;
  const baseUrl = stated ?? fileUrl;
  const blocks: Block[] = [];
  let para: string[] = [];
  const flush = (): void => {
    const text = inlineText(para.join(' '));
    if (text) blocks.push({ kind: 'paragraph', text });
    para = [];
  };
  const lines = body.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    const fence = /^\s*(```|~~~)/.exec(line);
    if (fence) {
      flush();
      const code: string[] = [];
      for (i++; i < lines.length && !(lines[i] ?? '').trimStart().startsWith(fence[1]!); i++) {
        code.push(lines[i] ?? '');
      }
      if (code.join('').trim()) blocks.push({ kind: 'paragraph', text: code.join('\n').trim() });
      continue;
    }
    const atx = /^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line);
    if (atx) {
      flush();
      blocks.push({ kind: 'heading', level: atx[1]!.length, text: inlineText(atx[2] ?? '') });
      continue;
    }
    const next = lines[i + 1] ?? '';
    if (line.trim() && para.length === 0 && /^\s{0,3}(=+|-+)\s*$/.test(next)) {
      blocks.push({
        kind: 'heading',
        level: next.trim().startsWith('=') ? 1 : 2,
        text: inlineText(line),
      });
      i++;
      continue;
    }
    for (const img of line.matchAll(/!\[([^\]]*)\]\(([^)\s]+)[^)]*\)/g)) {
      blocks.push({
        kind: 'image',
        image: { url: resolveUrl(img[2]!, baseUrl), width: null, height: null, alt: img[1] ?? '' },
      });
    }
    if (!line.trim()) {
      flush();
      continue;
    }
    const item = /^\s*(?:[-*+]|\d+[.)])\s+(.*)$/.exec(line);
    if (item) {
      flush();
      para.push(item[1] ?? '');
      continue;
    }
    const text = line.replace(/^\s*>\s?/, '');
    // A table row may leave out its closing pipe; kept, it marks where the row ends once the
    // lines are joined.
    const row = /^\s*\|/.test(text) && !/(?<!\\)\|\s*$/.test(text);
    para.push(row ? `${text.trimEnd()} |` : text);
  }
  flush();
  const h1 = blocks.find((b) => b.kind === 'heading' && b.level === 1);
  return {
    title: fields['title'] || (h1?.kind === 'heading' ? h1.text : '') || fallbackTitle,
    canonicalUrl: stated,
    language: normalizeLanguage(fields['lang'] ?? fields['language']),
    publishedAt: parseDate(fields['date'] ?? fields['published']),
    updatedAt: parseDate(fields['updated'] ?? fields['lastmod'] ?? fields['modified']),
    category: fields['category'] ?? null,
    blocks,
    html: blocksToHtml(blocks),
  };
}
