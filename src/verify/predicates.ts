/**
 * Predicate polarity: the claim's predicate (its verb, or an adjective after a form of "be") must
 * not be stated only with the opposite polarity. Clause pairing in {@link polarityConflicts} pairs
 * a claim clause with the page clause sharing most words, which may be another clause; a predicate
 * the passage states, and negates wherever it states it, is a negation conflict all the same
 * ("can be overridden per item" / "may not be overridden by passing an option").
 */
import { endsSentence } from './analyze.js';
import type { Analysis, Token } from './analyze.js';
import type { Conflict } from './verify-claim.js';
import { areAntonyms, sameWord } from './words.js';
import { CONDITIONS, inCondition, opensUnless } from './conditions.js';

/** Words that open a condition: "if X is not set, ..." states when, not what. */
const CONDITIONAL = new Set(['if', 'when', 'unless']);

/** Sentence index of each token (sentences end at `.`, `!`, `?`). */
export function sentences(tokens: readonly Token[]): number[] {
  let s = 0;
  return tokens.map((t) => (endsSentence(t) ? s++ : s));
}

/**
 * The clause of a negated condition in the token's sentence ("without setting X", "if X is not
 * set"), or `undefined`.
 */
export function negatedCondition(
  tokens: readonly Token[],
  sentence: readonly number[],
  at: number,
): number | undefined {
  const mine = tokens.filter((_, i) => sentence[i] === sentence[at]);
  const first = new Map<number, Token>();
  for (const t of mine) if (!first.has(t.clause)) first.set(t.clause, t);
  return [...first].find(
    ([clause, t]) =>
      t.lower === 'without' ||
      (CONDITIONAL.has(t.lower) && mine.some((x) => x.clause === clause && x.cue)),
  )?.[0];
}

/**
 * True when the sentence at `at` restricts a noun by a negated relative clause ("an id that is not
 * set by hand", "requests that are not idempotent").
 */
export function negatedRelative(x: Place): boolean {
  const { tokens, sentence, at } = x;
  return tokens.some(
    (t, i) =>
      sentence[i] === sentence[at] &&
      /^(?:that|which|who)$/.test(t.lower) &&
      /^(?:NOUN|PROPN)$/.test(tokens[i - 1]?.pos ?? '') &&
      tokens[i - 1]!.clause !== t.clause &&
      tokens.some((y, k) => k > i && y.clause === t.clause && y.cue),
  );
}

/** A token of a text, with the sentence index of each of its tokens. */
export interface Place {
  tokens: readonly Token[];
  sentence: readonly number[];
  at: number;
}

/** Words that put one act in order after another ("required before", "only once"). */
const ORDERING = new Set(['before', 'after', 'until', 'once', 'required', 'must', 'first']);

/**
 * True when a sentence denies an act until another ("can't be garbage collected until disable()
 * has been called") and the other sentence orders the two ("Calling disable() is required before
 * it can be garbage collected"): the denial is the order put otherwise, not a denied fact.
 */
export function untilOrder(a: Place, b: Place): boolean {
  const inSentence = (x: typeof a): Token[] =>
    x.tokens.filter((_, i) => x.sentence[i] === x.sentence[x.at]);
  const mine = inSentence(a);
  const cue = mine.findIndex((t) => t.cue);
  return (
    cue >= 0 &&
    mine.some((t, i) => i > cue && t.lower === 'until') &&
    inSentence(b).some((t) => !t.cue && ORDERING.has(t.lower))
  );
}

/**
 * True when the sentence at `at` holds an "otherwise" whose condition, the last one before it
 * (in its sentence or the one before), is stated without a negation: the "otherwise" branch is
 * then the negated case.
 */
function otherwiseOfPositive(x: Place): boolean {
  const here = x.sentence[x.at]!;
  const at = x.tokens.findIndex((t, i) => x.sentence[i] === here && t.lower === 'otherwise');
  if (at < 0) return false;
  let k = at - 1;
  while (k >= 0 && x.sentence[k]! >= here - 1 && !CONDITIONAL.has(x.tokens[k]!.lower)) k--;
  if (k < 0 || x.sentence[k]! < here - 1) return false;
  const clause = x.tokens[k]!.clause;
  return !x.tokens.some((t, i) => i > k && i < at && t.clause === clause && t.cue);
}

/**
 * True when the sentence at `at` is a double negation (a negated condition and a negation in
 * another clause) and the other text's sentence at `otherAt` states no negated condition:
 * "without setting a region, the client will not reach the endpoint" says that setting a region
 * lets it reach the endpoint; against "if X is not set, no Y" the two conditions align instead.
 * So is a denial until another act ({@link untilOrder}), and a negated condition against a
 * sentence with an "otherwise": the claim states the other branch.
 */
export function hedged(a: Place, other: Place): boolean {
  if (untilOrder(a, other)) return true;
  const condition = negatedCondition(a.tokens, a.sentence, a.at);
  if (condition === undefined) return false;
  // "when no starting value is given, it starts from 0" is the other branch of "If value is
  // specified, it is used as the starting value, otherwise, 0 is used"; not of "If you've set no
  // handler, ... Otherwise, it calls your handler", whose other branch is the positive one.
  if (otherwiseOfPositive(other)) return true;
  if (negatedCondition(other.tokens, other.sentence, other.at) !== undefined) return false;
  // The other denial is the main clause's, not a consequence drawn after it ("take effect without
  // restarting the scheduler, so neither systemctl nor launchctl is needed").
  const opener = new Map<number, string>();
  a.tokens.forEach((x) => {
    if (!opener.has(x.clause)) opener.set(x.clause, x.lower);
  });
  return a.tokens.some(
    (x, i) =>
      a.sentence[i] === a.sentence[a.at] &&
      x.cue &&
      x.clause !== condition &&
      !CONSEQUENCE.has(opener.get(x.clause) ?? ''),
  );
}

/** Words that open a clause drawn from the one before it. */
const CONSEQUENCE = new Set(['so', 'therefore', 'hence', 'thus', 'consequently']);

/** Verbs that let or help someone do what follows them. */
const LEAVE = new Set(['help', 'let', 'allow', 'permit', 'enable']);

/** Word classes of a list of nouns ("no build step, CLI tool or plugin"). */
const SUBJECT_LIST = new Set(['ADJ', 'NOUN', 'PROPN', 'DET', 'CCONJ', 'NUM', 'X']);

/** Word classes inside a noun phrase that a leading "no" negates as a whole. */
const NOUN_PHRASE = new Set(['ADJ', 'NOUN', 'PROPN']);

/**
 * True when the token at `at` is negated: by its own cue, or as the head of a noun phrase a
 * quantifier negates ("no preemptive pruning" negates the pruning, not only "preemptive").
 */
function negatedAt(tokens: readonly Token[], at: number): boolean {
  const t = tokens[at]!;
  if (t.negated) return true;
  // A negated verb of leave negates the act it governs: "will not help you decrypt it", "does
  // not let you set", "does not allow you to change".
  for (let i = at - 1; i >= Math.max(0, at - 3) && tokens[i]!.clause === t.clause; i--) {
    if (LEAVE.has(tokens[i]!.lemma) && tokens[i]!.negated) return true;
  }
  // A negated subject negates what is said of it: "none of these tools are mandatory", "no
  // option is required".
  if (tokens[at - 1]?.pos === 'AUX' || tokens[at - 1]?.pos === 'ADV') {
    for (let i = at - 1; i >= 0 && tokens[i]!.clause === t.clause; i--) {
      if (/^(?:none|no|neither|nothing|nobody)$/.test(tokens[i]!.lower)) return true;
    }
    // The subject may be a list the clauses split at its commas: "No extra build step, CLI tool
    // or lint plugin is needed".
    {
      let i = tokens.findIndex((x) => x.clause === t.clause) - 1;
      while (i >= 0 && (SUBJECT_LIST.has(tokens[i]!.pos) || tokens[i]!.text === ',')) {
        if (/^(?:none|no|neither)$/.test(tokens[i]!.lower)) return true;
        i--;
      }
    }
  }
  // A verb whose object a quantifier denies is denied itself: "performs no CORS checks" is "does
  // not perform CORS checks", "returns nothing" "does not return anything".
  if (t.pos === 'VERB') {
    let k = at + 1;
    while (tokens[k]?.pos === 'ADV' && tokens[k]!.clause === t.clause) k++;
    const next = tokens[k];
    if (next?.cue && next.clause === t.clause && /^(?:no|none|nothing)$/.test(next.lower))
      return true;
  }
  if (!NOUN_PHRASE.has(t.pos)) return false;
  for (let i = at - 1; i >= 0 && tokens[i]!.clause === t.clause; i--) {
    const x = tokens[i]!;
    if (x.cue) return /^(?:no|none)$/.test(x.lower);
    if (!NOUN_PHRASE.has(x.pos)) return false;
  }
  return false;
}

/** Words after which `off` is a switch's value: "is off", "turned off", "left off". */
const SWITCHES = new Set(
  'is are was be been stays remains turn turns turned switch switches switched leaves left'.split(
    ' ',
  ),
);

/**
 * True when token `at` is `off` put as a switch's value ("stack profiling is off"): a negation
 * with no cue, as "is not on". `off` of a phrasal verb ("cut off", "kick off") is not.
 */
export function switchedOff(tokens: readonly Token[], at: number): boolean {
  return tokens[at]!.lower === 'off' && at > 0 && SWITCHES.has(tokens[at - 1]!.lower);
}

/**
 * True when the clause negates the token's predication: an odd number of cues before it in its
 * clause, flipped by a cue right after it that quantifies its object ("makes no requests",
 * "depends on no package"; not "a parameter with no value", where the cue is inside a modifier).
 */
function clauseNegated(tokens: readonly Token[], at: number): boolean {
  const clause = tokens[at]!.clause;
  let cues = tokens.filter((x, i) => i < at && x.clause === clause && x.cue).length;
  for (let i = at + 1; i < tokens.length && tokens[i]!.clause === clause; i++) {
    const x = tokens[i]!;
    // "stack profiling is off" negates the profiling as "is not on" would.
    if (x.cue || switchedOff(tokens, i)) cues++;
    if (x.cue || !/^(?:ADP|DET|ADV|AUX|PART)$/.test(x.pos)) break;
  }
  return cues % 2 === 1;
}

/** Words that say an act is needed: "calling close() is not necessary". */
const NECESSARY = new Set(['necessary', 'needed', 'required', 'mandatory', 'obligatory']);

/**
 * True when a negated act (`a[i]`, "you don't need to call close()") is the other text's act of
 * which a negated word of necessity is said ("calling close() is not necessary"): the negation
 * moved from the act to its need.
 */
const necessity = (a: readonly Token[], i: number, b: readonly Token[], j: number): boolean =>
  a[i]!.negated &&
  !b[j]!.negated &&
  b.some((x) => x.clause === b[j]!.clause && x.negated && NECESSARY.has(x.lemma));

/** Verbs of report before "as": "is noted as fully compliant" says what the page calls it. */
const REPORTED = new Set([
  'noted',
  'described',
  'listed',
  'documented',
  'reported',
  'labelled',
  'labeled',
  'mentioned',
]);

/**
 * True when the token is a predicate: a verb, or a word right after an auxiliary ("can be
 * overridden", "is not enabled"; the tagger reads some participles as nouns or adjectives).
 */
export function isPredicate(tokens: readonly Token[], at: number): boolean {
  const t = tokens[at]!;
  if (!t.content) return false;
  if (t.pos === 'VERB') {
    // A participle before a noun qualifies the noun ("cached responses").
    const next = tokens[at + 1];
    return !(/(?:ed|ing)$/.test(t.lower) && next?.pos === 'NOUN');
  }
  if (t.pos !== 'ADJ' && t.pos !== 'NOUN') return false;
  for (let i = at - 1; i >= 0; i--) {
    const x = tokens[i]!;
    // "is noted as fully compliant", "is described as stable": what the page is said to call
    // it, a predicate as "is fully compliant" is.
    if (
      x.lower === 'as' &&
      REPORTED.has(tokens[i - 1]?.lower ?? '') &&
      tokens[i - 2]?.lemma === 'be'
    )
      return true;
    if (x.pos === 'ADV' || x.cue) continue;
    return x.pos === 'AUX' && x.lemma === 'be';
  }
  return false;
}

/** True when the token is in a clause opened by "unless", which states the case "if not". */
const underUnless = (tokens: readonly Token[], at: number): boolean =>
  tokens.some((x, i) => i < at && x.clause === tokens[at]!.clause && opensUnless(tokens, i));

/**
 * True when a contrast negates the token ("files rather than inlined", "instead of inlining",
 * "prefer this value over using"): it names the alternative a condition replaces, which the other
 * text may state as the default.
 */
function contrasted(tokens: readonly Token[], at: number): boolean {
  for (let i = at - 1; i >= 0 && tokens[i]!.clause === tokens[at]!.clause; i--) {
    if (tokens[i]!.cue) return /^(?:than|of|to|over)$/.test(tokens[i]!.lower);
  }
  return false;
}

/**
 * True when one side's word is under "only if" ("it only matches if the dot option is set") and
 * the other's under "unless" ("will not match unless dot is set"): the two say one thing, the
 * case with its restriction.
 */
function onlyIfUnless(a: readonly Token[], i: number, b: readonly Token[], j: number): boolean {
  const onlyIf = (tokens: readonly Token[], at: number): boolean => {
    const clause = tokens[at]!.clause;
    let k = at - 1;
    while (k >= 0 && tokens[k]!.clause === clause && !CONDITIONS.has(tokens[k]!.lower)) k--;
    if (k < 0 || tokens[k]!.clause !== clause || tokens[k]!.lower === 'unless') return false;
    return tokens.slice(Math.max(0, k - 3), k).some((x) => x.lower === 'only');
  };
  return (underUnless(a, i) && onlyIf(b, j)) || (underUnless(b, j) && onlyIf(a, i));
}

/**
 * Negation conflicts of the claim's predicates: a claim predicate the passage states (same word,
 * or its nominalisation: "prunes" / "pruning"), with the opposite polarity at every occurrence.
 * Sentences with two negations or a conditional opener, on either side, are no evidence.
 */
export function predicateConflicts(claim: Analysis, page: Analysis): Conflict[] {
  const claimSentences = sentences(claim.tokens);
  const pageSentences = sentences(page.tokens);
  const out: Conflict[] = [];
  claim.tokens.forEach((t, i) => {
    if (!isPredicate(claim.tokens, i)) return;
    // Both the word and its clause must read the other way: "depends on no package" / "has zero
    // dependencies" move the negation; "when parsing, ... not" / "parsing does not" negate
    // another word of the clause.
    // A word under "unless" reads the other way ("unless X is set" is "if X is not set").
    const unless = underUnless(claim.tokens, i);
    const negated = negatedAt(claim.tokens, i) !== unless;
    const negatedClause = clauseNegated(claim.tokens, i) !== unless;
    if (t.negated && contrasted(claim.tokens, i)) return;
    const found = page.tokens.flatMap((x, j) => (x.content && sameWord(t, x) ? [j] : []));
    if (found.length === 0) return;
    const mine = { tokens: claim.tokens, sentence: claimSentences, at: i };
    // An antonym in both clauses carries the negation ("provide little information" / "do not
    // provide much information").
    const inClause = (a: Analysis, at: number): Token[] =>
      a.tokens.filter((x) => x.content && x.clause === a.tokens[at]!.clause);
    const flipped = (j: number): boolean =>
      inClause(claim, i).some((x) => inClause(page, j).some((y) => areAntonyms(x, y)));
    const opposite = found.every((j) => {
      const theirs = { tokens: page.tokens, sentence: pageSentences, at: j };
      return (
        !(page.tokens[j]!.negated && contrasted(page.tokens, j)) &&
        (negatedAt(page.tokens, j) !== underUnless(page.tokens, j)) !== negated &&
        (clauseNegated(page.tokens, j) !== underUnless(page.tokens, j)) !== negatedClause &&
        // A condition asserts nothing: "unless you pass your own handler" denies no "Pass in
        // a custom handler" the page states plainly, nor a plain claim a page's condition.
        inCondition(claim.tokens, i) === inCondition(page.tokens, j) &&
        !onlyIfUnless(claim.tokens, i, page.tokens, j) &&
        !necessity(claim.tokens, i, page.tokens, j) &&
        !necessity(page.tokens, j, claim.tokens, i) &&
        !flipped(j) &&
        !hedged(mine, theirs) &&
        !hedged(theirs, mine)
      );
    });
    if (!opposite) return;
    // A claim that states the word both ways contrasts two things ("HTML files aren't cached
    // while everything else is cached"): a page that states one way and leaves the verb of the
    // other out ("while everything else is for 1 day") does not deny the other.
    const both = claim.tokens.some(
      (x, k) =>
        k !== i &&
        sameWord(t, x) &&
        (negatedAt(claim.tokens, k) !== underUnless(claim.tokens, k)) !== negated,
    );
    if (both) return;
    const j = found[0]!;
    out.push({
      kind: 'negation',
      claim: negated ? `not ${t.text}` : t.text,
      page: negated ? page.tokens[j]!.text : `not ${page.tokens[j]!.text}`,
    });
  });
  return out.slice(0, 1);
}

/** Words that open an exception to a negation: "no provision ... aside from rebuilding". */
const EXCEPT = /^(?:aside|apart|except|besides|other)$/;

/**
 * An act the page makes the only way ("no provision has been made for adding new ones aside from
 * rebuilding the library": only by rebuilding) that the claim does without ("can be added without
 * rebuilding the library"). The page's exception is read in a clause with a negation cue; the
 * claim's "without" before the same word.
 */
export function exceptionConflicts(claim: Analysis, page: Analysis): Conflict[] {
  const required = new Set<number>();
  page.tokens.forEach((t, i) => {
    if (!EXCEPT.test(t.lower)) return;
    const next = page.tokens[i + 1]?.lower;
    if (t.lower !== 'except' && t.lower !== 'besides' && next !== 'from' && next !== 'than') return;
    if (!page.tokens.some((x, j) => j < i && x.clause === t.clause && x.cue)) return;
    const act = page.tokens.findIndex((x, j) => j > i && x.content && !EXCEPT.test(x.lower));
    if (act >= 0) required.add(act);
  });
  for (const [i, t] of claim.tokens.entries()) {
    if (t.lower !== 'without') continue;
    const act = claim.tokens.slice(i + 1).find((x) => x.content);
    const j = [...required].find((k) => act && sameWord(act, page.tokens[k]!));
    if (act && j !== undefined) {
      return [
        { kind: 'negation', claim: `without ${act.text}`, page: `only ${page.tokens[j]!.text}` },
      ];
    }
  }
  return [];
}
