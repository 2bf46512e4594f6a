/**
 * Coordinated items: "idle and busy sockets", "HTTP as well as HTTPS requests", "Latin, Greek and
 * Cyrillic". Each item is a fact of its own: a passage that states one item does not state the
 * other, though it shares most of the claim's words ("supports passive mode" for "supports active
 * as well as passive mode"). The words that tell an item from the others must be stated.
 */
import { sentenceBounds, sentenceRanges, written } from './analyze.js';
import type { Analysis, Token } from './analyze.js';
import { predicateConflicts } from './predicates.js';
import type { Conflict } from './verify-claim.js';
import { related } from './words.js';

/** Parts of speech of the words of an item. */
const ITEM_POS = new Set(['ADJ', 'NOUN', 'PROPN', 'X']);
/** Words that may open an item without being part of it. */
const OPENERS = new Set(['the', 'a', 'an', 'both', 'either', 'its', 'their', 'all']);

/**
 * True when token `i` is a word of an item: a noun or adjective, or the hyphen of a compound
 * ("top-level"), written with no space on either side in `text`.
 */
function itemWord(tokens: readonly Token[], i: number, text: string): boolean {
  const t = tokens[i];
  if (!t || t.cue) return false;
  if (ITEM_POS.has(t.pos)) return true;
  const [before, after] = [tokens[i - 1], tokens[i + 1]];
  return (
    t.text === '-' &&
    before !== undefined &&
    after !== undefined &&
    ITEM_POS.has(before.pos) &&
    ITEM_POS.has(after.pos) &&
    text.includes(`${before.text}-${after.text}`)
  );
}

/**
 * A plural noun before another noun is no modifier of it ("child processes", not "childs
 * processes"): the tagger read a verb as a noun ("Valgrind traces child processes").
 */
const pluralBefore = (tokens: readonly Token[], i: number): boolean =>
  tokens[i]!.pos === 'NOUN' &&
  tokens[i + 1]?.pos === 'NOUN' &&
  /[^su]s$/.test(tokens[i]!.lower) &&
  tokens[i]!.lemma !== tokens[i]!.lower;

/** True for a preposition opening its sentence ("By default, ...", "In general, ..."). */
const opensSentence = (tokens: readonly Token[], i: number): boolean =>
  tokens[i]?.pos === 'ADP' && (i === 0 || /^[.!?:;]$/.test(tokens[i - 1]!.text));

/** The token indexes of the item that ends just before `end` (exclusive), walking back. */
function itemBefore(tokens: readonly Token[], end: number, text: string): number[] {
  const out: number[] = [];
  for (let i = end - 1; i >= 0 && itemWord(tokens, i, text); i--) {
    if (out.length > 0 && pluralBefore(tokens, i)) break;
    out.unshift(i);
  }
  return out;
}

/** The token indexes of the item that starts at `start`, an opener skipped. */
function itemAfter(tokens: readonly Token[], start: number, text: string): number[] {
  let i = start;
  if (OPENERS.has(tokens[i]?.lower ?? '')) i++;
  const out: number[] = [];
  for (; i < tokens.length && itemWord(tokens, i, text); i++) out.push(i);
  return out;
}

/**
 * The items each coordination of `tokens` joins ("and", "or", "as well as"; a comma before
 * another item of the same list), as token index lists. Only items inside one clause, of nouns
 * and adjectives: "is fast and reliable", "idle and busy sockets", not "reads the file and
 * closes it".
 */
export function coordinatedItems(tokens: readonly Token[], text = ''): number[][][] {
  const out: number[][][] = [];
  tokens.forEach((t, i) => {
    let after = -1;
    if ((t.lower === 'and' || t.lower === 'or') && t.pos === 'CCONJ') after = i + 1;
    else if (t.lower === 'as' && tokens[i + 1]?.lower === 'well' && tokens[i + 2]?.lower === 'as')
      after = i + 3;
    if (after < 0) return;
    const left = itemBefore(tokens, i, text);
    // "in the actual value as well as in the expected value": the preposition both items repeat.
    const opener = left.length > 0 && OPENERS.has(tokens[left[0]! - 1]?.lower ?? '') ? 2 : 1;
    const repeated =
      tokens[after]?.pos === 'ADP' &&
      tokens[after]!.lower === tokens[(left[0] ?? 0) - opener]?.lower;
    const right = itemAfter(tokens, repeated ? after + 1 : after, text);
    if (left.length === 0 || right.length === 0) return;
    if (tokens[left[0]!]!.clause !== tokens[right[0]!]!.clause) return;
    const items = [left, right];
    // "Latin, Greek and Cyrillic": items before, each after a comma.
    for (let k = left[0]! - 1; tokens[k]?.text === ',';) {
      const more = itemBefore(tokens, k, text);
      if (more.length === 0 || opensSentence(tokens, more[0]! - 1)) break;
      items.unshift(more);
      k = more[0]! - 1;
    }
    out.push(items);
  });
  return out;
}

/**
 * The words telling each item of a coordination from the others: its content words whose lemma
 * no other item of the coordination has ("active" in "active mode as well as passive mode").
 */
export function distinguishing(tokens: readonly Token[], items: readonly number[][]): number[][] {
  // "idle and busy sockets": the last item's noun is every item's head.
  const last = items.at(-1)!;
  const shared = items.slice(0, -1).some((item) => item.length === 1) && last.length >= 2;
  const head = shared ? last.at(-1) : undefined;
  return items.map((item, n) => {
    const others = new Set(
      items.flatMap((other, m) => (m === n ? [] : other.map((k) => tokens[k]!.lemma))),
    );
    return item.filter(
      (k) =>
        k !== head &&
        tokens[k]!.content &&
        tokens[k]!.text !== '-' &&
        !others.has(tokens[k]!.lemma),
    );
  });
}

/**
 * Negation conflicts of each item on its own: where the page names an item (all its
 * distinguishing words, in one sentence), the claim's predicate must not be stated there only
 * the other way ("supports active as well as passive mode" / "It supports passive mode. Active
 * mode is not supported."), though the page states it of the other item.
 */
export function itemConflicts(claim: Analysis, page: Analysis): Conflict[] {
  for (const items of coordinatedItems(claim.tokens, claim.text)) {
    for (const own of distinguishing(claim.tokens, items)) {
      if (own.length === 0) continue;
      const naming: Token[] = [];
      for (const [first, last] of sentenceRanges(page)) {
        const sentence = page.tokens.slice(first, last + 1);
        const names = own.every((k) =>
          sentence.some((t) => t.content && related(claim.tokens[k]!, t)),
        );
        if (names) naming.push(...sentence);
      }
      if (naming.length === 0) continue;
      const found = predicateConflicts(claim, { ...page, tokens: naming });
      if (found.length > 0) return found;
    }
  }
  return [];
}

/** Words after "only" that open a condition or a time, not the one thing it restricts to. */
const ONLY_OPENS_CASE = /^(?:if|when|whenever|after|before|once|until|while|for|as)$/;

/**
 * Items the page restricts to one ("A wildcard can only be ... in the expected value" / "Valgrind
 * only traces the top-level process") where the claim coordinates another item with it ("in the
 * actual value as well as in the expected value"): "only" excludes the other item (not so for
 * items joined by "or", either of which the claim names). The page's sentence must share another
 * of the claim's words, outside the items, so that it states the same fact; and the claim must not
 * restrict itself ("only").
 */
export function exclusiveConflicts(claim: Analysis, page: Analysis): Conflict[] {
  if (claim.tokens.some((t) => t.lower === 'only')) return [];
  const ranges = sentenceRanges(page);
  for (const items of coordinatedItems(claim.tokens, claim.text)) {
    const owns = distinguishing(claim.tokens, items);
    if (owns.some((own) => own.length === 0)) continue;
    // "request or response headers" names either item, not both: "only" excludes nothing.
    const last = items[items.length - 1]!;
    const joint = claim.tokens.slice(items[items.length - 2]!.at(-1)! + 1, last[0]);
    if (joint.some((t) => t.lower === 'or' || t.lower === 'nor')) continue;
    const inItems = new Set(items.flat());
    const rest = claim.tokens.flatMap((t, i) => (t.content && !inItems.has(i) ? [i] : []));
    for (const [j, t] of page.tokens.entries()) {
      if (t.lower !== 'only' || /^(?:not|the|an?|if)$/.test(page.tokens[j - 1]?.lower ?? ''))
        continue;
      if (ONLY_OPENS_CASE.test(page.tokens[j + 1]?.lower ?? '')) continue;
      // What "only" restricts to: the words after it in its clause, up to a comma or a bracket.
      const phrase: Token[] = [];
      for (let k = j + 1; k < page.tokens.length && k <= j + 8; k++) {
        const x = page.tokens[k]!;
        if (x.clause !== t.clause || /^[,;:()[\].!?]$/.test(x.text)) break;
        phrase.push(x);
      }
      const names = (own: number[]): boolean =>
        own.every((i) => phrase.some((x) => x.content && related(claim.tokens[i]!, x)));
      const kept = owns.findIndex(names);
      const dropped = owns.findIndex((own) =>
        own.every((i) => !phrase.some((x) => related(claim.tokens[i]!, x))),
      );
      if (kept < 0 || dropped < 0) continue;
      const range = ranges.find(([first, last]) => first <= j && j <= last)!;
      const sentence = page.tokens.slice(range[0], range[1] + 1);
      const shared = rest.filter((i) =>
        sentence.some((x) => x.content && related(claim.tokens[i]!, x)),
      );
      if (shared.length < 1) continue;
      return [
        {
          kind: 'negation',
          claim: items[dropped]!.map((i) => claim.tokens[i]!.text).join(' '),
          page: `only ${written(phrase)}`,
        },
      ];
    }
  }
  return [];
}

/** Words that restrict to what follows them. */
const RESTRICTING = new Set(['only', 'solely', 'exclusively', 'just', 'merely']);
/** Verbs whose passive restricts to what follows ("restricted to", "limited to"). */
const RESTRICT_VERBS = new Set(['restrict', 'limit', 'confine']);

/**
 * A restriction one side states and the other denies: "may come from any directory, not only from
 * those listed in GV_FILE_PATH" against "are restricted to exist in one of the directories
 * specified by GV_FILE_PATH" (or "only from"). The page's sentence must state a word of what the
 * claim's "not only" names and two more of the claim's words, and add nothing of its own ("not
 * only ... but also", "also").
 */
export function restrictionConflicts(claim: Analysis, page: Analysis): Conflict[] {
  return [
    ...deniedRestrictions(claim, page, false),
    ...deniedRestrictions(page, claim, true),
  ].slice(0, 1);
}

/** Where `a` writes "not only X" (the index of "only") and what X names. */
function notOnly(a: Analysis): { at: number; named: number[]; end: number }[] {
  const out: { at: number; named: number[]; end: number }[] = [];
  a.tokens.forEach((t, i) => {
    const before = a.tokens[i - 1]?.lower ?? '';
    if (!RESTRICTING.has(t.lower) || (before !== 'not' && before !== "n't")) return;
    const named: number[] = [];
    let k = i + 1;
    for (; k < a.tokens.length && k <= i + 12; k++) {
      const x = a.tokens[k]!;
      if (/^[,;:()[\].!?]$/.test(x.text) || x.lower === 'but') break;
      if (x.content) named.push(k);
    }
    if (k > i + 1) out.push({ at: i, named, end: k });
  });
  return out;
}

/** True when token `j` of `a` restricts plainly: "only", "restricted to", "limited to". */
function restricts(a: Analysis, j: number): boolean {
  const t = a.tokens[j]!;
  if (RESTRICTING.has(t.lower)) {
    const before = a.tokens[j - 1]?.lower ?? '';
    return before !== 'not' && before !== "n't" && before !== 'the' && !/^an?$/.test(before);
  }
  return RESTRICT_VERBS.has(t.lemma) && a.tokens[j + 1]?.lower === 'to' && !t.negated;
}

function deniedRestrictions(denying: Analysis, stating: Analysis, swapped: boolean): Conflict[] {
  const ranges = sentenceRanges(stating);
  const squeeze = (x: string): string => x.replace(/\s+/g, '').toLowerCase();
  for (const { at, named, end } of notOnly(denying)) {
    const rest = denying.tokens.flatMap((t, i) =>
      t.content && !named.includes(i) && i !== at ? [i] : [],
    );
    // The names in what "not only" names ("GV_FILE_PATH"), whose pieces are no words.
    const span = squeeze(written(denying.tokens.slice(at + 1, end)));
    const terms = denying.keyTerms.map((k) => squeeze(k.text)).filter((k) => span.includes(k));
    for (const [first, last] of ranges) {
      const sentence = stating.tokens.slice(first, last + 1);
      if (sentence.some((x) => x.lower === 'also' || (x.lower === 'not' && x.cue))) continue;
      const j = sentence.findIndex((_, k) => restricts(stating, first + k));
      if (j < 0) continue;
      const states = (i: number): boolean =>
        sentence.some((x) => x.content && related(denying.tokens[i]!, x));
      const text = squeeze(written(sentence));
      if (!named.some(states) && !terms.some((k) => text.includes(k))) continue;
      if (rest.filter(states).length < 2) continue;
      const mine = written(denying.tokens.slice(at - 1, end));
      const theirs = written(stating.tokens.slice(first + j, Math.min(first + j + 4, last + 1)));
      return [
        swapped
          ? { kind: 'negation', claim: theirs, page: mine }
          : { kind: 'negation', claim: mine, page: theirs },
      ];
    }
  }
  return [];
}

/** Words that name a whole an exception is taken from. */
const WHOLES = new Set(['all', 'every', 'any', 'each', 'everywhere', 'everything', 'anything']);

/** An item a page takes out of a whole, and the verbs and adjectives of the fact it holds. */
interface Excepted {
  /** Index of the excepting word ("except", "but", "other"). */
  at: number;
  item: Token;
  fact: Token[];
}

/** Each item `page` takes out of a whole ("every platform except Windows"). */
function exceptions(a: Analysis): Excepted[] {
  return [...a.tokens.keys()].flatMap((j): Excepted[] => {
    const from = excepting(a, j);
    const item = from < 0 ? undefined : a.tokens.slice(from, from + 4).find((x) => x.content);
    if (!item) return [];
    const [first] = sentenceBounds(a, j);
    const fact = a.tokens
      .slice(first, j)
      .filter((x) => x.content && /^(?:VERB|ADJ)$/.test(x.pos) && !WHOLES.has(x.lower));
    return [{ at: j, item, fact }];
  });
}

/**
 * Where the item an excepting word at `j` takes out of a whole starts ("every platform except
 * Windows", "except for Windows", "all platforms but Windows", "any value other than null"); -1
 * when it takes none.
 */
function excepting(a: Analysis, j: number): number {
  const t = a.tokens[j]!;
  const other = t.lower === 'other' && a.tokens[j + 1]?.lower === 'than';
  if (t.lower !== 'except' && t.lower !== 'but' && !other) return -1;
  // Only after a whole: "all platforms but Windows"; not "except in rare cases".
  const whole = a.tokens.slice(Math.max(0, j - 4), j).some((x) => WHOLES.has(x.lower));
  if (!whole) return -1;
  return t.lower === 'except' && a.tokens[j + 1]?.lower === 'for' ? j + 2 : j + (other ? 2 : 1);
}

/** The claim's clauses that name `e`'s item and state its fact, each as its tokens. */
function statesExcepted(claim: Analysis, e: Excepted): Token[][] {
  // The item is a name the claim states ("Windows", "null"), not an ordinary word ("cases").
  const names = new Set(claim.keyTerms.flatMap((k) => k.text.toLowerCase().split(/\s+/)));
  if (!names.has(e.item.lower)) return [];
  return claim.tokens.flatMap((x) => {
    if (!x.content || x.lemma !== e.item.lemma) return [];
    const clause = claim.tokens.filter((y) => y.clause === x.clause);
    return clause.some((y) => y.content && e.fact.some((f) => related(y, f))) ? [clause] : [];
  });
}

/**
 * An item the page takes out of a whole ("works on every platform except Windows", "any value
 * other than null", "all platforms but Windows") that the claim states the fact of ("works on
 * Windows"): the page says it does not hold there. The claim's clause must state a verb or an
 * adjective of the page's (the same fact), deny nothing, and make no exception of its own.
 */
export function exceptedConflicts(claim: Analysis, page: Analysis): Conflict[] {
  if (claim.tokens.some((_, i) => excepting(claim, i) >= 0)) return [];
  for (const e of exceptions(page)) {
    if (statesExcepted(claim, e).some((clause) => !clause.some((y) => y.cue))) {
      return [
        { kind: 'negation', claim: e.item.text, page: `${page.tokens[e.at]!.text} ${e.item.text}` },
      ];
    }
  }
  return [];
}

/**
 * The page's words whose fact the claim denies of an item the page takes out of it ("does not
 * work on Windows" against "works on every platform except Windows"): the page says so too, so a
 * denial of those words agrees with it.
 */
export function deniedExceptions(claim: Analysis, page: Analysis): string[] {
  return exceptions(page).flatMap((e) =>
    statesExcepted(claim, e).some((clause) => clause.some((y) => y.cue))
      ? e.fact.map((f) => f.text)
      : [],
  );
}
