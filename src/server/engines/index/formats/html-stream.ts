// Large HTML in bounded memory. A DOM of a multi-megabyte page (and Readability's copy of it) costs
// tens of times the page's size; this reader walks the source once with a tokenizer instead, keeps
// only the text blocks, and reads the metadata from a DOM of the <head> alone.
import { parseHTML } from 'linkedom';
import type { Block, ExtractedDocument } from '../types.js';
import { readHtmlMeta, withMeta } from './html-meta.js';
import { resolveUrl } from './html.js';
import { proseParagraphs } from './plain.js';

/** Pages larger than this (UTF-16 code units) are read by {@link readLargeHtml}. */
export const LARGE_HTML_CHARS = 1_000_000;

const BLOCK = new Set(
  'address article aside blockquote body dd details div dl dt fieldset figcaption figure footer form header hr li main nav ol p pre section summary table tbody td th thead tfoot tr ul h1 h2 h3 h4 h5 h6 br caption'.split(
    ' ',
  ),
);
const SKIP = new Set([
  'script',
  'style',
  'noscript',
  'template',
  'svg',
  'iframe',
  'button',
  'title',
]);
const VOID = new Set(['br', 'hr', 'img', 'meta', 'link', 'input', 'source', 'wbr', 'area', 'base']);
const NAMED: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
};

/** Decodes the character references that matter for text (numeric, and the common named ones). */
export function decodeEntities(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, ref: string) => {
    if (ref[0] === '#') {
      const code =
        ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : Number(ref.slice(1));
      return Number.isFinite(code) && code > 0 && code < 0x110000
        ? String.fromCodePoint(code)
        : whole;
    }
    return NAMED[ref.toLowerCase()] ?? whole;
  });
}

function attribute(tag: string, name: string): string | null {
  const m = new RegExp(`\\s${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s>]+))`, 'i').exec(tag);
  return m ? decodeEntities(m[1] ?? m[2] ?? m[3] ?? '') : null;
}

function dimension(value: string | null): number | null {
  const n = value ? Number.parseInt(value, 10) : NaN;
  return Number.isFinite(n) && n > 0 ? n : null;
}

/** Options of {@link readLargeHtml}. */
export interface LargeHtmlOptions {
  /** The page's own URL, for relative image URLs; `null` for a local file. */
  baseUrl: string | null;
  /** Called with the share of the source read so far (0..1), every few hundred kilobytes. */
  onProgress?: ((fraction: number) => void) | undefined;
}

/**
 * Extracts a large HTML page without building its DOM: headings and paragraphs in document order
 * (script, style and hidden-by-tag content skipped), images, and the head's metadata. Yields to
 * the event loop between slices so progress can be drawn.
 * @throws Error when the page holds no readable text at all (from the caller's chunker)
 */
export async function readLargeHtml(
  html: string,
  options: LargeHtmlOptions,
): Promise<ExtractedDocument> {
  const headEnd = html.search(/<\/head\s*>|<body[\s>]/i);
  const head = headEnd > 0 ? html.slice(0, headEnd) : '';
  const { document } = parseHTML(`${head}</head><body></body></html>`);
  const meta = readHtmlMeta(document, options.baseUrl);
  const baseUrl =
    meta.canonicalUrl && (!options.baseUrl || options.baseUrl.startsWith('file:'))
      ? meta.canonicalUrl
      : options.baseUrl;

  const blocks: Block[] = [];
  let inline: string[] = [];
  let heading: { level: number; parts: string[] } | null = null;
  let pre = 0;
  let skip: string | null = null;
  let firstH1: string | null = null;
  const flush = (): void => {
    const text = (pre > 0 ? inline.join('') : inline.join('').replace(/\s+/g, ' ')).trim();
    // Prose shown as is reads as paragraphs; code keeps its line breaks.
    const prose = pre > 0 ? proseParagraphs(text) : null;
    if (prose) for (const para of prose) blocks.push({ kind: 'paragraph', text: para });
    else if (text) blocks.push({ kind: 'paragraph', text });
    inline = [];
  };

  const token = /<!--[\s\S]*?-->|<(\/?)([a-zA-Z][\w:-]*)((?:[^>"']|"[^"]*"|'[^']*')*)>|[^<]+|</g;
  const SLICE = 512 * 1024;
  // The head was read above; text starts after it.
  token.lastIndex = Math.max(0, headEnd);
  let nextYield = token.lastIndex + SLICE;
  for (let m = token.exec(html); m !== null; m = token.exec(html)) {
    if (token.lastIndex >= nextYield) {
      nextYield = token.lastIndex + SLICE;
      options.onProgress?.(token.lastIndex / html.length);
      await new Promise((r) => setImmediate(r));
    }
    const [whole, closing, rawName, attrs] = m;
    if (rawName === undefined) {
      if (skip !== null || whole.startsWith('<!--')) continue;
      const text = decodeEntities(whole);
      if (heading) heading.parts.push(text);
      else inline.push(text);
      continue;
    }
    const name = rawName.toLowerCase();
    if (skip !== null) {
      if (closing && name === skip) skip = null;
      continue;
    }
    if (!closing && (SKIP.has(name) || /\shidden(?:[\s=>]|$)/i.test(attrs ?? ''))) {
      if (!VOID.has(name) && !(attrs ?? '').endsWith('/')) skip = name;
      continue;
    }
    if (name === 'img' && !closing) {
      const src = attribute(whole, 'src') ?? attribute(whole, 'data-src');
      if (src && !src.startsWith('data:')) {
        flush();
        blocks.push({
          kind: 'image',
          image: {
            url: resolveUrl(src, baseUrl),
            width: dimension(attribute(whole, 'width')),
            height: dimension(attribute(whole, 'height')),
            alt: attribute(whole, 'alt') ?? '',
          },
        });
      }
      continue;
    }
    const level = /^h([1-6])$/.exec(name);
    if (level) {
      if (!closing) {
        flush();
        heading = { level: Number(level[1]), parts: [] };
      } else if (heading) {
        const text = heading.parts.join('').replace(/\s+/g, ' ').trim();
        if (text) blocks.push({ kind: 'heading', level: heading.level, text });
        if (text && heading.level === 1) firstH1 ??= text;
        heading = null;
      }
      continue;
    }
    if (name === 'pre') {
      flush();
      pre += closing ? -1 : 1;
      pre = Math.max(0, pre);
      continue;
    }
    if (BLOCK.has(name) && !heading) flush();
  }
  flush();
  options.onProgress?.(1);
  // The rendered /docs page is built from the chunks; the source is not kept twice.
  return withMeta(meta, meta.title ?? firstH1 ?? '', blocks, '');
}
