/**
 * Key terms of an analysed text: what a passage must state itself for a claim to hold (code spans,
 * quoted literals, identifiers, names, and words WordNet does not know).
 */
import type { KeyTerm, Token } from './analyze.js';
import { loadWordNet } from './wordnet.js';

/** Words a sentence may start with in upper case that are not names. */
const isSentenceStart = (text: string, index: number): boolean =>
  /(?:^|[.!?:;]\s+|\n\s*|["'(]\s*)$/.test(text.slice(0, index)) ||
  // A History row's change after its version: "v6.0.0 Passing a non-string ... will throw now."
  /^\s*v?\d+(?:\.\d+)+\s+$/.test(text.slice(0, index));

const UNIT_WORDS = /^(?:[kmgt]i?b|ms|ns|us|hz|[kmg]hz|px|usd|eur|gbp|utc|gmt|am|pm)$/i;

/** JavaScript's primitive types as Node.js's docs bracket them: no HTML element has their names. */
const PRIMITIVE_TYPES = /^<(?:number|string|boolean|integer|bigint|any|null|undefined|symbol)>$/;

/** "the <name> event": a word before a kind of named thing of an API. */
const NAMED_KIND =
  /\bthe\s+['"`]?([A-Za-z_$][\w$]*)['"`]?\s+(?:event|option|method|property|flag|parameter|header|field|argument|hook|callback|setting|mode|attribute|function|command)s?\b/gi;

/** "an import's <name> field", "its <name> option": the owner's named thing of an API. */
const OWNED_KIND =
  /(?:\b(?:its|their)|[A-Za-z_$][\w$]*'s)\s+['"`]?([A-Za-z_$][\w$]*)['"`]?\s+(?:event|option|method|property|flag|parameter|header|field|argument|hook|callback|setting|mode|attribute|function|command)s?\b/gi;

/** Words that qualify a kind rather than name one of it ("the same option", "the default mode"). */
const NOT_A_NAME = new Set(
  (
    'same first last second third default new old following other given next previous whole ' +
    'entire only main global custom optional required above below specified corresponding ' +
    'relevant appropriate underlying original current initial final extra additional single ' +
    'each every which that this its their your an a one two'
  ).split(' '),
);

/** Key terms: code spans, identifiers, names, and words WordNet does not know. */
export function keyTermsOf(text: string, tokens: readonly Token[]): KeyTerm[] {
  const out = new Map<string, KeyTerm>();
  const add = (t: string, kind: KeyTerm['kind']): void => {
    const clean = t.replace(/^[`'"]+|[`'".,;:!?]+$/g, '').replace(/\(\)$/, '');
    if (clean.length < 2 || UNIT_WORDS.test(clean) || /^\d[\d.,]*$/.test(clean)) return;
    const key = clean.toLowerCase();
    // A part of a term already found is no term of its own ("PING" of "pingInterval"), but a
    // qualified name that only ends another is ("start.bindStore" beside "asyncStart.bindStore").
    const whole = new RegExp(`(?<![\\w$])${key.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\w$])`);
    const partOf = (k: string): boolean => (key.includes('.') ? whole.test(k) : k.includes(key));
    if (![...out.keys()].some(partOf)) out.set(key, { text: clean, kind });
  };
  for (const m of text.matchAll(/`([^`]+)`/g)) add(m[1]!, 'code');
  // A quoted literal of one to three words is a value the text names ("returns the string
  // 'failure'"); a quote after a letter is an apostrophe ("can't", "users'").
  for (const m of text.matchAll(
    /(?<![\p{L}\p{N}])['"\u2018\u201c]([^'"`\u2018\u2019\u201c\u201d\s]+(?: [^'"`\u2018\u2019\u201c\u201d\s]+){0,2})['"\u2019\u201d](?![\p{L}\p{N}])/gu,
  )) {
    // A quoted symbol is a value too ('A leading "=" is stripped'), however short.
    if (/^[^\p{L}\p{N}\s]{1,3}$/u.test(m[1]!)) out.set(m[1]!, { text: m[1]!, kind: 'code' });
    else add(m[1]!, 'code');
  }
  // An HTML tag in prose ("wrapped in <strong> tags") names an element exactly; a type in
  // brackets ("<URLSearchParams>", Node.js's docs) is its name, found below.
  // A primitive type in brackets ("value <number>", "<string> | <boolean>") is the value's type,
  // no element.
  for (const m of text.matchAll(/<\/?[a-z][a-z0-9-]*>/g)) {
    if (!PRIMITIVE_TYPES.test(m[0])) add(m[0], 'code');
  }
  // So does a call ("handled in then()"), whatever English word names the function.
  for (const m of text.matchAll(/(?<![\w$.])[A-Za-z_$][\w$]*\(\)/g)) add(m[0], 'code');
  // So does a format directive ("%c counts...", "%Y", "%-d"): printf, strftime, time(1).
  for (const m of text.matchAll(/(?<![\w%])%[-#0+ ]?[A-Za-z](?![\w])/g)) add(m[0], 'code');
  // So does a pattern operator on its group ("+(pattern)", "!(x)": globs, regular expressions),
  // which the same group under another operator is not.
  for (const m of text.matchAll(/(?<![\w$)\]])[*+?!@]\([^()\s]+\)/g))
    out.set(m[0], { text: m[0], kind: 'code' });
  // So does a key combination ("Ctrl+R", "Shift-Tab"): which key is the fact.
  for (const m of text.matchAll(
    /(?<![\w$])(?:Ctrl|Control|Alt|Shift|Cmd|Command|Meta|Option|Super)(?:[+-](?:[A-Za-z0-9]\b|[A-Z][a-z]+))+/g,
  ))
    add(m[0], 'code');
  // So does a status class ("4xx"): a number with a wildcard.
  for (const m of text.matchAll(/\b\d[xX]{2}\b/g)) add(m[0], 'code');
  // A word naming an event, option or method is its name ("the acquire event", "the error
  // event"), however ordinary: the page must name that one, not another of the same kind.
  const posOf = new Map(tokens.map((t) => [t.lower, t.pos]));
  for (const m of text.matchAll(NAMED_KIND)) {
    const name = m[1]!.toLowerCase();
    if (NOT_A_NAME.has(name) || /^(?:ADJ|DET|NUM|PRON)$/.test(posOf.get(name) ?? '')) continue;
    add(m[1]!, 'code');
  }
  // After an owner ("an import's a field", "its at field") only a word that is no English noun,
  // verb or adjective is taken for a name: "a module's initialization function" names none.
  for (const m of text.matchAll(OWNED_KIND)) {
    const name = m[1]!.toLowerCase();
    if (NOT_A_NAME.has(name) || /^(?:NOUN|VERB|ADJ|ADV|PROPN)$/.test(posOf.get(name) ?? 'NOUN'))
      continue;
    add(m[1]!, 'code');
  }
  // A name of capitalised words joined by hyphens ("Access-Control-Request-Headers", "Content-Type")
  // is an HTTP header's or a product's name, wherever it stands in the sentence.
  for (const m of text.matchAll(/(?<![\w$.-])[A-Z][A-Za-z0-9]*(?:-[A-Z][A-Za-z0-9]*)+(?![\w$-])/g))
    add(m[0], 'identifier');
  const prose = text.replace(/`[^`]+`/g, ' ');
  const identifier =
    /(?<![\w$])(?:[A-Za-z]+\/\d+(?:\.\d+)*|--?[a-z][\w-]*|[A-Za-z_$][\w$]*(?:(?:\.|::|#|\/)[A-Za-z_$][\w$]*(?:-[\w$]+)*)+(?:\(\))?|[a-z]+[A-Z][\w$]*|[A-Z][a-z0-9]+[A-Z][\w$]*|\w+_\w+|[A-Z][A-Z0-9]+[a-z]*|(?=[a-z]*\d)[a-z][a-z0-9]*|\$[A-Za-z_]\w+)(?![\w$])/g;
  for (const m of prose.matchAll(identifier)) {
    const t = m[0];
    // "e.g." and "i.e." are abbreviations, not paths; "v2" is a version, compared as a quantity.
    if (/^(?:e\.g|i\.e|etc|vs)$/i.test(t) || /^v\d+$/i.test(t)) continue;
    add(t, 'identifier');
  }
  // A short option in capitals ("-C", "-CF", "-Cf") is an option's name, in its case.
  for (const m of prose.matchAll(/(?<![\w$.-])-[A-Z][A-Za-z0-9]{0,2}(?![\w$-])/g))
    add(m[0], 'identifier');
  // A directory written with its slash ("public/", "public-optimized/") is a path.
  for (const m of prose.matchAll(/(?<![\w$/.-])[A-Za-z_.][\w.-]*\/(?![\w$/])/g))
    add(m[0], 'identifier');
  const wn = loadWordNet();
  const propn = new Set(tokens.filter((t) => t.pos === 'PROPN' && t.content).map((t) => t.lower));
  const contentWords = new Set(tokens.filter((t) => t.content).map((t) => t.lower));
  for (const m of prose.matchAll(/(?<![\w$.-])[A-Z][a-z]+(?:[-'][A-Za-z]+)?(?![\w$])/g)) {
    const t = m[0];
    const lower = t.toLowerCase();
    // "If", "Once", "The": function words in capitals are no names; nor is a value literal
    // ("True", "None"), which prose writes in lower case.
    if (!contentWords.has(lower) || /^(?:true|false|none|null)$/.test(lower)) continue;
    // A capital at a sentence start proves nothing: there only a name WordNet does not know counts.
    if (!isSentenceStart(prose, m.index)) add(t, 'proper');
    else if (propn.has(lower) && !knownForm(lower)) add(t, 'proper');
  }
  for (const t of tokens) {
    if (!t.content || !/^[a-z][a-z-]{3,}$/.test(t.lower)) continue;
    if (wn.knows(t.lemma) || knownForm(t.lower) || UNIT_WORDS.test(t.lower)) continue;
    // WordNet has no pronouns: "everything", "whichever" are English, not names.
    if (t.pos === 'PRON' || /^(?:every|some|any|no)(?:thing|one|body|where)$/.test(t.lower))
      continue;
    // "newer", "easiest": a degree of a known adjective, compared as a comparative.
    if (/^(?:ADJ|ADV)$/.test(t.pos) && gradedForm(t.lower)) continue;
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

/** True for a comparative or superlative of a known word: "newer", "later", "bigger", "easiest". */
function gradedForm(lower: string): boolean {
  const wn = loadWordNet();
  const stem = /^(.{2,}?)(?:er|est)$/.exec(lower)?.[1];
  if (stem === undefined) return false;
  const undoubled = /(.)\1$/.test(stem) ? stem.slice(0, -1) : stem;
  return [stem, `${stem}e`, undoubled, stem.replace(/i$/, 'y')].some(
    (b) => b.length >= 3 && wn.knows(b),
  );
}
