import type { Database, Statement } from 'better-sqlite3';
import { toMatchExpression } from './query.js';
import { bestPassage } from './snippet.js';
import type { IndexImage } from './types.js';

/** Recency windows, relative to `now`. */
export type Recency = 'hour' | 'day' | 'week' | 'month' | 'year';

const RECENCY_MS: Record<Recency, number> = {
  hour: 3_600_000,
  day: 86_400_000,
  week: 7 * 86_400_000,
  month: 30 * 86_400_000,
  year: 365 * 86_400_000,
};

/** Defaults of {@link SearchOptions}. */
export const SEARCH_DEFAULTS = {
  /** @default 10 */
  maxResults: 10,
  /** Snippet budget in tokens. @default 1024 */
  maxTokensPerPage: 1024,
  /** Best chunks kept per document. @default 1 */
  chunksPerDocument: 1,
  /** BM25 candidates handed to `rerank` (at least `maxResults`). @default 20 */
  rerankDepth: 20,
  /** BM25 column weights: title, heading path, chunk text. */
  weights: [3, 1.5, 1] as const,
} as const;

/** One search result: a document's best chunk (also what the rerank callback receives). */
export interface SearchHit {
  docId: string;
  chunkId: number;
  /** Chunk ordinal in its document: the anchor `#c{chunkOrdinal}` of the rendered page. */
  chunkOrdinal: number;
  url: string;
  title: string;
  /** Published date, or `null`. */
  date: Date | null;
  /** Modified date, falling back to the published date, or `null`. */
  lastUpdated: Date | null;
  /** The best-matching passage of the chunk, a verbatim substring of `text`. */
  snippet: string;
  /** Rerank score when `rerank` is given, else BM25 (higher is better). */
  score: number;
  /** BM25 relevance (negated FTS5 `bm25()`: higher is better). */
  bm25: number;
  headingPath: string[];
  /** The whole chunk text. */
  text: string;
  charStart: number;
  charEnd: number;
  domain: string;
  language: string | null;
  category: string;
  /** How the document was ingested; anything but `url`/`text` is a local file. */
  sourceKind: string;
  /** The path or URL the document was ingested from. */
  source: string;
  images: IndexImage[];
}

/** Reorders candidates: returns one score per candidate (higher is better), in candidate order. */
export type Rerank = (
  query: string,
  candidates: readonly SearchHit[],
) => number[] | Promise<number[]>;

/** Search request. Every filter is optional; a document lacking the filtered field never matches it. */
export interface SearchOptions {
  query: string;
  /** @default 10 */
  maxResults?: number | undefined;
  /** Snippet length budget in tokens. @default 1024 */
  maxTokensPerPage?: number | undefined;
  /** `example.com` keeps it and its subdomains; `-example.com` excludes them. Includes are OR-ed. */
  domainFilter?: readonly string[] | undefined;
  /** Published (falling back to modified) within this window before `now`. */
  recency?: Recency | undefined;
  /** Inclusive bounds on the published date. */
  publishedAfter?: Date | undefined;
  publishedBefore?: Date | undefined;
  /** Inclusive bounds on the modified date (falling back to published). */
  updatedAfter?: Date | undefined;
  updatedBefore?: Date | undefined;
  /** Primary language subtags (`en`, `de`); case-insensitive, `en-US` reads as `en`. */
  languages?: readonly string[] | undefined;
  /** `web` searches everything; `academic`/`sec` only documents of that category. @default 'web' */
  mode?: 'web' | 'academic' | 'sec' | undefined;
  /** Best chunks kept per document. @default 1 */
  chunksPerDocument?: number | undefined;
  rerank?: Rerank | undefined;
  /** BM25 candidates given to `rerank`. @default 20 */
  rerankDepth?: number | undefined;
  /** Clock for `recency`. @default () => new Date() */
  now?: (() => Date) | undefined;
}

interface Row {
  rank: number;
  chunk_id: number;
  doc_id: string;
  ordinal: number;
  heading_path: string;
  char_start: number;
  char_end: number;
  text: string;
  url: string;
  title: string;
  domain: string;
  language: string | null;
  category: string;
  source_kind: string;
  source: string;
  published_at: number | null;
  updated_at: number | null;
  images: string;
}

function positiveInt(name: string, value: number | undefined, fallback: number): number {
  const v = value ?? fallback;
  if (!Number.isInteger(v) || v < 1)
    throw new RangeError(`${name}: expected a positive integer, got ${String(value)}`);
  return v;
}

function validDate(name: string, d: Date | undefined): number | null {
  if (d === undefined) return null;
  if (!(d instanceof Date) || Number.isNaN(d.getTime()))
    throw new RangeError(`${name}: expected a valid Date`);
  return d.getTime();
}

/** `https://www.Example.com/x` -> `example.com`; plain hosts pass through lower-cased. */
function normalizeDomain(entry: string): string {
  const s = entry.trim().toLowerCase();
  let host = s;
  try {
    host = new URL(s.includes('://') ? s : `http://${s}`).hostname;
  } catch {
    host = s;
  }
  return host.replace(/^www\./, '').replace(/\.$/, '');
}

/**
 * Builds the WHERE clause for the filters. Every value is a bound parameter.
 *
 * @throws RangeError for an unknown recency or mode, or an invalid date.
 */
export function buildFilters(opts: SearchOptions): { where: string; params: unknown[] } {
  const clauses: string[] = [];
  const params: unknown[] = [];
  const includes: string[] = [];
  for (const raw of opts.domainFilter ?? []) {
    const exclude = raw.trim().startsWith('-');
    const domain = normalizeDomain(exclude ? raw.trim().slice(1) : raw);
    if (!domain) continue;
    if (exclude) {
      clauses.push(`NOT (d.domain = ? OR d.domain GLOB ?)`);
      params.push(domain, `*.${domain}`);
    } else includes.push(domain);
  }
  if (includes.length > 0) {
    clauses.push(`(${includes.map(() => '(d.domain = ? OR d.domain GLOB ?)').join(' OR ')})`);
    for (const d of includes) params.push(d, `*.${d}`);
  }
  if (opts.recency !== undefined) {
    const span = RECENCY_MS[opts.recency];
    if (span === undefined)
      throw new RangeError(
        `recency: expected hour|day|week|month|year, got ${String(opts.recency)}`,
      );
    const now = (opts.now ?? (() => new Date()))().getTime();
    clauses.push('COALESCE(d.published_at, d.updated_at) BETWEEN ? AND ?');
    params.push(now - span, now);
  }
  const bounds: Array<[string, Date | undefined, string]> = [
    ['publishedAfter', opts.publishedAfter, 'd.published_at >= ?'],
    ['publishedBefore', opts.publishedBefore, 'd.published_at <= ?'],
    ['updatedAfter', opts.updatedAfter, 'COALESCE(d.updated_at, d.published_at) >= ?'],
    ['updatedBefore', opts.updatedBefore, 'COALESCE(d.updated_at, d.published_at) <= ?'],
  ];
  for (const [name, value, clause] of bounds) {
    const ms = validDate(name, value);
    if (ms === null) continue;
    clauses.push(clause);
    params.push(ms);
  }
  const languages = (opts.languages ?? [])
    .map((l) => l.trim().toLowerCase().split(/[-_]/)[0] ?? '')
    .filter(Boolean);
  if (languages.length > 0) {
    clauses.push(`d.language IN (${languages.map(() => '?').join(', ')})`);
    params.push(...languages);
  }
  const mode = opts.mode ?? 'web';
  if (mode !== 'web' && mode !== 'academic' && mode !== 'sec') {
    throw new RangeError(`mode: expected web|academic|sec, got ${String(mode)}`);
  }
  if (mode !== 'web') {
    clauses.push('d.category = ?');
    params.push(mode);
  }
  return { where: clauses.length > 0 ? clauses.join(' AND ') : '1', params };
}

function toHit(r: Row, query: string, maxTokens: number): SearchHit {
  const published = r.published_at === null ? null : new Date(r.published_at);
  const updated = r.updated_at === null ? published : new Date(r.updated_at);
  return {
    docId: r.doc_id,
    chunkId: r.chunk_id,
    chunkOrdinal: r.ordinal,
    url: r.url,
    title: r.title,
    date: published,
    lastUpdated: updated,
    snippet: bestPassage(r.text, query, maxTokens),
    score: -r.rank,
    bm25: -r.rank,
    headingPath: JSON.parse(r.heading_path) as string[],
    text: r.text,
    charStart: r.char_start,
    charEnd: r.char_end,
    domain: r.domain,
    language: r.language,
    category: r.category,
    sourceKind: r.source_kind,
    source: r.source,
    images: JSON.parse(r.images) as IndexImage[],
  };
}

// Prepared statements by SQL text: the filter combination decides the text, so a handful exist.
const statements = new WeakMap<Database, Map<string, Statement<unknown[], unknown>>>();
function prepared<R>(db: Database, sql: string): Statement<unknown[], R> {
  let cache = statements.get(db);
  if (!cache) statements.set(db, (cache = new Map()));
  let stmt = cache.get(sql);
  if (!stmt) cache.set(sql, (stmt = db.prepare<unknown[], unknown>(sql)));
  return stmt as Statement<unknown[], R>;
}

const DETAIL_SQL = `SELECT c.id AS chunk_id, c.doc_id, c.ordinal, c.heading_path, c.char_start, c.char_end,
  c.text, d.url, d.title, d.domain, d.language, d.category, d.source_kind, d.source, d.published_at,
  d.updated_at, d.images
  FROM idx_chunks c JOIN idx_documents d ON d.id = c.doc_id WHERE c.id IN `;

/**
 * BM25 retrieval over FTS5 with every filter in SQL, the best `chunksPerDocument` chunks per
 * document, no rerank. Synchronous; any query string is safe (see {@link toMatchExpression}).
 *
 * Two phases keep it fast on large indexes: the FTS5 top-K by bm25 (filters as a set of allowed
 * chunk ids), then details for those K only; K grows until enough distinct documents are found.
 *
 * @param limit - Number of documents to return (before any rerank cut).
 * @throws RangeError for invalid options.
 */
export function retrieve(db: Database, opts: SearchOptions, limit: number): SearchHit[] {
  const maxTokens = positiveInt(
    'maxTokensPerPage',
    opts.maxTokensPerPage,
    SEARCH_DEFAULTS.maxTokensPerPage,
  );
  const perDoc = positiveInt(
    'chunksPerDocument',
    opts.chunksPerDocument,
    SEARCH_DEFAULTS.chunksPerDocument,
  );
  const { where, params } = buildFilters(opts);
  const match = toMatchExpression(opts.query);
  if (match === null) return [];
  const [wt, wh, wx] = SEARCH_DEFAULTS.weights;
  const allowed =
    where === '1'
      ? ''
      : // `+rowid`: pushed down to FTS5 as a rowid constraint, the IN list runs the MATCH once per
        // allowed rowid (seconds on 10k chunks); as an expression it is one materialised set.
        `AND +rowid IN (SELECT c.id FROM idx_chunks c JOIN idx_documents d ON d.id = c.doc_id WHERE ${where})`;
  // `text_rank` scores the chunk's own text only: every chunk row carries its document's title,
  // so a chunk matching through the title alone must not stand for its document.
  const top = prepared<{ cid: number; rank: number; text_rank: number }>(
    db,
    `SELECT rowid AS cid, bm25(idx_chunks_fts, ${wt}, ${wh}, ${wx}) AS rank,
            bm25(idx_chunks_fts, 0, 0, 1) AS text_rank FROM idx_chunks_fts
     WHERE idx_chunks_fts MATCH ? ${allowed} ORDER BY rank LIMIT ?`,
  );
  let k = Math.max(50, limit * perDoc * 3);
  for (;;) {
    const ranked = top.all(match, ...params, k);
    const detailRows = new Map<number, Omit<Row, 'rank'>>();
    for (let i = 0; i < ranked.length; i += 500) {
      const ids = ranked.slice(i, i + 500).map((r) => r.cid);
      const stmt = prepared<Omit<Row, 'rank'>>(
        db,
        `${DETAIL_SQL}(${ids.map(() => '?').join(',')})`,
      );
      for (const row of stmt.all(...ids)) detailRows.set(row.chunk_id, row);
    }
    // Documents in the order of their best chunk overall; within one, chunks by their own text.
    const byDoc = new Map<string, { row: Row; textRank: number }[]>();
    for (const r of ranked) {
      const detail = detailRows.get(r.cid);
      if (!detail) continue;
      const chunks = byDoc.get(detail.doc_id);
      if (!chunks && byDoc.size >= limit) continue;
      const entry = { row: { ...detail, rank: r.rank }, textRank: r.text_rank };
      if (chunks) chunks.push(entry);
      else byDoc.set(detail.doc_id, [entry]);
    }
    const perDocCount = new Map(
      [...byDoc].map(([doc, chunks]) => [doc, Math.min(perDoc, chunks.length)]),
    );
    const exhausted = ranked.length < k;
    const complete =
      perDocCount.size >= limit && [...perDocCount.values()].every((n) => n >= perDoc);
    if (exhausted || complete) {
      // Chunks of one document stay together, in the order of the document's best chunk.
      const rows = [...byDoc.values()].flatMap((chunks) =>
        chunks
          .sort((a, b) => a.textRank - b.textRank || a.row.rank - b.row.rank)
          .slice(0, perDoc)
          .map((c) => c.row),
      );
      return rows.map((r) => toHit(r, opts.query, maxTokens));
    }
    k *= 4;
  }
}

/**
 * Searches: BM25 candidates ({@link retrieve}), then the optional `rerank` callback reorders the
 * top `rerankDepth` and the first `maxResults` are returned.
 *
 * @throws RangeError for invalid options; Error when `rerank` returns the wrong number of scores.
 */
export async function search(db: Database, opts: SearchOptions): Promise<SearchHit[]> {
  const maxResults = positiveInt('maxResults', opts.maxResults, SEARCH_DEFAULTS.maxResults);
  if (!opts.rerank) return retrieve(db, opts, maxResults);
  const depth = Math.max(
    maxResults,
    positiveInt('rerankDepth', opts.rerankDepth, SEARCH_DEFAULTS.rerankDepth),
  );
  const candidates = retrieve(db, opts, depth);
  if (candidates.length === 0) return [];
  const scores = await opts.rerank(opts.query, candidates);
  if (
    scores.length !== candidates.length ||
    scores.some((s) => typeof s !== 'number' || Number.isNaN(s))
  ) {
    throw new Error(`rerank: expected ${candidates.length} numeric scores, got ${scores.length}`);
  }
  return candidates
    .map((hit, i) => ({ ...hit, score: scores[i]! }))
    .sort((a, b) => b.score - a.score || b.bm25 - a.bm25)
    .slice(0, maxResults);
}
