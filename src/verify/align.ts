/**
 * The alignments of the verifier: each finds what a passage states differently from a claim
 * (polarity, quantities, comparatives, key terms, swapped words).
 */
import type { Analysis, Comparative, Token } from './analyze.js';
import { compareQuantities, comparable, unitNamed } from './quantities.js';
import type { Quantity } from './quantities.js';
import type { Conflict } from './verify-claim.js';
import { areAntonyms, hasTerm, norm, related } from './words.js';
import { loadWordNet } from './wordnet.js';

/** The cue and the word it negates: `not enabled`; or the word alone. */
function phrase(tokens: readonly Token[], at: number): string {
  const t = tokens[at]!;
  for (let i = at - 1; t.negated && i >= 0 && tokens[i]!.clause === t.clause; i--) {
    if (tokens[i]!.cue) {
      return tokens
        .slice(i, at + 1)
        .map((x) => x.text)
        .join(' ')
        .replace(/ n't/g, "n't");
    }
  }
  return t.text;
}

interface Clause {
  /** Token indexes of the clause's content words. */
  words: number[];
  /** Negation cues in the clause. */
  cues: number;
}

function clausesOf(a: Analysis): Clause[] {
  const byId = new Map<number, Clause>();
  a.tokens.forEach((t, i) => {
    let c = byId.get(t.clause);
    if (!c) byId.set(t.clause, (c = { words: [], cues: 0 }));
    if (t.cue) c.cues++;
    else if (t.content) c.words.push(i);
  });
  return [...byId.values()].filter((c) => c.words.length > 0);
}

/**
 * Polarity, clause by clause: each claim clause is paired with the page clauses sharing most of
 * its words (antonyms count as shared: they fill the same slot), and its parity of negation cues,
 * flipped once per antonym pair (`not enabled` = `disabled`, `not unusable` = `can be used`), must
 * equal the page clause's. Clause-wide parity lets a paraphrase move the negation ("performs no
 * CORS checks" = "does not implement CORS checks").
 */
export function polarityConflicts(claim: Analysis, page: Analysis): Conflict[] {
  const out: Conflict[] = [];
  const pageClauses = clausesOf(page);
  for (const c of clausesOf(claim)) {
    let best = 0;
    let pairs: { clause: Clause; flips: [number, number][]; shared: number[] }[] = [];
    for (const p of pageClauses) {
      const flips: [number, number][] = [];
      const shared: number[] = [];
      for (const i of c.words) {
        const t = claim.tokens[i]!;
        const same = p.words.find((j) => related(t, page.tokens[j]!));
        if (same !== undefined) {
          shared.push(same);
          continue;
        }
        const opposite = p.words.find((j) => areAntonyms(t, page.tokens[j]!));
        if (opposite !== undefined) flips.push([i, opposite]);
      }
      const score = shared.length + flips.length;
      if (score === 0 || score < best) continue;
      if (score > best) pairs = [];
      best = score;
      pairs.push({ clause: p, flips, shared });
    }
    // Too little in common to say the clauses state the same thing.
    if (best < Math.min(2, c.words.length)) continue;
    // A parity difference is evidence only when it touches what both clauses say: an antonym pair,
    // or a negated word the other clause states too ("will not retry" / "will retry"). Otherwise
    // the clauses pair by their nouns but predicate different things.
    const touches = (x: (typeof pairs)[number]): boolean =>
      x.flips.length > 0 ||
      c.words.some(
        (i) =>
          claim.tokens[i]!.negated &&
          x.clause.words.some((j) => related(claim.tokens[i]!, page.tokens[j]!)),
      ) ||
      x.clause.words.some(
        (j) =>
          page.tokens[j]!.negated &&
          c.words.some((i) => related(claim.tokens[i]!, page.tokens[j]!)),
      );
    const agrees = pairs.some(
      (x) => (c.cues + x.flips.length) % 2 === x.clause.cues % 2 || !touches(x),
    );
    if (agrees || pairs.length === 0) continue;
    const x = pairs[0]!;
    const flip = x.flips[0];
    if (flip && c.cues % 2 === x.clause.cues % 2) {
      out.push({
        kind: 'antonym',
        claim: phrase(claim.tokens, flip[0]),
        page: phrase(page.tokens, flip[1]),
      });
      continue;
    }
    const negatedIn = (a: Analysis, words: readonly number[]): number | undefined =>
      words.find((i) => a.tokens[i]!.negated);
    const claimAt =
      negatedIn(claim, c.words) ??
      flip?.[0] ??
      c.words.find((i) => claim.tokens[i]!.pos === 'VERB') ??
      c.words[0]!;
    const pageAt =
      negatedIn(page, x.clause.words) ??
      flip?.[1] ??
      x.shared.find((j) => page.tokens[j]!.pos === 'VERB') ??
      x.shared[0] ??
      x.clause.words[0]!;
    out.push({
      kind: 'negation',
      claim: phrase(claim.tokens, claimAt),
      page: phrase(page.tokens, pageAt),
    });
  }
  return out;
}

/**
 * Quantities: each of the claim's must match one of the page's of the same kind and dimension; a
 * different value is a conflict, an opposite bound a `comparative` one, none at all `missing`.
 */
export function quantityAlignment(
  claim: Analysis,
  page: Analysis,
): { conflicts: Conflict[]; missing: string[] } {
  const conflicts: Conflict[] = [];
  const missing: string[] = [];
  for (const q of claim.quantities) {
    const candidates = page.quantities.filter((p) => comparable(q, p));
    // "Default: 500" under "number of milliseconds": a bare number on a page that names the
    // claim's unit is read in that unit.
    const factor =
      q.kind === 'number' && !q.dim.startsWith('count') ? unitNamed(page.text, q.dim) : null;
    if (factor !== null) {
      for (const p of page.quantities) {
        if (p.kind === 'number' && p.dim === 'count') {
          candidates.push({
            ...p,
            dim: q.dim,
            value: p.value * factor,
            high: p.high * factor,
            unit: 'named',
          });
        }
      }
    }
    const results = candidates.map((p) => [p, compareQuantities(q, p)] as const);
    if (results.some(([, r]) => r === 'same')) continue;
    const opposite = results.find(([, r]) => r === 'opposite');
    if (opposite) {
      conflicts.push({ kind: 'comparative', claim: q.text, page: opposite[0].text });
      continue;
    }
    const different = closest(q, claim, page, candidates);
    if (different && aligned(q, claim, different, page)) {
      conflicts.push({ kind: q.kind, claim: q.text, page: different.text });
      continue;
    }
    // "the one that" or "once" in words prove little; digits and measures must be stated.
    if (q.kind !== 'number' || /\d/.test(q.text) || !q.dim.startsWith('count'))
      missing.push(q.text);
  }
  return { conflicts, missing };
}

/** The content words (lower case) among the eight words either side of a quantity. */
function around(a: Analysis, x: Quantity): string[] {
  const content = new Set(a.tokens.filter((t) => t.content).map((t) => t.lower));
  const near = [
    ...a.text.slice(0, x.start).split(/\s+/).filter(Boolean).slice(-8),
    ...a.text.slice(x.end).split(/\s+/).filter(Boolean).slice(0, 8),
  ].join(' ');
  return (near.toLowerCase().match(/[\p{L}][\p{L}\p{N}_]{2,}/gu) ?? []).filter((w) =>
    content.has(w),
  );
}

/** Words of one stem: equal, or sharing their first five letters ("default"/"defaults"). */
const sameStem = (x: string, y: string): boolean =>
  x === y || (x.length >= 5 && y.length >= 5 && x.slice(0, 5) === y.slice(0, 5));

/**
 * True when two quantities fill the same slot: some content word next to one is next to the other
 * ("bodyTimeout ... 300 seconds" / "bodyTimeout ... 200 seconds"). A different value elsewhere in
 * the passage, about another thing, is no contradiction: the claim's value is just not stated.
 */
function aligned(q: Quantity, claim: Analysis, p: Quantity, page: Analysis): boolean {
  const theirs = around(page, p);
  return around(claim, q).some((w) => theirs.some((x) => sameStem(w, x)));
}

/** The page quantity whose surrounding words best match the claim quantity's. */
function closest(
  q: Quantity,
  claim: Analysis,
  page: Analysis,
  candidates: readonly Quantity[],
): Quantity | undefined {
  if (candidates.length <= 1) return candidates[0];
  const around = (text: string, x: Quantity): Set<string> =>
    new Set(
      `${text.slice(Math.max(0, x.start - 40), x.start)} ${text.slice(x.end, x.end + 40)}`
        .toLowerCase()
        .match(/[a-z]{3,}/g) ?? [],
    );
  const mine = around(claim.text, q);
  let best = candidates[0];
  let score = -1;
  for (const c of candidates) {
    const theirs = around(page.text, c);
    const s = [...mine].filter((w) => theirs.has(w)).length + (c.dim === q.dim ? 0.5 : 0);
    if (s > score) {
      score = s;
      best = c;
    }
  }
  return best;
}

/**
 * The two arguments of a comparison: what follows it in its clause ("than Y", "after an error"),
 * and everything else.
 */
function sides(a: Analysis, at: number): [Set<string>, Set<string>] {
  const left = new Set<string>();
  const right = new Set<string>();
  const clause = a.tokens[at]?.clause;
  // Only the comparison's own sentence: "before" in the next sentence of a window compares
  // other things.
  const end = /^[.!?]+$/;
  let first = at;
  while (first > 0 && !end.test(a.tokens[first - 1]!.text)) first--;
  let last = at;
  while (last < a.tokens.length - 1 && !end.test(a.tokens[last]!.text)) last++;
  a.tokens.forEach((t, i) => {
    if (!t.content || i === at || i < first || i > last) return;
    (i > at && t.clause === clause ? right : left).add(t.lemma);
  });
  return [left, right];
}

const overlap = (x: Set<string>, y: Set<string>): number => [...x].filter((w) => y.has(w)).length;

/**
 * Comparatives: a page comparison of the same (or the opposite) base about the same things must
 * point the same way, counting antonyms and arguments that swapped sides.
 */
export function comparativeConflicts(claim: Analysis, page: Analysis): Conflict[] {
  const out: Conflict[] = [];
  const wn = loadWordNet();
  for (const c of claim.comparatives) {
    let agreed = false;
    let against: Comparative | undefined;
    for (const p of page.comparatives) {
      const same = p.base === c.base || wn.synonyms(p.base, c.base);
      const opposite = !same && wn.antonyms(c.base).has(p.base);
      if (!same && !opposite) continue;
      const [cl, cr] = sides(claim, c.at);
      const [pl, pr] = sides(page, p.at);
      // Only a comparison of the same things counts: "before all requests complete" is not
      // answered by a "before" elsewhere in the passage about something else.
      if (overlap(cr, pr) === 0 && !(overlap(cl, pr) > 0 && overlap(cr, pl) > 0)) continue;
      // "X is faster than Y" says what "Y is slower than X" does: the arguments swapped sides.
      const swapped = overlap(cl, pr) + overlap(cr, pl) > overlap(cl, pl) + overlap(cr, pr);
      const sign = p.sign * (opposite ? -1 : 1) * (swapped ? -1 : 1);
      if (sign === c.sign) agreed = true;
      else against ??= p;
    }
    if (!agreed && against) out.push({ kind: 'comparative', claim: c.text, page: against.text });
  }
  return out;
}

/** Words that join items of a list: a term beside one is no evidence of a slot. */
const LIST_WORDS = new Set(['and', 'or', 'nor', ',', 'the', 'a', 'an', 'of']);

/** The raw token before and after each occurrence of `term` in an analysis. */
function neighbours(a: Analysis, term: string): [string, string][] {
  const first =
    norm(term)
      .split(/[^\p{L}\p{N}_$]+/u)
      .find(Boolean) ?? '';
  const out: [string, string][] = [];
  a.tokens.forEach((t, i) => {
    if (t.lower !== first) return;
    out.push([a.tokens[i - 1]?.lower ?? '', a.tokens[i + 1]?.lower ?? '']);
  });
  return out;
}

/**
 * Key terms must be stated in the passage (or in `context`: the page's title and top headings,
 * which name what a section is about). A missing term is a swap (`term` conflict) only when a term
 * the claim does not have stands in the same place on the page ("engine is InnoDB" / "engine is
 * MyISAM"); otherwise it is just missing.
 */
export function termAlignment(
  claim: Analysis,
  page: Analysis,
  context: string,
): { conflicts: Conflict[]; missing: string[] } {
  const pageText = norm(page.text);
  const contextText = norm(context);
  const claimText = norm(claim.text);
  const conflicts: Conflict[] = [];
  const missing: string[] = [];
  const wn = loadWordNet();
  const spare = page.keyTerms.filter(
    (k) => !hasTerm(claimText, k.text) && !(k.kind === 'proper' && wn.knows(k.text.toLowerCase())),
  );
  for (const k of claim.keyTerms) {
    if (hasTerm(pageText, k.text) || hasTerm(contextText, k.text)) continue;
    // An identifier may be named by its head on the page ("PING frames" for "PING").
    if (
      pageText
        .split(/[^\p{L}\p{N}_$]+/u)
        .some((w) => w.startsWith(k.text.toLowerCase()) && k.text.length >= 4)
    )
      continue;
    if (k.kind === 'rare') {
      // A rare word may be inflected differently on the page ("configurable", "configure").
      const stem = k.text.toLowerCase().slice(0, Math.max(5, Math.ceil(k.text.length * 0.75)));
      if (pageText.split(/[^\p{L}\p{N}]+/u).some((w) => w.startsWith(stem))) continue;
    }
    const mine = neighbours(claim, k.text);
    const swap = spare.find((s) =>
      neighbours(page, s.text).some(([b, a]) =>
        mine.some(
          ([cb, ca]) =>
            (b !== '' && b === cb && !LIST_WORDS.has(b)) ||
            (a !== '' && a === ca && /\p{L}/u.test(a) && !LIST_WORDS.has(a)),
        ),
      ),
    );
    if (swap) conflicts.push({ kind: 'term', claim: k.text, page: swap.text });
    else missing.push(k.text);
  }
  // A term the page states, but elsewhere: another term stands where the claim puts it ("if only
  // https_proxy is set" / "if only http_proxy is set").
  for (const k of claim.keyTerms) {
    if (!hasTerm(pageText, k.text) || conflicts.some((x) => x.claim === k.text)) continue;
    const frames = textFrames(claimText, k.text);
    const theirs = new Set(textFrames(pageText, k.text));
    for (const other of page.keyTerms) {
      // A term the claim states too has moved, not been swapped ("X is faster than Y" / "Y is
      // slower than X"): comparatives judge that.
      if (norm(other.text) === norm(k.text) || hasTerm(claimText, other.text)) continue;
      const hit = textFrames(pageText, other.text).find(
        (f) => frames.includes(f) && !theirs.has(f),
      );
      if (hit) {
        conflicts.push({ kind: 'term', claim: k.text, page: other.text });
        break;
      }
    }
  }
  return { conflicts, missing };
}

/** `before|after` word pairs around each whole occurrence of `term`; lists ("X and Y") excluded. */
function textFrames(text: string, term: string): string[] {
  const t = norm(term).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const out: string[] = [];
  for (const m of text.matchAll(
    new RegExp(`(?:^|\\s)([\\p{L}\\p{N}_']+)\\s+${t}\\s+([\\p{L}\\p{N}_']+)`, 'gu'),
  )) {
    const [before, after] = [m[1]!, m[2]!];
    if (/^(?:and|or|nor)$/.test(before) || /^(?:and|or|nor)$/.test(after)) continue;
    out.push(`${before}|${after}`);
  }
  return out;
}

const SWAPPABLE = new Set(['NOUN', 'PROPN', 'ADJ', 'ADV', 'NUM', 'X']);
const FUNCTION_POS = new Set([
  'DET',
  'ADP',
  'PRON',
  'CCONJ',
  'SCONJ',
  'AUX',
  'PART',
  'PUNCT',
  'SYM',
]);
/** The tokens of the sentence holding token `at`. */
function sentenceAround(a: Analysis, at: number): Token[] {
  const end = /^[.!?]+$/;
  let first = at;
  while (first > 0 && !end.test(a.tokens[first - 1]!.text)) first--;
  let last = at;
  while (last < a.tokens.length - 1 && !end.test(a.tokens[last]!.text)) last++;
  return a.tokens.slice(first, last + 1);
}

/** Coarse word class: noun, adjective, verb, adverb. */
const wordClass = (t: Token): string =>
  ({ NOUN: 'n', PROPN: 'n', X: 'n', NUM: 'n', ADJ: 'a', VERB: 'v', ADV: 'r' })[t.pos] ?? t.pos;

const isWord = (t: Token): boolean => /\p{L}/u.test(t.text) && !FUNCTION_POS.has(t.pos) && !t.cue;

/**
 * Words swapped in an otherwise identical frame: the two tokens before and after agree on claim and
 * page (at least three of the four), the word between differs and is no synonym, and the claim's
 * word stands in no such frame on the page ("begins in the idle state" / "in the processing
 * state"). Verbs are left out: paraphrases change them ("returns" / "transitions").
 */
export function swappedWords(claim: Analysis, page: Analysis): Conflict[] {
  const out: Conflict[] = [];
  const at = (a: Analysis, i: number): string => a.tokens[i]?.lower ?? '\u0000';
  const wn = loadWordNet();
  const verbish = (t: Token): boolean => wn.synsets(t.lemma).some((id) => id.startsWith('v'));
  claim.tokens.forEach((c, i) => {
    if (!isWord(c)) return;
    // An adverb only as a modifier inside a noun phrase ("the last matching request"), never
    // before a preposition ("just before" / "right before").
    if (c.pos === 'ADV' && !['NOUN', 'ADJ', 'VERB'].includes(claim.tokens[i + 1]?.pos ?? ''))
      return;
    const attributive =
      c.pos === 'VERB' && /(?:ing|ed)$/.test(c.lower) && claim.tokens[i + 1]?.pos === 'NOUN';
    if (!SWAPPABLE.has(c.pos) && !attributive) return;
    const frame = [at(claim, i - 2), at(claim, i - 1), at(claim, i + 1), at(claim, i + 2)];
    let swapped: Token | undefined;
    for (let j = 0; j < page.tokens.length; j++) {
      const theirs = [at(page, j - 2), at(page, j - 1), at(page, j + 1), at(page, j + 2)];
      const same = frame.filter((w, k) => w === theirs[k] && w !== '\u0000').length;
      // The neighbours next to the word must both agree; the outer ones give the third.
      if (same < 3 || frame[1] !== theirs[1] || frame[2] !== theirs[2]) continue;
      const p = page.tokens[j]!;
      if (related(c, p)) return;
      if (!isWord(p) || claim.tokens.some((t) => isWord(t) && related(t, p))) continue;
      // The sentence that has the frame states the claim's word elsewhere ("The default
      // configuration is: { ..., optionsSuccessStatus: 204 }"): the frame is a coincidence.
      if (sentenceAround(page, j).some((x) => x.content && related(c, x))) continue;
      // Only a word of the same kind fills the slot: a noun for a noun, an adjective for an
      // adjective, or any modifier for a modifier before a noun ("the idle state" / "the
      // processing state"); a noun read where the page has a verb is a rewording ("versions ship
      // built-in ..." / "versions that feature built-in ...").
      const attributive = (a: Analysis, k: number): boolean =>
        /^(?:NOUN|PROPN)$/.test(a.tokens[k + 1]?.pos ?? '') &&
        /^(?:NOUN|PROPN|ADJ|VERB|X)$/.test(a.tokens[k]!.pos);
      if (wordClass(c) !== wordClass(p) && !(attributive(claim, i) && attributive(page, j)))
        continue;
      // Before an article both may be verbs taking an object ("returns the" / "transitions the"):
      // a paraphrase's change of verb, not a swapped fact.
      if (/^(?:the|a|an)$/.test(frame[2]!) && verbish(c) && verbish(p)) continue;
      swapped ??= p;
    }
    if (swapped) out.push({ kind: 'term', claim: c.text, page: swapped.text });
  });
  return out;
}
