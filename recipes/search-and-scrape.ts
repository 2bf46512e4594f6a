/**
 * searchAndScrape: `/search`, then the top results visited in real browsers and returned as clean
 * Markdown with links and metadata; optionally a structured extraction (chat with a JSON schema)
 * whose every field carries the quote and URL it came from.
 *
 * As a script: `npx tsx recipes/search-and-scrape.ts "query" [--max 5] [--schema schema.json]
 * [--out out] [--json]`.
 */
import { readFile } from 'node:fs/promises';
import {
  defineCommand,
  EXIT,
  readPage,
  runCommand,
  textFragmentUrl,
  UsageError,
  verifyClaim,
} from '../src/index.js';
import type { ChatModel, PageLink, PageMetadata } from '../src/index.js';
import { completionText } from './cite-and-capture.js';
import { writeReport } from './report.js';
import type { ReportFiles } from './report.js';
import { openPage } from './support/evidence.js';
import { openRuntime } from './support/runtime.js';
import type { RuntimeOptions } from './support/runtime.js';
import { isMain, table } from './support/script.js';

/** One visited search result. */
export interface ScrapedPage {
  /** The URL `/search` returned. */
  url: string;
  /** `ok`: read; `blocked`: a challenge or login wall; `unreachable`: not loaded. */
  state: 'ok' | 'blocked' | 'unreachable';
  reason: string | null;
  status: number | null;
  finalUrl: string;
  fetchMs: number;
  title: string;
  lang: string | null;
  markdown: string;
  /** Plain text of the main content. */
  text: string;
  links: PageLink[];
  metadata: PageMetadata | null;
  contentHash: string | null;
  /** The search hit's snippet. */
  snippet: string;
}

/** One extracted value and where it was found. */
export interface ExtractedField {
  /** JSON path of the value, e.g. `founders[0].name`. */
  path: string;
  value: string | number | boolean;
  /** The sentence of a scraped page holding the value, or `null` when no page holds it. */
  quote: string | null;
  url: string | null;
  textFragmentUrl: string | null;
  /**
   * Why the quote does not back the value, or `null` when it does: the value is not in the quote
   * (only inside a longer number or word), or the quote states something else about it.
   */
  flag: string | null;
}

/** Options of {@link searchAndScrape}. */
export interface SearchAndScrapeOptions extends RuntimeOptions {
  /** Results visited. @default 5 */
  maxResults?: number | undefined;
  /** JSON schema of a structured extraction through chat `response_format`. @default none */
  schema?: Record<string, unknown> | undefined;
  /** Model of the extraction. @default 'core' */
  model?: ChatModel | undefined;
  /** Write `report.html` + `report.json`. @default false */
  report?: boolean | undefined;
  /** @default 'out' */
  outDir?: string | undefined;
  /** Called as each page is read. */
  onProgress?: ((page: ScrapedPage, done: number, total: number) => void) | undefined;
}

/** What {@link searchAndScrape} returns. */
export interface SearchAndScrapeResult {
  query: string;
  pages: ScrapedPage[];
  /** The extraction, when a schema was given. */
  extraction: { data: unknown; fields: ExtractedField[] } | null;
  timings: { searchMs: number; scrapeMs: number; extractMs: number; totalMs: number };
  report: ReportFiles | null;
}

/** Defaults of {@link searchAndScrape}. */
export const SCRAPE_DEFAULTS = {
  maxResults: 5,
  model: 'core',
  report: false,
  outDir: 'out',
} as const;

/**
 * Searches, visits the top results through a session pool, and reads each as Markdown, links and
 * metadata. With `schema`, asks chat for JSON following it and locates every leaf value on the
 * scraped pages (its sentence, URL and text-fragment link).
 * @throws what the client throws for `/search` or chat; SyntaxError when the extraction is not JSON
 * @example
 * const { pages } = await searchAndScrape('connect over CDP', { maxResults: 3 });
 * console.log(pages[0]?.markdown);
 */
export async function searchAndScrape(
  query: string,
  options: SearchAndScrapeOptions = {},
): Promise<SearchAndScrapeResult> {
  const started = performance.now();
  const since = () => Math.round(performance.now() - started);
  const runtime = await openRuntime(options);
  try {
    const search = await runtime.client.search.create({
      query,
      max_results: options.maxResults ?? SCRAPE_DEFAULTS.maxResults,
    });
    const hits = (search.results as { url: string; title: string; snippet?: string }[]).flat();
    const searchMs = since();
    let done = 0;
    const pages = await Promise.all(
      hits.map((hit) =>
        runtime
          .pool()
          .run((page) => scrape(page, hit.url, hit.snippet ?? ''))
          .catch((error: unknown) => failed(hit.url, hit.snippet ?? '', error))
          .then((p) => {
            options.onProgress?.(p, ++done, hits.length);
            return p;
          }),
      ),
    );
    const scrapeMs = since() - searchMs;
    let extraction: SearchAndScrapeResult['extraction'] = null;
    if (options.schema) {
      const completion = await runtime.client.chat.completions.create({
        model: options.model ?? SCRAPE_DEFAULTS.model,
        messages: [{ role: 'user', content: query }],
        response_format: {
          type: 'json_schema',
          json_schema: { name: 'extraction', schema: options.schema },
        },
      });
      const data: unknown = JSON.parse(completionText(completion));
      extraction = { data, fields: locateFields(data, pages) };
    }
    const totalMs = since();
    const result: SearchAndScrapeResult = {
      query,
      pages,
      extraction,
      timings: { searchMs, scrapeMs, extractMs: totalMs - searchMs - scrapeMs, totalMs },
      report: null,
    };
    if (options.report ?? SCRAPE_DEFAULTS.report) {
      result.report = await writeReport(
        {
          title: `searchAndScrape: ${query}`,
          question: query,
          pages: pages.map((p) => ({
            title: p.title || p.url,
            url: p.url,
            text: p.markdown.slice(0, 4_000) || p.reason || '',
            facts: {
              state: p.state,
              status: p.status,
              'fetch ms': p.fetchMs,
              'final URL': p.finalUrl,
            },
          })),
          data: extraction ?? undefined,
          timings: result.timings,
        },
        options.outDir ?? SCRAPE_DEFAULTS.outDir,
      );
    }
    return result;
  } finally {
    await runtime.close();
  }
}

async function scrape(
  page: Parameters<typeof openPage>[0],
  url: string,
  snippet: string,
): Promise<ScrapedPage> {
  const v = await openPage(page, url);
  const base = {
    url,
    status: v.status,
    finalUrl: v.finalUrl,
    fetchMs: v.fetchMs,
    snippet,
  };
  if (!v.ok) {
    const blocked = v.blocked !== null;
    const reason = v.blocked
      ? `${v.blocked.kind}: ${v.blocked.reason}`
      : (v.error ?? `HTTP ${v.status}`);
    return { ...empty(url, snippet), ...base, state: blocked ? 'blocked' : 'unreachable', reason };
  }
  const r = await readPage(page);
  return {
    ...base,
    state: 'ok',
    reason: null,
    title: r.title,
    lang: r.lang,
    markdown: r.markdown,
    text: r.text,
    links: r.links,
    metadata: r.metadata,
    contentHash: r.contentHash,
  };
}

function empty(url: string, snippet: string): ScrapedPage {
  return {
    url,
    state: 'unreachable',
    reason: null,
    status: null,
    finalUrl: url,
    fetchMs: 0,
    title: '',
    lang: null,
    markdown: '',
    text: '',
    links: [],
    metadata: null,
    contentHash: null,
    snippet,
  };
}

function failed(url: string, snippet: string, error: unknown): ScrapedPage {
  return {
    ...empty(url, snippet),
    reason: `the page could not be read: ${(error as Error).message}`,
  };
}

const norm = (s: string): string => s.replace(/\s+/g, ' ').trim().toLowerCase();

/** Every leaf of `data` with the page sentence that holds it. */
export function locateFields(data: unknown, pages: readonly ScrapedPage[]): ExtractedField[] {
  const leaves: { path: string; value: string | number | boolean }[] = [];
  const walk = (v: unknown, at: string): void => {
    if (Array.isArray(v)) v.forEach((x, i) => walk(x, `${at}[${i}]`));
    else if (v && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) walk(x, at ? `${at}.${k}` : k);
    } else if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') {
      leaves.push({ path: at || '$', value: v });
    }
  };
  walk(data, '');
  const sentences = pages
    .filter((p) => p.state === 'ok')
    .map((p) => ({
      page: p,
      list: p.text
        .split(/(?<=[.!?])\s+|\n+/)
        .map((s) => s.trim())
        .filter(Boolean),
    }));
  const none = { quote: null, url: null, textFragmentUrl: null, flag: null };
  return leaves.map(({ path, value }): ExtractedField => {
    const needle = norm(String(value)).replace(/[.!?]$/, '');
    if (typeof value === 'boolean' || needle.length === 0) return { path, value, ...none };
    const at = (page: ScrapedPage, quote: string, flag: string | null): ExtractedField => ({
      path,
      value,
      quote,
      url: page.finalUrl,
      textFragmentUrl: textFragmentUrl(page.finalUrl, quote),
      flag,
    });
    const whole = valuePattern(value);
    for (const { page, list } of sentences) {
      const quote = list.find((s) => whole.test(s));
      if (quote) return at(page, quote, contradiction(path, value, quote));
    }
    // Only as part of something longer ("0" inside "30000"): shown, but flagged, never as backing.
    for (const { page, list } of sentences) {
      const quote = list.find((s) => norm(s).includes(needle));
      if (quote) return at(page, quote, `the value ${JSON.stringify(value)} is not in this quote`);
    }
    return { path, value, ...none };
  });
}

/** The value as a whole token: a number with any thousands separators, or whole words. */
function valuePattern(value: string | number): RegExp {
  if (typeof value === 'number' || /^-?\d+(?:\.\d+)?$/.test(String(value).trim())) {
    const [int = '', frac] = String(value).trim().replace(/^-/, '').split('.');
    const grouped = int.replace(/\B(?=(\d{3})+(?!\d))/g, '[,\u00a0\u202f ]?');
    const sign = String(value).trim().startsWith('-') ? '[-\u2212]' : '';
    return new RegExp(`(?<![\\d.,])${sign}${grouped}${frac ? `\\.${frac}` : ''}(?![\\d]|[.,]\\d)`);
  }
  const words = String(value)
    .trim()
    .replace(/[.!?]$/, '')
    .replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(?<![\\p{L}\\p{N}])${words.replace(/\s+/g, '\\s+')}(?![\\p{L}\\p{N}])`, 'iu');
}

/** A reason when the claim verifier finds the quote stating something else about the field. */
function contradiction(path: string, value: string | number, quote: string): string | null {
  const claim = `${path.replace(/[._[\]]+/g, ' ').trim()} is ${value}`;
  const check = verifyClaim(claim, quote);
  return check.verdict === 'contradicted' ? `the quote says otherwise: ${check.reason}` : null;
}

const command = defineCommand({
  name: 'search-and-scrape',
  program: 'tsx recipes/search-and-scrape.ts',
  summary: 'search, then read the top results as Markdown; --schema extracts',
  usage: 'npx tsx recipes/search-and-scrape.ts "query" [--max 5] [--schema s.json]',
  positionals: true,
  options: {
    max: { type: 'string', arg: '<n>', help: 'results visited (default 5)' },
    schema: { type: 'string', arg: '<file>', help: 'a JSON schema of an object to extract' },
    out: { type: 'string', arg: '<dir>', help: 'also write report.html and report.json here' },
    pool: { type: 'string', arg: '<n>', help: 'browser sessions working at once (default 2)' },
  },
  json: 'print the result as JSON',
  examples: ['npx tsx recipes/search-and-scrape.ts "battery recycling" --max 3'],
  async run({ values, positionals, json }) {
    const query = positionals.join(' ').trim();
    if (!query) throw new UsageError('search-and-scrape: give a query (--help)');
    const schema = values.schema
      ? (JSON.parse(await readFile(values.schema, 'utf8')) as Record<string, unknown>)
      : undefined;
    const r = await searchAndScrape(query, {
      maxResults: Number(values.max ?? '5'),
      schema,
      report: values.out !== undefined,
      outDir: values.out,
      poolSize: Number(values.pool ?? '2'),
    });
    if (json) console.log(JSON.stringify(r, null, 2));
    else {
      const rows: unknown[][] = [['state', 'status', 'ms', 'chars', 'url']];
      for (const p of r.pages)
        rows.push([p.state, p.status ?? '', p.fetchMs, p.markdown.length, p.url]);
      console.log(table(rows));
      if (r.extraction) console.log(JSON.stringify(r.extraction, null, 2));
      if (r.report) console.log(`report: ${r.report.html}`);
    }
    return EXIT.ok;
  },
});

if (isMain(import.meta.url)) void runCommand(command);
