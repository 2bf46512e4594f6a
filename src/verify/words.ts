/** Word-level comparisons of the verifier: forms, synonyms, antonyms, whole-term search. */
import type { Analysis, Token } from './analyze.js';
import { loadWordNet } from './wordnet.js';

/** Lower case, backticks and citation markers dropped, quotes plain, whitespace collapsed. */
export const norm = (s: string): string =>
  s
    .toLowerCase()
    .replace(/[`\u2018\u2019\u201c\u201d"]/g, (c) => (c === '`' ? '' : "'"))
    .replace(/\[\d+(?:[,\s-]+\d+)*\]/g, '')
    .replace(/\s+/g, ' ')
    .replace(/^[\s'"]+|[\s'".,;:!?]+$/g, '')
    .trim();

/** True when the two words are one word in another form (`configure`/`configuration`). */
export function sameWord(a: Token, b: Token): boolean {
  if (a.lemma === b.lemma || a.lower === b.lower) return true;
  // Plurals of acronyms and names, which have no lemma of their own ("APIs").
  if (a.lower.replace(/s$/, '') === b.lower.replace(/s$/, '')) return true;
  // One compound with or without its hyphen ("pre-defined" / "predefined"); not a name
  // ("cacheControl" is not the "Cache-Control" header).
  if (
    a.lower.replace(/-/g, '') === b.lower.replace(/-/g, '') &&
    /\p{L}{5}/u.test(a.lower.replace(/-/g, '')) &&
    a.text === a.lower &&
    b.text === b.lower
  )
    return true;
  // One stem (Porter2) under different suffixes: "active"/"activated", "pipeline"/"pipelining".
  // Short stems collide by accident ("use"/"user" do not, but 4-letter stems often would).
  if (a.stem.length >= 5 && a.stem === b.stem) return true;
  // One word under two negative prefixes ("undecoded" / "non-decoded").
  const rest = negativeRest(a.lower);
  if (rest !== undefined && rest === negativeRest(b.lower)) return true;
  // A participle the tagger read as an adjective and left as is ("are hooked" / "hook").
  if (participleOf(a, b) || participleOf(b, a)) return true;
  if (misspelt(a.lower, b.lower)) return true;
  const x = a.lower;
  const y = b.lower;
  let i = 0;
  while (i < x.length && i < y.length && x[i] === y[i]) i++;
  return i >= 6 && i >= 0.75 * Math.min(x.length, y.length);
}

/**
 * True when one of two plain words is the other mistyped inside it: a letter more or less, or two
 * neighbours swapped ("afffix" / "affix"), two such slips in a long word ("privledges" /
 * "privileges"); and the mistyped one is no word WordNet knows, so that real words a letter apart
 * ("inline" / "online") stay apart.
 */
export function misspelt(x: string, y: string): boolean {
  if (x === y || !/^[a-z]{5,}$/.test(x) || !/^[a-z]{5,}$/.test(y)) return false;
  // A slip inside the word: one word ending or starting the other is a prefix or a suffix
  // ("asynchronously" / "synchronously", "escope" / "scope"), and words that differ in their
  // first two letters are two words.
  if (x.slice(0, 2) !== y.slice(0, 2) || x.endsWith(y) || y.endsWith(x)) return false;
  if (x.startsWith(y) || y.startsWith(x)) return false;
  // One letter changed is how irregular forms differ ("overwrote" / "overwrite", "began" /
  // "begin"), which WordNet does not list: only letters added, dropped or swapped are slips.
  if (x.length === y.length && [...x].filter((c, i) => c !== y[i]).length === 1) return false;
  if (
    Math.abs(x.length - y.length) > 2 ||
    edits(x, y) > (Math.min(x.length, y.length) >= 8 ? 2 : 1)
  )
    return false;
  const wn = loadWordNet();
  // Known in some inflection: "newer" is "new", "stopped" is "stop".
  const known = (w: string): boolean =>
    [
      w,
      ...['s', 'es', 'd', 'ed', 'ing', 'er', 'est', 'ly'].flatMap((end) => {
        if (!w.endsWith(end)) return [];
        const stem = w.slice(0, -end.length);
        return [stem, `${stem}e`, stem.replace(/i$/, 'y'), stem.replace(/(.)\1$/, '$1')];
      }),
    ].some((v) => wn.knows(v));
  return known(x) !== known(y);
}

/** Edits from one word to the other: letters added, dropped or changed, neighbours swapped. */
function edits(x: string, y: string): number {
  const d = Array.from({ length: x.length + 1 }, (_, i) =>
    Array.from({ length: y.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= x.length; i++)
    for (let j = 1; j <= y.length; j++) {
      const cost = x[i - 1] === y[j - 1] ? 0 : 1;
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && x[i - 1] === y[j - 2] && x[i - 2] === y[j - 1])
        d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  return d[x.length]![y.length]!;
}

/** What a word denies with a negative prefix ("decoded" of "undecoded", "non-decoded"). */
export const negativeRest = (w: string): string | undefined =>
  /^(?:un|non-?)(\p{L}{4,})$/u.exec(w)?.[1];

/**
 * True when `a` is a past participle left unlemmatised whose verb is `b` ("are hooked" / "you can
 * hook"); not a noun of that form ("the merge strategy" names no act of merging).
 */
function participleOf(a: Token, b: Token): boolean {
  const w = a.lower;
  if (a.lemma !== w || !/^\p{L}{4,}ed$/u.test(w) || b.pos !== 'VERB' || b.lemma.length < 3)
    return false;
  // "hooked" / "hook", "cached" / "cache", "stopped" / "stop".
  const bases = [w.slice(0, -2), w.slice(0, -1)];
  if (w.at(-3) === w.at(-4)) bases.push(w.slice(0, -3));
  return bases.includes(b.lemma.toLowerCase());
}

/**
 * Quantifiers of an unstated number above one: a closed class of English whose members say the
 * same thing ("many origins" / "multiple origins"); WordNet files them apart.
 */
const PLURAL_QUANTIFIERS = new Set(['many', 'multiple', 'several', 'numerous', 'various', 'more']);

/**
 * Words software documentation uses for one thing that WordNet files apart: "semver-major
 * releases" / "versions", "the preferred way" / "method", "throws an error" / "an exception".
 */
const PROSE_SYNONYMS: readonly (readonly string[])[] = [
  ['release', 'version'],
  ['way', 'method'],
  ['directory', 'folder', 'dir'],
  ['error', 'exception'],
  ['option', 'setting'],
  // Checking an input for something: "is not checked" / "verifies that".
  ['check', 'verify', 'validate'],
  // Options put together: "cannot be used with --c++" / "can be combined with --c++".
  ['use', 'combine'],
  // A thing that is there: "if a gc.log file is present" / "if the file gc.log exists".
  ['present', 'exist'],
  // Short forms software prose uses for the whole word.
  ['information', 'info'],
  ['configuration', 'config'],
  ['documentation', 'docs', 'doc'],
  ['repository', 'repo'],
  ['environment', 'env'],
  ['application', 'app'],
  ['argument', 'arg'],
  ['parameter', 'param'],
  ['specification', 'spec'],
  ['library', 'lib'],
  // A bound put as a superlative: "the largest batch" is "the maximum batch".
  ['maximum', 'max', 'largest', 'biggest', 'highest', 'greatest'],
  ['minimum', 'min', 'smallest', 'lowest'],
];
const proseSynonym = new Map<string, number>();
PROSE_SYNONYMS.forEach((words, n) => words.forEach((w) => proseSynonym.set(w, n)));
/** The group of {@link PROSE_SYNONYMS} a word is in, by its lemma or, for a short form the
 * lemmatizer does not know ("dirs", "args"), without its plural "s". */
const prose = (t: Token): number | undefined =>
  proseSynonym.get(t.lemma) ?? proseSynonym.get(t.lower.replace(/s$/, ''));

/** A word as written, lower case, or its {@link PROSE_SYNONYMS} group: "dirs" and "directories" alike. */
export const proseKey = (t: Token): string => {
  const group = prose(t);
  return group === undefined ? t.lower : `\u0000${group}`;
};

/** Values a program gives, which no other word states. */
const VALUE_LITERAL = /^(?:true|false|null|undefined|nil|nan)$/;

/**
 * The same word in another form, a WordNet synonym (`attempt`/`try`), or a word one WordNet link
 * away that names the same thing: an adjective's cluster head (`idle`/`inactive`), an also-see
 * adjective, a derivationally related form (`create`/`creation`), a quantifier of the same kind
 * (`many`/`multiple`), or one of {@link PROSE_SYNONYMS}. Antonyms never are.
 */
export function related(a: Token, b: Token): boolean {
  if (sameWord(a, b)) return true;
  // A value a program gives is that value only: "null" is not the "invalid" WordNet files it
  // with, nor "false" the "mistaken".
  if (VALUE_LITERAL.test(a.lower) || VALUE_LITERAL.test(b.lower)) return false;
  // A name and its initials ("JavaScript" / "JS").
  if (initialsOf(a.text) === b.text || initialsOf(b.text) === a.text) return true;
  if (PLURAL_QUANTIFIERS.has(a.lower) && PLURAL_QUANTIFIERS.has(b.lower)) return true;
  const group = prose(a);
  if (group !== undefined && group === prose(b)) return true;
  return loadWordNet().related(a.lemma, b.lemma);
}

const OPPOSABLE = new Set(['ADJ', 'VERB', 'ADV']);

const PREFIXES = ['un', 'non', 'non-', 'dis', 'in', 'im', 'il', 'ir', 'de'];

/**
 * Opposites of software prose that WordNet does not pair: what a program does with an input
 * ("comments are ignored" / "included"), what a range holds ("max excluded" / "inclusive"), keeps
 * or throws away, and how it runs.
 */
const PROSE_ANTONYMS: readonly (readonly [string, string])[] = [
  ['include', 'ignore'],
  ['inclusive', 'exclude'],
  ['exclusive', 'include'],
  ['keep', 'discard'],
  ['keep', 'drop'],
  ['retain', 'discard'],
  ['retain', 'drop'],
  ['preserve', 'discard'],
  ['preserve', 'strip'],
  ['sync', 'async'],
  ['lazy', 'eager'],
  ['strict', 'lenient'],
  ['blocking', 'non-blocking'],
  // A bound's two ends, and their abbreviations ("set max line width").
  ['minimum', 'maximum'],
  ['minimum', 'max'],
  ['min', 'maximum'],
  ['min', 'max'],
  ['minimal', 'maximal'],
  // A bound put as a superlative against the other bound ("the smallest batch" / "maximum").
  ...['largest', 'biggest', 'highest', 'greatest'].map((x) => [x, 'minimum'] as const),
  ...['smallest', 'lowest'].map((x) => [x, 'maximum'] as const),
  // What a check lets through against what it turns away ("host bits are allowed" / "rejects").
  ['allow', 'reject'],
  ['permit', 'reject'],
  ['accept', 'deny'],
  ['permit', 'deny'],
  ['grant', 'deny'],
  // A feature still working against one turned off ("mouse support keeps working" / "will be
  // disabled").
  ['work', 'disable'],
  // Left as it was against changed in any word ("leaves the DOM untouched" / "modifies the DOM").
  ...['unchanged', 'untouched', 'unmodified', 'unaltered', 'intact'].flatMap((x) =>
    ['change', 'modify', 'mutate', 'alter'].map((y) => [x, y] as const),
  ),
  // A property only to be read against one to be changed ("read-only" is read as one word, see
  // analyze.ts): "the name can be changed" is not "the name is read-only".
  ...[
    'writable',
    'writeable',
    'mutable',
    'modifiable',
    'editable',
    'change',
    'modify',
    'alter',
  ].map((y) => ['readonly', y] as const),
];
const proseAntonym = new Map<string, Set<string>>();
for (const [x, y] of PROSE_ANTONYMS) {
  for (const [a, b] of [
    [x, y],
    [y, x],
  ] as const) {
    if (!proseAntonym.has(a)) proseAntonym.set(a, new Set());
    proseAntonym.get(a)!.add(b);
  }
}

/**
 * True when the words are opposites: WordNet antonyms (through the lemma or, for participles like
 * `disabled`, the verb), or a negating prefix (`un-`, `non-`, `dis-`, `in-`...) on the same stem.
 */
export function areAntonyms(a: Token, b: Token): boolean {
  // "a non-string" is "not a string": a noun's opposite (an adjective's is found below).
  const non = (x: Token, y: Token): boolean =>
    y.pos === 'NOUN' &&
    /^non-?/.test(x.lower) &&
    [y.lower, y.lemma].includes(x.lower.replace(/^non-?/, ''));
  if (non(a, b) || non(b, a)) return true;
  // The pairs of technical prose oppose whatever the tagger calls them ("max" is a noun).
  if ([a.lemma, a.lower].some((x) => [b.lemma, b.lower].some((y) => proseAntonym.get(x)?.has(y))))
    return true;
  // Noun antonyms in WordNet are mostly senses far from technical prose ("second"/"basic" through
  // adjective clusters); quantities and terms are judged elsewhere.
  if (!OPPOSABLE.has(a.pos) || !OPPOSABLE.has(b.pos)) return false;
  const wn = loadWordNet();
  const forms = (t: Token): string[] => {
    const out = [t.lemma, t.lower];
    if (/ed$/.test(t.lower)) out.push(t.lower.replace(/d$/, ''), t.lower.replace(/ed$/, ''));
    return out;
  };
  const fa = forms(a);
  const fb = forms(b);
  // Adverbs through their adjectives ("synchronously" / "asynchronously"), when they share their
  // stem: WordNet lists near-synonyms of an antonym as antonyms too ("concurrent").
  const adverb = (t: Token): string | undefined =>
    t.pos === 'ADV' && /[a-z]{4}ly$/.test(t.lower) ? t.lower.replace(/ly$/, '') : undefined;
  const [xa, xb] = [adverb(a), adverb(b)];
  if (xa && xb) {
    let n = 0;
    while (n < Math.min(xa.length, xb.length) && xa.at(-1 - n) === xb.at(-1 - n)) n++;
    if (n >= 5 && wn.antonyms(xa).has(xb)) return true;
  }
  for (const x of fa) {
    const opposite = wn.antonyms(x);
    const prose = proseAntonym.get(x);
    if (fb.some((y) => opposite.has(y) || prose?.has(y))) return true;
  }
  for (const [x, y] of [
    [a.lower, b.lower],
    [b.lower, a.lower],
  ] as const) {
    for (const p of PREFIXES) {
      if (!x.startsWith(p) || x.length - p.length < 4) continue;
      const prefixed = x.slice(p.length);
      // "unusable" opposes "use"/"used": compare the base under -able/-ible too.
      const bases = [prefixed, prefixed.replace(/[ai]ble$/, 'e'), prefixed.replace(/[ai]ble$/, '')];
      const other = x === a.lower ? b : a;
      const rest = bases.find((r) => r === y || r === other.lemma) ?? prefixed;
      // "discover" is not "not cover": the prefixed word must be unknown to WordNet or its antonym.
      if (
        (rest === y || rest === other.lemma || rest === y.replace(/-/g, '')) &&
        (a.pos === 'ADJ' || a.pos === 'VERB' || b.pos === 'ADJ' || b.pos === 'VERB')
      ) {
        if (!wn.knows(x) || p === 'un' || p === 'non' || p === 'non-') return true;
      }
    }
  }
  return false;
}

const WORDISH = /[\p{L}\p{N}_$]/u;

/** `text` with the characters special in a regular expression escaped. */
export const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The initials a name in capitals inside is shortened to, the way prose shortens a language's name
 * ("JavaScript" / "JS", "TypeScript" / "TS"); none when they spell a word ("AbortSignal" is not
 * "as") or a part is shorter than three letters.
 */
export function initialsOf(term: string): string | undefined {
  if (!/^[A-Za-z]+$/.test(term) || !/[a-z][A-Z]/.test(term)) return undefined;
  if (initialsCache.has(term)) return initialsCache.get(term);
  const parts = term.split(/(?<=[a-z])(?=[A-Z])/);
  const initials = parts.some((x) => x.length < 3)
    ? undefined
    : parts.map((x) => x[0]!.toUpperCase()).join('');
  const out = initials && !loadWordNet().knows(initials.toLowerCase()) ? initials : undefined;
  initialsCache.set(term, out);
  return out;
}
const initialsCache = new Map<string, string | undefined>();

/**
 * The claim's words the page writes as one acronym: a name in capitals with the one or two words
 * before it, their initials then the name ("the process ID" / "PID").
 */
export function acronymWords(claim: Analysis, page: string): Set<number> {
  const out = new Set<number>();
  claim.tokens.forEach((t, i) => {
    if (!/^[A-Z]{1,4}$/.test(t.text)) return;
    let initials = '';
    for (let n = 1; n <= 2; n++) {
      const w = claim.tokens[i - n];
      if (!w || !/^\p{L}+$/u.test(w.text)) return;
      initials = w.text[0]!.toUpperCase() + initials;
      const written = new RegExp(
        `(?<![\\p{L}\\p{N}])${initials}${t.text}s?(?![\\p{L}\\p{N}])`,
        'u',
      );
      if (!written.test(page)) continue;
      for (let k = i - n; k <= i; k++) out.add(k);
      return;
    }
  });
  return out;
}

/** True when `text` (normalised) holds `term` as a whole word or identifier. */
export const hasTerm = (text: string, term: string): boolean => {
  // A symbol ("=", "~", "^") is stated standing alone, not as part of an operator (">=") or a
  // version range ("~1.2.3").
  if (term.length > 0 && !/[\p{L}\p{N}]/u.test(term)) {
    const sym = escapeRegExp(term);
    return new RegExp(`(?:^|[\\s'"(\\[])${sym}(?=$|[\\s'")\\],.;:])`, 'u').test(text);
  }
  // A variable's sigil is optional: "$mail_check" is the variable "mail_check" names.
  if (/^\$[A-Za-z_]\w+$/.test(term)) return hasTerm(text, term.slice(1));
  const t = norm(term);
  if (t.length === 0) return true;
  const sigil = /^[a-z_]\w*_\w*$/.test(t);
  // A plural names the same thing ("APIs" / "API").
  const forms = t.length > 3 && t.endsWith('s') ? [t, t.slice(0, -1)] : [t];
  // A word in capitals inside is one name written apart too ("WebAssembly" / "Web Assembly"); not
  // with a hyphen, which names another thing ("cacheControl" / the "Cache-Control" header).
  const parts = /^[A-Za-z]+$/.test(term) ? term.split(/(?<=[a-z])(?=[A-Z])/) : [];
  if (parts.length > 1 && parts.every((x) => x.length >= 3))
    forms.push(parts.join(' ').toLowerCase());
  // A JavaScript project's name is written with its dot or without ("Node.js" / "NodeJS").
  if (/^[a-z]{2,}\.js$/.test(t)) forms.push(t.replace('.js', 'js'));
  else if (/^[a-z]{2,}js$/.test(t)) forms.push(t.replace(/js$/, '.js'));
  // A compound is one word with or without its hyphen ("pre-defined" / "predefined").
  if (/^[a-z]+(?:-[a-z]+)+$/.test(t) && t.length >= 7) forms.push(t.replace(/-/g, ''));
  for (const f of forms) {
    for (let at = text.indexOf(f); at >= 0; at = text.indexOf(f, at + 1)) {
      const before = text[at - 1];
      const end = text.startsWith('s', at + f.length) ? at + f.length + 1 : at + f.length;
      const after = text[end];
      const bound = before && WORDISH.test(before) && !(sigil && before === '$');
      if (!bound && !(after && WORDISH.test(after))) return true;
    }
  }
  if (/^[a-z]{7,}$/.test(term) && text.includes('-')) {
    const hyphened = t.split('').join('-?');
    return new RegExp(`(?<![\\p{L}\\p{N}_$-])${hyphened}s?(?![\\p{L}\\p{N}_$-])`, 'u').test(text);
  }
  return false;
};

/** Adjectives with antonyms that relate or refer rather than state a value ("the same", "a new"). */
const REFERRING = new Set(
  (
    'same different new other able possible available current full whole own certain main ' +
    'more less much many few most least limited'
  ).split(' '),
);

/** Words naming a place in an order. */
const POSITIONS = new Set(
  (
    'first second third fourth fifth last final initial penultimate earliest latest leftmost ' +
    'rightmost outermost innermost'
  ).split(' '),
);

/** Words that count rather than name a thing: "more", "few", "several". */
const AMOUNTS = new Set(
  'more most less least much many few fewer fewest little several numerous countless'.split(' '),
);
/** An amount or a degree of its own ("less" / "greater"): two of them state two amounts. */
const graded = (t: Token): boolean =>
  AMOUNTS.has(t.lower) || (/^(?:ADJ|ADV)$/.test(t.pos) && /(?:er|est)$/.test(t.lower));
/** Comparison words by the direction they compare in: "lower than 6" is "less than 6". */
const DIRECTIONS = [
  new Set('less fewer lower smaller'.split(' ')),
  new Set('more greater higher larger bigger'.split(' ')),
];
const sameDirection = (a: Token, b: Token): boolean =>
  DIRECTIONS.some((d) => d.has(a.lower) && d.has(b.lower));
/** Words of a number's scale: "thousands of packages" is "1000s of packages". */
const SCALES = new Set('dozens hundreds thousands millions billions'.split(' '));

/**
 * True when one of two words in one place is an amount the other rewords ("more memory" /
 * "increased memory", "thousands" / "1000s"): amounts are judged as quantities and comparisons,
 * not as swapped terms; so are two words that compare in one direction ("lower" / "less"). Two
 * scales still differ ("hundreds" / "thousands"); two opposite amounts
 * are judged by polarity, which sees a negation that turns one into the other ("little" / "not
 * much").
 */
export const amountReworded = (a: Token, b: Token): boolean =>
  sameDirection(a, b) ||
  (AMOUNTS.has(a.lower) && !graded(b)) ||
  (AMOUNTS.has(a.lower) && AMOUNTS.has(b.lower) && areAntonyms(a, b)) ||
  (AMOUNTS.has(b.lower) && !graded(a)) ||
  (SCALES.has(a.lower) && /\d/.test(b.text)) ||
  (SCALES.has(b.lower) && /\d/.test(a.text));

/** Words before a position word that make it an item's place ("the first proxy", "its last"). */
const POSSESSIVE = new Set('the its their his her our your this that whose'.split(' '));

/**
 * True when token `i` names an item's place in an order: a position word after "the" or a
 * possessive ("the first proxy", "its last argument"), not "at first" or a sentence's "First,".
 */
export const isPosition = (tokens: readonly Token[], i: number): boolean =>
  POSITIONS.has(tokens[i]!.lower) && i > 0 && POSSESSIVE.has(tokens[i - 1]!.lower);

/**
 * True for an adjective that states a value with an opposite ("safe", "first", "unique",
 * "mandatory"): a claim that says it must find it (or its opposite) on the page.
 */
export const valueAdjective = (t: Token): boolean =>
  t.pos === 'ADJ' && !REFERRING.has(t.lemma) && bipolar(t);

/** True when WordNet files the adjective under an attribute with two poles (it has an antonym). */
const bipolar = (t: Token): boolean => {
  const wn = loadWordNet();
  return wn.antonyms(t.lemma).size > 0 || wn.antonyms(t.lower).size > 0;
};

/**
 * True when an adjective in the place of another can state a different fact: both are values of
 * attributes with two poles in WordNet (`idle`/`busy`, `first`/`last`, `red`/`blue`). A
 * derived or relational adjective (`given`) describes how the thing is referred to rather than a
 * value it has, so a paraphrase may trade it; two unrelated adjectives of capability
 * (`writable`/`executable`) may not. Other word classes always can.
 */
export function canSwap(a: Token, b: Token): boolean {
  if (a.pos !== 'ADJ' || b.pos !== 'ADJ') return true;
  // What a thing can be done to is a fact too: "the writable address" is not "the executable
  // address", though WordNet gives neither an opposite.
  if (CAPABILITY.test(a.lower) && CAPABILITY.test(b.lower)) return !related(a, b);
  return bipolar(a) && bipolar(b);
}

/** An adjective of capability: what can be done to the thing (`writable`, `seekable`). */
const CAPABILITY = /[a-z]{3}(?:able|ible)$/;

/**
 * The words inside the identifiers of a text ("async" and "iterator" of `Symbol.asyncIterator`,
 * "line" and "width" of `LINE_WIDTH`), three letters or more, lower case.
 */
export function identifierPieces(text: string): Set<string> {
  const out = new Set<string>();
  for (const m of text.matchAll(/[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*/g)) {
    const id = m[0];
    if (!/[a-z][A-Z]|_|\./.test(id)) continue;
    for (const piece of id.split(/[._$]+|(?<=[a-z0-9])(?=[A-Z])/)) {
      if (piece.length >= 3) out.add(piece.toLowerCase());
    }
  }
  return out;
}

/**
 * True when token `i` stands where a verb does, whatever the tagger read: a verb after a
 * preposition ("by walking directories"), or a word in -s with a verb sense right after a name
 * that is its subject ("DHAT tracks program progress"). A paraphrase changes such verbs ("tracks"
 * / "measures", "walking" / "traversing"); they hold no swappable fact.
 */
export function inVerbSlot(tokens: readonly Token[], i: number): boolean {
  const t = tokens[i]!;
  const before = tokens[i - 1];
  const wn = loadWordNet();
  if (!wn.synsets(t.lemma).some((id) => id.startsWith('v'))) return false;
  if (t.pos === 'VERB' && /ing$/.test(t.lower) && before?.pos === 'ADP') return true;
  return /[^s]s$/.test(t.lower) && before?.pos === 'PROPN' && t.clause === before.clause;
}

/**
 * True for a verb a modal of possibility governs ("may compress", "might later be dropped"): the
 * sentence says it can happen, not that it does, so it denies no "does not compress".
 */
export function possibly(tokens: readonly Token[], j: number): boolean {
  if (tokens[j]!.pos !== 'VERB') return false;
  let k = j - 1;
  while (k >= 0 && (tokens[k]!.pos === 'ADV' || /^(?:be|have)$/.test(tokens[k]!.lemma))) k--;
  return k >= 0 && /^(?:may|might|could)$/.test(tokens[k]!.lower);
}
