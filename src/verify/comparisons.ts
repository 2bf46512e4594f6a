/**
 * Comparisons of a claim against a passage: a page comparison of the same things must point the
 * same way, and a comparison the claim states must be stated ("smaller than the limit" is a fact
 * of its own, not a detail a paraphrase may drop).
 */
import { sentenceBounds } from './analyze.js';
import type { Analysis, Comparative, Token } from './analyze.js';
import type { Conflict } from './verify-claim.js';
import { loadWordNet } from './wordnet.js';
import { proseKey, related } from './words.js';

/**
 * The two arguments of a comparison: what follows it in its clause ("than Y", "after an error"),
 * and everything else of its sentence.
 */
function sides(a: Analysis, at: number): [Set<string>, Set<string>] {
  const left = new Set<string>();
  const right = new Set<string>();
  const clause = a.tokens[at]?.clause;
  // Only the comparison's own sentence: "before" in the next sentence of a window compares
  // other things.
  const [first, last] = sentenceBounds(a, at);
  // "prior to 1.0.2", "ahead of /usr": a preposition, whose argument is its noun phrase (with a
  // gerund: "prior to the stack entering the file"); the finite verb after it is the sentence's
  // ("versions prior to 1.0.2 used 32-bit integers"). "before" may open a clause ("before the
  // request completes") and keeps the rest of its clause.
  const preposition = /^(?:to|of)$/.test(a.tokens[at + 1]?.lower ?? '');
  const end = preposition
    ? a.tokens.findIndex(
        (t, i) =>
          i > at + 1 &&
          (t.pos === 'AUX' ||
            // A "verb" after an article is a noun the tagger misread ("the stack entering").
            (t.pos === 'VERB' && !/ing$/.test(t.lower) && a.tokens[i - 1]?.pos !== 'DET')),
      )
    : -1;
  // An example or restatement in brackets after the comparison ("ordered from closest to furthest
  // (i.e. arr[0] === req.connection.remoteAddress)") is neither side.
  const aside = new Set<number>();
  let depth = 0;
  for (let i = at + 1; i <= last; i++) {
    const v = a.tokens[i]!.text;
    if (v === '(' && (depth > 0 || /^(?:i\.e|e\.g)\.?$/i.test(a.tokens[i + 1]?.text ?? '')))
      depth++;
    if (depth > 0) aside.add(i);
    if (v === ')' && depth > 0) depth--;
  }
  // "more resource-intense (and slower) than inotify mode": the brackets end the clause, but
  // what "than" names is still the comparison's other side, up to the end of its own clause.
  const than = thanOf(a, at);
  const thanClause = than >= 0 ? a.tokens[than + 1]?.clause : undefined;
  // An earlier comparison of the same word in the sentence has its own sides: its clause is not
  // this one's left ("X runs before its package is unpacked, while Y runs before the files are
  // removed"). One of another word may share the subject ("less costly and faster than Y").
  const self = a.comparatives.find((k) => k.at === at);
  const earlier = a.comparatives.findLast(
    (k) => k.at < at && k.at >= first && k.base === self?.base,
  );
  const taken = earlier ? a.tokens[earlier.at]!.clause : -1;
  // "less strict": the adjective is the comparison's own word, on neither side.
  const span = /^(?:more|less|fewer)\s+\S+$/i.test(self?.text ?? '') ? 2 : 1;
  a.tokens.forEach((t, i) => {
    if (!t.content || (i >= at && i < at + span) || i < first || i > last || aside.has(i)) return;
    if (i < at && t.clause <= taken) return;
    const own = i > at && t.clause === clause && (end < 0 || i < end);
    const named = than >= 0 && i > than && t.clause === thanClause;
    (own || named ? right : left).add(t.lemma);
  });
  return [left, right];
}

/**
 * The "than" of the comparison at `at` past brackets that end its clause ("more resource-intense
 * (and slower) than inotify mode"): the first after a closing bracket, before a comma or another
 * comparison outside brackets; -1 when none.
 */
function thanOf(a: Analysis, at: number): number {
  const [, last] = sentenceBounds(a, at);
  let closed = false;
  for (let i = at + 1, depth = 0; i <= last; i++) {
    const v = a.tokens[i]!.text;
    if (v === '(') depth++;
    else if (v === ')') {
      depth = Math.max(0, depth - 1);
      closed = true;
    } else if (depth > 0) continue;
    else if (/^[,;:]$/.test(v) || a.comparatives.some((k) => k.at === i)) return -1;
    else if (a.tokens[i]!.lower === 'than') return closed ? i : -1;
  }
  return -1;
}

const overlap = (x: Set<string>, y: Set<string>): number => [...x].filter((w) => y.has(w)).length;

/** The words of `x` that `y` does not have. */
const only = (x: Set<string>, y: Set<string>): Set<string> =>
  new Set([...x].filter((w) => !y.has(w)));

/**
 * The content words of the comparison's own clause; a clause of fewer than two besides it ("but
 * run slower") takes the clause before it in the sentence, which names what it is about.
 */
function scope(a: Analysis, at: number): Set<string> {
  const [first] = sentenceBounds(a, at);
  // A comparative counts by its base and direction ("Higher" and "higher" are "high", whatever
  // the tagger; "lower" is "-high").
  const word = (i: number): string => {
    const x = a.comparatives.find((k) => k.at === i);
    return x ? `${x.sign < 0 ? '-' : ''}${x.base}` : a.tokens[i]!.lemma;
  };
  const of = (clause: number): string[] =>
    a.tokens.flatMap((t, i) =>
      t.content && i !== at && i >= first && t.clause === clause ? [word(i)] : [],
    );
  const clause = a.tokens[at]!.clause;
  const own = of(clause);
  const before = a.tokens.findLast(
    (t, i) => t.content && i < at && i >= first && t.clause < clause,
  );
  return new Set(own.length < 2 && before ? [...own, ...of(before.clause)] : own);
}

/** Bases that all measure how much: "larger", "higher", "more", "greater" compare one way. */
const MAGNITUDE = new Set(['more', 'high', 'large', 'big', 'great', 'much', 'many']);

/** True when two comparisons have one base (or one of magnitude), or WordNet's synonyms. */
const sameBase = (a: Comparative, b: Comparative): boolean =>
  a.base === b.base ||
  (MAGNITUDE.has(a.base) && MAGNITUDE.has(b.base)) ||
  loadWordNet().synonyms(a.base, b.base);

/**
 * What a comparison measures, when it says so with a noun after a word of magnitude ("greater
 * significance"): the noun; else its base. Cut to its first six letters, so "significance" and
 * "significant" measure one thing.
 */
function measure(a: Analysis, x: Comparative): string {
  const next = a.tokens[x.at + 1];
  const what = MAGNITUDE.has(x.base) && next?.pos === 'NOUN' ? next.lower : x.base;
  return what.slice(0, 6);
}

/** True when two comparisons measure one thing ("less significant" / "greater significance"). */
const sameMeasure = (ca: Analysis, c: Comparative, pa: Analysis, p: Comparative): boolean =>
  measure(ca, c).length >= 5 && measure(ca, c) === measure(pa, p);

/** True when WordNet files the bases as antonyms (`fast`/`slow`). */
const oppositeBase = (a: Comparative, b: Comparative): boolean =>
  loadWordNet().antonyms(a.base).has(b.base);

/**
 * Comparatives: a page comparison of the same (or the opposite) base about the same things must
 * point the same way, counting antonyms and arguments that swapped sides.
 */
export function comparativeConflicts(claim: Analysis, page: Analysis): Conflict[] {
  const out: Conflict[] = [];
  for (const c of claim.comparatives) {
    let agreed = false;
    let against: Comparative | undefined;
    const [cl, cr] = sides(claim, c.at);
    const judged = page.comparatives.filter(
      (p) => sameBase(p, c) || oppositeBase(c, p) || sameMeasure(claim, c, page, p),
    );
    // A comparison with nothing after it ("lower levels run slower") is judged by the page's
    // comparisons of the same subject: those whose sentence shares most words before them.
    const subject = (p: Comparative): number => overlap(cl, sides(page, p.at)[0]);
    // Only a degree of an adjective ("slower", "higher"): "most recently used" orders a sequence.
    // "less strict" and "more stable" are degrees too, of the adjective after them.
    const degree =
      (/^\p{L}+er$/u.test(c.text) && !/^(?:more|fewer)$/i.test(c.text)) ||
      (/^(?:more|less|fewer)\s+\p{L}+$/iu.test(c.text) &&
        /^(?:ADJ|ADV|NOUN)$/.test(claim.tokens[c.at + 1]?.pos ?? '')) ||
      // So are "less memory" and "fewer allocations", amounts of the noun after them, and a verb
      // of change ("is increased", "grows"): with nothing after them, their subject tells.
      (c.base === 'more' && claim.tokens[c.at]?.pos === 'VERB');
    // A subject of one word ("The API is slower") is matched by that word.
    const best =
      degree && cr.size === 0 ? Math.max(Math.min(2, cl.size), ...judged.map(subject)) : Infinity;
    // Only a comparison of the same things counts: "before all requests complete" is not
    // answered by a "before" elsewhere in the passage about something else.
    const mine = scope(claim, c.at);
    const clauseShare = (p: Comparative): number => overlap(mine, scope(page, p.at));
    const eligible = judged.filter((p) => {
      const [pl, pr] = sides(page, p.at);
      return (
        overlap(cr, pr) > 0 ||
        (overlap(cl, pr) > 0 && overlap(cr, pl) > 0) ||
        subject(p) >= best ||
        (best !== Infinity && clauseShare(p) >= 2)
      );
    });
    // Of those, the ones about the claim's subject decide ("lower levels give faster execution"
    // against "lower levels ... faster execution" and "higher levels ... slower execution"): the
    // ones whose clause shares most with the claim's clause, else whose sentence does (a claim
    // sentence may state both cases: "lower levels run faster, while higher levels run slower").
    const closest = degree ? Math.max(0, ...eligible.map(clauseShare)) : 0;
    const most = degree && closest < 2 ? Math.max(0, ...eligible.map(subject)) : 0;
    // With no clause sharing more, the page's own words for the comparison decide: "a lower
    // level ... is much faster" is answered by "A lower level ... will be much faster", not by
    // the sentence on the higher level that shares more of the claim's other words.
    const head = (a: Analysis, at: number): string | undefined =>
      a.tokens.slice(at + 1, at + 3).find((t) => t.content)?.lemma;
    const echoed =
      degree &&
      closest < 2 &&
      head(claim, c.at) !== undefined &&
      eligible.some(
        (p) =>
          p.text.toLowerCase() === c.text.toLowerCase() &&
          clauseShare(p) >= 1 &&
          head(page, p.at) === head(claim, c.at),
      );
    if (echoed) continue;
    for (const p of eligible) {
      if (closest >= 2 && clauseShare(p) < closest) continue;
      if (most >= 2 && subject(p) < most) continue;
      const opposite = !sameBase(p, c) && !sameMeasure(claim, c, page, p);
      const [pl, pr] = sides(page, p.at);
      // "X is faster than Y" says what "Y is slower than X" does: the arguments swapped sides.
      // A comparative before its noun with no "than" ("a darker shade", "greater significance")
      // compares nothing named on either side: no sides to swap.
      const before = (a: Analysis, at: number): boolean =>
        a.tokens[at]?.pos === 'ADJ' &&
        a.tokens[at + 1]?.pos === 'NOUN' &&
        thanOf(a, at) < 0 &&
        !a.tokens.some((t, k) => k > at && t.clause === a.tokens[at]!.clause && t.lower === 'than');
      // Only words on one side of each tell the sides apart: "package" before and after both
      // "runs before the files of the package" and "before the package is unpacked" swaps nothing.
      const [ol, or] = [only(cl, cr), only(cr, cl)];
      const [opl, opr] = [only(pl, pr), only(pr, pl)];
      // "After an interruption many servers restore the queue": a sentence that opens with its
      // order and runs on with no comma has all its words on the right, no side to swap.
      const opening =
        cl.size === 0 && c.base === 'before' && sentenceBounds(claim, c.at)[0] === c.at;
      const swapped =
        !opening &&
        !before(claim, c.at) &&
        !before(page, p.at) &&
        overlap(ol, opr) + overlap(or, opl) > overlap(ol, opl) + overlap(or, opr);
      const sign = p.sign * (opposite ? -1 : 1) * (swapped ? -1 : 1);
      if (sign === c.sign) agreed = true;
      else against ??= p;
    }
    if (!agreed && against) out.push({ kind: 'comparative', claim: c.text, page: against.text });
  }
  return out;
}

/** True for "more X", "fewer X": an amount compared, which "exceeds" or "larger" also state. */
const amount = (c: Comparative): boolean => /^(?:more|less|fewer)\s/i.test(c.text);

/** Bases of a size a thing may go beyond: "grows longer than maxBuffer" is "exceeds" it. */
const EXCEEDABLE = new Set([...MAGNITUDE, 'long', 'wide', 'deep', 'tall', 'heavy']);

/** True when the page's "exceeds" states the claim's "longer than", "larger than". */
const exceeded = (c: Comparative, p: Comparative): boolean =>
  /^exceed/i.test(p.text) && p.sign === c.sign && EXCEEDABLE.has(c.base);

const TIMING = new Set(['early', 'late', 'soon', 'before']);

/**
 * The claim's comparisons the passage does not state at all: no comparison of the same or the
 * opposite base, and not the claim's own word ("smaller than the limit" against a passage that
 * only says a 413 is raised). Such a claim may be true, but this passage does not show it.
 */
export function unstatedComparisons(claim: Analysis, page: Analysis): string[] {
  const words = new Set(page.tokens.filter((t) => t.content).map((t) => t.lemma));
  return claim.comparatives
    .filter(
      (c) =>
        // "downloaded earlier", "set later", "before a request is queued": when, not how much
        // (a flipped before/after is judged against the page's own).
        !TIMING.has(c.base) &&
        !page.comparatives.some(
          (p) =>
            sameBase(p, c) ||
            oppositeBase(c, p) ||
            (amount(c) && MAGNITUDE.has(p.base)) ||
            exceeded(c, p),
        ) &&
        !words.has(claim.tokens[c.at]!.lemma) &&
        !opensBound(claim, c.at) &&
        // A superlative that names a bound ("the largest batch") is stated by the bound's word
        // ("the maximum batch size").
        !(
          bound(claim.tokens[c.at]!) &&
          page.tokens.some((t) => t.content && sameBound(claim.tokens[c.at]!, t))
        ),
    )
    .map((c) => c.text);
}

/** True when token `i` opens a bound on a number ("greater than 0", "higher than 2"). */
export function opensBound(c: Analysis, i: number): boolean {
  const t = c.tokens[i]!;
  if (c.tokens[i + 1]?.lower !== 'than') return false;
  return c.quantities.some(
    (q) => q.bound !== 'eq' && q.text.toLowerCase().startsWith(`${t.lower} than`),
  );
}

/** True for a word of a bound's group of prose synonyms ("largest" with "maximum"). */
const bound = (t: Token): boolean => proseKey(t) !== t.lower;
const sameBound = (a: Token, b: Token): boolean => proseKey(a) === proseKey(b);

const PARTICLE_OPPOSITE: Record<string, string> = { up: 'down', down: 'up' };

/**
 * A verb's direction particle flipped: "rounding up" against "rounding down", "scales down"
 * against "scales up", when the page never puts the claim's particle after that verb.
 */
export function particleConflicts(claim: Analysis, page: Analysis): Conflict[] {
  for (const [i, t] of claim.tokens.entries()) {
    const other = Object.hasOwn(PARTICLE_OPPOSITE, t.lower) ? PARTICLE_OPPOSITE[t.lower] : null;
    const verb = claim.tokens[i - 1];
    // A verb, or a word the tagger read otherwise that WordNet knows as one ("by rounding up",
    // "is rounded up", "Scroll up").
    const verbal = (t: Token): boolean =>
      t.pos === 'VERB' ||
      /ing$/.test(t.lower) ||
      (t.content &&
        [t.lemma, t.lower.replace(/e?d$/, '')].some((w) =>
          loadWordNet()
            .synsets(w)
            .some((id) => id.startsWith('v')),
        ));
    if (!other || !verb || !verbal(verb)) continue;
    const after = (particle: string): number =>
      page.tokens.findIndex(
        (x, j) => x.lemma === verb.lemma && page.tokens[j + 1]?.lower === particle,
      );
    const at = after(other);
    if (at >= 0 && after(t.lower) < 0) {
      return [
        {
          kind: 'antonym',
          claim: `${verb.text} ${t.text}`,
          page: `${page.tokens[at]!.text} ${other}`,
        },
      ];
    }
  }
  return [];
}

const OPERATOR_OPPOSITE: Record<string, string> = { plus: 'minus', minus: 'plus' };

/**
 * An amount added where the page takes it away: "the sum of the lengths, plus any initial offset"
 * against "minus any initial offset" (the same word within three after the operator), when the
 * page never adds it.
 */
export function operatorConflicts(claim: Analysis, page: Analysis): Conflict[] {
  const operand = (a: Analysis, i: number): Token[] =>
    a.tokens.slice(i + 1, i + 4).filter((x) => x.content);
  for (const [i, t] of claim.tokens.entries()) {
    const other = Object.hasOwn(OPERATOR_OPPOSITE, t.lower) ? OPERATOR_OPPOSITE[t.lower] : null;
    if (!other) continue;
    const mine = operand(claim, i);
    const at = (op: string): number =>
      page.tokens.findIndex(
        (x, j) => x.lower === op && operand(page, j).some((y) => mine.some((m) => related(m, y))),
      );
    const theirs = at(other);
    if (theirs >= 0 && at(t.lower) < 0) {
      const words = (a: Analysis, k: number): string =>
        a.tokens
          .slice(k, k + 4)
          .map((x) => x.text)
          .join(' ');
      return [{ kind: 'comparative', claim: words(claim, i), page: words(page, theirs) }];
    }
  }
  return [];
}
