/**
 * Locating a page's claims among candidate passages, and judging them: the step between the page
 * and the verdict. Candidates come from a {@link CandidateSource}: the loaded page, or a recording
 * of one, so the verifier can be measured again on the same candidates without a browser.
 */
import { channel } from 'node:diagnostics_channel';
import { analyzeClaim, SessionError, statementsOf } from '../../src/index.js';
import type { MatchMethod, PassageMatch } from '../../src/index.js';
import { judgeCandidates, judgeStatements } from './judge.js';
import type { Judgement } from './judge.js';

const elapsed = (since: number): number => Math.round(performance.now() - since);

/** One search for a claim on a page, and the candidates it gave. */
export interface RecordedSearch {
  claim: string;
  methods: readonly MatchMethod[];
  /** Made after scrolling through the page once. */
  scrolled: boolean;
  matches: PassageMatch[];
  /** The search's error message, when it failed. */
  error?: string;
}

/** What a page's claims were located among, as published on {@link LOCATE_CHANNEL}. */
export interface LocateRecord {
  /** The page's final URL. */
  url: string;
  /** The page's title, title heading and address (see `headings`). */
  context: string;
  claims: string[];
  /** Whether the embedding step ran. */
  semantic: boolean;
  searches: RecordedSearch[];
}

/**
 * The `node:diagnostics_channel` name on which {@link examinePage} publishes a
 * {@link LocateRecord} per page once its claims are located, only while someone subscribes.
 * `bench/evidence.ts --record` keeps them, and `bench/evidence.ts --replay` judges the same
 * candidates again without a browser: a change of the verifier measured in seconds.
 */
export const LOCATE_CHANNEL = 'svc-toolkit:evidence:locate';
/** Where records go; publishes only while someone subscribes. */
export const locateChannel = channel(LOCATE_CHANNEL);

/** Where {@link locateAll} finds candidates: the loaded page, or a recording of one. */
export interface CandidateSource {
  /** Candidates for `claim`; `batchWith` are claims whose embeddings may be computed alongside. */
  find(
    claim: string,
    methods: readonly MatchMethod[],
    batchWith?: readonly string[],
  ): Promise<PassageMatch[]>;
  /** Scrolls through the page once so lazily loaded text exists. */
  scroll(): Promise<void>;
}

/** `source`, keeping each search and its candidates in `searches`. */
export function recording(source: CandidateSource, searches: RecordedSearch[]): CandidateSource {
  let scrolled = false;
  return {
    async find(claim, methods, batchWith) {
      const search: RecordedSearch = { claim, methods, scrolled, matches: [] };
      searches.push(search);
      try {
        search.matches = await source.find(claim, methods, batchWith);
        return search.matches;
      } catch (error) {
        search.error = (error as Error).message;
        throw error;
      }
    },
    async scroll() {
      scrolled = true;
      await source.scroll();
    },
  };
}

/**
 * The searches of a {@link LocateRecord} as a {@link CandidateSource}: each search answered with
 * the candidates it gave when recorded (the one made at the same scroll state first). A search the
 * recording lacks (a statement the current code splits off, a claim it searches by meaning now)
 * gives no candidate and is counted in `misses`.
 */
export function replaySource(searches: readonly RecordedSearch[]): CandidateSource & {
  misses: number;
} {
  let scrolled = false;
  const same = (a: readonly MatchMethod[], b: readonly MatchMethod[]): boolean =>
    a.length === b.length && a.every((m, i) => m === b[i]);
  const source = {
    misses: 0,
    find(claim: string, methods: readonly MatchMethod[]): Promise<PassageMatch[]> {
      const found = searches.filter((s) => s.claim === claim && same(s.methods, methods));
      const search = found.find((s) => s.scrolled === scrolled) ?? found[0];
      if (!search) {
        source.misses++;
        return Promise.resolve([]);
      }
      if (search.error !== undefined) return Promise.reject(new Error(search.error));
      return Promise.resolve(search.matches);
    },
    scroll(): Promise<void> {
      scrolled = true;
      return Promise.resolve();
    },
  };
  return source;
}

/** A claim located on the page: its verdict over the candidates found, and the time it took. */
export interface Located {
  claim: string;
  analysis: ReturnType<typeof analyzeClaim>;
  lexical: PassageMatch[];
  judged: Judgement;
  /** Why the search failed (`: the search failed (...)`), or `''`. */
  failure: string;
  findMs: number;
}

/** The verdict a located claim gets: `not_found` unless a passage decided it. */
export const verdictOf = (l: Located): Judgement['verdict'] =>
  l.judged.match ? l.judged.verdict : 'not_found';

/**
 * Locates and verifies each claim: lexical candidates first (scrolling once for lazy content when
 * a claim has none); then, with `semantic`, for the claims no lexical candidate settles,
 * embeddings, all of the page's claims and chunks embedded in the first call; then, with `split`,
 * for a claim still `not_found`, each of the statements it joins, located the same way.
 * @throws SessionError when the browser is lost; other errors become the claim's `failure`
 */
export async function locateAll(
  source: CandidateSource,
  claims: readonly string[],
  context: string,
  semantic: boolean,
  split = true,
): Promise<Located[]> {
  const failed = (error: unknown): string => {
    if (error instanceof SessionError) throw error;
    return `: the search failed (${(error as Error).message.split('\n')[0]})`;
  };
  // Statements are looked up after their claims, on a page scrolled through already if need be.
  let scrolled = false;
  const located: Located[] = [];
  for (const claim of claims) {
    const started = performance.now();
    const analysis = analyzeClaim(claim);
    const l: Located = {
      claim,
      analysis,
      lexical: [],
      judged: judgeCandidates(analysis, []),
      failure: '',
      findMs: 0,
    };
    try {
      const lexical = ['exact', 'fuzzy'] as const;
      l.lexical = await source.find(claim, lexical);
      if (l.lexical.length === 0 && !scrolled && split) {
        scrolled = true;
        await source.scroll();
        l.lexical = await source.find(claim, lexical);
      }
      l.judged = judgeCandidates(analysis, l.lexical, context);
    } catch (error) {
      l.failure = failed(error);
    }
    l.findMs = elapsed(started);
    located.push(l);
  }
  if (semantic) {
    const pending = located.filter(
      (l) => !l.failure && l.judged.verdict !== 'supported' && !l.judged.settled,
    );
    for (const [i, l] of pending.entries()) {
      const started = performance.now();
      try {
        const batchWith = i === 0 ? pending.slice(1).map((x) => x.claim) : undefined;
        const semanticMatches = await source.find(l.claim, ['embedding'], batchWith);
        const all = [...l.lexical, ...semanticMatches];
        l.judged = judgeCandidates(l.analysis, all, context);
      } catch (error) {
        l.failure = failed(error);
      }
      l.findMs += elapsed(started);
    }
  }
  if (!split) return located;
  // A claim no passage states whole may join statements the page makes in several places: each
  // statement is located and judged on its own, all of the page's statements in one pass (one
  // embedding call).
  const joined = located
    .filter((l) => !l.failure && l.judged.verdict === 'not_found')
    .map((l) => ({ l, statements: statementsOf(l.claim) }))
    .filter((x) => x.statements.length > 1);
  if (joined.length === 0) return located;
  const parts = await locateAll(
    source,
    joined.flatMap((x) => x.statements),
    context,
    semantic,
    false,
  );
  let at = 0;
  for (const { l, statements } of joined) {
    const mine = parts.slice(at, (at += statements.length));
    l.findMs += mine.reduce((sum, x) => sum + x.findMs, 0);
    if (mine.some((x) => x.failure)) continue;
    const judged = mine.map((x) => x.judged);
    l.judged = judgeStatements(statements, judged, l.judged) ?? l.judged;
  }
  return located;
}
