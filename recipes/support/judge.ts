/**
 * From candidate passages to a verdict: each located passage is verified against the claim, and the
 * claim is `supported` only when one of them passes. A false `supported` is the worst error the
 * evidence recipes can make, so when in doubt the verdict is not `supported`.
 */
import { analyzeClaim, statedKeyTerms, verifyClaim, wordSwapsOnly } from '../../src/index.js';
import type { ClaimAnalysis, ClaimVerification, Conflict, PassageMatch } from '../../src/index.js';

/** The verdict over a claim's candidates, with the passage that decided it. */
export interface Judgement {
  verdict: 'supported' | 'contradicted' | 'not_found';
  /** The supporting passage, or the conflicting one; `null` for `not_found`. */
  match: PassageMatch | null;
  conflicts: Conflict[];
  /** The deciding passage's word coverage of the claim (0 when none). */
  coverage: number;
  reason: string;
  /**
   * True when a lexical candidate contradicts the claim with most of its words: a semantic search
   * would find the same passage, so it is skipped.
   */
  settled: boolean;
  /**
   * For `not_found`: some candidate states a fact in conflict with the claim (a number, a
   * negation, a comparison; not a name, which another entry's passage differs in anyway), though
   * it shares too little of the claim to contradict it. A doubt no later step may turn into
   * `supported`.
   */
  doubt?: boolean;
}

/** Least coverage of a lexical contradiction that makes a semantic search pointless. */
const SETTLED_COVERAGE = 0.7;

/**
 * Coverage of the claim under which a passage about something else, in conflict with the claim,
 * leaves the claim's statements to be judged each on its own (no `doubt`).
 */
const DOUBT_MIN_COVERAGE = 0.5;

/** Coverage under which a support found by meaning gives way to a doubt. */
const WEAK_COVERAGE = 0.7;

/** Least coverage of a contradicting passage that can outweigh a weaker support. */
const OUTWEIGH_COVERAGE = 0.9;

/**
 * A contradicting passage that states most of the claim (at least this share) outweighs a support
 * that states {@link OUTWEIGH_MARGIN} less of it: the support shares the topic, the contradiction
 * the fact ("we do not check it here" against "The inner do-loop ... the last deflate() call fails").
 */
const OUTWEIGH_MOST = 0.75;
const OUTWEIGH_MARGIN = 0.2;

/**
 * The margin for a contradiction found by words (not by meaning) that states a fact other than a
 * name (a negation, a number, a comparison): its passage says the claim's own words with another
 * fact ("Listening on a file descriptor is not supported on Windows." against a support that
 * shares fewer of them: "... or an object with an fd member that is a valid file descriptor").
 */
const OUTWEIGH_FACT_MARGIN = 0.1;

const RANK: Record<PassageMatch['method'], number> = { exact: 0, fuzzy: 1, embedding: 2 };

const label = (m: PassageMatch): string => `${m.method} match (score ${m.score})`;

/** A candidate with its verification. */
type Checked = { match: PassageMatch; v: ClaimVerification };

/** Verifies a claim against one candidate passage. */
function verifyCandidate(
  claim: ClaimAnalysis,
  match: PassageMatch,
  context: string,
): ClaimVerification {
  return verifyClaim(claim, match.quote, {
    // The page's own context plus what this candidate stands under (its heading, its table's
    // header row), never another candidate's: a key term under a sibling section is not stated
    // for this one ("acquire" above one event is no support for text under "error").
    context: match.context ? `${context} \n ${match.context}` : context,
    heading: match.context ?? '',
    // Only an embedding match measures meaning; a fuzzy score counts shared words.
    similarity: match.method === 'embedding' ? match.score : undefined,
    cells: match.cells,
  });
}

/**
 * Where a claim joins two statements: "X; Y", "X, whereas Y", "X, while Y", "X, but Y". The
 * joining word stays at the start of the second part: a negation after "but" must be stated.
 */
const JOINS = /;\s+|,\s+(?=(?:whereas|while|but)\s)|\s+(?=whereas\s)/i;

/** Fewest words of a part that states something on its own. */
const MIN_PART_WORDS = 4;

/** The statements a claim joins, each of at least {@link MIN_PART_WORDS} words; one: the claim. */
function partsOf(text: string): string[] {
  return text
    .split(JOINS)
    .map((p) => p.trim())
    .filter(
      (p) => p.replace(/^(?:whereas|while|but)\s+/i, '').split(/\s+/).length >= MIN_PART_WORDS,
    );
}

/** True when every conflict of a verification is one of names (`term`). */
const namesOnly = (v: ClaimVerification): boolean =>
  v.conflicts.length > 0 && v.conflicts.every((c) => c.kind === 'term');

/**
 * A passage that states a claim joining two statements may state one of them of another name:
 * read alone, the part has another name in place of one of its names ("for Windows paths use
 * path.posix; for POSIX paths use path.win32" against "for Windows file paths ... use
 * path.win32", where the claim's other part names path.win32 too). A part in conflict in two
 * names speaks of another case than the passage ("for POSIX paths use path.posix" against the
 * passage on Windows paths), and is no conflict. The first conflict, or `null`.
 */
function partConflict(
  claim: ClaimAnalysis,
  support: PassageMatch,
  context: string,
): ClaimVerification | null {
  const parts = partsOf(claim.text);
  if (parts.length < 2) return null;
  for (const part of parts) {
    const analysis = analyzeClaim(part);
    const v = verifyCandidate(analysis, support, context);
    const [only, ...more] = v.conflicts;
    const name = only?.kind === 'term' && analysis.keyTerms.some((k) => k.text === only.claim);
    if (v.verdict === 'contradicted' && name && more.length === 0) return v;
  }
  return null;
}

/**
 * A claim that joins two statements of two passages ("%e reports the time in seconds, whereas
 * %E reports it as [hours:]minutes:seconds", each under its own entry) is stated when each part
 * is, by some candidate, and no candidate contradicts a part but one that names another thing.
 * The passages supporting the parts, in the claim's order; `null` when the claim has one part or
 * a part is not stated.
 */
function partsStated(
  claim: ClaimAnalysis,
  checked: readonly Checked[],
  context: string,
): Checked[] | null {
  const parts = partsOf(claim.text);
  if (parts.length < 2) return null;
  const found: Checked[] = [];
  for (const part of parts) {
    const analysis = analyzeClaim(part);
    const verdicts = checked.map(({ match }) => ({
      match,
      v: verifyCandidate(analysis, match, context),
    }));
    const stated = verdicts.find((x) => x.v.verdict === 'supported');
    if (!stated) return null;
    // A part some passage states may differ in a name from another passage: that passage
    // speaks of the other part's kind ("with a symbolic link Vim resolves the link" against "For
    // hard links Vim does not know the other name").
    const named = (v: ClaimVerification): boolean => v.conflicts.some((c) => c.kind === 'term');
    if (verdicts.some((x) => x.v.verdict === 'contradicted' && !named(x.v))) return null;
    found.push(stated);
  }
  return found;
}

/** Least coverage of each of two passages that state a claim together. */
const PAIR_COVERAGE = 0.6;

/**
 * Two candidates that each state all of the claim but what the other states ("v13.0.0 The
 * elapsed time is displayed with a suitable time unit." under console.timeEnd()'s History, and
 * the entry's "if the elapsed time is 3869ms, console.timeEnd() displays 3.869s"): each misses
 * only names, values or words the other does not miss, neither is in conflict with the claim,
 * and each states most of its words. The pair, or `null`.
 */
function complementary(
  claim: ClaimAnalysis,
  checked: readonly Checked[],
): [Checked, Checked] | null {
  // Only values may be stated apart: a name one passage misses and another states is as likely
  // another thing's name (a swapped term) as the same thing's.
  const value = (m: string): boolean => claim.quantities.some((q) => q.text === m);
  const partial = checked.filter(
    (x) =>
      x.v.verdict === 'unrelated' &&
      x.v.conflicts.length === 0 &&
      x.v.missing.length > 0 &&
      x.v.missing.every(value) &&
      x.v.coverage >= PAIR_COVERAGE,
  );
  const lower = (v: ClaimVerification): Set<string> =>
    new Set(v.missing.map((m) => m.toLowerCase()));
  for (const [i, a] of partial.entries()) {
    const mine = lower(a.v);
    for (const b of partial.slice(i + 1)) {
      if (b.match.quote === a.match.quote) continue;
      const theirs = lower(b.v);
      if ([...mine].every((m) => !theirs.has(m))) return [a, b];
    }
  }
  return null;
}

/**
 * Verifies each candidate and decides: the best supporting candidate (exact before fuzzy before
 * embedding, then by score), unless it is a loose one (found by meaning, stating less than
 * {@link WEAK_COVERAGE} of the claim) while another candidate states a number, negation or
 * comparison in conflict with the claim, or unless a contradicting candidate states nearly all of
 * the claim's words and more of them than it (or as many, in words nearer the claim's), or most of them and much more than it, or stands under more of the claim's key terms (its heading or
 * definition term names them); else, for a claim joining two statements ("X, whereas Y"), support
 * when each part is supported by some candidate and none contradicts one (but one naming another
 * thing); else support by two candidates that state it together
 * ({@link complementary}), when none is in conflict with it; else the contradicting candidate that shares most words with the
 * claim, unless it was found by meaning and differs in names alone, or differs in ordinary words alone ({@link wordSwapsOnly}) (a doubt); else `not_found`, with the nearest candidate's reason. `context` (the page's title, title
 * heading and address) and each candidate's own heading may state the claim's key terms.
 */
export function judgeCandidates(
  claim: ClaimAnalysis,
  candidates: readonly PassageMatch[],
  context = '',
): Judgement {
  const checked: Checked[] = candidates.map((match) => ({
    match,
    v: verifyCandidate(claim, match, context),
  }));
  const supported = checked
    .filter((c) => c.v.verdict === 'supported')
    .sort((a, b) => RANK[a.match.method] - RANK[b.match.method] || b.match.score - a.match.score);
  const contradicted = checked
    .filter((c) => c.v.verdict === 'contradicted')
    .sort((a, b) => b.v.coverage - a.v.coverage || RANK[a.match.method] - RANK[b.match.method]);
  const against = contradicted[0];
  const best = supported[0];
  // The passage that states the claim best decides: one stating nearly all of its words with a
  // different fact outweighs a support that shares fewer, since a false `supported` is the worse
  // error ("only for HTTP/1.1 connections" backed by "A basic HTTP/1.1 client..." while the
  // option's own text says HTTP/2).
  // Of two passages stating as much of the claim, the one whose words are nearer the claim's
  // decides ("won't return true for BufferListStream instances created by versions ... before
  // this static method was added" against "return true if the passed object is an instance of
  // BufferList or BufferListStream and false otherwise", for "returns false for a
  // BufferListStream instance").
  // At equal coverage and score, a passage found by the claim's exact words is nearer than one
  // found by likeness ("Libxslt is not very specialized" against "More specialized memory
  // handling approaches are possible", for "Libxslt is very specialized").
  const closer = (x: Checked, y: Checked): boolean =>
    x.v.coverage > y.v.coverage ||
    (x.v.coverage === y.v.coverage &&
      (x.match.score > y.match.score ||
        (x.match.score === y.match.score && RANK[x.match.method] < RANK[y.match.method])));
  // So does one standing under the claim's subject (its heading or definition term names a key
  // term of the claim) against a support under another entry that names it in passing ("-a:
  // Append ... instead of overwriting it. Only useful with -o" backing "-o does not overwrite",
  // while "-o file: ... this overwrites the file").
  const about = (m: PassageMatch): number => statedKeyTerms(claim, m.context ?? '').length;
  const margin = (x: Checked): number =>
    x.match.method !== 'embedding' && x.v.conflicts.some((c) => c.kind !== 'term')
      ? OUTWEIGH_FACT_MARGIN
      : OUTWEIGH_MARGIN;
  const outweighed =
    best !== undefined &&
    against !== undefined &&
    best.match.method !== 'exact' &&
    ((against.v.coverage >= OUTWEIGH_COVERAGE && closer(against, best)) ||
      (against.v.coverage >= OUTWEIGH_MOST &&
        against.v.coverage >= best.v.coverage + margin(against)) ||
      about(against.match) > about(best.match));
  const partly = best && !outweighed ? partConflict(claim, best.match, context) : null;
  if (best && partly) {
    return {
      verdict: 'contradicted',
      match: best.match,
      conflicts: partly.conflicts,
      coverage: partly.coverage,
      reason: `${label(best.match)}: a part of the claim read alone: ${partly.reason}`,
      settled: true,
    };
  }
  // A support found by meaning that states little of the claim is no support while another
  // candidate states a number, negation or comparison in conflict with the claim.
  const doubt = checked.find((c) => c.v.conflicts.some((x) => x.kind !== 'term'));
  const doubted =
    best !== undefined &&
    best.match.method === 'embedding' &&
    best.v.coverage < WEAK_COVERAGE &&
    doubt !== undefined &&
    doubt !== best;
  if (best && !outweighed && !doubted) {
    return {
      verdict: 'supported',
      match: best.match,
      conflicts: [],
      coverage: best.v.coverage,
      reason: `${label(best.match)}: ${best.v.reason}`,
      settled: true,
    };
  }
  const parts = against ? null : partsStated(claim, checked, context);
  if (parts) {
    return {
      verdict: 'supported',
      match: parts[0]!.match,
      conflicts: [],
      coverage: Math.min(...parts.map((p) => p.v.coverage)),
      reason: `each part of the claim is stated: ${parts.map((p) => label(p.match)).join('; ')}`,
      settled: true,
    };
  }
  const pair = against || doubt ? null : complementary(claim, checked);
  if (pair) {
    return {
      verdict: 'supported',
      match: pair[0].match,
      conflicts: [],
      coverage: Math.min(pair[0].v.coverage, pair[1].v.coverage),
      reason: `two passages state the claim together: ${label(pair[0].match)} (all but ${pair[0].v.missing.map((m) => `"${m}"`).join(', ')}), ${label(pair[1].match)} (all but ${pair[1].v.missing.map((m) => `"${m}"`).join(', ')})`,
      settled: true,
    };
  }
  // A passage found by meaning that differs from the claim in names alone is as likely another
  // entry on the same topic as a swapped name ("timeoutGranularity" beside "readTimeout" in one
  // option's text): a doubt, no contradiction. So is any passage that differs from it in ordinary
  // words alone ("service" / "server"): a paraphrase words things otherwise as often as a false
  // claim swaps a word.
  const byMeaning = against?.match.method === 'embedding' && namesOnly(against.v);
  if (against && (byMeaning || wordSwapsOnly(claim, against.v.conflicts))) {
    const why = byMeaning
      ? 'a passage found by meaning names another thing'
      : 'a passage differs from the claim in ordinary words alone';
    return {
      verdict: 'not_found',
      match: null,
      conflicts: [],
      coverage: 0,
      reason: `${why} (${label(against.match)}): ${against.v.reason}`,
      settled: false,
      doubt: true,
    };
  }
  if (against) {
    return {
      verdict: 'contradicted',
      match: against.match,
      conflicts: against.v.conflicts,
      coverage: against.v.coverage,
      reason: `${label(against.match)}: ${against.v.reason}`,
      settled: against.match.method !== 'embedding' && against.v.coverage >= SETTLED_COVERAGE,
    };
  }
  const nearest = [...checked].sort((a, b) => b.v.coverage - a.v.coverage)[0];
  const reason = doubted
    ? `only a loose support (${label(best.match)}, coverage ${best.v.coverage}), and another passage (${label(doubt.match)}) says otherwise: ${doubt.v.reason}`
    : nearest
      ? `nearest passage (${label(nearest.match)}): ${nearest.v.reason}`
      : '';
  return {
    verdict: 'not_found',
    match: null,
    conflicts: [],
    coverage: 0,
    reason,
    settled: false,
    // A passage about something else that shares less than half of the claim raises no doubt
    // over statements of it each stated elsewhere (its conflict is with words the claim mixes),
    // unless it weighs against a loose support.
    doubt:
      doubted ||
      (doubt !== undefined &&
        !(doubt.v.verdict === 'unrelated' && doubt.v.coverage < DOUBT_MIN_COVERAGE)),
  };
}

/**
 * The verdict of a claim from the verdicts of the statements it joins ({@link statementsOf}),
 * each located and judged on its own: `contradicted` when one is, in more than names, with that
 * statement's conflict;
 * `supported` when every statement is and the claim read whole raised no `doubt` (a candidate
 * in conflict with it), with the first statement's passage; `null` (no verdict of its own)
 * otherwise.
 */
export function judgeStatements(
  statements: readonly string[],
  judged: readonly Judgement[],
  whole: Judgement,
): Judgement | null {
  // A short statement is easily near a passage on another entry, which differs in its names
  // anyway: a conflict of names alone does not contradict the claim.
  const against = judged.find(
    (j) => j.verdict === 'contradicted' && j.conflicts.some((c) => c.kind !== 'term'),
  );
  if (against) {
    const i = judged.indexOf(against);
    return { ...against, reason: `the statement "${statements[i]}": ${against.reason}` };
  }
  if (
    whole.doubt ||
    judged.length < statements.length ||
    judged.some((j) => j.verdict !== 'supported')
  )
    return null;
  return {
    verdict: 'supported',
    match: judged[0]!.match,
    conflicts: [],
    coverage: Math.min(...judged.map((j) => j.coverage)),
    reason: `each statement of the claim is stated: ${judged.map((j, i) => `"${statements[i]}" (${j.reason})`).join('; ')}`,
    settled: true,
  };
}
