// Metadata read from an HTML page's head before readability rewrites the document.

import type { Block, ExtractedDocument } from '../types.js';

/** Page metadata that readability does not give us, or gives less precisely. */
export interface HtmlMeta {
  title: string | null;
  canonicalUrl: string | null;
  language: string | null;
  publishedAt: Date | null;
  updatedAt: Date | null;
  category: string | null;
}

/** Parses a date string; `null` for empty or unparseable input. */
export function parseDate(value: string | null | undefined): Date | null {
  if (!value) return null;
  const trimmed = value.trim();
  if (trimmed.length === 0) return null;
  const ms = Date.parse(trimmed);
  return Number.isNaN(ms) ? null : new Date(ms);
}

/** `en-US` -> `en`; `null` for empty or malformed tags. */
export function normalizeLanguage(tag: string | null | undefined): string | null {
  const primary = tag?.trim().toLowerCase().split(/[-_]/)[0] ?? '';
  return /^[a-z]{2,3}$/.test(primary) ? primary : null;
}

function metaContent(doc: Document, keys: readonly string[]): string | null {
  for (const key of keys) {
    const k = key.toLowerCase();
    for (const el of Array.from(doc.querySelectorAll('meta'))) {
      const name = (
        el.getAttribute('property') ??
        el.getAttribute('name') ??
        el.getAttribute('itemprop') ??
        ''
      )
        .trim()
        .toLowerCase();
      const content = el.getAttribute('content');
      if (name === k && content && content.trim()) return content.trim();
    }
  }
  return null;
}

interface JsonLdDates {
  published: string | null;
  modified: string | null;
}

function jsonLdDates(doc: Document): JsonLdDates {
  const out: JsonLdDates = { published: null, modified: null };
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!node || typeof node !== 'object') return;
    const rec = node as Record<string, unknown>;
    if (typeof rec['datePublished'] === 'string') out.published ??= rec['datePublished'];
    if (typeof rec['dateModified'] === 'string') out.modified ??= rec['dateModified'];
    if (rec['@graph']) visit(rec['@graph']);
  };
  for (const script of Array.from(doc.querySelectorAll('script[type="application/ld+json"]'))) {
    try {
      visit(JSON.parse(script.textContent ?? ''));
    } catch {
      // Broken JSON-LD is common on real pages; the meta tags still apply.
      continue;
    }
  }
  return out;
}

const PUBLISHED_KEYS = [
  'article:published_time',
  'og:published_time',
  'datepublished',
  'dc.date.issued',
  'dcterms.issued',
  'dc.date',
  'dcterms.date',
  'dcterms.created',
  'citation_publication_date',
  'citation_date',
  'date',
  'pubdate',
];
const MODIFIED_KEYS = [
  'article:modified_time',
  'og:updated_time',
  'datemodified',
  'dcterms.modified',
  'dc.date.modified',
  'last-modified',
];

/**
 * Reads title, canonical URL, `lang`, published/modified dates and category from a parsed page.
 * Date precedence: JSON-LD, then meta tags (article:*, og:updated_time, DC/dcterms, `date`), then the
 * first `<time datetime>` as the published date.
 *
 * @param doc - The page document (not yet touched by readability).
 * @param baseUrl - Resolves a relative canonical link.
 */
export function readHtmlMeta(doc: Document, baseUrl: string | null): HtmlMeta {
  const ld = jsonLdDates(doc);
  const timeEl = doc.querySelector('time[datetime]');
  const publishedAt =
    parseDate(ld.published) ??
    parseDate(metaContent(doc, PUBLISHED_KEYS)) ??
    parseDate(timeEl?.getAttribute('datetime'));
  const updatedAt = parseDate(ld.modified) ?? parseDate(metaContent(doc, MODIFIED_KEYS));

  const canonicalHref =
    doc.querySelector('link[rel="canonical"]')?.getAttribute('href') ??
    metaContent(doc, ['og:url']);
  let canonicalUrl: string | null = null;
  if (canonicalHref) {
    try {
      const u = new URL(canonicalHref, baseUrl ?? undefined);
      if (u.protocol === 'http:' || u.protocol === 'https:') canonicalUrl = u.href;
    } catch {
      canonicalUrl = null;
    }
  }
  const htmlLang = doc.documentElement?.getAttribute('lang');
  const language =
    normalizeLanguage(htmlLang) ??
    normalizeLanguage(
      metaContent(doc, ['og:locale', 'content-language', 'language', 'dc.language']),
    );
  const title =
    metaContent(doc, ['og:title', 'citation_title', 'dc.title']) ??
    (doc.querySelector('title')?.textContent?.trim() || null);
  const category =
    metaContent(doc, ['category', 'svc:category']) ??
    (metaContent(doc, ['citation_title', 'citation_doi', 'citation_journal_title'])
      ? 'academic'
      : null);
  return { title, canonicalUrl, language, publishedAt, updatedAt, category };
}

/** The extracted document of an HTML reader: the head's metadata with its title, blocks and HTML. */
export function withMeta(
  meta: HtmlMeta,
  title: string,
  blocks: Block[],
  html: string,
): ExtractedDocument {
  const { canonicalUrl, language, publishedAt, updatedAt, category } = meta;
  return { title, canonicalUrl, language, publishedAt, updatedAt, category, blocks, html };
}
