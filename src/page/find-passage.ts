/**
 * Locates the passages of a page that may support a claim: exact, then fuzzy, then embeddings.
 * Locating is not verifying: the recipes pass each candidate to `verifyClaim`. A fuzzy or semantic
 * candidate is whole sentences of running text from one block (paragraph, list item), or one
 * table row; never the page's navigation, sidebars or footer, a heading or a code block.
 */
import { evaluateWithin, toPageLike, withTimeout } from './adapter.js';
import type { AnyPage, PageLike, Rect } from './adapter.js';
import { DEFAULTS } from './defaults.js';
import { collectTextInPage, locateRangeInPage } from './in-page.js';
import {
  chunksOf,
  describeTextInPage,
  preselect,
  prepareText,
  textStillHoldsInPage,
} from './passage-units.js';
import type { PreparedText } from './passage-units.js';
import {
  contentWords,
  cosine,
  normalizeText,
  rawText,
  splitSentences,
  stripCitationMarkers,
  toRange,
} from './text.js';
import type { NormalizedText, Span, TextRange } from './text.js';
import { SvcError } from '../errors.js';

/**
 * Embeds documents of chunks, one vector per chunk, in the shape of the contextualized embeddings
 * endpoint: `documents[i][j]` -> `result[i][j]`. {@link findPassage} sends each text as a document
 * of its own: the claim first (unless its vector is cached), then the page's chunks not yet embedded.
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
  /**
   * What the passage stands under: the heading above it, or for a table row its table's header
   * row. Key terms a claim takes from there (an option's name in a heading, `Default` in a header)
   * are stated for the passage.
   */
  context?: string;
  /**
   * For a passage that is one table row, its cells as displayed: with its header row (`context`)
   * they say what each value is ("setext" under `Default`).
   */
  cells?: string[];
}

/** Options of {@link findPassage} and {@link findPassages}. */
export interface FindPassageOptions {
  /** Least fuzzy score to accept. @default 0.6 */
  minScore?: number;
  /** Semantic fallback; without it there is no embedding step. */
  embed?: EmbedFn;
  /** Bound on one `embed` call. @default 30_000 */
  embedTimeout?: number;
  /** Least cosine to accept an embedding match. @default DEFAULTS.minEmbeddingScore */
  minEmbeddingScore?: number;
  /** Most characters per chunk sent to `embed`. @default 600 */
  chunkChars?: number;
  /** Most chunks sent to `embed`. @default 256 */
  maxChunks?: number;
  /** Bound on each in-page step. @default 15_000 */
  timeout?: number;
}

/** Options of {@link findPassages}. */
export interface FindPassagesOptions extends FindPassageOptions {
  /** Most candidates per step (fuzzy, embedding). @default 3 */
  limit?: number;
  /** Steps to run. @default ['exact', 'fuzzy', 'embedding'] (embedding only with `embed`) */
  methods?: readonly MatchMethod[];
  /**
   * Most chunks embedded per claim: on a longer page the chunks sharing the rarest of the claim's
   * words (weighted by inverse chunk frequency) are embedded, the rest skipped.
   * @default DEFAULTS.maxEmbedChunks
   */
  maxEmbedChunks?: number;
  /**
   * What is kept between calls on the same loaded page: the vectors of its chunks by their text
   * (a chunk is embedded once for all claims), and the page's text, read on the first call and
   * read again only when the DOM changed since. Pass one `Map` per loaded page.
   */
  cache?: Map<string, number[]>;
  /**
   * Claims to be looked up on the same page next (with the same `cache`): their vectors and those
   * of the chunks they would embed are computed in this call's `embed` call, so a page's claims
   * cost one call in all.
   */
  batchWith?: readonly string[];
}

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
  const found = await search(page, claim, { ...options, limit: 1 }, true);
  return found[0] ?? null;
}

/**
 * The candidate passages for `claim`, best first within each step: the exact match, then the best
 * fuzzy windows, then (with `embed`) the closest chunks by cosine. A located passage is only a
 * candidate: whether it supports the claim is for a verifier to decide (see `verifyClaim`).
 * @returns up to one exact and `limit` fuzzy and `limit` embedding candidates, possibly none
 * @throws what {@link findPassage} throws
 * @example const candidates = await findPassages(page, claim, { limit: 3, embed });
 */
export function findPassages(
  page: AnyPage,
  claim: string,
  options: FindPassagesOptions = {},
): Promise<PassageMatch[]> {
  return search(page, claim, options, false);
}

/** Both entry points: `firstOnly` stops at the first step that finds anything (findPassage). */
async function search(
  page: AnyPage,
  claim: string,
  options: FindPassagesOptions,
  firstOnly: boolean,
): Promise<PassageMatch[]> {
  const p = toPageLike(page);
  const minScore = options.minScore ?? DEFAULTS.minScore;
  if (!(minScore >= 0 && minScore <= 1))
    throw new SvcError(`findPassage: minScore must be within 0..1; got ${minScore}`);
  const limit = options.limit ?? 3;
  if (!(Number.isInteger(limit) && limit >= 1))
    throw new SvcError(`findPassages: limit must be a positive integer; got ${limit}`);
  // The DOM may change between reading the text and locating the range: read again once.
  for (let attempt = 0; attempt < 2; attempt++) {
    const found = await findOnce(p, claim, options, minScore, limit, firstOnly, attempt > 0);
    if (found !== 'stale') return found;
  }
  return [];
}

/** Page texts read by earlier calls, by the `cache` map of their page. */
const readings = new WeakMap<Map<string, number[]>, PreparedText>();

/** The page's prepared text: the one read by an earlier call with `cache` if the DOM is unchanged. */
async function readText(
  p: PageLike,
  cache: Map<string, number[]> | undefined,
  timeout: number,
  fresh: boolean,
): Promise<PreparedText> {
  const known = cache && !fresh ? readings.get(cache) : undefined;
  if (known) {
    const holds = await evaluateWithin(p, textStillHoldsInPage, null, timeout, 'findPassage');
    if (holds) return known;
  }
  const read = 'findPassage: reading text';
  const segments = await evaluateWithin(p, collectTextInPage, null, timeout, read);
  const roles = await evaluateWithin(p, describeTextInPage, null, timeout, read);
  const prepared = prepareText(segments, roles);
  if (cache) readings.set(cache, prepared);
  return prepared;
}

async function findOnce(
  p: PageLike,
  claim: string,
  options: FindPassagesOptions,
  minScore: number,
  limit: number,
  firstOnly: boolean,
  fresh: boolean,
): Promise<PassageMatch[] | 'stale'> {
  const timeout = options.timeout ?? DEFAULTS.actionTimeout;
  const text = await readText(p, options.cache, timeout, fresh);
  const { norm, segments } = text;
  const cleaned = stripCitationMarkers(claim);
  const methods = options.methods ?? ['exact', 'fuzzy', 'embedding'];
  const candidates: Candidate[] = [];
  const enough = (): boolean => firstOnly && candidates.length > 0;
  if (methods.includes('exact')) {
    const exact = exactMatch(norm, cleaned);
    // An exact match stands under what the unit it starts in stands under.
    const at = exact?.span.start ?? -1;
    const unit = text.units.find((u) => u.span.start <= at && at < u.span.end);
    if (exact) candidates.push(unit?.context ? { ...exact, context: unit.context } : exact);
  }
  if (!enough() && methods.includes('fuzzy')) {
    candidates.push(...fuzzyMatches(text, cleaned, minScore, limit));
  }
  if (!enough() && options.embed && methods.includes('embedding')) {
    candidates.push(...(await embeddingMatches(text, cleaned, options.embed, options, limit)));
  }
  const out: PassageMatch[] = [];
  const seen = new Set<string>();
  for (const candidate of firstOnly ? candidates.slice(0, 1) : candidates) {
    const key = `${candidate.span.start}:${candidate.span.end}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const range = toRange(norm, segments, candidate.span);
    const located = await evaluateWithin(
      p,
      locateRangeInPage,
      range,
      timeout,
      'findPassage: locating',
    );
    if (!located) return 'stale';
    const row = text.units.find(
      (u) =>
        u.kind === 'row' &&
        u.span.start === candidate.span.start &&
        u.span.end === candidate.span.end,
    );
    out.push({
      method: candidate.method,
      score: Math.round(candidate.score * 1000) / 1000,
      quote: rawText(segments, range),
      domPath: located.domPath,
      rect: located.rect,
      range,
      ...(candidate.context ? { context: candidate.context } : {}),
      ...(row?.cells
        ? { cells: row.cells.map((c) => rawText(segments, toRange(norm, segments, c))) }
        : {}),
    });
  }
  return out;
}

interface Candidate {
  method: 'exact' | 'fuzzy' | 'embedding';
  score: number;
  span: Span;
  context?: string;
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

/**
 * Most extra fuzzy candidates read with their heading: windows that hold the claim's words only
 * together with the name of the entry they stand under ("Added in: v20.17.0" under
 * "path.matchesGlob(path, pattern)"; "delay ... Default: 1." under "setTimeout(callback[,
 * delay])").
 */
const HEADED_EXTRA = 2;

/** Extra fuzzy candidates that are the entry of an option the claim names in words. */
const ENTRY_EXTRA = 1;

/**
 * Extra fuzzy candidates that are the entry of a name in code the claim gives ("statusCode - the
 * status code of the error, defaulting to 500" for "the error's statusCode defaults to 400"): an
 * entry shares few of a long claim's words, however much it is the passage that decides.
 */
const CODE_ENTRY_EXTRA = 1;

/**
 * Ways a claim names an option in words: "the sensitive option", "setting trim to true" (the
 * verifier reads the same names, `optionNames` of src/verify/settings.ts; the page module does not
 * depend on the verifier).
 */
const OPTION_NAME = [
  /(?:\bthe|['\u2019]s)\s+[`'"]?([\p{L}_$][\p{L}\p{N}_$-]*)[`'"]?\s+(?:option|setting|flag)\b/giu,
  /\bsetting\s+[`'"]?([\p{L}_$][\p{L}\p{N}_$-]*)[`'"]?\s+to\b/giu,
];

/** Words in a name's place that name none: "the same option", "setting it to 0". */
const NOT_NAMES = new Set(['it', 'this', 'that', 'same', 'other', 'default', 'new', 'each', 'any']);

/** The options a claim names in words, as the page's normalized text spells them. */
function optionNames(claim: string): string[] {
  const out = new Set<string>();
  for (const re of OPTION_NAME) {
    for (const m of claim.matchAll(re)) {
      const name = normalizeText(m[1]!);
      if (name.length >= 2 && !NOT_NAMES.has(name)) out.add(name);
    }
  }
  return [...out];
}

/** Whether a content word is a number. */
const isNumber = (word: string): boolean => /^\d+$/.test(word);

/** Fewest claim words a window read with its heading must hold itself. */
const HEADED_MIN_HITS = 2;

/**
 * A name in code: a qualified name (`path.basename`), a call (`set()`), camelCase or PascalCase
 * with an inner capital (`setTimeout`, `RetryHandler`), or snake_case (`max_size`).
 */
const CODE_NAME =
  /(?<![\w$.])(?:[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+|[A-Za-z_$][\w$]*(?=\(\))|[A-Za-z$]*[a-z][A-Z][\w$]*|[A-Za-z][A-Za-z0-9]*_[\w$]+)/g;

/**
 * The best windows of 1-3 consecutive sentences of one block (or one table row) by the share of
 * the claim's content words they hold: highest recall first, among equals the tighter window
 * (higher precision). A window that only widens a better one without adding a claim word is left
 * out. Then up to {@link HEADED_EXTRA} windows that reach `minScore` only with a name in code of
 * the claim that the heading they stand under spells out (an entry's metadata and options name
 * their subject only there); a number of the claim then counts as held when the window holds
 * one, so a changed value is found to be contradicted. The verifier reads that heading as the
 * candidate's context too, and so for a table row under a heading that spells out a name of the
 * claim the row lacks (a History table under its function's heading).
 */
function fuzzyMatches(
  text: PreparedText,
  claim: string,
  minScore: number,
  limit: number,
): Candidate[] {
  const wanted = new Set(contentWords(normalizeText(claim)));
  if (wanted.size === 0) return [];
  const { norm, units } = text;
  // A row says what its header says of each cell: "headingStyle | setext" under "Option |
  // Default" holds "option" and "default".
  const words = (text.words ??= units.map((u) =>
    contentWords(
      `${norm.text.slice(u.span.start, u.span.end)} ${normalizeText(u.columns?.join(' ') ?? '')}`,
    ),
  ));
  const readWithHeading = namedInHeadings(claim, wanted);
  type Window = { recall: number; precision: number; span: Span; context: string };
  const windows: Window[] = [];
  const headed: Window[] = [];
  for (let i = 0; i < units.length; i++) {
    const unit = units[i]!;
    const seen = new Set<string>();
    // A sentence's heading is its context; a row's context is its header, its heading apart.
    const heading = unit.kind === 'row' ? unit.heading : unit.context;
    let lastHit = 0;
    let lastHeaded = 0;
    for (let w = 0; w < 3 && units[i + w]?.block === unit.block; w++) {
      for (const word of words[i + w]!) seen.add(word);
      let hit = 0;
      for (const word of wanted) if (seen.has(word)) hit++;
      const span = { start: unit.span.start, end: units[i + w]!.span.end };
      const recall = hit / wanted.size;
      const read = heading ? readWithHeading?.(seen, heading) : undefined;
      // A row under a heading that names the claim's subject, which the row does not ("v6.0.0
      // | Passing a non-string ... throws now" in the History table of "path.basename(path)"):
      // the heading is its context too.
      const context =
        unit.kind === 'row' && read?.named ? `${heading} ${unit.context}`.trim() : unit.context;
      if (hit > 0 && hit !== lastHit) {
        lastHit = hit;
        if (recall >= minScore) windows.push({ recall, precision: hit / seen.size, span, context });
      }
      if (recall >= minScore || !read || read.score < minScore || read.score === lastHeaded)
        continue;
      lastHeaded = read.score;
      headed.push({ recall: read.score, precision: hit / seen.size, span, context });
    }
  }
  const best = (a: Window, b: Window): number =>
    Math.abs(a.recall - b.recall) > 1e-9 ? b.recall - a.recall : b.precision - a.precision;
  const chosen = windows.sort(best).slice(0, limit);
  chosen.push(...headed.sort(best).slice(0, HEADED_EXTRA));
  // The entry of an option the claim names in words, wherever its text shares few of the claim's
  // words ("sensitive Regexp will be case sensitive. (default: false)" for "the sensitive option
  // is true by default"): the verifier reads its default against the claim's.
  const entriesOf = (names: readonly string[], extra: number): void => {
    const entries: Window[] = [];
    for (const name of names) {
      for (let i = 0; i < units.length; i++) {
        const unit = units[i]!;
        const head = norm.text.slice(unit.span.start, unit.span.start + name.length + 1);
        if (
          !head.startsWith(name) ||
          !/^[\s:(-]$/.test(head.slice(name.length)) ||
          unit.kind === 'row'
        )
          continue;
        const last = units[i + 1]?.block === unit.block ? units[i + 1]! : unit;
        const span = { start: unit.span.start, end: last.span.end };
        if (chosen.some((w) => w.span.start === span.start && w.span.end === span.end)) continue;
        const seen = new Set([...words[i]!, ...(last === unit ? [] : words[i + 1]!)]);
        let hit = 0;
        for (const word of wanted) if (seen.has(word)) hit++;
        if (hit < HEADED_MIN_HITS) continue;
        entries.push({
          recall: hit / wanted.size,
          precision: hit / seen.size,
          span,
          context: unit.context,
        });
      }
    }
    chosen.push(...entries.sort(best).slice(0, extra));
  };
  entriesOf(optionNames(claim), ENTRY_EXTRA);
  const options = new Set(optionNames(claim));
  const codeNames = [
    ...new Set((claim.match(CODE_NAME) ?? []).map((n) => normalizeText(n.replace(/\(\)$/, '')))),
  ];
  entriesOf(
    codeNames.filter((n) => n.length >= 4 && !options.has(n)),
    CODE_ENTRY_EXTRA,
  );
  return chosen.map((w) => ({
    method: 'fuzzy' as const,
    score: w.recall,
    span: w.span,
    context: w.context,
  }));
}

/**
 * How a window reads with its heading: `named` when the heading spells out a name in code of the
 * claim that the window lacks; `score`, the share of the claim's words the two hold, a name
 * counting as one word (held when the window holds all of it or the heading spells it out), 0
 * for a window holding fewer than {@link HEADED_MIN_HITS} of the claim's words itself or when
 * nothing is named. `undefined` when the claim names nothing in code.
 */
function namedInHeadings(
  claim: string,
  wanted: ReadonlySet<string>,
): ((seen: ReadonlySet<string>, heading: string) => { score: number; named: boolean }) | undefined {
  const names = [...new Set(claim.match(CODE_NAME) ?? [])]
    .map((text) => ({
      spelled: new RegExp(`(?<![\\w$])${escape(text)}(?![\\w$])`),
      words: contentWords(text).filter((w) => wanted.has(w)),
    }))
    .filter((n) => n.words.length > 0);
  if (names.length === 0) return undefined;
  const inNames = new Set(names.flatMap((n) => n.words));
  const single = [...wanted].filter((w) => !inNames.has(w));
  const total = single.length + names.length;
  const spelledIn = new Map<string, boolean[]>();
  const none = { score: 0, named: false };
  return (seen, heading) => {
    let spelled = spelledIn.get(heading);
    if (!spelled) spelledIn.set(heading, (spelled = names.map((n) => n.spelled.test(heading))));
    let own = 0;
    let named = 0;
    for (const [k, n] of names.entries()) {
      if (n.words.every((w) => seen.has(w))) own++;
      else if (spelled[k]) named++;
    }
    if (named === 0) return none;
    let numbered = 0;
    const numbers = [...seen].some(isNumber);
    for (const w of single) {
      if (seen.has(w)) own++;
      // A number of the claim may be the page's in another value: the verifier tells which.
      else if (numbers && isNumber(w)) numbered++;
    }
    return { score: own < HEADED_MIN_HITS ? 0 : (own + named + numbered) / total, named: true };
  };
}

async function embeddingMatches(
  text: PreparedText,
  claim: string,
  embed: EmbedFn,
  options: FindPassagesOptions,
  limit: number,
): Promise<Candidate[]> {
  const minEmbeddingScore = options.minEmbeddingScore ?? DEFAULTS.minEmbeddingScore;
  const all = chunksOf(
    text,
    options.chunkChars ?? DEFAULTS.chunkChars,
    options.maxChunks ?? DEFAULTS.maxChunks,
  );
  if (all.length === 0) return [];
  const max = options.maxEmbedChunks ?? DEFAULTS.maxEmbedChunks;
  const usable = preselect(all, claim, max);
  // Each text is a document of its own, so its vector depends on its text alone: with `cache` a
  // chunk is embedded once per page, and claims to come (`batchWith`) share this call.
  const cache = options.cache ?? new Map<string, number[]>();
  const queries = [claim, ...(options.batchWith ?? []).map(stripCitationMarkers)];
  const wanted = new Set(queries);
  for (const c of usable) wanted.add(c.text);
  // One call stays bounded (by `maxChunks` chunks): chunks of claims beyond wait for their turn.
  const bound = wanted.size + (options.maxChunks ?? DEFAULTS.maxChunks);
  for (const q of queries.slice(1)) {
    const more = preselect(all, q, max).filter((c) => !wanted.has(c.text));
    if (wanted.size + more.length > bound) break;
    for (const c of more) wanted.add(c.text);
  }
  const missing = [...wanted].filter((t) => !cache.has(t));
  if (missing.length > 0) {
    const timeout = options.embedTimeout ?? DEFAULTS.embedTimeout;
    const vectors = await withTimeout(
      embed(missing.map((t) => [t])),
      timeout,
      'findPassage: embed',
    );
    const fresh = vectors.flat();
    if (vectors.length !== missing.length || fresh.length !== missing.length) {
      throw new SvcError(
        `findPassage: embed returned ${fresh.length} vectors for ${missing.length} documents of one text each`,
      );
    }
    missing.forEach((t, i) => cache.set(t, fresh[i]!));
  }
  const query = cache.get(claim)!;
  return usable
    .map((c) => ({ score: cosine(query, cache.get(c.text)!), span: c.span, context: c.context }))
    .filter((x) => x.score >= minEmbeddingScore)
    .sort((a, b) => b.score - a.score)
    .slice(0, limit)
    .map((x) => ({ method: 'embedding' as const, ...x }));
}

const WORD_CHAR = /[\p{L}\p{N}]/u;

/** `text` as a literal inside a regular expression. */
const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

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
