/**
 * Replaying a recorded evidence run (`bench/evidence.ts --record`): every page's claims are located
 * again among the candidates recorded for them and judged by the current verifier, without a
 * browser, so a change of the verifier is measured on all claim sets in seconds. What the page
 * step finds is as recorded: a change of locating, reading or splitting needs a real run.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { locateAll, replaySource, verdictOf } from '../../recipes/support/locate.js';
import type { Located, LocateRecord } from '../../recipes/support/locate.js';
import { table } from '../../recipes/support/script.js';
import type { LabelledClaim } from './claims.js';
import { FALSE_KINDS, loadClaimSet } from './claims.js';
import { negateClaim, swapNames } from './negate.js';
import type { ClaimResult } from './score.js';

/** One claim of a recorded run: the text the checker looked up, on which page, and its verdict. */
export interface RecordedClaim {
  id: string;
  /** The claim as looked up (markers removed); `null` when the run gave it no check. */
  text: string | null;
  /** The final URL of its page; `null` when the page was never loaded. */
  url: string | null;
  verdict: string;
}

/** What `bench/evidence.ts --record` writes. */
export interface EvidenceRecord {
  schema: 1;
  /** The claim set, relative to the directory the run was started in. */
  claimsFile: string;
  recordedAt: string;
  claims: RecordedClaim[];
  pages: LocateRecord[];
}

/** A claim judged again. */
export interface ReplayedClaim extends ClaimResult {
  /** The verdict it got when recorded. */
  recorded: string;
  /**
   * For a true claim judged `supported`: the verdict of the claim negated by rule
   * ({@link negateClaim}), judged against the same candidates; absent when no rule applies.
   */
  negated?: string;
  /**
   * For a true claim judged `supported`: the verdict of the claim with two of its names swapped
   * ({@link swapNames}), judged against the same candidates; absent when it has no such pair.
   */
  swapped?: string;
}

/** A record judged again. */
export interface Replay {
  claimsFile: string;
  results: ReplayedClaim[];
  /** Searches the current code made that the recording lacks (each gave no candidate). */
  misses: number;
}

/**
 * Reads a record file.
 * @throws Error naming the file when it is not a record of schema 1
 */
export function readRecord(file: string): EvidenceRecord {
  const record = JSON.parse(readFileSync(file, 'utf8')) as EvidenceRecord;
  if (record.schema !== 1 || !Array.isArray(record.claims) || !Array.isArray(record.pages)) {
    throw new Error(`${file}: not an evidence record (schema 1 from bench/evidence.ts --record)`);
  }
  return record;
}

const keyOf = (url: string, claim: string): string => `${url}\n${claim}`;

/** The kinds of true claims, whose negations the replay judges too. */
const TRUE_KINDS: readonly string[] = ['verbatim', 'paraphrase'];

/**
 * Judges every claim of `record` again. A claim whose page has no candidates recorded (a wall, a
 * dead link, a page that failed) keeps its recorded verdict.
 * @throws Error when a recorded claim is no longer in its claim set
 */
export async function replayRecord(
  record: EvidenceRecord,
  claimsFile = record.claimsFile,
): Promise<Replay> {
  const labelled = new Map(loadClaimSet(claimsFile).claims.map((c) => [c.id, c]));
  const where = new Map<string, { page: LocateRecord; index: number }>();
  for (const page of record.pages) {
    page.claims.forEach((claim, index) => where.set(keyOf(page.url, claim), { page, index }));
  }
  let misses = 0;
  const located = new Map<LocateRecord, Promise<Located[]>>();
  const locate = (page: LocateRecord): Promise<Located[]> => {
    let done = located.get(page);
    if (!done) {
      const source = replaySource(page.searches);
      done = locateAll(source, page.claims, page.context, page.semantic).then((all) => {
        misses += source.misses;
        return all;
      });
      located.set(page, done);
    }
    return done;
  };
  const results: ReplayedClaim[] = [];
  for (const rc of record.claims) {
    const claim = labelled.get(rc.id);
    if (!claim) throw new Error(`${claimsFile}: the recorded claim ${rc.id} is not in the set`);
    const at = rc.text !== null && rc.url !== null ? where.get(keyOf(rc.url, rc.text)) : undefined;
    if (!at) {
      results.push(result(claim, rc.verdict, rc.verdict, 'as recorded (no candidates)', null));
      continue;
    }
    const l = (await locate(at.page))[at.index]!;
    const judged = result(claim, rc.verdict, verdictOf(l), l.judged.reason, l);
    // A claim edited by rule is looked up where the claim was: its searches answer it.
    const judgeAs = async (text: string): Promise<string> => {
      const searches = at.page.searches.map((x) =>
        x.claim === rc.text ? { ...x, claim: text } : x,
      );
      const [n] = await locateAll(
        replaySource(searches),
        [text],
        at.page.context,
        at.page.semantic,
      );
      return verdictOf(n!);
    };
    if (TRUE_KINDS.includes(claim.kind) && judged.verdict === 'supported') {
      const negated = negateClaim(rc.text!);
      if (negated) judged.negated = await judgeAs(negated);
      const swapped = swapNames(rc.text!, l.judged.match?.quote ?? '');
      if (swapped) judged.swapped = await judgeAs(swapped);
    }
    results.push(judged);
  }
  return { claimsFile, results, misses };
}

function result(
  claim: LabelledClaim,
  recorded: string,
  verdict: string,
  reason: string,
  l: Located | null,
): ReplayedClaim {
  const match = l?.judged.match ?? null;
  return {
    claim,
    recorded,
    verdict,
    right: (claim.accepted as string[]).includes(verdict),
    reason,
    method: match?.method ?? null,
    score: match?.score ?? null,
    quote: match?.quote ?? null,
    conflicts: l?.judged.conflicts ?? [],
  };
}

/** Counts of a set of results: `[hits, n]` per measure of the targets. */
export interface Tally {
  claims: number;
  right: number;
  verbatim: [number, number];
  paraphrase: [number, number];
  falseSupported: [number, number];
  /** Number and negation claims judged contradicted. */
  contradicted: [number, number];
  /** Supported true claims whose negation by rule is still judged supported. */
  negatedSupported: [number, number];
  /** Supported true claims still judged supported with two of their names swapped. */
  swappedSupported: [number, number];
  /** Verdicts that differ from the recorded ones. */
  changed: number;
}

/** The {@link Tally} of `results`. */
export function tally(results: readonly ReplayedClaim[]): Tally {
  const pair = (kinds: readonly string[], hit: (r: ReplayedClaim) => boolean): [number, number] => {
    const rs = results.filter((r) => kinds.includes(r.claim.kind));
    return [rs.filter(hit).length, rs.length];
  };
  const supported = (r: ReplayedClaim): boolean => r.verdict === 'supported';
  return {
    claims: results.length,
    right: results.filter((r) => r.right).length,
    verbatim: pair(['verbatim'], supported),
    paraphrase: pair(['paraphrase'], supported),
    falseSupported: pair(FALSE_KINDS, supported),
    contradicted: pair(['number', 'negation'], (r) => r.verdict === 'contradicted'),
    negatedSupported: [
      results.filter((r) => r.negated === 'supported').length,
      results.filter((r) => r.negated !== undefined).length,
    ],
    swappedSupported: [
      results.filter((r) => r.swapped === 'supported').length,
      results.filter((r) => r.swapped !== undefined).length,
    ],
    changed: results.filter((r) => r.verdict !== r.recorded).length,
  };
}

const fraction = ([hits, n]: [number, number]): string =>
  n === 0 ? '-' : `${hits}/${n} (${Math.round((hits / n) * 100)}%)`;

function tallyRow(name: string, t: Tally, misses: number): (string | number)[] {
  return [
    name,
    t.claims,
    t.right,
    fraction(t.verbatim),
    fraction(t.paraphrase),
    fraction(t.falseSupported),
    fraction(t.contradicted),
    fraction(t.negatedSupported),
    fraction(t.swappedSupported),
    t.changed,
    misses,
  ];
}

/** The dev claims whose verdict changed, one per line (test claims only count). */
export function renderChanges(replays: readonly Replay[]): string {
  const lines = replays.flatMap((r) =>
    r.results
      .filter((c) => c.claim.split === 'dev' && c.verdict !== c.recorded)
      .map(
        (c) =>
          `${path.basename(r.claimsFile, '.json')} ${c.claim.id} [${c.claim.kind}] ` +
          `${c.recorded} -> ${c.verdict} (${c.right ? 'right' : 'wrong'}): ${c.reason}`,
      ),
  );
  return lines.length > 0 ? lines.join('\n') : 'no dev verdict changed';
}

/**
 * The replay table: per record, and in total, the counts of {@link Tally} over the claims of
 * `split`.
 */
export function renderReplays(replays: readonly Replay[], split: 'dev' | 'test' | 'all'): string {
  const counted = (c: ReplayedClaim): boolean => split === 'all' || c.claim.split === split;
  const rows = replays.map((r) =>
    tallyRow(path.basename(r.claimsFile, '.json'), tally(r.results.filter(counted)), r.misses),
  );
  const all = replays.flatMap((r) => r.results.filter(counted));
  const misses = replays.reduce((sum, r) => sum + r.misses, 0);
  return table([
    [
      'claim set',
      'claims',
      'right',
      'verbatim sup',
      'paraphrase sup',
      'false sup',
      'num+neg con',
      'negated sup',
      'swapped sup',
      'changed',
      'misses',
    ],
    ...rows,
    ...(replays.length > 1 ? [tallyRow('total', tally(all), misses)] : []),
  ]);
}
