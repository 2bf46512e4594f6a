import type { DocumentCategory } from './types.js';

// Hosts whose pages count as academic sources; subdomains match (e.g. export.arxiv.org).
const ACADEMIC_HOSTS = [
  'arxiv.org',
  'doi.org',
  'acm.org',
  'ieee.org',
  'springer.com',
  'sciencedirect.com',
  'nature.com',
  'science.org',
  'jstor.org',
  'plos.org',
  'ncbi.nlm.nih.gov',
  'pubmed.gov',
  'semanticscholar.org',
  'researchgate.net',
  'biorxiv.org',
  'medrxiv.org',
  'ssrn.com',
  'openreview.net',
  'aclanthology.org',
];
const SEC_HOSTS = ['sec.gov'];

/** True when `domain` is `host` or a subdomain of it. */
export function domainMatches(domain: string, host: string): boolean {
  return domain === host || domain.endsWith(`.${host}`);
}

/**
 * Decides a document's search-mode category. Rule, first match wins:
 * 1. a stated category (HTML `<meta name="category">`, front matter `category:`) of `academic`,
 *    `sec` or `web` (case-insensitive; `scholar`/`paper` read as academic, `filing`/`edgar` as sec);
 * 2. Google-Scholar `citation_*` meta tags (the HTML reader states `academic` for these);
 * 3. the domain: `sec.gov` and subdomains -> `sec`; a known scholarly host, an `.edu` domain, or an
 *    `ac.<cc>` academic domain (`ox.ac.uk`) -> `academic`;
 * 4. otherwise `web`.
 *
 * @param stated - The category the document states, if any.
 * @param domain - The document's domain (`''` for local files).
 */
export function categorize(stated: string | null, domain: string): DocumentCategory {
  const s = stated?.trim().toLowerCase();
  if (s === 'academic' || s === 'scholar' || s === 'paper') return 'academic';
  if (s === 'sec' || s === 'filing' || s === 'edgar') return 'sec';
  if (s === 'web') return 'web';
  if (SEC_HOSTS.some((h) => domainMatches(domain, h))) return 'sec';
  if (
    ACADEMIC_HOSTS.some((h) => domainMatches(domain, h)) ||
    /\.edu$/.test(domain) ||
    /(^|\.)ac\.[a-z]{2}$/.test(domain)
  ) {
    return 'academic';
  }
  return 'web';
}

/** Lower-cased host without a leading `www.`; `''` for non-http(s) URLs. */
export function domainOf(url: string): string {
  try {
    const u = new URL(url);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return '';
    return u.hostname.toLowerCase().replace(/^www\./, '');
  } catch {
    return '';
  }
}
