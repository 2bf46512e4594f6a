/**
 * Sentence analysis for claim verification: tokens with lemmas, parts of speech and negation
 * scope, the key terms a passage must state, the quantities, and the comparatives.
 *
 * Why wink-nlp with its English lite model: it is a maintained, dependency-free pipeline that runs
 * in-process at about 1 ms per sentence, and gives what the alignment needs, lemmas (`retried` ->
 * `retry`, `is` -> `be`, `can't` -> `can` + `not`) and universal part-of-speech tags, without a
 * network model. The model loads once (about 0.2 s) at the first analysis.
 */
import winkNLP from 'wink-nlp';
import type { WinkMethods } from 'wink-nlp';
import model from 'wink-eng-lite-web-model';
import { restateAnswers } from './answers.js';
import { restateElisions } from './elisions.js';
import { comparativesOf } from './comparatives.js';
import { keyTermsOf } from './key-terms.js';
import { loadWordNet } from './wordnet.js';
import { restateObligations } from './obligations.js';
import { extractQuantities, isDayWord } from './quantities.js';
import { MONTH } from './quantity-words.js';
import type { Quantity } from './quantities.js';

/** One word of an analysed text. */
export interface Token {
  /** The word as written. */
  text: string;
  /** Lower case. */
  lower: string;
  /** wink-nlp's lemma, lower case. */
  lemma: string;
  /** wink-nlp's Porter2 stem, lower case (`activated` -> `activ`). */
  stem: string;
  /** Universal POS tag (`NOUN`, `VERB`, `ADJ`, `ADV`, `PROPN`, `NUM`, `AUX`, `PART`...). */
  pos: string;
  /** True for the content word a negation cue (`not`, `never`, `no`, `without`...) negates. */
  negated: boolean;
  /** True for a negation cue itself. */
  cue: boolean;
  /** A content word: not a stop word, punctuation, number or negation cue. */
  content: boolean;
  /** Index of the clause the token is in (clauses split at punctuation and conjunctions). */
  clause: number;
  /**
   * True for a full stop glued to the words either side: part of a name (`path.basename`,
   * `asyncStart.bindStore()`), which ends no clause and no sentence.
   */
  joined: boolean;
  /** For a word glued by hyphens to others ("gunzip-maybe"), the whole name, lower case. */
  compound?: string;
}

/** True when the token ends a sentence: `.`, `!` or `?`, not a name's dot (`path.basename`). */
export const endsSentence = (t: Token): boolean => /^[.!?]+$/.test(t.text) && !t.joined;

/**
 * True for punctuation that belongs to a name written as code: the dot inside "fs.statSync" and
 * either bracket of the empty pair of a call ("statSync()").
 */
export const nameMark = (tokens: readonly Token[], k: number): boolean =>
  tokens[k]!.joined ||
  (tokens[k]!.text === '(' && tokens[k + 1]?.text === ')') ||
  (tokens[k]!.text === ')' && tokens[k - 1]?.text === '(');

/** Tokens as a conflict quotes them: spaced, with a hyphen and "n't" joined to their words. */
export const written = (tokens: readonly Token[]): string =>
  tokens
    .map((t) => t.text)
    .join(' ')
    .replace(/ - /g, '-')
    .replace(/ n't/g, "n't")
    .replace(/ ([,;:])(?= )/g, '$1');

/** A term the passage must state: an identifier, code, a proper noun, a rare word. */
export interface KeyTerm {
  text: string;
  kind: 'code' | 'identifier' | 'proper' | 'rare';
}

/** A comparison stated by a text: `faster` is `{ base: 'fast', sign: 1 }`, `less memory` `{ base: 'memory', sign: -1 }`. */
export interface Comparative {
  text: string;
  base: string;
  sign: 1 | -1;
  /** Index of the comparative's token. */
  at: number;
}

/** Everything {@link analyze} finds in a text. */
export interface Analysis {
  text: string;
  tokens: Token[];
  quantities: Quantity[];
  keyTerms: KeyTerm[];
  comparatives: Comparative[];
}

/** Nouns of compound prepositions: "in favour of", "in place of", "with regard to". */
const PREPOSITION_NOUNS = new Set(
  'favour favor terms place spite lieu behalf addition respect regard'.split(' '),
);

let nlp: WinkMethods | undefined;
const engine = (): WinkMethods => (nlp ??= winkNLP(model));

/**
 * Negation cues: a closed class of English function words (wink-nlp marks a negation scope but
 * does not expose its cues, and does not treat `without` as one).
 */
export const CUES: ReadonlySet<string> = new Set([
  'not',
  "n't",
  'never',
  'no',
  'none',
  'nothing',
  'nobody',
  'neither',
  'nor',
  'without',
  'cannot',
  // "lacks the flag" = "does not have the flag".
  'lack',
  'lacks',
  'lacking',
  'lacked',
]);

/** A month's name, whole. */
const MONTH_WORD = new RegExp(`^${MONTH}$`);

/** Verbs of preference: "prefers A over B" sets B aside, as "A instead of B" does. */
const PREFERENCE = new Set(['prefer', 'favor', 'favour', 'choose', 'pick', 'select', 'prioritize']);

/**
 * True when the "over" at `i` follows a verb of preference in its clause, within six words
 * ("will prefer this value over using"; not "iterates over the keys", "over 100 ms").
 */
function preferred(lemmas: readonly string[], values: readonly string[], i: number): boolean {
  for (let j = i - 1; j >= Math.max(0, i - 6); j--) {
    if (/^[.,;:!?]$/.test(values[j] ?? '')) return false;
    if (PREFERENCE.has((lemmas[j] ?? '').toLowerCase())) return true;
  }
  return false;
}

/** Verbs of a change of one thing for another: "switched from MD5 to SHA-256". */
const REPLACING = new Set(['switch', 'move', 'migrate', 'change', 'convert']);

/**
 * True for "from" naming what a change replaces: after a verb of {@link REPLACING} in the same
 * stretch of the sentence, with a "to" after it and no number right after it ("switched the
 * hashing from MD5 to SHA-256" says "SHA-256 instead of MD5"; "changed from 10 to 20" is a value's
 * history, read by the quantities).
 */
function replaced(lemmas: readonly string[], values: readonly string[], i: number): boolean {
  if (values[i]?.toLowerCase() !== 'from' || /^[-+]?\d/.test(values[i + 1] ?? '')) return false;
  let verb = false;
  for (let j = i - 1; j >= Math.max(0, i - 10); j--) {
    if (/^[.,;:!?]$/.test(values[j] ?? '')) break;
    if (REPLACING.has((lemmas[j] ?? '').toLowerCase())) verb = true;
  }
  if (!verb) return false;
  for (let j = i + 1; j <= i + 6 && j < values.length; j++) {
    if (/^[.,;:!?]$/.test(values[j] ?? '')) return false;
    if (values[j]!.toLowerCase() === 'to') return j > i + 1;
  }
  return false;
}

/** Verbs of prevention: "X keeps/stops/prevents Y from doing Z" means Y does not do Z. */
const PREVENTION = new Set(['keep', 'stop', 'prevent', 'prohibit', 'bar', 'block', 'forbid']);

/**
 * True when the "from" at `i` follows a verb of prevention in its clause: four words back, or
 * further over what it prevents when that is named with examples ("stops brace sets like {a,b}
 * and {1..3} from being expanded"), up to a stop, a semicolon or another "from".
 */
function preventedFrom(
  lemmas: readonly (string | undefined)[],
  values: readonly string[],
  i: number,
): boolean {
  for (let k = i - 1; k >= Math.max(0, i - 16); k--) {
    if (/^(?:[.;:!?]|from)$/i.test(values[k] ?? '')) return false;
    if (PREVENTION.has((lemmas[k] ?? '').toLowerCase()))
      return k >= i - 4 || /[{}[\]()]/.test(values.slice(k, i).join(''));
  }
  return false;
}

const FUNCTION_POS = new Set([
  'AUX',
  'DET',
  'ADP',
  'PRON',
  'CCONJ',
  'SCONJ',
  'PART',
  'PUNCT',
  'SYM',
]);
const HEAVY_POS = new Set(['VERB', 'ADJ', 'NOUN', 'PROPN']);
const LIGHT_VERBS = new Set(['be', 'have', 'do', 'get']);

/** True when a noun of an act ("caching", "validation") follows word `i`, past up to two modifiers. */
function actNounAfter(values: readonly string[], tags: readonly string[], i: number): boolean {
  for (let k = i + 1; k <= i + 3 && k < values.length; k++) {
    if (/^\p{L}{3,}(?:ing|tion|sion|ment)s?$/iu.test(values[k]!)) return true;
    if (tags[k] !== 'ADJ' && tags[k] !== 'DET') return false;
  }
  return false;
}

/** Verbs that open a sentence with a "that" clause: "Note that", "Remember that". */
const THAT_IMPERATIVES = new Set(
  'note notice remember ensure assume suppose consider recall verify check'.split(' '),
);

/** Auxiliaries that carry a clause's tense: the verb of a main clause after a relative one. */
const FINITE_AUX = new Set(
  'is are was were will would can could must should may might shall does do did has have had'.split(
    ' ',
  ),
);

/** Words that start a new clause (and end a negation's scope) besides punctuation. */
const CLAUSE_BREAK = new Set([
  'but',
  'which',
  'who',
  'whereas',
  'while',
  'unless',
  'although',
  'though',
  'because',
  'so',
  'if',
  'when',
  'then',
]);

/** Coordinators that start a clause only when a verb follows ("and will not retry"), not a noun ("or queued requests"). */
const COORDINATORS = new Set(['and', 'or', 'nor']);

/** Parts of speech inside a noun phrase: a subject between a coordinator and its verb. */
const NOUN_PHRASE_POS = new Set(['DET', 'ADJ', 'NOUN', 'PROPN', 'NUM', 'X']);

/** Comparison words that bound a number after `than` ("larger than 125 bytes"). */
const BOUND_WORDS =
  /^(?:more|less|fewer|greater|larger|bigger|smaller|higher|lower|longer|shorter)$/;

/**
 * True when the negation cue at `i` negates a bound or an equative in its clause rather than a
 * predicate: "cannot have a payload larger than 125 bytes" (at most 125 bytes), "must not exceed
 * 10", "is not as fast as" (slower). Looks at most eight words ahead, within the clause.
 */
function negatesBound(values: readonly string[], tags: readonly string[], i: number): boolean {
  const lower = (k: number): string => values[k]?.toLowerCase() ?? '';
  if (lower(i + 1) === 'as' && /^(?:ADJ|ADV)$/.test(tags[i + 2] ?? '') && lower(i + 3) === 'as')
    return true;
  for (let k = i + 1; k < Math.min(values.length, i + 9); k++) {
    const v = lower(k);
    if (/^[,.;:!?]$/.test(v) || CLAUSE_BREAK.has(v) || COORDINATORS.has(v) || CUES.has(v))
      return false;
    const next = k + 1 < values.length && lower(k + 1) === 'than' ? k + 2 : k + 1;
    if ((BOUND_WORDS.test(v) && next === k + 2) || /^exceed(?:s|ed|ing)?$/.test(v)) {
      return tags[next] === 'NUM' || tags[next + 1] === 'NUM';
    }
  }
  return false;
}

/**
 * First and last token index of the sentence holding token `at` (sentences end at `.`, `!`,
 * `?`): a window of several sentences states other facts in the others.
 */
export function sentenceBounds(a: Analysis, at: number): [number, number] {
  let first = at;
  while (first > 0 && !endsSentence(a.tokens[first - 1]!)) first--;
  let last = at;
  while (last < a.tokens.length - 1 && !endsSentence(a.tokens[last]!)) last++;
  return [first, last];
}

/** The `[first, last]` token ranges of the sentences of an analysis, in order. */
export function sentenceRanges(a: Analysis): [number, number][] {
  const out: [number, number][] = [];
  for (let i = 0; i < a.tokens.length;) {
    const [first, last] = sentenceBounds(a, i);
    out.push([first, last]);
    i = last + 1;
  }
  return out;
}

/** Tags of a noun phrase's first word, after the verb of {@link verbsTaggedAsNouns}. */
const OBJECT_POS = new Set(['NOUN', 'PROPN', 'ADJ', 'DET', 'NUM']);

/**
 * The tokens wink tagged as a plural noun though they are the sentence's verb: in a sentence
 * ending in a full stop, in a clause (cut at a comma, a semicolon, a colon or a subordinating
 * conjunction) with no verb, an `-s` word between its subject (a name, or a noun after a
 * determiner) and a noun phrase, whose lemma WordNet has as a verb ("Valgrind traces child
 * processes", "The example checks the return value of every deflate() call, because ..."); and
 * in any clause, such a word after a relative pronoun ("a middleware that sets CORS headers"). A
 * function's name before its parentheses ("deflate()") is no verb. A negation on the page
 * ("children won't be traced", "we do not check it") can then be set against it.
 */
function verbsTaggedAsNouns(
  values: readonly string[],
  tags: readonly string[],
  lemmas: readonly string[],
): number[] {
  const found: number[] = [];
  const isVerb = (lemma: string): boolean =>
    loadWordNet()
      .synsets(lemma)
      .some((id) => id.startsWith('v'));
  // An -s word between a subject and a noun phrase, whose lemma WordNet has as a verb.
  const verbal = (k: number, subject: boolean): boolean =>
    subject &&
    tags[k] === 'NOUN' &&
    /[^s]s$/.test(values[k]!.toLowerCase()) &&
    OBJECT_POS.has(tags[k + 1] ?? '') &&
    isVerb((lemmas[k] ?? values[k]!).toLowerCase());
  const verbAt = (start: number, end: number): number | undefined => {
    for (let k = start + 1; k < end - 1; k++) {
      const subject = tags[k - 1] === 'PROPN' || (tags[k - 1] === 'NOUN' && tags[k - 2] === 'DET');
      if (verbal(k, subject)) return k;
    }
    return undefined;
  };
  // A relative pronoun is the subject of the word after it, whatever else the sentence says
  // ("a middleware for Express that sets CORS response headers").
  for (let k = 1; k < values.length - 1; k++) {
    if (verbal(k, /^(?:that|which|who)$/i.test(values[k - 1]!))) found.push(k);
  }
  // A function's name before its parentheses ("deflate()") is no verb.
  const hasVerb = (start: number, end: number): boolean => {
    for (let k = start; k < end; k++) {
      if ((tags[k] === 'VERB' || tags[k] === 'AUX') && values[k + 1] !== '(') return true;
    }
    return false;
  };
  let first = 0;
  for (let last = 0; last < values.length; last++) {
    if (!/^[.!?]$/.test(values[last] ?? '')) continue;
    const from = first;
    first = last + 1;
    if (values[last] !== '.') continue;
    for (let start = from, end = from; start < last; start = end + 1) {
      end = start;
      while (end < last && !/^[,;:]$/.test(values[end]!) && tags[end] !== 'SCONJ') end++;
      if (hasVerb(start, end)) continue;
      const k = verbAt(start, end);
      if (k !== undefined) found.push(k);
    }
  }
  return found;
}

/**
 * Analyses a sentence (or a short passage): tokens, negation scope, key terms, quantities,
 * comparatives. Pure: no I/O after the first call (which loads the wink-nlp model and WordNet).
 * An obligation with what happens otherwise is restated as the negated condition it is ("must X,
 * or Y" as "if ... does not X, Y"; see obligations.ts), and a question answered "No" or "Yes" as
 * the statement it makes (see answers.ts), and an elided predicate ("or None if it wasn't") with
 * what it denies (see elisions.ts): `text` is the text so restated.
 * @example analyze('Caching is not enabled by default.').tokens.find((t) => t.lemma === 'enable')?.negated // true
 */
/** What, negated, denies the act a gerund subject names ("doing X is not supported"). */
/**
 * Verbs that carry the state their complement names ("kept consistent", "remains open", "stays
 * alive"): negated, they deny the state ("are not kept consistent" says "inconsistent").
 */
const CARRIERS = new Set(['keep', 'remain', 'stay', 'become', 'seem', 'appear', 'prove']);
/** Verbs whose "that" clause is no statement of its own once they are denied ("does not mean that"). */
const UNASSERTING: ReadonlySet<string> = new Set([
  'guarantee',
  'ensure',
  'mean',
  'imply',
  'promise',
  'assure',
]);
/** Verbs whose negation denies the act they lead to ("does not contribute to keeping X alive"). */
const LEADING = new Set(['contribute', 'help', 'serve']);

const DENIED_ACTS = new Set([
  'support',
  'supported',
  'allow',
  'allowed',
  'permit',
  'permitted',
  'possible',
]);

export function analyze(written: string): Analysis {
  // "minutes:seconds" is two words: wink reads ":s" (and ":]", ":p") as an emoticon, so is a
  // format token's colon (":percent" would lose its "p"); and the full stop after a key
  // combination ("... with Ctrl+R.") is no initial's ("R."), nor the one after a lower-case letter
  // that ends a list ("flags i, m and s.").
  const text = restateElisions(restateAnswers(restateObligations(written)))
    .replace(/(?<=[\p{L}\]]):(?=[\p{L}[\]])/gu, ': ')
    .replace(/(?<=^|[\s(,]):(?=\p{L})/gu, ': ')
    .replace(/(?<=[+-][A-Za-z]|(?:^|\s)[a-z])\.(?=\s|$)/g, ' .');
  const n = engine();
  const its = n.its;
  const doc = n.readDoc(text);
  // wink-nlp's typings give `its.lemma` an add-on signature `out()` does not accept; all are columns.
  const column = <T>(f: unknown): T[] => doc.tokens().out(f as typeof its.value) as unknown as T[];
  const values = column<string>(its.value);
  const lemmas = column<string>(its.lemma);
  const stems = column<string>(its.stem);
  const tags = column<string>(its.pos);
  for (const k of verbsTaggedAsNouns(values, tags, lemmas)) tags[k] = 'VERB';
  const beforeOnly = (k: number): boolean =>
    values[k + 1] === '-' && /^only$/i.test(values[k + 2] ?? '');
  // "the deflate encoding", "the build step": a bare verb form between an article and a noun names
  // a kind of the noun; it predicates nothing, and opens no clause.
  values.forEach((v, k) => {
    if (tags[k] !== 'VERB' || /(?:ed|ing|en)$/i.test(v)) return;
    if (/^(?:the|a|an)$/i.test(values[k - 1] ?? '') && tags[k + 1] === 'NOUN') tags[k] = 'NOUN';
    // "read-only", "append-only", "write-only": a property the thing has, no act it does.
    else if (beforeOnly(k)) tags[k] = 'ADJ';
  });
  // ... and one word, as code spells it: "read-only" is "readonly", whose opposites are known.
  values.forEach((v, k) => {
    if (beforeOnly(k)) lemmas[k] = `${v.toLowerCase()}only`;
  });
  // "isn't big enough": the word before "enough" is the predicate's adjective, which a negation
  // reaches, not an adverb it passes over.
  values.forEach((v, k) => {
    if (tags[k] !== 'ADV' || values[k + 1]?.toLowerCase() !== 'enough') return;
    const near = values.slice(Math.max(0, k - 3), k).map((x) => x.toLowerCase());
    if (!near.some((x) => CUES.has(x))) return;
    if (
      loadWordNet()
        .synsets(v.toLowerCase())
        .some((id) => /^[as]/.test(id))
    )
      tags[k] = 'ADJ';
  });
  const types = column<string>(its.type);
  const stops = column<boolean>(its.stopWordFlag);
  const spaces = column<string>(its.precedingSpaces);
  const tokens: Token[] = [];
  let clause = 0;
  const predicate = (k: number): boolean => {
    const tag = tags[k];
    const v = values[k]?.toLowerCase() ?? '';
    // A participle before a noun is an adjective ("or queued requests").
    const attributive = tag === 'VERB' && /(?:ed|ing)$/.test(v) && tags[k + 1] === 'NOUN';
    return (tag === 'VERB' && !attributive) || tag === 'AUX';
  };
  // After a clause that has its verb, "and" + a noun phrase + a verb starts a clause with its own
  // subject ("the state is final and the client is no longer usable"); without a verb before, the
  // noun phrase is coordinated inside one clause ("idle and busy sockets are closed").
  const opensClause = (i: number, hasVerb: boolean): boolean => {
    // "informational and debug messages": a "verb" between a coordinated adjective and a noun
    // is a second modifier of the noun, no predicate.
    if (tags[i - 1] === 'ADJ' && tags[i + 1] === 'VERB' && tags[i + 2] === 'NOUN') return false;
    for (let k = i + 1; k < Math.min(values.length, i + 4); k++) {
      const v = values[k]?.toLowerCase() ?? '';
      if (predicate(k) || CUES.has(v)) return true;
      // "is enabled on the server and disabled on the client": a second predicate adjective.
      if (tags[k] === 'ADJ' && hasVerb && !/^(?:NOUN|PROPN|ADJ)$/.test(tags[k + 1] ?? ''))
        return true;
      if (tags[k] === 'NOUN' || tags[k] === 'PROPN' || tags[k] === 'NUM') {
        if (!hasVerb) return false;
        let j = k + 1;
        while (j < k + 4 && NOUN_PHRASE_POS.has(tags[j] ?? '')) j++;
        return predicate(j);
      }
    }
    return false;
  };
  let hasVerb = false;
  // In a relative clause after a noun ("an id that is not set by hand"), so far.
  let relative = false;
  // Cues waiting for the word they negate: the first content word after them in the clause.
  let pending = 0;
  // Whether the last cue ("without", "no") stands before a noun phrase.
  let nounPhrase = false;
  // A bracket after a space opens an aside, a statement of its own ("You may then get leak
  // reports (please don't report these)"), when it has a finite verb; one glued to a word is a
  // call's ("alloc(size)"), and one without names or glosses ("the global (g) flag").
  const statement = (i: number): boolean => {
    if (values[i] !== '(' || i === 0 || (spaces[i] ?? '') === '') return false;
    // A finite verb: a participle glosses ("method 0 (stored with no compression)").
    for (let k = i + 1; k < values.length && values[k] !== ')' && values[k] !== '('; k++) {
      const v = values[k]!.toLowerCase();
      if (tags[k] === 'AUX' || (tags[k] === 'VERB' && !/(?:ed|ing|en)$/.test(v))) return true;
    }
    return false;
  };
  let aside = false;
  /** True when a noun, a name or a word of code stands from `k` before the clause ends. */
  const ownWords = (k: number): boolean => {
    for (let j = k; j < values.length && !/^[,.;:!?]$/.test(values[j]!); j++)
      if (/^(?:NOUN|PROPN|X)$/.test(tags[j] ?? '')) return true;
    return false;
  };
  // "is not immediately freed and given back to the OS": "and" + a participle after a negated
  // participle shares its auxiliary and its negation, in one clause.
  const participle = (k: number): boolean =>
    tags[k] === 'VERB' && /(?:ed|en|wn|ne)$/i.test(values[k] ?? '');
  const sharesNegation = (i: number): boolean =>
    /^(?:and|or)$/i.test(values[i] ?? '') &&
    participle(i + 1) &&
    participle(i - 1) &&
    tokens[i - 1]?.negated === true;
  // "does not, and will not, run strip": an aside that repeats the negation of the auxiliary
  // before it, the verb left out. Its tokens neither end the clause nor negate again.
  const echoes = new Set<number>();
  const denies = (k: number): boolean => /^(?:not|n't|n’t|never|cannot)$/i.test(values[k] ?? '');
  values.forEach((_, i) => {
    const denial = denies(i) && (tags[i - 1] === 'AUX' || /^cannot$/i.test(values[i] ?? ''));
    if (!denial || values[i + 1] !== ',') return;
    if (!/^(?:and|or|but)$/i.test(values[i + 2] ?? '')) return;
    let j = i + 3;
    while (j < values.length && (tags[j] === 'AUX' || tags[j] === 'ADV' || denies(j))) j++;
    if (j === i + 3 || values[j] !== ',' || !/^(?:VERB|AUX)$/.test(tags[j + 1] ?? '')) return;
    for (let k = i + 1; k <= j; k++) echoes.add(k);
  });
  values.forEach((value, i) => {
    // A typographic apostrophe is the plain one ("wasn’t" says "wasn't").
    const lower = value.toLowerCase().replace(/\u2019/g, "'");
    const lemma = (lemmas[i] ?? lower).toLowerCase();
    // A value literal in capitals (Python's `True`) is the adjective of prose ("if delay is true").
    const pos = /^(?:True|False|TRUE|FALSE)$/.test(value) ? 'ADJ' : (tags[i] ?? 'X');
    const type = types[i] ?? 'word';
    const opensAside = statement(i);
    // A dot inside a name ("path.join"), or opening one ("no .json or .ini file extension"),
    // or inside a version the tokenizer cut ("v1.2.2").
    const version =
      /\d$/.test(values[i - 1] ?? '') &&
      /^\d/.test(values[i + 1] ?? '') &&
      (spaces[i] ?? ' ') === '';
    const joined =
      value === '.' &&
      (spaces[i + 1] ?? ' ') === '' &&
      (/^[\p{L}_$]/u.test(values[i + 1] ?? '') || version) &&
      ((i > 0 && (spaces[i] ?? '') === '') ||
        (i > 0 &&
          /^(?:no|a|an|the|or|and|nor|of|in|with|without|as|like)$/i.test(values[i - 1] ?? '')) ||
        /^[([,]$/.test(values[i - 1] ?? '') ||
        // After any word, before a name no sentence opens with: a lower-case word or a short
        // capital one ("rather than .PE", "than .txt"), not "end .The".
        (/^[\p{L}\p{N}]/u.test(values[i - 1] ?? '') &&
          /^(?:[a-z_$][\w$-]*|[A-Z\d]{1,5})$/.test(values[i + 1] ?? '')));
    const closesAside = value === ')' && aside;
    if (opensAside) aside = true;
    if (closesAside) aside = false;
    const boundary =
      opensAside ||
      closesAside ||
      (type === 'punctuation' && /^[,.;:!?]$/.test(value) && !joined) ||
      // A dash set off by spaces between two clauses ("do not make sense together - there is no
      // opportunity"); not the one of an option ("-Cf").
      (/^[-\u2013\u2014]$/.test(value) &&
        (spaces[i] ?? '') !== '' &&
        (spaces[i + 1] ?? '') !== '') ||
      CLAUSE_BREAK.has(lower) ||
      // A relative "that" opens a clause of its own ("requests that are not idempotent").
      // Not "that" read as one after a verb, before a noun that no verb follows ("keep that
      // object alive").
      (lower === 'that' &&
        pos !== 'DET' &&
        !(
          tags[i - 1] === 'VERB' &&
          tags[i + 1] === 'NOUN' &&
          /^(?:ADJ|ADP|PUNCT)$/.test(tags[i + 2] ?? 'PUNCT')
        )) ||
      // "without" + a gerund opens a clause of its own: "dropped without informing the source"
      // negates the informing, not the dropping.
      (lower === 'without' && tags[i + 1] === 'VERB' && /ing$/i.test(values[i + 1] ?? '')) ||
      // "without it" is a condition whole: what follows is a clause of its own ("without it GCC
      // picks the minimal version" does not negate GCC).
      (values[i - 2]?.toLowerCase() === 'without' &&
        tags[i - 1] === 'PRON' &&
        type === 'word' &&
        /^\p{L}/u.test(value)) ||
      // So does "instead of" + a gerund with words of its own: "build one yourself instead of
      // going through X" (not "keeps them instead of skipping them", one fact turned round).
      (lower === 'instead' &&
        values[i + 1]?.toLowerCase() === 'of' &&
        tags[i + 2] === 'VERB' &&
        /ing$/i.test(values[i + 2] ?? '') &&
        ownWords(i + 3)) ||
      (COORDINATORS.has(lower) && opensClause(i, hasVerb) && !sharesNegation(i)) ||
      // The main clause's verb ends a relative clause on the subject: "an id that is not set by
      // hand | is taken from the attribute" negates the setting, not the taking.
      (relative &&
        hasVerb &&
        tags[i] === 'AUX' &&
        FINITE_AUX.has(lower) &&
        !/^(?:AUX|VERB|PART|PRON|SCONJ|CCONJ)$/.test(tags[i - 1] ?? ''));
    if (boundary && !echoes.has(i)) {
      // Not after an imperative read as a noun ("Note that a note attached ... does not").
      relative =
        /^(?:that|which|who)$/.test(lower) &&
        /^(?:NOUN|PROPN)$/.test(tags[i - 1] ?? '') &&
        !(
          THAT_IMPERATIVES.has(values[i - 1]?.toLowerCase() ?? '') &&
          (i < 2 || /^[.;:!?(]$/.test(values[i - 2] ?? ''))
        );
      clause++;
      pending = 0;
      hasVerb = false;
    }
    if (predicate(i)) hasVerb = true;
    // "zero dependencies" says what "no dependencies" does: a quantifier of none before its noun.
    // "reported as zero values" names a value, not an absence; nor does "zero width": a
    // magnitude of zero is a measure ("zero width bit-fields", "a zero length buffer").
    const none =
      lower === 'zero' &&
      /^(?:NOUN|PROPN|ADJ)$/.test(tags[i + 1] ?? '') &&
      !/^(?:as|to|at|of|than|a|an|the)$/i.test(values[i - 1] ?? '') &&
      !loadWordNet().broader((lemmas[i + 1] ?? '').toLowerCase(), 'magnitude');
    // "keeps ws from using X" says what "ws does not use X" does: "from" with a gerund after a
    // verb of prevention negates the gerund.
    const prevented =
      lower === 'from' &&
      // The tagger may call the gerund a noun ("stops ignore from checking"); a passive one
      // negates its participle ("keeps selectors from being absolutized").
      /^(?:VERB|NOUN|AUX)$/.test(tags[i + 1] ?? '') &&
      /ing$/i.test(values[i + 1] ?? '') &&
      preventedFrom(lemmas, values, i);
    // "cannot be larger than 125 bytes" bounds the number ("at most 125 bytes") and "not as
    // stable as" compares ("less stable"): the quantity and the comparative carry that negation.
    // "a fragment rather than a full document" says "not a full document"; so do "instead of",
    // "in place of", "in lieu of", "as opposed to", and "over" after a verb of preference
    // ("prefers this value over using the timestamps").
    const before = values[i - 1]?.toLowerCase();
    const instead =
      (lower === 'than' && before === 'rather') ||
      (lower === 'of' && before === 'instead') ||
      (lower === 'of' &&
        /^(?:place|lieu)$/.test(before ?? '') &&
        values[i - 2]?.toLowerCase() === 'in') ||
      (lower === 'to' && before === 'opposed' && values[i - 2]?.toLowerCase() === 'as') ||
      (lower === 'over' && preferred(lemmas, values, i)) ||
      replaced(lemmas, values, i);
    // "a route whose method doesn't is a non-match": a "not" before the finite verb of the next
    // clause negates a verb left out ("doesn't [match]"), not what follows.
    // "not only X (but also Y)", "not just X" add to X: they deny nothing.
    const additive = lower === 'not' && /^(?:only|just|merely|simply)$/i.test(values[i + 1] ?? '');
    const elided =
      (lower === 'not' || lower === "n't") &&
      /^(?:is|are|was|were|has|does|did|will|would|can|could|may|might|shall|should|must)$/i.test(
        values[i + 1] ?? '',
      );
    // "--branch-sim=no", "enabled: no": a value given to a name, not a negation ("Encoding: No
    // BOM added" negates the BOM).
    // Nor is one set with "to" ("defaults to no everywhere except on Solaris"), where no noun
    // follows ("leads to no errors" negates the errors).
    const assigned =
      lower === 'no' &&
      (values[i - 1] === '=' ||
        (values[i - 1] === ':' && !/^\p{L}/u.test(values[i + 1] ?? '')) ||
        (values[i - 1]?.toLowerCase() === 'to' &&
          !/^(?:NOUN|PROPN|ADJ|NUM)$/.test(tags[i + 1] ?? '') &&
          !/^(?:longer|more|less|one|way)$/i.test(values[i + 1] ?? '')));
    // "a value of not -1" is a value other than -1: after a preposition, "not" negates the
    // number it stands before, not the clause.
    const valued =
      lower === 'not' &&
      tags[i - 1] === 'ADP' &&
      /^(?:[-+]?\d|[-+]$)/.test(values[i + 1] ?? '') &&
      (/\d/.test(values[i + 1] ?? '') || /^\d/.test(values[i + 2] ?? ''));
    // "to avoid triggering X" says "so as not to trigger X": the gerund is what is negated.
    const avoided =
      lemma === 'avoid' &&
      /^(?:VERB|NOUN)$/.test(tags[i + 1] ?? '') &&
      /ing$/i.test(values[i + 1] ?? '');
    // "refuses to start", "fails to connect", "declines to answer" say "does not start": the
    // verb after "to" is what is negated. So do "is unable to start" and "it is impossible to
    // (unambiguously) parse lists", which say they cannot, and "a failure to write".
    const verbAfterTo =
      values[i + 1]?.toLowerCase() === 'to' &&
      (tags[i + 2] === 'VERB' || (tags[i + 2] === 'ADV' && tags[i + 3] === 'VERB'));
    const refused =
      (/^(?:refuse|decline|fail)$/.test(lemma) &&
        values[i + 1]?.toLowerCase() === 'to' &&
        tags[i + 2] === 'VERB') ||
      (/^(?:unable|impossible)$/.test(lower) && verbAfterTo) ||
      // "silent failure to write data": the noun says it as the verb does.
      (/^(?:failure|failures|refusal|inability)$/.test(lower) && verbAfterTo);
    // "405 Method Not Allowed", "204 No Content": a status's name, in title case, denies nothing.
    const titled =
      /^(?:Not|No)$/.test(value) &&
      /^[A-Z][a-z]/.test(values[i + 1] ?? '') &&
      /^(?:\d{3}|[A-Z][A-Za-z]*)$/.test(values[i - 1] ?? '');
    const cue =
      (CUES.has(lower) ||
        refused ||
        (lower === 'no' && pos === 'DET') ||
        none ||
        prevented ||
        instead ||
        avoided) &&
      !elided &&
      !additive &&
      !assigned &&
      !valued &&
      !echoes.has(i) &&
      !titled &&
      !negatesBound(values, tags, i);
    if (cue) {
      pending++;
      nounPhrase = lower === 'without' || (lower === 'no' && pos === 'DET');
    }
    const word = type === 'word' && /[\p{L}]/u.test(value);
    // wink's stop list holds words that carry facts here ("used", "first", "last", "make"): only
    // stop words that are not nouns, verbs or adjectives, and the light verbs, are left out.
    // "does not need to match" negates "match", as "must" / "need not" would: "need to" is a modal.
    const modal = lemma === 'need' && values[i + 1]?.toLowerCase() === 'to';
    // "does not perform internal caching" says "does not cache": "perform" before a noun of an act
    // only carries it, and its negation falls on the act, past the modifiers.
    const support = lemma === 'perform' && actNounAfter(values, tags, i);
    if (support && pending > 0) nounPhrase = true;
    // "Given a bare address, ..." opens a case, as "For" would: no act of giving.
    const opener =
      lower === 'given' &&
      (i === 0 || /^[.;:!?]$/.test(values[i - 1] ?? '')) &&
      /^(?:DET|ADJ|NOUN|PROPN|NUM)$/.test(tags[i + 1] ?? '');
    const content =
      word &&
      !cue &&
      !modal &&
      !opener &&
      !FUNCTION_POS.has(pos) &&
      (!(stops[i] ?? false) || HEAVY_POS.has(pos)) &&
      !LIGHT_VERBS.has(lemma) &&
      !support;
    // The scope is the negated predicate only ("not enabled by default" negates "enabled"): a
    // clause-wide scope would flip "default" too, and "disabled by default" would then disagree.
    // Adverbs ("not fully implement", "no longer used") pass the negation on to the predicate.
    // The first part of a compound ("no run-time overhead") is no word of its own: the
    // negation passes over it to the rest.
    const compound =
      pending % 2 === 1 && values[i + 1] === '-' && /^\p{L}/u.test(values[i + 2] ?? '');
    const negated = content && pos !== 'ADV' && pending % 2 === 1 && !compound;
    // "without a defined TTL", "no valid entries": a cue before a noun phrase negates its noun
    // too, past the modifiers.
    const modifier =
      nounPhrase &&
      (pos === 'ADJ' || (pos === 'VERB' && /(?:ed|ing)$/.test(lower))) &&
      /^(?:NOUN|PROPN|ADJ)$/.test(tags[i + 1] ?? '');
    if (content && pos !== 'ADV' && !modifier && !compound) pending = 0;
    const stem = (stems[i] ?? lower).toLowerCase();
    tokens.push({ text: value, lower, lemma, stem, pos, negated, cue, content, clause, joined });
  });
  // Words glued by hyphens ("gunzip-maybe", "tar-fs") make one name.
  for (let i = 0; i < values.length; i++) {
    let j = i;
    while (
      values[j + 1] === '-' &&
      (spaces[j + 1] ?? ' ') === '' &&
      (spaces[j + 2] ?? ' ') === '' &&
      /^[\p{L}\p{N}]/u.test(values[j + 2] ?? '')
    )
      j += 2;
    if (j === i || !/^[\p{L}\p{N}]/u.test(values[i] ?? '')) continue;
    // Words of English glued are a compound word ("built-in", "read-only"), not a name.
    const pieces = tokens.slice(i, j + 1).filter((_, k) => k % 2 === 0);
    if (pieces.every((t) => loadWordNet().knows(t.lower) || loadWordNet().knows(t.lemma))) {
      i = j;
      continue;
    }
    const name = values
      .slice(i, j + 1)
      .join('')
      .toLowerCase();
    for (let k = i; k <= j; k += 2) tokens[k]!.compound = name;
    i = j;
  }
  // "without a warning or any chance to abort": a cue before a noun phrase denies each noun the
  // phrase joins with "or" ("without a warning and without a chance").
  tokens.forEach((t, n) => {
    if (
      !t.negated ||
      !/^(?:NOUN|PROPN)$/.test(t.pos) ||
      !/^(?:or|nor)$/.test(tokens[n + 1]?.lower ?? '')
    )
      return;
    const cue = tokens.findLast((x, k) => k < n && x.cue);
    if (!cue || cue.clause !== t.clause || !/^(?:without|no)$/.test(cue.lower)) return;
    let k = n + 2;
    while (/^(?:DET|ADJ)$/.test(tokens[k]?.pos ?? '') && !tokens[k]!.cue) k++;
    const noun = tokens[k];
    if (noun?.content && noun.clause === t.clause && /^(?:NOUN|PROPN)$/.test(noun.pos))
      noun.negated = true;
  });
  // "neither A nor B" is one negation: "nor" adds none of its own. Before a verb, the pair is its
  // subject, and the verb is what is negated ("Neither bzip2 nor bunzip2 overwrites files" says
  // "bzip2 and bunzip2 do not overwrite files").
  tokens.forEach((t, n) => {
    if (t.lower !== 'neither' || !t.cue) return;
    // "nor" may open a clause of its own ("Neither pack | nor unpack overwrites").
    const m = tokens.findIndex(
      (x, k) => k > n && x.lower === 'nor' && x.clause - t.clause <= 1 && !x.joined,
    );
    if (m < 0 || tokens.slice(n, m).some(endsSentence)) return;
    tokens[m]!.cue = false;
    // One statement, as "A and B do not X" is: the pair joins the clause of "nor".
    const clause = tokens[m]!.clause;
    for (let k = n; k < m; k++) tokens[k]!.clause = clause;
    const v = tokens.findIndex((x, k) => k > m + 1 && x.clause === clause && x.pos === 'VERB');
    // The word after "nor" is the pair's second item, whatever the tagger calls it.
    // An auxiliary may stand between ("neither max nor maxSize are set").
    if (v < 0 || tokens.slice(m + 2, v).some((x) => x.pos === 'VERB')) return;
    for (let k = n + 1; k < v; k++) tokens[k]!.negated = false;
    if (tokens[v]!.content) tokens[v]!.negated = true;
  });
  // "None of the tools are required" says the tools are not required: "none of" quantifies its
  // noun phrase, and the negation falls on the predicate after it.
  tokens.forEach((t, n) => {
    if (t.lower !== 'none' || !t.cue || tokens[n + 1]?.lower !== 'of') return;
    const v = tokens.findIndex(
      (x, k) => k > n + 1 && x.clause === t.clause && (x.pos === 'VERB' || x.pos === 'AUX'),
    );
    if (v < 0) return;
    const predicate =
      tokens[v]!.pos === 'VERB'
        ? v
        : tokens.findIndex((x, k) => k > v && x.clause === t.clause && x.content);
    if (predicate < 0 || !tokens[predicate]!.content) return;
    for (let k = n + 1; k < v; k++) tokens[k]!.negated = false;
    tokens[predicate]!.negated = true;
  });
  // "There is no code to load shared libraries" says none can be loaded: a denied means of an
  // act ("no code to", "no way to", "no API to") denies the act too.
  tokens.forEach((t, i) => {
    const to = tokens[i + 1];
    const act = tokens[i + 2];
    if (!t.negated || t.pos !== 'NOUN' || to?.lower !== 'to' || !act) return;
    if (act.pos !== 'VERB' || !act.content || act.clause !== t.clause) return;
    act.negated = true;
  });
  // The participle after such an "and" is negated with the one before it.
  tokens.forEach((_, i) => {
    if (i > 0 && sharesNegation(i) && tokens[i + 1]!.content) tokens[i + 1]!.negated = true;
  });
  // "does not parse or look up the selector", "fails to parse or to look up": a verb after "or"
  // with no subject of its own is denied with the negated verb before it (not A or B is neither).
  tokens.forEach((t, i) => {
    if (t.lower !== 'or' || i === 0) return;
    const act = tokens[i + 1]?.lower === 'to' ? tokens[i + 2] : tokens[i + 1];
    if (!act || act.pos !== 'VERB' || !act.content || act.negated) return;
    // The negated verb before, past its object: nouns, names, determiners, adjectives, prepositions.
    // ("or" opens a clause of its own: the verb before stands in the clause before it.)
    for (let k = i - 1; k >= 0 && tokens[k]!.clause >= t.clause - 1; k--) {
      const x = tokens[k]!;
      if (x.pos === 'VERB') {
        if (!x.negated || x.lemma === act.lemma) return;
        act.negated = true;
        // One statement under one negation, as "A or B is not X" is: the clause of "or" joins it.
        const own = t.clause;
        for (const y of tokens) if (y.clause === own) y.clause = x.clause;
        return;
      }
      if (!/^(?:NOUN|PROPN|DET|ADJ|ADP|NUM|X|PART)$/.test(x.pos)) return;
    }
  });
  // "doesn't guarantee that it can detect every error" asserts no detection: the clause a denied
  // guarantee (or "does not mean that", "does not ensure that") opens is one statement with it,
  // under its negation.
  tokens.forEach((t, i) => {
    if (!t.negated || t.pos !== 'VERB' || !UNASSERTING.has(t.lemma)) return;
    const that = tokens[i + 1];
    if (that?.lower !== 'that' || that.clause === t.clause) return;
    const own = that.clause;
    for (const y of tokens) if (y.clause === own) y.clause = t.clause;
  });
  // "Constructing a channel directly is not supported" says it cannot be constructed: an act
  // (a gerund opening the clause) that is not supported, allowed, permitted or possible is denied.
  tokens.forEach((t, i) => {
    if (!t.negated || !DENIED_ACTS.has(t.lemma)) return;
    let k = i - 1;
    while (k > 0 && tokens[k - 1]!.clause === t.clause) k--;
    while (k < i && /^\W+$/.test(tokens[k]!.text)) k++;
    const act = tokens[k];
    if (!act || !/^(?:VERB|NOUN)$/.test(act.pos) || !/ing$/.test(act.lower) || !act.content) return;
    // One predicate: the gerund's phrase has no finite verb of its own before "is".
    const between = tokens.slice(k + 1, i);
    const aux = between.findIndex((x) => /^(?:is|are|was|were)$/.test(x.lower));
    if (aux < 0 || between.slice(0, aux).some((x) => x.pos === 'VERB' || x.pos === 'AUX')) return;
    act.negated = true;
  });
  // "unpipes req only after the response is written, not when it is invoked" denies the act in
  // the case after the "not": a corrective "not" after a comma, before a temporal or conditional
  // clause, negates that clause's words, which are one clause with it.
  tokens.forEach((t, i) => {
    if (!t.cue || t.lower !== 'not' || tokens[i - 1]?.text !== ',') return;
    let k = i + 1;
    const at = tokens[k]?.lower === 'at' && tokens[k + 1]?.lower === 'the';
    // "at the moment" says "when": a word of time, no content of its own.
    if (at && /^(?:moment|time|point)$/.test(tokens[k + 2]?.lower ?? '')) {
      tokens[k + 2]!.content = false;
      tokens[k + 2]!.negated = false;
      k += 3;
    } else if (/^(?:when|whenever|while|after|before|until|once|if)$/.test(tokens[k]?.lower ?? ''))
      k++;
    else return;
    const clause = t.clause;
    for (; k < tokens.length && !/^[,;:.!?]$/.test(tokens[k]!.text); k++) {
      const x = tokens[k]!;
      x.clause = clause;
      if (x.content) x.negated = true;
    }
    for (let j = i + 1; j < k; j++) tokens[j]!.clause = clause;
  });
  // "Sanitizing the input is explicitly not something we aim to do" denies the sanitizing: a
  // gerund opening the clause that "is not something" (or "anything", "what") is an act denied.
  tokens.forEach((t, i) => {
    if (!t.cue || !/^(?:not|n't)$/.test(t.lower)) return;
    if (!/^(?:something|anything|what)$/.test(tokens[i + 1]?.lower ?? '')) return;
    let be = i - 1;
    while (be > 0 && tokens[be]!.pos === 'ADV') be--;
    if (!/^(?:is|are|was|were)$/.test(tokens[be]?.lower ?? '')) return;
    let k = be - 1;
    while (k > 0 && tokens[k - 1]!.clause === tokens[be]!.clause) k--;
    while (k < be && /^\W+$/.test(tokens[k]!.text)) k++;
    const act = tokens[k];
    if (!act || !/^(?:VERB|NOUN)$/.test(act.pos) || !/ing$/.test(act.lower) || !act.content) return;
    // One subject: the gerund's phrase has no verb of its own before "is".
    if (tokens.slice(k + 1, be).some((x) => x.pos === 'VERB' || x.pos === 'AUX')) return;
    act.negated = true;
  });
  // "does not contribute in keeping the object alive" denies the keeping.
  tokens.forEach((t, i) => {
    const [to, act] = [tokens[i + 1], tokens[i + 2]];
    if (!t.negated || t.pos !== 'VERB' || !LEADING.has(t.lemma) || !to || !act) return;
    if (!/^(?:to|in|towards)$/.test(to.lower) || act.pos !== 'VERB' || !/ing$/.test(act.lower))
      return;
    if (act.content) act.negated = true;
  });
  // "are not kept consistent": the negation of a verb that carries a state falls on the state
  // too, past its object ("does not keep the object alive").
  tokens.forEach((t, i) => {
    if (!t.negated || t.pos !== 'VERB' || !CARRIERS.has(t.lemma)) return;
    for (let k = i + 1; k <= i + 4 && tokens[k]?.clause === t.clause; k++) {
      const x = tokens[k]!;
      if (x.pos === 'ADJ' && x.content) {
        x.negated = true;
        break;
      }
      // "that" in one clause with the verb is a determiner ("keep that object alive").
      if (/^(?:VERB|AUX|ADP|CCONJ|PUNCT)$/.test(x.pos) || (x.pos === 'SCONJ' && x.lower !== 'that'))
        break;
    }
  });
  // "turned off" says "disabled", "switch it on" says "enable": the particle carries the meaning.
  tokens.forEach((t, i) => {
    if (t.lemma !== 'turn' && t.lemma !== 'switch') return;
    const gap = /^(?:it|them|this|that)$/.test(tokens[i + 1]?.lower ?? '') ? 2 : 1;
    const particle = tokens[i + gap];
    if (particle?.lower !== 'on' && particle?.lower !== 'off') return;
    t.lemma = particle.lower === 'on' ? 'enable' : 'disable';
    t.stem = t.lemma.slice(0, -1);
    t.pos = 'VERB';
    t.content = true;
    particle.content = false;
  });
  // The noun of a compound preposition ("in favour of", "in terms of", "with respect to") names
  // nothing of the sentence.
  tokens.forEach((t, i) => {
    if (
      PREPOSITION_NOUNS.has(t.lower) &&
      /^(?:in|on|with|by)$/.test(tokens[i - 1]?.lower ?? '') &&
      /^(?:of|to)$/.test(tokens[i + 1]?.lower ?? '')
    )
      t.content = false;
  });
  // wink splits snake_case identifiers at "_" ("UND_ERR_REQ_RETRY" -> und _ err _ req _ retry): the
  // pieces are no words of the sentence (the identifier is a key term, compared as a whole).
  tokens.forEach((t, i) => {
    if (t.text !== '_') return;
    for (const k of [i - 1, i + 1]) {
      const piece = tokens[k];
      if (piece) {
        piece.content = false;
        piece.negated = false;
        // "NO" of `NO_DEPRECATION` denies nothing.
        piece.cue = false;
      }
    }
  });
  // A day in words ("the first of January 2020") is part of its date, compared as a date.
  const quantities = extractQuantities(text);
  const days = new Set(
    quantities.flatMap((q) =>
      q.kind === 'date'
        ? q.text
            .toLowerCase()
            .split(/[^a-z]+/)
            .filter(isDayWord)
        : [],
    ),
  );
  tokens.forEach((t, i) => {
    if (!days.has(t.lower)) return;
    const near = tokens.slice(Math.max(0, i - 2), i + 3);
    if (near.some((x) => MONTH_WORD.test(x.lower))) t.content = false;
  });
  return {
    text,
    tokens,
    quantities,
    keyTerms: keyTermsOf(text, tokens),
    comparatives: comparativesOf(tokens),
  };
}
