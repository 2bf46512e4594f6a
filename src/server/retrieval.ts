import { parseFilterDate } from '../protocol/index.js';
import type { SearchRecencyFilter } from '../protocol/index.js';
import type { DocLinks } from './doc-links.js';
import type { Passage, RetrieveFn } from './engines/answerer/index.js';
import type { Embedder } from './engines/embedder/index.js';
import type { Rerank, SearchHit, SearchIndex, SearchOptions } from './engines/index/index.js';

/** The search filters shared by `POST /search` and chat requests. */
export interface FilterFields {
  search_domain_filter?: string[] | null | undefined;
  search_language_filter?: string[] | null | undefined;
  search_recency_filter?: SearchRecencyFilter | null | undefined;
  search_after_date_filter?: string | null | undefined;
  search_before_date_filter?: string | null | undefined;
  last_updated_after_filter?: string | null | undefined;
  last_updated_before_filter?: string | null | undefined;
  search_mode?: 'web' | 'academic' | 'sec' | null | undefined;
}

const RERANK_MODEL = 'svc-embed-v1-0.6b';
// The first 512 dimensions of the local model are one rotation of the sentence encoder's vector:
// cosines there are exactly the encoder's (a shorter prefix would only approximate them).
const RERANK_DIMENSIONS = 512;
/**
 * Characters of a candidate (title, then chunk text) that the rerank embeds: one encoder piece. A
 * neural encoder's cost grows with the text, and a chunk's opening says what it is about.
 */
const RERANK_TEXT_CHARS = 800;
/** Candidate vectors kept between queries (512 floats each: about 20 MB with their texts). */
const RERANK_CACHE_SIZE = 5_000;

/**
 * Retrieval for search and chat: request filters mapped onto the index (every filter honoured; a
 * document lacking the filtered field never matches it), BM25 candidates reranked by embedding
 * similarity, and URLs a browser can open: a URL-ingested page keeps its own URL, a local document
 * gets its signed `/docs/{id}` link.
 */
export class Retriever {
  constructor(
    private readonly index: SearchIndex,
    private readonly embedder: Embedder,
    private readonly links: DocLinks,
    private readonly now: () => Date,
  ) {}

  /** Index search for one query with the request's filters. */
  search(
    query: string,
    filters: FilterFields,
    maxResults: number,
    maxTokensPerPage?: number,
  ): Promise<SearchHit[]> {
    return this.index.search(this.options(query, filters, maxResults, maxTokensPerPage));
  }

  /** The URL a citation of `hit` points at. */
  urlOf(hit: Pick<SearchHit, 'docId' | 'url' | 'sourceKind'>): string {
    return hit.sourceKind === 'url' ? hit.url : this.links.url(hit.docId);
  }

  /** The answerer's retrieve function: hits as numbered passages. */
  readonly retrieve: RetrieveFn = async ({ query, maxResults, request }) => {
    const hits = await this.search(query, request, maxResults);
    return hits.map((hit) => this.toPassage(hit));
  };

  /** A hit as the answerer's source. */
  toPassage(hit: SearchHit): Passage {
    return {
      url: this.urlOf(hit),
      title: hit.title,
      date: isoDate(hit.date),
      lastUpdated: isoDate(hit.lastUpdated),
      snippet: hit.snippet,
      text: hit.text,
      source: 'web',
      images: hit.images.flatMap((img) =>
        img.width !== null && img.height !== null
          ? [{ url: img.url, width: img.width, height: img.height, alt: img.alt }]
          : [],
      ),
      headingPath: hit.headingPath,
    };
  }

  private options(
    query: string,
    f: FilterFields,
    maxResults: number,
    maxTokensPerPage?: number,
  ): SearchOptions {
    return {
      query,
      maxResults,
      now: this.now,
      rerank: this.rerank,
      ...(maxTokensPerPage !== undefined && { maxTokensPerPage }),
      ...(f.search_domain_filter && { domainFilter: f.search_domain_filter }),
      ...(f.search_language_filter && { languages: f.search_language_filter }),
      ...(f.search_recency_filter && { recency: f.search_recency_filter }),
      ...(f.search_mode && { mode: f.search_mode }),
      ...dateBound('publishedAfter', f.search_after_date_filter),
      ...dateBound('publishedBefore', f.search_before_date_filter, END_OF_DAY),
      ...dateBound('updatedAfter', f.last_updated_after_filter),
      ...dateBound('updatedBefore', f.last_updated_before_filter, END_OF_DAY),
    };
  }

  // Candidate texts recur across queries and never change for a given text, so their vectors are
  // cached (keyed by the text itself, so a re-indexed chunk is never scored with a stale vector);
  // per query only the query and unseen candidates are embedded. Chunks are embedded lazily, at
  // their first rerank, not at ingest: the embedder keeps their encoder vectors in SQLite, so that
  // cost is paid once per chunk text, across restarts.
  private readonly vectors = new Map<string, Float32Array>();

  // BM25 finds candidates; the embedding score reorders them, with BM25 kept as a tie-breaker so
  // exact keyword matches are not lost to vague semantic neighbours.
  private readonly rerank: Rerank = async (query, candidates) => {
    if (candidates.length === 0) return [];
    const texts = candidates.map((c) => clip(`${c.title}\n${c.text}`, RERANK_TEXT_CHARS));
    const missing = [...new Set(texts.filter((t) => !this.vectors.has(t)))];
    const fresh = await this.embedder.embedTexts(
      [query, ...missing],
      RERANK_MODEL,
      RERANK_DIMENSIONS,
    );
    missing.forEach((t, i) => this.remember(t, fresh[i + 1]!));
    const q = fresh[0]!;
    const maxBm25 = Math.max(...candidates.map((c) => c.bm25), 1e-9);
    return candidates.map(
      (c, i) => 0.6 * dot(q, this.vectors.get(texts[i]!)!) + 0.4 * (c.bm25 / maxBm25),
    );
  };

  private remember(text: string, vector: Float32Array): void {
    if (this.vectors.size >= RERANK_CACHE_SIZE) {
      // Map keeps insertion order: drop the oldest entry.
      this.vectors.delete(this.vectors.keys().next().value!);
    }
    this.vectors.set(text, vector);
  }
}

/** `text` cut to at most `max` characters, at a word boundary when there is one. */
function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.lastIndexOf(' ', max);
  return text.slice(0, cut > max / 2 ? cut : max);
}

function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
}

function isoDate(date: Date | null): string | null {
  return date ? date.toISOString().slice(0, 10) : null;
}

// Filters name whole days and both bounds include the named day: an upper bound at midnight would
// keep a page dated that day when it carries no time and drop it when it was published at 06:30.
const END_OF_DAY = 86_400_000 - 1;

function dateBound<K extends string>(
  key: K,
  value: string | null | undefined,
  offsetMs = 0,
): Partial<Record<K, Date>> {
  const date = value ? parseFilterDate(value) : null;
  return date ? ({ [key]: new Date(date.getTime() + offsetMs) } as Record<K, Date>) : {};
}
