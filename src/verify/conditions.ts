/**
 * Conditions: a page that states a fact under one case and its opposite under the other ("If there
 * are no listeners, the errors are written to STDERR, but if there are any listeners, nothing will
 * be written") supports the fact only under its own case. A claim that states it under the other
 * case ("Even when something listens ..., depd still writes the errors to STDERR") pairs its
 * consequence with the page's, word for word, while its condition is the page's negated.
 */
import { endsSentence, written } from './analyze.js';
import type { Analysis, Token } from './analyze.js';
import type { Conflict } from './verify-claim.js';
import { areAntonyms, related } from './words.js';

/** Words that open a condition clause ("If the count is 1, a MockClient is returned"). */
export const CONDITIONS: ReadonlySet<string> = new Set(['if', 'when', 'whenever', 'unless']);

/** True when token `i` opens the case "unless" does: "unless", or "when" / "if" after "except". */
export const opensUnless = (tokens: readonly Token[], i: number): boolean =>
  tokens[i]!.lower === 'unless' ||
  (/^(?:when|if)$/.test(tokens[i]!.lower) && tokens[i - 1]?.lower === 'except');

/** True when token `at` stands in a clause a condition word opens ("if you set it to true"). */
export function inCondition(tokens: readonly Token[], at: number): boolean {
  let clause = tokens[at]!.clause;
  for (let k = at - 1; k >= 0; k--) {
    if (tokens[k]!.clause !== clause) {
      // A predicate joined with "or" / "and" and no subject of its own goes on with the case
      // before it ("once you have typed 200 characters or have typed nothing for four seconds").
      let f = k + 1;
      while (tokens[f]?.pos === 'PUNCT' && tokens[f]!.clause === clause) f++;
      const first = tokens[f]!;
      const next = tokens[f + 1];
      if (!/^(?:or|and)$/.test(first.lower) || !next || !/^(?:AUX|VERB)$/.test(next.pos)) break;
      clause = tokens[k]!.clause;
    }
    if (CONDITIONS.has(tokens[k]!.lower)) return true;
  }
  return false;
}

/** Words that open a case here: the conditions, and "once"; "unless" negates the one it opens. */
const OPENERS = new Set([...CONDITIONS, 'once']);

/**
 * Words that say a thing is not there: a condition with one is negated like one with "no" ("If
 * fill is undefined" is the case "when no fill is given"), and so is one that omits or leaves
 * something out ("If you leave the message out" / "If the message is omitted").
 */
const ABSENT = new Set(['undefined', 'unset', 'unspecified', 'missing', 'absent']);

/** Whether the condition `words` (its tokens) says something is not there. */
const saysAbsent = (words: readonly Token[]): boolean =>
  words.some((t) => ABSENT.has(t.lower) || t.lemma === 'omit') ||
  (words.some((t) => t.lemma === 'leave') && words.some((t) => t.lower === 'out'));

/** A condition and the clauses of its sentence it governs. */
interface Case {
  /** Content words of the condition clause. */
  condition: number[];
  /** Parity of its negation (cues, and "unless"). */
  conditionParity: number;
  /** Content words of the clauses it governs. */
  consequence: number[];
  consequenceParity: number;
  /** The condition opens with "unless": each of its words is negated. */
  unless: boolean;
  /** The condition says something is absent ("if fill is undefined"). */
  absent: boolean;
  /** The condition as written. */
  text: string;
}

/**
 * The cases of a text: each condition clause with the clauses it governs, those after it up to
 * the next condition in its sentence (or, for a condition that ends its sentence, those before).
 */
function casesOf(a: Analysis): Case[] {
  const clauses = new Map<number, number[]>();
  a.tokens.forEach((t, i) => {
    const list = clauses.get(t.clause) ?? [];
    list.push(i);
    clauses.set(t.clause, list);
  });
  const order = [...clauses.keys()].sort((x, y) => x - y);
  // A clause opens at the punctuation that ends the one before: the full stop of a sentence
  // opens the first clause of the next.
  const opensSentence = (id: number): boolean => endsSentence(a.tokens[clauses.get(id)![0]!]!);
  // "otherwise" opens the case of the condition before it, negated ("If value is specified, it
  // is the starting value, otherwise, 0 is used").
  const otherwise = (id: number): boolean =>
    clauses.get(id)!.some((i) => /^(?:otherwise|else)$/.test(a.tokens[i]!.lower));
  // A sentence that opens with "In this case" goes on with the case before it ("When encoding is
  // unset, it assumes an object mode stream. In this case maxBuffer refers to the number of
  // items").
  const sameCase = (id: number): boolean => {
    const words = clauses
      .get(id)!
      .filter((i) => a.tokens[i]!.pos !== 'PUNCT')
      .slice(0, 3)
      .map((i) => a.tokens[i]!.lower);
    return /^in (?:this|that|such a|which) case$/.test(words.join(' '));
  };
  const isCondition = (id: number): boolean =>
    clauses.get(id)!.some((i) => OPENERS.has(a.tokens[i]!.lower)) || otherwise(id);
  // Numbers count: "otherwise, 0 is used" states its case by its value.
  const words = (ids: number[]): number[] =>
    ids.flatMap((id) =>
      clauses.get(id)!.filter((i) => a.tokens[i]!.content || a.tokens[i]!.pos === 'NUM'),
    );
  const parity = (ids: number[]): number =>
    ids.flatMap((id) => clauses.get(id)!).filter((i) => a.tokens[i]!.cue).length % 2;
  // The clauses after condition `n` up to the next condition or the end of its sentence, and
  // that condition's position (-1 at the sentence's end).
  const after = (n: number): [number[], number] => {
    const governed: number[] = [];
    let m = n + 1;
    for (; m < order.length && !isCondition(order[m]!); m++) {
      if (opensSentence(order[m]!) && !sameCase(order[m]!)) return [governed, -1];
      governed.push(order[m]!);
    }
    return [governed, m < order.length ? m : -1];
  };
  // A condition that ends its sentence governs what comes before it ("X happens if Y."), and so
  // does one followed by such a pair ("routes it to the method if there is one, or to the
  // 'error' handler if there is none": the handler is the second case's, not the first's).
  const trails = (n: number): boolean => {
    if (opensSentence(order[n]!) || n === 0) return false;
    const [governed, next] = after(n);
    if (words(governed).length === 0) return true;
    return (
      next >= 0 &&
      !opensSentence(order[next]!) &&
      trails(next) &&
      words(after(next)[0]).length === 0
    );
  };
  // The sentence of each clause, by its place in `order`.
  const sentenceOf: number[] = [];
  order.forEach((id, n) => sentenceOf.push((sentenceOf[n - 1] ?? 0) + (opensSentence(id) ? 1 : 0)));
  const out: Case[] = [];
  /** The sentence of each case in `out`. */
  const caseSentence: number[] = [];
  order.forEach((id, n) => {
    if (!isCondition(id)) return;
    const trailing = trails(n);
    const governed = trailing ? [] : after(n)[0];
    // "X happens if Y.": the condition ends the sentence and governs what comes before it.
    if (trailing) {
      for (let m = n - 1; m >= 0 && !isCondition(order[m]!); m--) {
        governed.unshift(order[m]!);
        if (opensSentence(order[m]!)) break;
      }
    }
    const condition = clauses.get(id)!;
    const before = out.at(-1);
    if (otherwise(id) && !condition.some((i) => OPENERS.has(a.tokens[i]!.lower))) {
      // Its own words, if any, are what it governs. A condition of an earlier sentence is its
      // case only when it opens its sentence ("Otherwise, ..."): "separated by semicolons in
      // Windows or by colons otherwise" is the other case of "in Windows".
      if (before && (caseSentence.at(-1) === sentenceOf[n] || opensSentence(id))) {
        caseSentence.push(sentenceOf[n]!);
        out.push({
          ...before,
          conditionParity: 1 - before.conditionParity,
          consequence: [...words([id]), ...words(governed)],
          consequenceParity: (parity([id]) + parity(governed)) % 2,
          // The whole condition is negated, as by "unless".
          unless: true,
          text: `otherwise (not ${before.text})`,
        });
      }
      return;
    }
    const unless = condition.some((i) => opensUnless(a.tokens, i));
    const absent = saysAbsent(condition.map((i) => a.tokens[i]!));
    // A condition that names nothing of its own ("if there is none", "if not") is the case before
    // it, with its own negation.
    const own = words([id]);
    caseSentence.push(sentenceOf[n]!);
    out.push({
      condition: own.length === 0 && before ? before.condition : own,
      conditionParity: (parity([id]) + (unless ? 1 : 0) + (absent ? 1 : 0)) % 2,
      consequence: words(governed),
      consequenceParity: parity(governed),
      unless,
      absent,
      text: condition
        .map((i) => a.tokens[i]!.text)
        .join(' ')
        .replace(/ ([,.;:])/g, '$1')
        .replace(/' (.+?) '/g, "'$1'")
        .replace(/[,.;:]$/, ''),
    });
  });
  return out;
}

/** Claim words related to some word of `theirs`. */
const sharedWith = (
  claim: readonly Token[],
  mine: readonly number[],
  page: readonly Token[],
  theirs: readonly number[],
): number[] => mine.filter((i) => theirs.some((j) => related(claim[i]!, page[j]!)));

/**
 * A claim condition against the page's: where the page states the claim's consequence (at least
 * half of its words and two, with the same negation) under a condition that negates a word of
 * the claim's condition (or that the claim's negates), and no page case states both as the claim
 * does, the claim puts the fact under the other case.
 */
export function conditionConflicts(claim: Analysis, page: Analysis): Conflict[] {
  const theirs = casesOf(page);
  if (theirs.length === 0) return [];
  const c = claim.tokens;
  const p = page.tokens;
  for (const mine of casesOf(claim)) {
    if (mine.condition.length === 0 || mine.consequence.length === 0) continue;
    // A number of the claim's consequence must be the case's own ("starts from 0" is stated by
    // "otherwise, 0 is used", not by the case before it).
    const numbers = (tokens: readonly Token[], at: readonly number[]): string[] =>
      at.filter((i) => tokens[i]!.pos === 'NUM').map((i) => tokens[i]!.lower);
    const states = (x: Case): boolean => {
      const shared = sharedWith(c, mine.consequence, p, x.consequence);
      const theirs = numbers(p, x.consequence);
      return (
        shared.length >= Math.max(2, mine.consequence.length / 2) &&
        numbers(c, mine.consequence).every((n) => theirs.includes(n))
      );
    };
    // The negation that differs must touch a word both conditions name ("no listeners" /
    // "something listens"); an antonym in the conditions ("disabled" / "not enabled") makes the
    // parity no evidence.
    const touches = (x: Case): boolean =>
      mine.condition.some((i) =>
        x.condition.some(
          (j) =>
            related(c[i]!, p[j]!) &&
            (c[i]!.negated || p[j]!.negated || mine.unless || x.unless || mine.absent || x.absent),
        ),
      ) && !mine.condition.some((i) => x.condition.some((j) => areAntonyms(c[i]!, p[j]!)));
    const named = (x: Case): boolean => sharedWith(c, mine.condition, p, x.condition).length > 0;
    const agrees = theirs.some(
      (x) =>
        states(x) &&
        named(x) &&
        x.conditionParity === mine.conditionParity &&
        x.consequenceParity === mine.consequenceParity,
    );
    if (agrees) continue;
    // "only if X, Y" and "not Y unless X" are one case put two ways.
    const only = (tokens: readonly Token[], x: Case): boolean => {
      const first = Math.min(...x.condition);
      return tokens.slice(Math.max(0, first - 5), first).some((t) => t.lower === 'only');
    };
    const other = theirs.find(
      (x) =>
        states(x) &&
        !((mine.unless && only(p, x)) || (x.unless && only(c, mine))) &&
        touches(x) &&
        x.conditionParity !== mine.conditionParity &&
        x.consequenceParity === mine.consequenceParity,
    );
    if (other) return [{ kind: 'negation', claim: mine.text, page: other.text }];
  }
  return [];
}

/** Where a concession opens ("even if", "even when", "whether or not"): its length in tokens. */
function concessionAt(tokens: readonly Token[], i: number): number {
  const [a, b, c] = [tokens[i]?.lower, tokens[i + 1]?.lower, tokens[i + 2]?.lower];
  if (a === 'even' && (b === 'if' || b === 'when' || b === 'though')) return 2;
  if (a === 'whether' && b === 'or' && c === 'not') return 3;
  if (a === 'regardless' && b === 'of') return 2;
  return 0;
}

/** Content words of the clause that starts at token `from`. */
function clauseWords(tokens: readonly Token[], from: number): number[] {
  const clause = tokens[from]?.clause;
  const out: number[] = [];
  for (let k = from; k < tokens.length && tokens[k]!.clause === clause; k++) {
    if (endsSentence(tokens[k]!)) break;
    if (tokens[k]!.content) out.push(k);
  }
  return out;
}

/**
 * A case one text excludes with "unless" that the other says makes no difference ("type-is returns
 * null when a request has no body, unless it carries a Content-Type header" / "If the request has
 * no body, even if there is a Content-Type header, then null is returned"): the "unless" says the
 * fact fails in that case, the concession that it holds. Both must name the case in two words.
 */
export function concessionConflicts(claim: Analysis, page: Analysis): Conflict[] {
  type Opening = { at: number; words: number[]; unless: boolean };
  const opens = (a: Analysis): Opening[] =>
    a.tokens.flatMap((_, i): Opening[] => {
      if (opensUnless(a.tokens, i))
        return [{ at: i, words: clauseWords(a.tokens, i + 1), unless: true }];
      const n = concessionAt(a.tokens, i);
      return n > 0 ? [{ at: i, words: clauseWords(a.tokens, i + n), unless: false }] : [];
    });
  const text = (a: Analysis, at: number, words: number[]): string =>
    written(a.tokens.slice(at, (words[words.length - 1] ?? at) + 1));
  for (const mine of opens(claim)) {
    for (const theirs of opens(page)) {
      if (mine.unless === theirs.unless) continue;
      const shared = mine.words.filter((i) =>
        theirs.words.some((j) => related(claim.tokens[i]!, page.tokens[j]!)),
      );
      if (shared.length < Math.max(2, Math.ceil(mine.words.length / 2))) continue;
      return [
        {
          kind: 'negation',
          claim: text(claim, mine.at, mine.words),
          page: text(page, theirs.at, theirs.words),
        },
      ];
    }
  }
  return [];
}

/** Word classes of a name a case may hold in its condition or in what it governs. */
const NAMES = new Set(['NOUN', 'PROPN', 'X']);

/**
 * Two names a claim puts in each other's place across a condition: "pathObject.dir is ignored if
 * pathObject.root is provided" against "pathObject.root is ignored if pathObject.dir is
 * provided". Every word is there, so only where each name stands tells the two apart: a name
 * only the claim's consequence holds stands only in a page case's condition, a name only its
 * condition holds only in that case's consequence, each side keeps another word of its own (the
 * relation is the same: "ignored", "provided"), and no page case has the two the claim's way.
 */
export function caseSwaps(claim: Analysis, page: Analysis): Conflict[] {
  const theirs = casesOf(page);
  if (theirs.length === 0) return [];
  const c = claim.tokens;
  const p = page.tokens;
  const same = (x: Token, y: Token): boolean => x.lower === y.lower || x.lemma === y.lemma;
  const holds = (at: readonly number[], t: Token, tokens: readonly Token[]): boolean =>
    at.some((j) => same(t, tokens[j]!));
  for (const mine of casesOf(claim)) {
    const only = (at: readonly number[], other: readonly number[]): number[] =>
      at.filter((i) => NAMES.has(c[i]!.pos) && !holds(other, c[i]!, c));
    const led = only(mine.consequence, mine.condition);
    const leading = only(mine.condition, mine.consequence);
    if (led.length === 0 || leading.length === 0) continue;
    for (const x of theirs) {
      const inCondition = (i: number): boolean =>
        holds(x.condition, c[i]!, p) && !holds(x.consequence, c[i]!, p);
      const inConsequence = (i: number): boolean =>
        holds(x.consequence, c[i]!, p) && !holds(x.condition, c[i]!, p);
      const a = led.find(inCondition);
      const b = leading.find(inConsequence);
      if (a === undefined || b === undefined) continue;
      // The relation stays: another word of each side is on the same side of the page's case.
      const kept = (at: readonly number[], side: readonly number[]): boolean =>
        at.some((i) => i !== a && i !== b && !NAMES.has(c[i]!.pos) && holds(side, c[i]!, p));
      if (!kept(mine.consequence, x.consequence) || !kept(mine.condition, x.condition)) continue;
      const asClaimed = theirs.some(
        (y) =>
          holds(y.consequence, c[a]!, p) &&
          holds(y.condition, c[b]!, p) &&
          !holds(y.condition, c[a]!, p),
      );
      if (asClaimed) continue;
      return [
        {
          kind: 'term',
          claim: `${c[a]!.text} if ${c[b]!.text}`,
          page: `${c[b]!.text} if ${c[a]!.text}`,
        },
      ];
    }
  }
  return [];
}

/** Values a program returns or a setting takes, which no other word states. */
const LITERAL = /^(?:true|false|null|undefined|nil)$/;

/**
 * A value the claim gives under a case that the page gives another value under: "If the
 * Content-Type header is invalid or matches none of the types, it returns null" against "If the
 * request has no body, ... then null is returned. If the Content-Type header is invalid or does
 * not match any of the types, then false is returned". The page case whose condition states most
 * of the claim's (three words and half of them at least, with the same negation), and whose
 * consequence shares a word with the claim's, is the claim's: its value is the one the claim must
 * give, when no case so named gives the claim's.
 */
export function caseValues(claim: Analysis, page: Analysis): Conflict[] {
  const theirs = casesOf(page);
  if (theirs.length < 2) return [];
  const c = claim.tokens;
  const p = page.tokens;
  for (const mine of casesOf(claim)) {
    const values = mine.consequence.filter((i) => LITERAL.test(c[i]!.lower));
    if (values.length !== 1) continue;
    const value = c[values[0]!]!.lower;
    const score = (x: Case): number => sharedWith(c, mine.condition, p, x.condition).length;
    const best = Math.max(...theirs.map(score));
    if (best < Math.max(3, mine.condition.length / 2)) continue;
    const named = theirs.filter((x) => score(x) === best);
    if (named.some((x) => x.consequence.some((j) => p[j]!.lower === value))) continue;
    for (const x of named) {
      // The same act gives the value ("returns null" / "false is returned").
      const act = sharedWith(c, mine.consequence, p, x.consequence).filter(
        (i) => !LITERAL.test(c[i]!.lower),
      );
      if (x.conditionParity !== mine.conditionParity || act.length === 0) continue;
      const other = x.consequence.find((j) => LITERAL.test(p[j]!.lower));
      if (other !== undefined)
        return [{ kind: 'term', claim: c[values[0]!]!.text, page: p[other]!.text }];
    }
  }
  return [];
}
