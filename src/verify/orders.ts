/**
 * Orders between two things: which wins ("user mappings are used in preference to the default
 * ones", "(1) escape, (2) interpolate, (3) evaluate") and which comes first ("from least recently
 * used to most recently used"). A claim that puts the same two things the other way round states
 * the opposite fact, in words no polarity or comparison check sees.
 */
import type { Analysis } from './analyze.js';
import type { Conflict } from './verify-claim.js';
import { loadWordNet } from './wordnet.js';

/** What an order says: one thing wins over another, or comes before it. */
type OrderKind = 'precedence' | 'sequence';

/** Two things in order: `first` wins over (or comes before) `second`. */
interface Ordered {
  kind: OrderKind;
  first: string;
  second: string;
}

/** Longest phrase, in words, taken for either side of an order. */
const MAX_WORDS = 6;

/** Words that end a phrase read outwards from an order's verb. */
const BOUNDARY = new Set(
  (
    'that which who when whenever if unless and but or so then because while where since ' +
    'is are was were be been will would can could should must may might does do'
  ).split(' '),
);

/** Words of a phrase that say nothing of which thing it is. */
const FILLER = new Set(
  'the a an your its their his her our this that these those one ones any each from'.split(' '),
);

/**
 * Verbs of precedence, with the side that wins: `before` when the thing before the verb wins ("X
 * takes precedence over Y"), `after` when the thing after it does ("X is overridden by Y").
 */
const PRECEDENCE: readonly { re: RegExp; winner: 'before' | 'after' }[] = [
  {
    re: /\b(?:takes?|taking|took|has|have|having|gets?|is given|are given) (?:a |the )?(?:higher |highest )?(?:precedence|priority|preference) over\b/g,
    winner: 'before',
  },
  { re: /\b(?:wins?|winning|won|prevails?) over\b/g, winner: 'before' },
  {
    re: /\b(?:is|are) (?:used|preferred|chosen|picked|applied|tried) (?:in preference to|over|rather than|instead of|before)\b/g,
    winner: 'before',
  },
  { re: /\b(?:overrides?|overriding|supersedes?|superseding|trumps?)\b/g, winner: 'before' },
  { re: /\b(?:is|are|be|been) (?:overridden|superseded|replaced) by\b/g, winner: 'after' },
];

/** A word of a phrase, and a phrase of one to six of them (first group) then the second side. */
const WORD = String.raw`[\p{L}\p{N}_.$-]+`;
// The first side is what is converted: "is converted to X" names no first thing.
const SIDES = String.raw`((?!(?:in)?to )(?:${WORD} ){0,5}?${WORD}),? `;
const REST = String.raw`((?:${WORD} ?){1,6})`;

/** Ways a text says one thing comes before another; group 1 is the first, group 2 the second. */
const SEQUENCES: readonly RegExp[] = [
  // "from X to Y", "starting with X and ending with Y".
  new RegExp(
    String.raw`\b(?:from|starting (?:with|from|at)) ${SIDES}(?:and )?(?:to|ending (?:with|at)) ${REST}`,
    'gu',
  ),
  // "converts X into Y", "turns X to Y".
  new RegExp(
    String.raw`\b(?:(?:turn|convert|transform)(?:s|ing|ed)?|(?:translat|chang)(?:e|es|ing|ed)) ${SIDES}(?:in)?to ${REST}`,
    'gu',
  ),
];

/**
 * A change written to its end first: "was increased to 400 from a low 50", "moved to X from Y";
 * group 1 is the second (the end), group 2 the first (the start).
 */
const CHANGES_BACK = new RegExp(
  String.raw`\b(?:increas|decreas|reduc|rais|lower|chang|mov|bump|switch|upgrad|downgrad|grow|grew|shr[iu]nk|cut)[\p{L}]* to ${SIDES}from ${REST}`,
  'gu',
);

/** Words of the verb group before an order's verb ("the last source will always override"). */
const VERB_GROUP = new Set(
  'will would can could may might should must does do did is are always also still then'.split(' '),
);

/**
 * The phrase read backwards from `at` to a clause boundary (at most {@link MAX_WORDS} words),
 * past the verb group; `null` when the verb is negated ("does not override").
 */
function phraseBefore(text: string, at: number): string | null {
  const head =
    text
      .slice(0, at)
      .split(/[,;:.!?()]/u)
      .at(-1) ?? '';
  const words = head.trim().split(/\s+/).filter(Boolean);
  let i = words.length - 1;
  for (; i >= 0; i--) {
    const w = words[i]!;
    if (/^(?:not|never|no|cannot|can't|won't|doesn't|don't|isn't|aren't)$/.test(w)) return null;
    if (!VERB_GROUP.has(w)) break;
  }
  const out: string[] = [];
  for (; i >= 0 && out.length < MAX_WORDS; i--) {
    if (BOUNDARY.has(words[i]!)) break;
    out.unshift(words[i]!);
  }
  return out.join(' ');
}

/** The phrase read forwards from `at` to a clause boundary (at most {@link MAX_WORDS} words). */
function phraseAfter(text: string, at: number): string {
  const tail = text.slice(at).split(/[,;:!?()]|\.(?=\s|$)/u)[0] ?? '';
  const words = tail.trim().split(/\s+/).filter(Boolean);
  const out: string[] = [];
  for (const w of words) {
    if (out.length >= MAX_WORDS || BOUNDARY.has(w)) break;
    out.push(w);
  }
  return out.join(' ');
}

/** The orders a text states, phrases in lower case. */
export function ordersOf(text: string): Ordered[] {
  const lower = text.toLowerCase();
  const out: Ordered[] = [];
  const add = (kind: OrderKind, first: string, second: string): void => {
    if (words(first).length > 0 && words(second).length > 0) out.push({ kind, first, second });
  };
  for (const { re, winner } of PRECEDENCE) {
    for (const m of lower.matchAll(re)) {
      const before = phraseBefore(lower, m.index);
      if (before === null) continue;
      const after = phraseAfter(lower, m.index + m[0].length);
      if (winner === 'before') add('precedence', before, after);
      else add('precedence', after, before);
    }
  }
  for (const re of SEQUENCES) {
    for (const m of lower.matchAll(re)) add('sequence', m[1]!, phraseAfter(m[2]!, 0));
  }
  for (const m of lower.matchAll(CHANGES_BACK)) add('sequence', phraseAfter(m[2]!, 0), m[1]!);
  // Numbered lists: "(1) escape, (2) interpolate, (3) evaluate"; under a word of priority they rank.
  for (const m of lower.matchAll(
    /\(1\)\s*([^(]+?)[,;]?\s*(?:and\s+)?\(2\)\s*([^(]+?)(?:[,;]?\s*(?:and\s+)?\(3\)\s*([^(.;]+))?(?=[.;]|$|\s*\(4\))/gu,
  )) {
    const kind: OrderKind = /priority|precedence|preference/.test(
      lower.slice(Math.max(0, m.index - 80), m.index),
    )
      ? 'precedence'
      : 'sequence';
    const items = [m[1], m[2], m[3]]
      .filter((x): x is string => x !== undefined)
      .map((x) => x.trim());
    for (let i = 0; i < items.length; i++)
      for (let j = i + 1; j < items.length; j++) add(kind, items[i]!, items[j]!);
  }
  return out;
}

/** The words of a phrase that tell it apart, reduced to a stem (first five letters). */
function words(phrase: string): string[] {
  return (phrase.match(/[\p{L}\p{N}_$]+/gu) ?? [])
    .filter((w) => !FILLER.has(w))
    .map((w) => (w.length > 5 ? w.slice(0, 5) : w));
}

const shared = (xs: readonly string[], ys: ReadonlySet<string>): number =>
  xs.filter((x) => ys.has(x)).length;

/** How firmly two sides match: both (2), or one with nothing matching the other way (1). */
const strength = (x: readonly number[], y: readonly number[]): number =>
  x[0]! > 0 && x[1]! > 0 ? 2 : x[0]! + x[1]! > 0 && y[0]! + y[1]! === 0 ? 1 : 0;

/**
 * Orders the claim states the other way round from the page: the claim's first thing shares the
 * words that set the page's second apart, and its second those of the page's first ("the default
 * mappings take precedence over your own" / "user-defined mappings are used in preference to the
 * default mappings").
 */
export function orderConflicts(claim: Analysis, page: Analysis): Conflict[] {
  const theirs = ordersOf(page.text);
  if (theirs.length === 0) return [];
  const conflicts: Conflict[] = [];
  for (const c of ordersOf(claim.text)) {
    const cf = words(c.first);
    const cs = words(c.second);
    // Per page order: both sides matched (strong), or one side and nothing the other way (weak).
    let agreed = 0;
    let reversed: Ordered | undefined;
    let reversedAt = 0;
    for (const p of theirs) {
      if (p.kind !== c.kind) continue;
      const pf = new Set(words(p.first));
      const ps = new Set(words(p.second));
      const onlyFirst = new Set([...pf].filter((w) => !ps.has(w)));
      const onlySecond = new Set([...ps].filter((w) => !pf.has(w)));
      const fwd = [shared(cf, onlyFirst), shared(cs, onlySecond)];
      const rev = [shared(cf, onlySecond), shared(cs, onlyFirst)];
      agreed = Math.max(agreed, strength(fwd, rev));
      const r = strength(rev, fwd);
      if (r > reversedAt) [reversed, reversedAt] = [p, r];
    }
    // A page order the same way, as firmly matched, outweighs one the other way: that one may
    // order other things in those words.
    if (reversed && reversedAt > agreed) {
      conflicts.push({
        kind: 'comparative',
        claim: `${c.first} before ${c.second}`,
        page: `${reversed.first} before ${reversed.second}`,
      });
    }
  }
  return conflicts;
}

/** Words after which a run of steps may start ("This will establish the context, ..."). */
const STEP_LEADS = new Set('will would to must should then first and'.split(' '));
/** Words that open a step without naming it ("and then restore ..."). */
const STEP_OPENERS = /^(?:(?:and|then|finally|lastly|next)\s+)+/i;
/** Longest step, in words. */
const MAX_STEP_WORDS = 10;
/** Fewest steps in a run: two phrases in a row are as often a pair of alternatives. */
const MIN_STEPS = 3;

/** True when WordNet knows the word, or its stem without an inflection, as a verb. */
function verbal(word: string): boolean {
  const wn = loadWordNet();
  const forms = [word, word.replace(/(?:es|s|ed|d|ing)$/, ''), word.replace(/(?:s|d)$/, '')];
  return forms.some((f) => f.length >= 3 && wn.synsets(f).some((id) => id.startsWith('v')));
}

/**
 * The runs of steps a text lists in order: three or more comma-separated phrases of a sentence
 * that each open with a verb, the first right after a word that opens a verb group ("This will
 * establish the context, trigger the before callbacks, call the function, trigger the after
 * callbacks, and then restore the original context"). A run with "or" lists alternatives, not
 * steps.
 */
function stepsOf(text: string): string[][] {
  const runs: string[][] = [];
  for (const sentence of text.split(/(?<=[.;!?])\s+/u)) {
    const parts = sentence.replace(/[.;!?]+$/, '').split(/,\s*/);
    if (parts.length < MIN_STEPS) continue;
    const lead = parts[0]!.split(/\s+/);
    const at = lead.findIndex(
      (w, i) => STEP_LEADS.has(w.toLowerCase()) && verbal(lead[i + 1]?.toLowerCase() ?? ''),
    );
    if (at < 0) continue;
    const run = [lead.slice(at + 1).join(' ')];
    for (const part of parts.slice(1)) {
      const step = part.trim().replace(STEP_OPENERS, '');
      const first = step.split(/\s+/)[0]?.toLowerCase() ?? '';
      if (/^or\b/i.test(part.trim()) || !verbal(first)) break;
      run.push(step);
    }
    if (run.length >= MIN_STEPS && run.every((x) => x.split(/\s+/).length <= MAX_STEP_WORDS))
      runs.push(run);
  }
  return runs;
}

/** Pronouns that open a clause after "before"/"after" ("before it calls the function"). */
const SUBJECTS = new Set('it they he she we you this that one'.split(' '));

/**
 * The two actions a claim puts in order with "before" or "after" joining two clauses ("triggers
 * the after callbacks before it calls the function", "after calling the function"), as
 * what comes first, what comes second, and the words that say so. "before callbacks" names a thing, not a time.
 */
function claimSteps(a: Analysis): { first: string; second: string; said: string }[] {
  const out: { first: string; second: string; said: string }[] = [];
  const t = a.tokens;
  const phrase = (from: number, to: number): string =>
    t
      .slice(from, to)
      .map((x) => x.text)
      .join(' ')
      .replace(/\s+([.,():;!?])/g, '$1')
      .replace(/([.(])\s+/g, '$1');
  for (let i = 1; i < t.length; i++) {
    const w = t[i]!.lower;
    if (w !== 'before' && w !== 'after') continue;
    const next = t[i + 1];
    const clause =
      (next?.pos === 'VERB' && next.lower.endsWith('ing')) ||
      (next !== undefined && SUBJECTS.has(next.lower) && t[i + 2]?.pos === 'VERB');
    if (!clause) continue;
    let start = i;
    while (start > 0 && t[start - 1]!.clause === t[i - 1]!.clause) start--;
    let end = i + 1;
    while (end < t.length && t[end]!.pos !== 'PUNCT') end++;
    const left = phrase(start, i);
    const right = phrase(i + 1, end);
    const said = `${left} ${w} ${right}`;
    out.push(
      w === 'before' ? { first: left, second: right, said } : { first: right, second: left, said },
    );
  }
  return out;
}

/** A phrase's words as {@link words} gives them, an inflection dropped first ("calls" / "call"). */
const stepWords = (phrase: string): string[] =>
  words(
    phrase
      .toLowerCase()
      .replace(/\b(\p{L}{3,}?)(?:ing|ed|es|s)\b/gu, '$1')
      // "running" / "run", "stopped" / "stop".
      .replace(/\b(\p{L}{2,}?)([b-df-hj-km-np-rtv-z])\2\b/gu, '$1$2'),
  );

/**
 * Steps the claim puts the other way round from a run of steps on the page: each side of the
 * claim's order matches one step best (two words or all of the step's), and the page lists the
 * claim's second before its first ("triggers the after callbacks before it calls the function" /
 * "call the function, trigger the after callbacks").
 */
export function stepConflicts(claim: Analysis, page: Analysis): Conflict[] {
  const mine = claimSteps(claim);
  if (mine.length === 0) return [];
  const runs = stepsOf(page.text);
  const conflicts: Conflict[] = [];
  for (const { first, second, said } of mine) {
    const cf = new Set(stepWords(first));
    const cs = new Set(stepWords(second));
    for (const run of runs) {
      const best = (side: ReadonlySet<string>): number | undefined => {
        const scores = run.map((step) => {
          const own = stepWords(step);
          const hit = own.filter((x) => side.has(x)).length;
          return hit >= 2 || (hit > 0 && hit === own.length) ? hit : 0;
        });
        const top = Math.max(...scores);
        return top > 0 && scores.filter((x) => x === top).length === 1
          ? scores.indexOf(top)
          : undefined;
      };
      const f = best(cf);
      const s = best(cs);
      if (f === undefined || s === undefined || f <= s) continue;
      conflicts.push({
        kind: 'comparative',
        claim: said,
        page: `${run[s]}, then ${run[f]}`,
      });
    }
  }
  return conflicts;
}

/**
 * Precedences the claim states where the passage ranks nothing: which of two things wins is a
 * fact of its own, not stated by a passage that only names them ("the default mappings take
 * precedence over yours" / "to stop using the default mappings, set ...").
 */
export function unstatedOrders(claim: Analysis, page: Analysis): string[] {
  const mine = ordersOf(claim.text).filter((o) => o.kind === 'precedence');
  if (mine.length === 0 || ordersOf(page.text).some((o) => o.kind === 'precedence')) return [];
  return mine.map((o) => `${o.first} over ${o.second}`);
}

/**
 * An order word right after a date, a second date later in the sentence: "on March 22, 2001,
 * shortly before ... in February 2001".
 */
const DATED_ORDER =
  /^[,\s]*(?:[\w-]+\s+){0,2}?(before|after|earlier than|later than|prior to)\b[^.;!?]*$/i;

/**
 * -1, 0 or 1 as date `a` falls before, on or after date `b`, comparing the parts both state (a
 * year against a year and month compares the years); `null` when they share no part.
 */
function dateOrder(a: readonly number[], b: readonly number[]): number | null {
  let known = false;
  for (let i = 0; i < 3; i++) {
    const [x, y] = [a[i] ?? 0, b[i] ?? 0];
    if (x === 0 || y === 0) break;
    known = true;
    if (x !== y) return x < y ? -1 : 1;
  }
  return known ? 0 : null;
}

/**
 * A claim that puts two dated events in an order its own dates deny, where the page states both
 * dates: "the first production release on March 22, 2001, shortly before Stallman declared it a
 * GNU program in February 2001" says "before" of a date that comes after. The dates are the
 * page's; the order word is the claim's, and it is false.
 */
export function datedOrderConflicts(claim: Analysis, page: Analysis): Conflict[] {
  const dates = claim.quantities.filter((q) => q.kind === 'date');
  const onPage = (q: (typeof dates)[number]): boolean =>
    page.quantities.some((p) => p.kind === 'date' && dateOrder(p.parts, q.parts) === 0);
  const out: Conflict[] = [];
  for (let k = 0; k + 1 < dates.length; k++) {
    const [a, b] = [dates[k]!, dates[k + 1]!];
    const m = DATED_ORDER.exec(claim.text.slice(a.end, b.start));
    if (!m || !onPage(a) || !onPage(b)) continue;
    const order = dateOrder(a.parts, b.parts);
    if (order === null || order === 0) continue;
    const before = /before|earlier|prior/i.test(m[1]!);
    if ((before && order > 0) || (!before && order < 0)) {
      const [early, late] = order > 0 ? [b, a] : [a, b];
      out.push({
        kind: 'comparative',
        claim: `${a.text} ${m[1]} ${b.text}`,
        page: `${early.text}, then ${late.text}`,
      });
    }
  }
  return out;
}
