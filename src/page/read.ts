/** The readable content of a page: main text, Markdown, links, metadata and a content hash. */
import { createHash } from 'node:crypto';
import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';
import TurndownService from 'turndown';
import { toPageLike, withTimeout } from './adapter.js';
import type { AnyPage } from './adapter.js';
import { DEFAULTS } from './defaults.js';
import { parseDocument } from '../html-document.js';
import { collapseWhitespace, normalizeText } from './text.js';

/** A link of the main content. */
export interface PageLink {
  text: string;
  /** Absolute URL. */
  href: string;
}

/** Metadata read from `<meta>`, JSON-LD and Readability; `null` when the page does not say. */
export interface PageMetadata {
  description: string | null;
  /** Publication date as the page states it (usually ISO 8601). */
  published: string | null;
  modified: string | null;
  author: string | null;
  siteName: string | null;
}

/** What {@link readPage} returns. */
export interface ReadPageResult {
  title: string;
  url: string;
  /** `<html lang>`, or `null`. */
  lang: string | null;
  /** Main content as plain text, one paragraph per line. */
  text: string;
  /** Main content as Markdown. */
  markdown: string;
  /** Main content as HTML (Readability's output, or the body when Readability finds no article). */
  html: string;
  /** Absolute http(s) links of the main content, first occurrence of each. */
  links: PageLink[];
  metadata: PageMetadata;
  /** `sha256:<hex>` of the normalised main text: equal for equal content across loads. */
  contentHash: string;
}

/** Options of {@link readPage}. */
export interface ReadPageOptions {
  /** Bound on reading the DOM. @default 15_000 */
  timeout?: number;
}

type Doc = ReturnType<typeof parseHTML>['document'];

const BLOCK =
  /^(?:P|DIV|SECTION|ARTICLE|LI|H[1-6]|PRE|BLOCKQUOTE|TR|TABLE|UL|OL|DL|DT|DD|FIGURE|FIGCAPTION|HEADER|FOOTER|MAIN|ASIDE|NAV|BR|HR)$/;

/**
 * Reads the current page's main content: Readability over a linkedom parse of `page.content()`
 * (in Node, so the page is untouched), Markdown by turndown, links, metadata and a hash of the
 * normalised text. Pages where Readability finds no article fall back to the whole body.
 * @throws TimeoutError when the page does not hand over its DOM within `timeout`
 * @example const { markdown, contentHash } = await readPage(page);
 */
export async function readPage(
  page: AnyPage,
  options: ReadPageOptions = {},
): Promise<ReadPageResult> {
  const p = toPageLike(page);
  const timeout = options.timeout ?? DEFAULTS.actionTimeout;
  const [html, url, title] = await withTimeout(
    Promise.all([p.content(), Promise.resolve(p.url()), p.title()]),
    timeout,
    'readPage',
  );
  return readHtml(html, url, title);
}

/** The pure half of {@link readPage}: reads a serialised page fetched from `url`. */
export function readHtml(html: string, url: string, title = ''): ReadPageResult {
  const doc = parseDocument(html);
  const metadata = readMetadata(doc);
  const lang = doc.documentElement?.getAttribute('lang') || null;
  for (const el of Array.from(doc.querySelectorAll('script,style,noscript,template'))) el.remove();
  absolutize(doc, url);
  // Readability mutates what it reads: give it its own parse.
  const forReadability = parseDocument(html);
  absolutize(forReadability, url);
  const article = new Readability(forReadability as unknown as Document).parse();
  const contentHtml = article?.content ?? doc.body?.innerHTML ?? '';
  const content = parseHTML(`<!doctype html><html><body>${contentHtml}</body></html>`).document;
  const text = blockText(content.body)
    .split('\n')
    .map(collapseWhitespace)
    .filter(Boolean)
    .join('\n');
  const turndown = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced' });
  const markdown = turndown.turndown(contentHtml).trim();
  const links: PageLink[] = [];
  const seen = new Set<string>();
  for (const a of Array.from(content.querySelectorAll('a[href]'))) {
    let href: string;
    try {
      href = new URL(a.getAttribute('href') ?? '', url).href;
    } catch {
      continue;
    }
    if (!/^https?:/.test(href) || seen.has(href)) continue;
    seen.add(href);
    links.push({ text: collapseWhitespace(a.textContent ?? ''), href });
  }
  if (article) {
    metadata.description ??= article.excerpt ?? null;
    metadata.author = article.byline || metadata.author;
    metadata.siteName ??= article.siteName || null;
    metadata.published ??= article.publishedTime || null;
  }
  const hash = createHash('sha256').update(normalizeText(text)).digest('hex');
  return {
    title: title || article?.title || collapseWhitespace(doc.title ?? ''),
    url,
    lang: lang ?? (article?.lang || null),
    text,
    markdown,
    html: contentHtml,
    links,
    metadata,
    contentHash: `sha256:${hash}`,
  };
}

/**
 * Makes `href` and `src` absolute against the page URL. linkedom has no `baseURI`, so Readability
 * would leave relative links relative.
 */
function absolutize(doc: Doc, url: string): void {
  const base = doc.querySelector('base[href]')?.getAttribute('href');
  let baseUrl = url;
  try {
    if (base) baseUrl = new URL(base, url).href;
  } catch {
    baseUrl = url;
  }
  for (const [selector, attr] of [
    ['a[href]', 'href'],
    ['img[src]', 'src'],
  ] as const) {
    for (const el of Array.from(doc.querySelectorAll(selector))) {
      const value = el.getAttribute(attr) ?? '';
      if (value.startsWith('#') || /^(?:javascript|data|mailto):/i.test(value)) continue;
      try {
        el.setAttribute(attr, new URL(value, baseUrl).href);
      } catch {
        // An unparseable URL stays as the page wrote it.
        continue;
      }
    }
  }
}

/** Text with a newline after each block element, so paragraphs stay apart. */
function blockText(node: Doc['body'] | null): string {
  if (!node) return '';
  const out: string[] = [];
  const walk = (n: Node): void => {
    if (n.nodeType === 3) {
      out.push((n as Text).data);
      return;
    }
    if (n.nodeType !== 1) return;
    const block = BLOCK.test((n as Element).tagName);
    if (block) out.push('\n');
    for (const c of Array.from(n.childNodes)) walk(c);
    if (block) out.push('\n');
  };
  walk(node as unknown as Node);
  return out.join('');
}

function readMetadata(doc: Doc): PageMetadata {
  const meta = (...names: string[]): string | null => {
    for (const name of names) {
      const el = doc.querySelector(
        `meta[property="${name}"], meta[name="${name}"], meta[itemprop="${name}"]`,
      );
      const v = el?.getAttribute('content')?.trim();
      if (v) return v;
    }
    return null;
  };
  const ld = jsonLd(doc);
  const ldAuthor = ld['author'];
  const author =
    typeof ldAuthor === 'string'
      ? ldAuthor
      : Array.isArray(ldAuthor)
        ? ldAuthor
            .map((a: { name?: unknown }) => (typeof a?.name === 'string' ? a.name : ''))
            .filter(Boolean)
            .join(', ') || null
        : typeof (ldAuthor as { name?: unknown } | undefined)?.name === 'string'
          ? (ldAuthor as { name: string }).name
          : null;
  const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() ? v.trim() : null);
  return {
    description:
      meta('description', 'og:description', 'twitter:description') ?? str(ld['description']),
    published:
      meta('article:published_time', 'datePublished', 'date', 'dc.date') ??
      str(ld['datePublished']) ??
      doc.querySelector('time[datetime]')?.getAttribute('datetime') ??
      null,
    modified:
      meta('article:modified_time', 'og:updated_time', 'dateModified', 'last-modified') ??
      str(ld['dateModified']),
    author: meta('author', 'article:author', 'twitter:creator') ?? author,
    siteName:
      meta('og:site_name', 'application-name') ??
      str((ld['publisher'] as { name?: unknown } | undefined)?.name),
  };
}

/** The first JSON-LD object that looks like an article (or the first object at all). */
function jsonLd(doc: Doc): Record<string, unknown> {
  const objects: Record<string, unknown>[] = [];
  for (const s of Array.from(doc.querySelectorAll('script[type="application/ld+json"]'))) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(s.textContent ?? '');
    } catch {
      // Broken JSON-LD is common on the web; the page's other metadata still counts.
      continue;
    }
    const list = Array.isArray(parsed) ? parsed : [parsed];
    for (const item of list) {
      const graph = (item as { '@graph'?: unknown })?.['@graph'];
      for (const o of Array.isArray(graph) ? graph : [item]) {
        if (o && typeof o === 'object' && !Array.isArray(o))
          objects.push(o as Record<string, unknown>);
      }
    }
  }
  return (
    objects.find((o) => /Article|Posting|WebPage|Report/.test(String(o['@type']))) ??
    objects[0] ??
    {}
  );
}
