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
import { extractQuantities } from './quantities.js';
import type { Quantity } from './quantities.js';
import { loadWordNet } from './wordnet.js';

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
}

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

let nlp: WinkMethods | undefined;
const engine = (): WinkMethods => (nlp ??= winkNLP(model));

/**
 * Negation cues: a closed class of English function words (wink-nlp marks a negation scope but
 * does not expose its cues, and does not treat `without` as one).
 */
const CUES = new Set([
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
]);

/** Verbs of prevention: "X keeps/stops/prevents Y from doing Z" means Y does not do Z. */
const PREVENTION = new Set(['keep', 'stop', 'prevent', 'prohibit', 'bar', 'block', 'forbid']);

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

/** Comparison words whose opposite is not an antonym in WordNet, with their direction. */
const RELATIONS: Record<string, [string, 1 | -1]> = {
  before: ['before', 1],
  after: ['before', -1],
  prior: ['before', 1],
  above: ['above', 1],
  below: ['above', -1],
  greater: ['more', 1],
  larger: ['more', 1],
  bigger: ['more', 1],
  smaller: ['more', -1],
  better: ['good', 1],
  worse: ['good', -1],
  best: ['good', 1],
  worst: ['good', -1],
  more: ['more', 1],
  less: ['more', -1],
  fewer: ['more', -1],
  most: ['more', 1],
  least: ['more', -1],
  exceed: ['more', 1],
  outperform: ['good', 1],
  increase: ['more', 1],
  decrease: ['more', -1],
  reduce: ['more', -1],
  raise: ['more', 1],
  lower: ['high', -1],
};

/** A comparison word's entry (own keys only: `constructor` is not a comparison). */
const relationOf = (word: string): [string, 1 | -1] | undefined =>
  Object.hasOwn(RELATIONS, word) ? RELATIONS[word] : undefined;

/** Words a sentence may start with in upper case that are not names. */
const isSentenceStart = (text: string, index: number): boolean =>
  /(?:^|[.!?:;]\s+|\n\s*|["'(]\s*)$/.test(text.slice(0, index));

const UNIT_WORDS = /^(?:[kmgt]i?b|ms|ns|us|hz|[kmg]hz|px|usd|eur|gbp|utc|gmt|am|pm)$/i;

/**
 * The base of a comparative adjective or adverb (`faster` -> `fast`, `easier` -> `easy`,
 * `bigger` -> `big`) when WordNet knows the base as an adjective or adverb, else `null`.
 */
function comparativeBase(word: string): string | null {
  if (!/^[a-z]{4,}(?:er|est)$/.test(word)) return null;
  const wn = loadWordNet();
  const stem = word.replace(/est$|er$/, '');
  const tries = [stem, `${stem}e`, stem.replace(/i$/, 'y'), stem.replace(/(.)\1$/, '$1')];
  for (const t of tries) {
    if (t.length >= 2 && wn.synsets(t).some((id) => id.startsWith('a') || id.startsWith('r')))
      return t;
  }
  return null;
}

/**
 * Analyses a sentence (or a short passage): tokens, negation scope, key terms, quantities,
 * comparatives. Pure: no I/O after the first call (which loads the wink-nlp model and WordNet).
 * @example analyze('Caching is not enabled by default.').tokens.find((t) => t.lemma === 'enable')?.negated // true
 */
export function analyze(text: string): Analysis {
  const n = engine();
  const its = n.its;
  const doc = n.readDoc(text);
  // wink-nlp's typings give `its.lemma` an add-on signature `out()` does not accept; all are columns.
  const column = <T>(f: unknown): T[] => doc.tokens().out(f as typeof its.value) as unknown as T[];
  const values = column<string>(its.value);
  const lemmas = column<string>(its.lemma);
  const stems = column<string>(its.stem);
  const tags = column<string>(its.pos);
  const types = column<string>(its.type);
  const stops = column<boolean>(its.stopWordFlag);
  const tokens: Token[] = [];
  let clause = 0;
  const opensClause = (i: number): boolean => {
    for (let k = i + 1; k < Math.min(values.length, i + 4); k++) {
      const tag = tags[k];
      const v = values[k]?.toLowerCase() ?? '';
      // A participle before a noun is an adjective ("or queued requests").
      const attributive = tag === 'VERB' && /(?:ed|ing)$/.test(v) && tags[k + 1] === 'NOUN';
      if ((tag === 'VERB' && !attributive) || tag === 'AUX' || CUES.has(v)) return true;
      if (tag === 'NOUN' || tag === 'PROPN' || tag === 'NUM') return false;
    }
    return false;
  };
  // Cues waiting for the word they negate: the first content word after them in the clause.
  let pending = 0;
  values.forEach((value, i) => {
    const lower = value.toLowerCase();
    const lemma = (lemmas[i] ?? lower).toLowerCase();
    const pos = tags[i] ?? 'X';
    const type = types[i] ?? 'word';
    const boundary =
      (type === 'punctuation' && /^[,.;:!?]$/.test(value)) ||
      CLAUSE_BREAK.has(lower) ||
      // A relative "that" opens a clause of its own ("requests that are not idempotent").
      (lower === 'that' && pos !== 'DET') ||
      (COORDINATORS.has(lower) && opensClause(i));
    if (boundary) {
      clause++;
      pending = 0;
    }
    // "zero dependencies" says what "no dependencies" does: a quantifier of none before its noun.
    const none = lower === 'zero' && /^(?:NOUN|PROPN|ADJ)$/.test(tags[i + 1] ?? '');
    // "keeps ws from using X" says what "ws does not use X" does: "from" with a gerund after a
    // verb of prevention negates the gerund.
    const prevented =
      lower === 'from' &&
      tags[i + 1] === 'VERB' &&
      /ing$/i.test(values[i + 1] ?? '') &&
      lemmas.slice(Math.max(0, i - 4), i).some((l) => PREVENTION.has((l ?? '').toLowerCase()));
    const cue = CUES.has(lower) || (lower === 'no' && pos === 'DET') || none || prevented;
    if (cue) pending++;
    const word = type === 'word' && /[\p{L}]/u.test(value);
    // wink's stop list holds words that carry facts here ("used", "first", "last", "make"): only
    // stop words that are not nouns, verbs or adjectives, and the light verbs, are left out.
    const content =
      word &&
      !cue &&
      !FUNCTION_POS.has(pos) &&
      (!(stops[i] ?? false) || HEAVY_POS.has(pos)) &&
      !LIGHT_VERBS.has(lemma);
    // The scope is the negated predicate only ("not enabled by default" negates "enabled"): a
    // clause-wide scope would flip "default" too, and "disabled by default" would then disagree.
    // Adverbs ("not fully implement", "no longer used") pass the negation on to the predicate.
    const negated = content && pos !== 'ADV' && pending % 2 === 1;
    if (content && pos !== 'ADV') pending = 0;
    const stem = (stems[i] ?? lower).toLowerCase();
    tokens.push({ text: value, lower, lemma, stem, pos, negated, cue, content, clause });
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
      }
    }
  });
  return {
    text,
    tokens,
    quantities: extractQuantities(text),
    keyTerms: keyTermsOf(text, tokens),
    comparatives: comparativesOf(tokens),
  };
}

/** Key terms: code spans, identifiers, names, and words WordNet does not know. */
function keyTermsOf(text: string, tokens: readonly Token[]): KeyTerm[] {
  const out = new Map<string, KeyTerm>();
  const add = (t: string, kind: KeyTerm['kind']): void => {
    const clean = t.replace(/^[`'"]+|[`'".,;:!?]+$/g, '').replace(/\(\)$/, '');
    if (clean.length < 2 || UNIT_WORDS.test(clean) || /^\d[\d.,]*$/.test(clean)) return;
    const key = clean.toLowerCase();
    if (![...out.keys()].some((k) => k.includes(key))) out.set(key, { text: clean, kind });
  };
  for (const m of text.matchAll(/`([^`]+)`/g)) add(m[1]!, 'code');
  const prose = text.replace(/`[^`]+`/g, ' ');
  const identifier =
    /(?<![\w$])(?:[A-Za-z]+\/\d+(?:\.\d+)*|--?[a-z][\w-]*|[A-Za-z_$][\w$]*(?:(?:\.|::|#|\/)[A-Za-z_$][\w$]*)+(?:\(\))?|[a-z]+[A-Z][\w$]*|[A-Z][a-z0-9]+[A-Z][\w$]*|\w+_\w+|[A-Z][A-Z0-9]+[a-z]*|(?=[a-z]*\d)[a-z][a-z0-9]*)(?![\w$])/g;
  for (const m of prose.matchAll(identifier)) {
    const t = m[0];
    // "e.g." and "i.e." are abbreviations, not paths; "v2" is a version, compared as a quantity.
    if (/^(?:e\.g|i\.e|etc|vs)$/i.test(t) || /^v\d+$/i.test(t)) continue;
    add(t, 'identifier');
  }
  const wn = loadWordNet();
  const propn = new Set(tokens.filter((t) => t.pos === 'PROPN' && t.content).map((t) => t.lower));
  const contentWords = new Set(tokens.filter((t) => t.content).map((t) => t.lower));
  for (const m of prose.matchAll(/(?<![\w$.-])[A-Z][a-z]+(?:[-'][A-Za-z]+)?(?![\w$])/g)) {
    const t = m[0];
    const lower = t.toLowerCase();
    // "If", "Once", "The": function words in capitals are no names.
    if (!contentWords.has(lower)) continue;
    // A capital at a sentence start proves nothing: there only a name WordNet does not know counts.
    if (!isSentenceStart(prose, m.index)) add(t, 'proper');
    else if (propn.has(lower) && !knownForm(lower)) add(t, 'proper');
  }
  for (const t of tokens) {
    if (!t.content || !/^[a-z][a-z-]{3,}$/.test(t.lower)) continue;
    if (wn.knows(t.lemma) || knownForm(t.lower) || UNIT_WORDS.test(t.lower)) continue;
    add(t.text, 'rare');
  }
  return [...out.values()];
}

/**
 * True when WordNet knows the word or the base it is derived from: "configurable", "retried",
 * "re-run", "Pipelining" (a capital at a sentence start is no name when the word is English).
 */
function knownForm(lower: string): boolean {
  const wn = loadWordNet();
  if (wn.knows(lower)) return true;
  const base = lower.replace(/-/g, '').replace(/(?:able|ible|ed|ing|s|ly)$/, '');
  return base.length >= 4 && (wn.knows(base) || wn.knows(`${base}e`));
}

/** Comparatives: `faster`, `more memory`, `less often`, `before`, `exceeds`. */
function comparativesOf(tokens: readonly Token[]): Comparative[] {
  const out: Comparative[] = [];
  tokens.forEach((t, i) => {
    const relation = relationOf(t.lemma) ?? relationOf(t.lower);
    // "at most 3", "more than 3": bounds of a quantity, compared with the quantity.
    const next = tokens[i + 1];
    if (
      relation &&
      (tokens[i - 1]?.lower === 'at' ||
        (next?.lower === 'than' && tokens[i + 2]?.pos === 'NUM') ||
        next?.pos === 'NUM')
    ) {
      return;
    }
    if (
      relation &&
      (t.lower === 'more' || t.lower === 'less' || t.lower === 'fewer') &&
      next?.lower !== 'than'
    ) {
      // "more X" compares X: the next content word is what grows or shrinks.
      const what = tokens.slice(i + 1, i + 3).find((x) => x.content);
      if (what) {
        const base = comparativeBase(what.lower) ?? what.lemma;
        out.push({ text: `${t.text} ${what.text}`, base, sign: relation[1], at: i });
        return;
      }
    }
    if (relation) {
      out.push({ text: t.text, base: relation[0], sign: relation[1], at: i });
      return;
    }
    if (t.pos !== 'ADJ' && t.pos !== 'ADV') return;
    const base = comparativeBase(t.lower);
    if (base) out.push({ text: t.text, base, sign: 1, at: i });
  });
  return out;
}
