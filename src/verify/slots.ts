/**
 * Slot alignment: an ordinary word of the claim that the page does not state, where the page has
 * another word in the same place between the same neighbours ("retries idle connections" /
 * "retries failed connections"), is a swapped fact, not a paraphrase. Aligned against the one
 * sentence of the passage that carries the claim, so a word elsewhere in a window proves nothing.
 */
import { UNITS } from './quantity-words.js';
import { endsSentence } from './analyze.js';
import type { Analysis, Token } from './analyze.js';
import { CONDITIONS } from './conditions.js';
import type { Conflict } from './verify-claim.js';
import { amountReworded, areAntonyms, canSwap, inVerbSlot, related } from './words.js';
import { loadWordNet } from './wordnet.js';

/** A verb's -ed or -ing form ("compiled", "pending"), not a verb that ends so ("speed"). */
const participle = (t: Token): boolean =>
  t.pos === 'VERB' && /(?:ed|ing)$/.test(t.lower) && t.lemma !== t.lower;

/** Parts of speech that modify a noun before it. */
const MODIFIER = /^(?:ADJ|NOUN|PROPN|X)$/;

/** Word classes that fill the same slot: a noun for a noun, an adjective for an adjective. */
const SLOT: Record<string, string> = { NOUN: 'n', PROPN: 'n', X: 'n', ADJ: 'a' };

// "one"/"ones" is a pronoun standing for a noun ("the uppercase ones"), never a slot's value.
const isSlotWord = (t: Token): boolean =>
  t.content && !t.cue && SLOT[t.pos] !== undefined && /\p{L}{2}/u.test(t.text) && t.lemma !== 'one';

/** Token index ranges `[start, end)` of the sentences of an analysis. */
function sentences(a: Analysis): [number, number][] {
  const out: [number, number][] = [];
  let start = 0;
  a.tokens.forEach((t, i) => {
    if (endsSentence(t) && i > start) {
      out.push([start, i + 1]);
      start = i + 1;
    }
  });
  if (start < a.tokens.length) out.push([start, a.tokens.length]);
  return out;
}

/** True when the page tokens `[s, e)` state claim token `k` in some form. */
const statesIn = (claim: Analysis, page: Analysis, [s, e]: [number, number], k: number): boolean =>
  page.tokens.slice(s, e).some((p) => p.content && related(claim.tokens[k]!, p));

/**
 * The page sentences that state most of the claim's content words (ties all kept): the sentence
 * that carries the support, if any does; and how many of the claim's words they state.
 */
function carrying(
  claim: Analysis,
  page: Analysis,
  words: readonly number[],
): [[number, number][], number] {
  let best = 0;
  let out: [number, number][] = [];
  for (const [s, e] of sentences(page)) {
    const score = words.filter((i) => statesIn(claim, page, [s, e], i)).length;
    if (score === 0 || score < best) continue;
    if (score > best) out = [];
    best = score;
    out.push([s, e]);
  }
  return [out, best];
}

/**
 * Ordinary words swapped in the same slot. For each noun or adjective of the claim that no word of
 * the carrying sentence states (same lemma, a WordNet synonym or antonym), its nearest content
 * neighbours on either side are found in that sentence; a noun or adjective the claim lacks,
 * standing between them with no more words than the claim has there (or at the same distance
 * from one neighbour, with the same words between, at a sentence edge), fills the slot. A claim
 * that pairs with several equally good sentences is a swap only if it is one in each.
 * @example
 * slotSwaps(analyze('Idle sockets are closed after the timeout.'),
 *   analyze('Busy sockets are closed after the timeout.'))
 * // [{ kind: 'term', claim: 'Idle', page: 'Busy' }]
 */
export function slotSwaps(claim: Analysis, page: Analysis): Conflict[] {
  const words = claim.tokens.flatMap((t, i) => (t.content && !t.cue && t.pos !== 'NUM' ? [i] : []));
  const [found, shared] = carrying(claim, page, words);
  // A swap is evidence only in a sentence that otherwise states the claim; a sentence sharing a
  // word or two is about something else.
  if (found.length === 0 || shared < Math.max(2, Math.ceil(words.length / 2))) return [];
  // A tied sentence that lacks a claim word another one states does not state the claim either:
  // of two parallel sentences ("The foo option enables the cache for reads. The bar option
  // enables the cache for writes."), a swap in one is not excused by the other.
  const lacks = (x: [number, number]): boolean =>
    words.some(
      (k) =>
        !statesIn(claim, page, x, k) && found.some((y) => y !== x && statesIn(claim, page, y, k)),
    );
  let result: Conflict[] | undefined;
  for (const x of found) {
    const here = swapsIn(claim, page, words, x[0], x[1]);
    if (here.length === 0 && !(found.length > 1 && lacks(x))) return [];
    if (here.length > 0) result ??= here;
  }
  return result ?? [];
}

/**
 * True when another page sentence states claim word `i` with more of the word's clause (and of the
 * conditions of its sentence) than the carrying sentence (starting at token `carrier`) does: a
 * claim of two clauses may be stated by two sentences ("The systems that measure most of the
 * resources are based on 4.3BSD. Later BSD releases use code that measures fewer."), and the
 * sentence carrying the other clause holds no slot of this one. A parallel sentence stating as
 * much is no alibi ("The foo option enables the cache for reads. The bar option enables it for
 * writes." does not state "the bar option enables the cache for reads"), nor is one without the
 * condition ("Otherwise a MockPool instance is returned").
 */
function statedElsewhere(
  claim: Analysis,
  page: Analysis,
  words: readonly number[],
  i: number,
  carrier: number,
): boolean {
  const [first, last] = sentences(claim).find(([s, e]) => i >= s && i < e) ?? [0, 0];
  const conditions = new Set<number>();
  for (let k = first; k < last; k++) {
    if (CONDITIONS.has(claim.tokens[k]!.lower)) conditions.add(claim.tokens[k]!.clause);
  }
  const own = words.filter(
    (k) =>
      claim.tokens[k]!.clause === claim.tokens[i]!.clause ||
      conditions.has(claim.tokens[k]!.clause),
  );
  const stated = (s: number, e: number): number[] =>
    own.filter((k) => statesIn(claim, page, [s, e], k));
  const all = sentences(page);
  const [, end] = all.find(([s]) => s === carrier) ?? [carrier, carrier];
  const here = stated(carrier, end).length;
  return all.some(([s, e]) => {
    if (s === carrier) return false;
    const there = stated(s, e);
    return there.includes(i) && there.length > here;
  });
}

/** True when token `i` opens an example: "such as *splat", "e.g. foo", "for example bar". */
function exampled(tokens: readonly Token[], i: number): boolean {
  let k = i - 1;
  while (k >= 0 && /^(?:PUNCT|SYM)$/.test(tokens[k]!.pos)) k--;
  const w = tokens[k]?.lower;
  const before = tokens[k - 1]?.lower;
  return (
    (w === 'as' && before === 'such') ||
    ((w === 'example' || w === 'instance') && before === 'for') ||
    /^e\.?g\.?$/.test(w ?? '') ||
    (w === 'g' && before === '.')
  );
}

/** True when the token is a word of one of the terms (each given as its lower-case pieces). */
const pieceOf = (terms: readonly string[][], t: Token): boolean =>
  terms.some((x) => x.includes(t.lower));

function swapsIn(
  claim: Analysis,
  page: Analysis,
  words: readonly number[],
  s: number,
  e: number,
): Conflict[] {
  const out: Conflict[] = [];
  const at = (i: number): number[] => {
    const out: number[] = [];
    for (let j = s; j < e; j++) {
      if (page.tokens[j]!.content && related(claim.tokens[i]!, page.tokens[j]!)) out.push(j);
    }
    return out;
  };
  const wn = loadWordNet();
  // A gerund the tagger read as a noun is known by its stem ("recording" / "record").
  const verbish = (t: Token): boolean =>
    [t.lemma, ...(/ing$/.test(t.lower) ? [t.stem] : [])].some((w) =>
      wn.synsets(w).some((id) => id.startsWith('v')),
    );
  // Key terms must be stated (or named by the page's headings) and comparisons point one way:
  // both are judged on their own, with what the page's title says. A key term the page states only
  // in another sentence of the window is no alibi for this one: its slot here is aligned like any
  // word ("uses only the Web Standard API. ... or Node.js" does not state "uses only the Node.js API").
  const judged = new Set(claim.comparatives.map((x) => x.at));
  const pieces = (term: string): string[] =>
    term
      .toLowerCase()
      .split(/[^\p{L}\p{N}_$]+/u)
      .filter(Boolean);
  const claimTerms = claim.keyTerms.map((x) => pieces(x.text));
  const pageTerms = page.keyTerms.map((x) => pieces(x.text));
  const pageCode = page.keyTerms.filter((x) => x.kind === 'code').map((x) => pieces(x.text));
  const here = new Set(page.tokens.slice(s, e).map((t) => t.lower));
  const elsewhere = new Set(page.tokens.map((t) => t.lower));
  const terms = claimTerms
    .filter((p) => p.every((w) => here.has(w)) || !p.every((w) => elsewhere.has(w)))
    .map((p) => p.join(' '));
  // A page word the claim states in any form is no stranger in the slot.
  const stranger = (p: Token, c: Token): boolean =>
    isSlotWord(p) &&
    SLOT[p.pos] === SLOT[c.pos] &&
    // A name is swapped for a name: a key term's slot holds another key term, not a common word.
    (!pieceOf(claimTerms, c) || pieceOf(pageTerms, p)) &&
    // A claim tells code in words: a call or code literal of the page ("mtime: new Date()") is no
    // swap for an ordinary word ("defaults to the current time").
    (pieceOf(claimTerms, c) || !pieceOf(pageCode, p)) &&
    canSwap(c, p) &&
    !amountReworded(c, p) &&
    // A broader or narrower name of the same thing ("memory" / "RAM") is a rewording.
    !(c.pos === 'NOUN' && p.pos === 'NOUN' && wn.broader(c.lemma, p.lemma)) &&
    !(c.pos === 'VERB' && p.pos === 'VERB' && wn.broaderAct(c.lemma, p.lemma)) &&
    !claim.tokens.some(
      (t) =>
        t.content &&
        (related(t, p) || areAntonyms(t, p)) &&
        // The claim's word stated as written elsewhere in the sentence does not account for
        // another form of it ("the Streaming API" there, "stream module" here, "buffer module"
        // in the claim).
        (p.lower === t.lower ||
          !page.tokens.slice(s, e).some((q) => q !== p && q.lower === t.lower)),
    );
  for (let k = 0; k < words.length; k++) {
    const i = words[k]!;
    const c = claim.tokens[i]!;
    // A unit is compared with its number ("wait milliseconds" / "the wait period").
    if (!isSlotWord(c) || judged.has(i) || UNITS.has(c.lower)) continue;
    if (terms.some((x) => x === c.lower || x.split(' ').includes(c.lower))) continue;
    // An example the claim gives ("a wildcard such as *splat") fills no slot of the page's.
    if (exampled(claim.tokens, i)) continue;
    // A verb the tagger read as a noun ("the event returns the Client"): a paraphrase changes verbs.
    // So is one before a question word ("and sets how many candidates are considered").
    if (
      /^(?:the|a|an|how|what|which|whether)$/.test(claim.tokens[i + 1]?.lower ?? '') &&
      verbish(c)
    )
      continue;
    if (inVerbSlot(claim.tokens, i)) continue;
    const sentence = page.tokens.slice(s, e);
    if (sentence.some((p) => p.content && (related(c, p) || areAntonyms(c, p)))) continue;
    // The nearest neighbours the sentence states: a second changed word beside this one leaves
    // the slot where it was ("compiled templates" / "rendered pages").
    // A slot is aligned only within one clause on each side: neighbours across a comma or a
    // conjunction belong to another statement ("costs a lot of memory, the extension should..." is
    // not "in terms of memory consumption so we suggest...").
    const sameClause = (x: number): boolean => claim.tokens[words[x]!]!.clause === c.clause;
    let left: number | undefined;
    let pl: number[] = [];
    let skippedLeft = false;
    for (let x = k - 1; x >= 0 && left === undefined && sameClause(x); x--) {
      const found = at(words[x]!);
      if (found.length > 0) [left, pl] = [words[x]!, found];
      else skippedLeft = true;
    }
    let right: number | undefined;
    let pr: number[] = [];
    let skippedRight = false;
    for (let x = k + 1; x < words.length && right === undefined && sameClause(x); x++) {
      const found = at(words[x]!);
      if (found.length > 0) [right, pr] = [words[x]!, found];
      else skippedRight = true;
    }
    const clauseOf = (j: number): number => page.tokens[j]!.clause;
    let hit: Token | undefined;
    if (left !== undefined && right !== undefined && pl.length > 0 && pr.length > 0) {
      const room = right - left - 1;
      for (const a of pl) {
        for (const b of pr) {
          if (b <= a + 1 || b - a - 1 > room + 1 || clauseOf(a) !== clauseOf(b)) continue;
          hit ??= page.tokens.slice(a + 1, b).find((p) => stranger(p, c));
        }
      }
    } else {
      // At an edge of the claim's clause: the same words between the one neighbour and the slot.
      // Only a true edge: an unmatched word on the open side means the wording changed there,
      // and the slot cannot be placed.
      const [anchor, spots] =
        left !== undefined && pl.length > 0 && right === undefined && !skippedRight
          ? [left, pl]
          : right !== undefined && pr.length > 0 && left === undefined && !skippedLeft
            ? [right, pr]
            : [undefined, []];
      const gap =
        anchor === undefined
          ? []
          : claim.tokens.slice(Math.min(anchor, i) + 1, Math.max(anchor, i));
      // Changed words passed over on the way to the neighbour must modify the slot's noun
      // ("stores compiled templates" / "stores rendered pages"): a changed verb there is a
      // rewording of the phrase ("to speed things up" / "to optimize performance").
      const changed = gap.flatMap((t, x) => (t.content ? [x] : []));
      const modifies =
        changed.length === 0 ||
        (anchor !== undefined &&
          anchor < i &&
          changed[changed.length - 1] === gap.length - 1 &&
          changed.every((x, n) => n === 0 || x === changed[n - 1]! + 1) &&
          changed.every((x) => MODIFIER.test(gap[x]!.pos) || participle(gap[x]!)));
      if (anchor !== undefined && modifies) {
        // Articles come and go in a paraphrase ("defaults to an empty object" / "defaults to
        // last argument"): the words between are compared without them.
        const article = (t: Token): boolean => /^(?:a|an|the)$/.test(t.lower);
        const words = gap.filter((t) => !article(t));
        const step = anchor < i ? 1 : -1;
        for (const a of spots) {
          let j = a;
          const between: Token[] = [];
          for (let n = 0; n <= words.length;) {
            j += step;
            if (j < s || j >= e) break;
            if (article(page.tokens[j]!)) continue;
            if (n < words.length) between.push(page.tokens[j]!);
            n++;
          }
          if (j < s || j >= e) continue;
          if (step < 0) between.reverse();
          // Function words between must be the same; content words there changed as well.
          const same = words.every(
            (t, x) => t.lower === between[x]!.lower || (t.content && between[x]!.content),
          );
          if (!same || clauseOf(j) !== clauseOf(a)) continue;
          if (stranger(page.tokens[j]!, c)) hit ??= page.tokens[j]!;
        }
      }
    }
    if (hit && !statedElsewhere(claim, page, words, i, s)) {
      out.push({ kind: 'term', claim: c.text, page: hit.text });
    }
  }
  return out;
}
