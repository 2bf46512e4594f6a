/** Locates the passage of a page that supports a claim: exact, then fuzzy, then embeddings. */
import { evaluateWithin, toPageLike, withTimeout } from './adapter.js';
import type { AnyPage, PageLike, Rect } from './adapter.js';
import { DEFAULTS } from './defaults.js';
import { collectTextInPage, locateRangeInPage } from './in-page.js';
import {
  contentWords,
  cosine,
  normalizeSegments,
  normalizeText,
  rawText,
  splitSentences,
  stripCitationMarkers,
  toRange,
} from './text.js';
import type { NormalizedText, Span, TextRange, TextSegments } from './text.js';
import { SvcError } from '../errors.js';

/**
 * Embeds documents of chunks, one vector per chunk, in the shape of the contextualized embeddings
 * endpoint: `documents[i][j]` -> `result[i][j]`. {@link findPassage} sends the claim as the first
 * document (`[[claim]]`) and the page's chunks as the following ones.
 */
export type EmbedFn = (documents: string[][]) => Promise<number[][][]>;

/** How a passage was found. */
export type MatchMethod = 'exact' | 'fuzzy' | 'embedding';

/** A passage found by {@link findPassage}. */
export interface PassageMatch {
  method: MatchMethod;
  /** 1 for exact; share of the claim's content words for fuzzy; cosine for embedding. */
  score: number;
  /** The matched page text as displayed, whitespace collapsed. */
  quote: string;
  /** CSS selector of the element containing the whole passage. */
  domPath: string;
  /** Bounding rect of the passage in page coordinates (CSS pixels). */
  rect: Rect;
  /** The passage as text-node positions, valid until the DOM changes; used by {@link highlight}. */
  range: TextRange;
}

/** Options of {@link findPassage}. */
export interface FindPassageOptions {
  /** Least fuzzy score to accept. @default 0.6 */
  minScore?: number;
  /** Semantic fallback; without it there is no embedding step. */
  embed?: EmbedFn;
  /** Bound on one `embed` call. @default 30_000 */
  embedTimeout?: number;
  /** Least cosine to accept an embedding match. @default 0.5 */
  minEmbeddingScore?: number;
  /** Most characters per chunk sent to `embed`. @default 600 */
  chunkChars?: number;
  /** Most chunks sent to `embed`. @default 256 */
  maxChunks?: number;
  /** Bound on each in-page step. @default 15_000 */
  timeout?: number;
}

/** Characters per document sent to `embed`, well under the endpoint's per-document token limit. */
const DOCUMENT_CHARS = 24_000;

/**
 * Finds the passage of the current page that supports `claim`. Citation markers (`[1]`) are
 * stripped; then an exact match of the claim (or its longest sentence) over the visible text,
 * normalised for whitespace, quotes, dashes and case; then the best window of 1-3 page sentences
 * by the share of the claim's content words it contains (light stemming), if at least `minScore`;
 * then, when `embed` is given, the page chunk closest to the claim by cosine, if at least
 * `minEmbeddingScore`.
 * @returns the match, or `null` when no step succeeds
 * @throws SvcError when `minScore` is outside 0..1, or `embed` returns the wrong number of vectors
 * @throws TimeoutError when the page or `embed` does not answer in time; errors of `embed` propagate
 * @example const m = await findPassage(page, 'The bridge opened in 1932 [2].');
 */
export async function findPassage(
  page: AnyPage,
  claim: string,
  options: FindPassageOptions = {},
): Promise<PassageMatch | null> {
  const p = toPageLike(page);
  const minScore = options.minScore ?? DEFAULTS.minScore;
  if (!(minScore >= 0 && minScore <= 1))
    throw new SvcError(`findPassage: minScore must be within 0..1; got ${minScore}`);
  // The DOM may change between reading the text and locating the range: read again once.
  for (let attempt = 0; attempt < 2; attempt++) {
    const found = await findOnce(p, claim, options, minScore);
    if (found !== 'stale') return found;
  }
  return null;
}

async function findOnce(
  p: PageLike,
  claim: string,
  options: FindPassageOptions,
  minScore: number,
): Promise<PassageMatch | null | 'stale'> {
  const timeout = options.timeout ?? DEFAULTS.actionTimeout;
  const segments = await evaluateWithin(
    p,
    collectTextInPage,
    null,
    timeout,
    'findPassage: reading text',
  );
  const norm = normalizeSegments(segments);
  const cleaned = stripCitationMarkers(claim);
  const candidate =
    exactMatch(norm, cleaned) ??
    fuzzyMatch(norm, cleaned, minScore) ??
    (options.embed ? await embeddingMatch(norm, segments, cleaned, options.embed, options) : null);
  if (!candidate) return null;
  const range = toRange(norm, segments, candidate.span);
  const located = await evaluateWithin(
    p,
    locateRangeInPage,
    range,
    timeout,
    'findPassage: locating',
  );
  if (!located) return 'stale';
  return {
    method: candidate.method,
    score: Math.round(candidate.score * 1000) / 1000,
    quote: rawText(segments, range),
    domPath: located.domPath,
    rect: located.rect,
    range,
  };
}

interface Candidate {
  method: 'exact' | 'fuzzy' | 'embedding';
  score: number;
  span: Span;
}

/** Trims what an answer adds around a quoted claim: end punctuation and surrounding quotes. */
function trimClaim(text: string): string {
  return text.replace(/^["'\s]+/, '').replace(/["'\s.,;:!?]+$/, '');
}

function exactMatch(norm: NormalizedText, claim: string): Candidate | null {
  const whole = trimClaim(normalizeText(claim));
  const tries = [whole];
  const sentences = splitSentences(whole).map((s) => trimClaim(whole.slice(s.start, s.end)));
  if (sentences.length > 1) {
    const longest = sentences.reduce((a, b) => (b.length > a.length ? b : a));
    // A short sentence matches by accident: only a substantial one stands in for the claim.
    if (longest.split(' ').length >= 4) tries.push(longest);
  }
  for (const t of tries) {
    if (t.length === 0) continue;
    const at = indexOfWhole(norm.text, t);
    if (at >= 0) return { method: 'exact', score: 1, span: { start: at, end: at + t.length } };
  }
  return null;
}

function fuzzyMatch(norm: NormalizedText, claim: string, minScore: number): Candidate | null {
  const wanted = new Set(contentWords(normalizeText(claim)));
  if (wanted.size === 0) return null;
  const sentences = splitSentences(norm.text, norm.breaks);
  const words = sentences.map((s) => contentWords(norm.text.slice(s.start, s.end)));
  let best: { recall: number; precision: number; span: Span } | null = null;
  for (let i = 0; i < sentences.length; i++) {
    const seen = new Set<string>();
    for (let w = 0; w < 3 && i + w < sentences.length; w++) {
      for (const word of words[i + w]!) seen.add(word);
      let hit = 0;
      for (const word of wanted) if (seen.has(word)) hit++;
      if (hit === 0) continue;
      const recall = hit / wanted.size;
      const precision = hit / seen.size;
      // Highest recall wins; among equals the tighter window (higher precision).
      if (
        !best ||
        recall > best.recall + 1e-9 ||
        (Math.abs(recall - best.recall) <= 1e-9 && precision > best.precision)
      ) {
        best = {
          recall,
          precision,
          span: { start: sentences[i]!.start, end: sentences[i + w]!.end },
        };
      }
    }
  }
  if (!best || best.recall < minScore) return null;
  return { method: 'fuzzy', score: best.recall, span: best.span };
}

async function embeddingMatch(
  norm: NormalizedText,
  segments: TextSegments,
  claim: string,
  embed: EmbedFn,
  options: FindPassageOptions,
): Promise<Candidate | null> {
  const chunkChars = options.chunkChars ?? DEFAULTS.chunkChars;
  const maxChunks = options.maxChunks ?? DEFAULTS.maxChunks;
  const minEmbeddingScore = options.minEmbeddingScore ?? DEFAULTS.minEmbeddingScore;
  const spans: Span[] = [];
  let current: Span | null = null;
  for (const s of splitSentences(norm.text, norm.breaks)) {
    // A chunk stays within one block: paragraphs about different things must not blur together.
    if (
      current &&
      s.end - current.start <= chunkChars &&
      !crossesBreak(norm.breaks, current.end, s.start)
    ) {
      current = { start: current.start, end: s.end };
    } else {
      if (current) spans.push(current);
      current = s;
    }
  }
  if (current) spans.push(current);
  const chunks = spans.slice(0, maxChunks).map((span) => ({
    span,
    text: rawText(segments, toRange(norm, segments, span)),
  }));
  const usable = chunks.filter((c) => c.text.length > 0);
  if (usable.length === 0) return null;
  const documents: string[][] = [[claim]];
  let size = 0;
  for (const c of usable) {
    const last = documents[documents.length - 1]!;
    if (documents.length === 1 || size + c.text.length > DOCUMENT_CHARS) {
      documents.push([c.text]);
      size = c.text.length;
    } else {
      last.push(c.text);
      size += c.text.length;
    }
  }
  const vectors = await withTimeout(
    embed(documents),
    options.embedTimeout ?? DEFAULTS.embedTimeout,
    'findPassage: embed',
  );
  const query = vectors[0]?.[0];
  const flat = vectors.slice(1).flat();
  if (!query || flat.length !== usable.length) {
    throw new SvcError(
      `findPassage: embed returned ${flat.length} chunk vectors for ${usable.length} chunks (and ${query ? 'a' : 'no'} claim vector)`,
    );
  }
  let best = -Infinity;
  let at = -1;
  flat.forEach((v, i) => {
    const score = cosine(query, v);
    if (score > best) {
      best = score;
      at = i;
    }
  });
  if (at < 0 || best < minEmbeddingScore) return null;
  return { method: 'embedding', score: best, span: usable[at]!.span };
}

const WORD_CHAR = /[\p{L}\p{N}]/u;

/** First occurrence of `needle` that starts and ends on word boundaries ("cat" not in "concat"). */
function indexOfWhole(haystack: string, needle: string): number {
  for (let at = haystack.indexOf(needle); at >= 0; at = haystack.indexOf(needle, at + 1)) {
    const before = haystack[at - 1];
    const after = haystack[at + needle.length];
    const startsWord = WORD_CHAR.test(needle[0] ?? '');
    const endsWord = WORD_CHAR.test(needle[needle.length - 1] ?? '');
    if (startsWord && before !== undefined && WORD_CHAR.test(before)) continue;
    if (endsWord && after !== undefined && WORD_CHAR.test(after)) continue;
    return at;
  }
  return -1;
}

function crossesBreak(breaks: ReadonlySet<number>, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (breaks.has(i)) return true;
  return false;
}
