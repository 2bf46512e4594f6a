import { createHash } from 'node:crypto';
import type { Database } from 'better-sqlite3';
import { documentIdFor, indexPaths, indexUrl, writeExtracted } from './ingest.js';
import type { FetchHtml, IndexPathsOptions, IndexReport } from './ingest.js';
import { renderDocumentHtml } from './render.js';
import { ensureIndexSchema } from './schema.js';
import { retrieve, search } from './search.js';
import type { SearchHit, SearchOptions } from './search.js';
import { IndexStore } from './store.js';
import type { Block, IndexedDocument, SourceKind } from './types.js';

/** Counts reported by {@link SearchIndex.stats}. */
export interface IndexStats {
  documents: number;
  chunks: number;
  /** Documents per domain (`''` = local files stating no URL). */
  domains: Record<string, number>;
  languages: Record<string, number>;
  sourceKinds: Record<string, number>;
  categories: Record<string, number>;
  /** Latest `indexedAt`, or `null` when empty. */
  lastIndexedAt: Date | null;
}

/** A document given directly as blocks (attachments, generated corpora, tests). */
export interface DocumentInput {
  /** Stable key the id derives from (a URL or `file:<path>`). */
  source: string;
  url: string;
  title: string;
  blocks: Block[];
  language?: string | null | undefined;
  publishedAt?: Date | null | undefined;
  updatedAt?: Date | null | undefined;
  category?: string | null | undefined;
  /** @default 'text' */
  sourceKind?: SourceKind | undefined;
}

/** The index engine over one SQLite database. */
export interface SearchIndex {
  /** Indexes files, directories and URLs; see {@link indexPaths}. */
  indexPaths(paths: readonly string[], options?: IndexPathsOptions): Promise<IndexReport>;
  /** Indexes one URL through `fetchHtml`. */
  indexUrl(
    url: string,
    fetchHtml: FetchHtml,
  ): Promise<{ id: string; outcome: 'added' | 'updated' | 'skipped' }>;
  /** Indexes a document given as blocks; replaces it when its content changed. Returns its id. */
  addDocument(input: DocumentInput): { id: string; outcome: 'added' | 'updated' | 'skipped' };
  /** BM25 (+ optional rerank) search; see {@link search}. */
  search(options: SearchOptions): Promise<SearchHit[]>;
  /** BM25 only, synchronous; `limit` defaults to `maxResults`. */
  retrieve(options: SearchOptions, limit?: number): SearchHit[];
  getDocument(id: string): IndexedDocument | null;
  /** Readable standalone HTML with `#c{ordinal}` chunk anchors, or `null` for an unknown id. */
  renderDocumentHtml(id: string): string | null;
  removeDocument(id: string): boolean;
  stats(): IndexStats;
}

/** Options of {@link createSearchIndex}. */
export interface SearchIndexOptions {
  /** Clock for `indexedAt` and the default `now` of recency filters. @default () => new Date() */
  now?: () => Date;
}

/**
 * Opens the index engine over `db`, creating the `idx_` tables if needed.
 *
 * @param db - An open better-sqlite3 database (the server's data-dir file, WAL).
 * @param options - Clock.
 * @throws SqliteError when the SQLite build lacks FTS5.
 * @example
 * const index = createSearchIndex(new Database(':memory:'));
 * await index.indexPaths(['docs/']);
 * const hits = await index.search({ query: 'chunk anchors', maxResults: 5 });
 */
export function createSearchIndex(db: Database, options: SearchIndexOptions = {}): SearchIndex {
  ensureIndexSchema(db);
  const store = new IndexStore(db);
  const now = options.now ?? (() => new Date());
  const withClock = (o: SearchOptions): SearchOptions => (o.now ? o : { ...o, now });
  const countBy = (column: string): Record<string, number> => {
    const rows = db
      .prepare<[], { k: string | null; n: number }>(
        `SELECT ${column} AS k, COUNT(*) AS n FROM idx_documents GROUP BY ${column}`,
      )
      .all();
    return Object.fromEntries(rows.map((r) => [r.k ?? '', r.n]));
  };
  return {
    indexPaths: (paths, opts = {}) => indexPaths(store, paths, { now, ...opts }),
    indexUrl: (url, fetchHtml) => indexUrl(store, url, fetchHtml, now()),
    addDocument(input) {
      const id = documentIdFor(input.source);
      const extracted = {
        title: input.title,
        canonicalUrl: /^https?:/i.test(input.url) ? input.url : null,
        language: input.language ?? null,
        publishedAt: input.publishedAt ?? null,
        updatedAt: input.updatedAt ?? null,
        category: input.category ?? null,
        blocks: input.blocks,
        html: '',
      };
      const contentHash = createHash('sha256')
        .update(JSON.stringify({ ...extracted, url: input.url }))
        .digest('hex');
      const previous = store.contentHash(id);
      if (previous === contentHash) return { id, outcome: 'skipped' };
      writeExtracted(store, {
        id,
        source: input.source,
        sourceKind: input.sourceKind ?? 'text',
        fallbackUrl: input.url,
        contentHash,
        extracted,
        indexedAt: now(),
      });
      return { id, outcome: previous === null ? 'added' : 'updated' };
    },
    search: (o) => search(db, withClock(o)),
    retrieve: (o, limit) => retrieve(db, withClock(o), limit ?? o.maxResults ?? 10),
    getDocument: (id) => store.get(id),
    renderDocumentHtml(id) {
      const doc = store.get(id);
      return doc ? renderDocumentHtml(doc) : null;
    },
    removeDocument: (id) => store.remove(id),
    stats() {
      const totals = db
        .prepare<[], { documents: number; chunks: number; last: number | null }>(
          `SELECT (SELECT COUNT(*) FROM idx_documents) AS documents, (SELECT COUNT(*) FROM idx_chunks) AS chunks,
            (SELECT MAX(indexed_at) FROM idx_documents) AS last`,
        )
        .get()!;
      return {
        documents: totals.documents,
        chunks: totals.chunks,
        domains: countBy('domain'),
        languages: countBy('language'),
        sourceKinds: countBy('source_kind'),
        categories: countBy('category'),
        lastIndexedAt: totals.last === null ? null : new Date(totals.last),
      };
    },
  };
}

export { CHUNK_DEFAULTS, layoutAndChunk } from './chunk.js';
export type { DraftChunk, LaidOutText } from './chunk.js';
export { categorize, domainOf } from './category.js';
export { documentIdFor, kindOfPath } from './ingest.js';
export type {
  FetchHtml,
  IndexOutcome,
  IndexPathsOptions,
  IndexProgress,
  IndexReport,
} from './ingest.js';
export { readHtml } from './formats/html.js';
export { readMarkdown } from './formats/markdown.js';
export { readText } from './formats/plain.js';
export { readPdf } from './formats/pdf.js';
export { readDocx } from './formats/docx.js';
export { toMatchExpression, queryTerms } from './query.js';
export { bestPassage } from './snippet.js';
export { SEARCH_DEFAULTS } from './search.js';
export type { Recency, Rerank, SearchHit, SearchOptions } from './search.js';
export { ensureIndexSchema, SCHEMA_VERSION } from './schema.js';
export { renderDocumentHtml as renderIndexedDocumentHtml } from './render.js';
export type {
  Block,
  ChunkRecord,
  DocumentCategory,
  ExtractedDocument,
  IndexImage,
  IndexedDocument,
  SourceKind,
} from './types.js';
