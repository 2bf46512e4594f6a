/**
 * Frame alignment: a word of the claim swapped for another between the same two words on either
 * side ("begins in the idle state" / "begins in the processing state"), found anywhere in the
 * passage, with the checks that tell a swapped fact from a paraphrase's rewording.
 */
import { UNITS } from './quantity-words.js';
import { sentenceBounds } from './analyze.js';
import type { Analysis, Token } from './analyze.js';
import type { Conflict } from './verify-claim.js';
import { amountReworded, canSwap, identifierPieces, inVerbSlot, related } from './words.js';
import { loadWordNet } from './wordnet.js';

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
  const [first, last] = sentenceBounds(a, at);
  return a.tokens.slice(first, last + 1);
}

/**
 * True when claim token `k` has a counterpart on the page other than token `skip`: the same word
 * with the same word before or after it.
 */
function placed(claim: Analysis, k: number, page: Analysis, skip: number): boolean {
  const t = claim.tokens[k]!;
  const before = claim.tokens[k - 1]?.lower;
  const after = claim.tokens[k + 1]?.lower;
  return page.tokens.some(
    (q, j) =>
      j !== skip &&
      related(t, q) &&
      ((before !== undefined && page.tokens[j - 1]?.lower === before) ||
        (after !== undefined && page.tokens[j + 1]?.lower === after)),
  );
}

/** True when the token is a word of one of the analysis' key terms. */
const named = (a: Analysis, t: Token): boolean =>
  a.keyTerms.some((k) =>
    k.text
      .toLowerCase()
      .split(/[^\p{L}\p{N}_$]+/u)
      .includes(t.lower),
  );

/** Values a program gives, whatever class the tagger reads them as ("returns null" / "false"). */
const VALUE_LITERAL = /^(?:true|false|null|undefined|none|nil|nan)$/;

/** Coarse word class: noun, adjective, verb, adverb, or a value literal. */
const wordClass = (t: Token): string =>
  VALUE_LITERAL.test(t.lower)
    ? 'value'
    : ({ NOUN: 'n', PROPN: 'n', X: 'n', NUM: 'n', ADJ: 'a', VERB: 'v', ADV: 'r' }[t.pos] ?? t.pos);

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
    // A unit is compared with its number, not as a word in a frame.
    if (!isWord(c) || UNITS.has(c.lower)) return;
    // "the uppercase ones": a pronoun stands for the page's noun, it does not replace it.
    if (c.lemma === 'one') return;
    const next = claim.tokens[i + 1];
    const participle = (t: Token | undefined, k: number): boolean =>
      t?.pos === 'VERB' && /(?:ing|ed)$/.test(t.lower) && claim.tokens[k + 1]?.pos === 'NOUN';
    // An adverb only as a modifier inside a noun phrase ("the last matching request"): before a
    // predicate it hedges or grades ("usually important" / "generally important"), before a
    // preposition it places ("just before" / "right before").
    if (c.pos === 'ADV' && next?.pos !== 'NOUN' && !participle(next, i + 1)) return;
    // Between a determiner and a noun any word modifies the noun ("the retry interceptor").
    const attributive =
      participle(c, i) || (claim.tokens[i - 1]?.pos === 'DET' && next?.pos === 'NOUN');
    if (!SWAPPABLE.has(c.pos) && !attributive) return;
    const frame = [at(claim, i - 2), at(claim, i - 1), at(claim, i + 1), at(claim, i + 2)];
    let swapped: Token | undefined;
    for (let j = 0; j < page.tokens.length; j++) {
      const theirs = [at(page, j - 2), at(page, j - 1), at(page, j + 1), at(page, j + 2)];
      // A comma agreeing is no evidence: "In Nordic mythology, Valgrind" / "with the Nordic
      // theme, Valgrind" share two words around one.
      const same = frame.filter((w, k) => w === theirs[k] && w !== '\u0000' && w !== ',').length;
      // The neighbours next to the word must both agree; the outer ones give the third.
      if (same < 3 || frame[1] !== theirs[1] || frame[2] !== theirs[2]) continue;
      const p = page.tokens[j]!;
      // A verb for its broader act ("drops entries" / "removes entries") is a rewording.
      if (related(c, p) || (verbish(c) && verbish(p) && wn.broaderAct(c.lemma, p.lemma))) return;
      // A page word the claim states elsewhere has moved, not replaced this one ("X is faster
      // than Y" / "Y is slower than X"), unless the claim's own use of it stands in the same
      // place on the page ("the dns interceptor ... cache DNS lookups" / "the retry interceptor
      // ... cache DNS lookups").
      if (!isWord(p) || p.lemma === 'one') continue;
      if (claim.tokens.some((t, k) => isWord(t) && related(t, p) && !placed(claim, k, page, j)))
        continue;
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
      if (inVerbSlot(claim.tokens, i) && verbish(p)) continue;
      if (!canSwap(c, p) || amountReworded(c, p)) continue;
      // A name is swapped for a name: a common word in a key term's place names its kind ("A
      // DeflateInflateLimitRequestBody of 0" / "A value of 0").
      if (named(claim, c) && !named(page, p)) continue;
      swapped ??= p;
    }
    if (swapped) out.push({ kind: 'term', claim: c.text, page: swapped.text });
  });
  return out;
}

/** Word classes of a modifier that names a kind of its noun ("Huffman coding", "arithmetic coding"). */
const KIND_POS = new Set(['NOUN', 'PROPN', 'ADJ']);

/** Modifiers that refer or count rather than name a kind ("other streams", "the same file"). */
const REFERRING = new Set(
  (
    'other another same such own certain various different several many more most few fewer ' +
    'less least each every any all some additional extra further following previous next new'
  ).split(' '),
);

/**
 * A modifier replaced before the same noun: the claim's "arithmetic coding" where the page says
 * "Huffman coding". The page's modifier is a name, stated nowhere in the claim, and the claim's is
 * stated nowhere on the page, so the noun's kind changed.
 * @example
 * modifierReplaced(analyze('bzip2 uses arithmetic coding.'), analyze('bzip2 uses Huffman coding.'))
 * // [{ kind: 'term', claim: 'arithmetic', page: 'Huffman' }]
 */
export function modifierReplaced(claim: Analysis, page: Analysis): Conflict[] {
  const pieces = identifierPieces(page.text);
  const kindOf = (a: Analysis, k: number): boolean => {
    const m = a.tokens[k];
    const h = a.tokens[k + 1];
    return (
      !!m &&
      !!h &&
      m.content &&
      !m.negated &&
      KIND_POS.has(m.pos) &&
      isWord(m) &&
      /^\p{L}[\p{L}-]{2,}$/u.test(m.text) &&
      h.content &&
      /^(?:NOUN|PROPN)$/.test(h.pos) &&
      // The head of its phrase: "simple" of "a simple branch target predictor" is no kind of
      // branch.
      !/^(?:NOUN|PROPN)$/.test(a.tokens[k + 2]?.pos ?? '') &&
      // Not the second word of a compound or a name ("Burrows-Wheeler coding"), nor a number's
      // unit ("5xx").
      !/^(?:-|NUM)$/.test(a.tokens[k - 1]?.text === '-' ? '-' : (a.tokens[k - 1]?.pos ?? '')) &&
      // Nor a verb the tagger read as a noun ("DHAT tracks program progress").
      !inVerbSlot(a.tokens, k)
    );
  };
  for (let i = 0; i < claim.tokens.length - 1; i++) {
    if (!kindOf(claim, i)) continue;
    const m = claim.tokens[i]!;
    const head = claim.tokens[i + 1]!;
    if (UNITS.has(m.lower) || m.lemma === 'one' || pieces.has(m.lower) || REFERRING.has(m.lower))
      continue;
    if (page.tokens.some((q) => related(m, q))) continue;
    for (let j = 0; j < page.tokens.length - 1; j++) {
      if (!kindOf(page, j) || !related(head, page.tokens[j + 1]!)) continue;
      const p = page.tokens[j]!;
      // The page's kind is a name ("Huffman coding"), not a word a paraphrase may put otherwise
      // ("a small wrapper" / "a thin wrapper"), nor a capital of a title ("Special Rules").
      const name =
        /^\p{Lu}/u.test(p.text) &&
        j > 0 &&
        !/^[.!?:]$/.test(page.tokens[j - 1]!.text) &&
        !/^\p{Lu}/u.test(page.tokens[j + 1]!.text);
      if (!name || claim.tokens.some((t) => related(t, p))) continue;
      if (!canSwap(m, p) || amountReworded(m, p)) continue;
      return [{ kind: 'term', claim: m.text, page: p.text }];
    }
  }
  return [];
}
