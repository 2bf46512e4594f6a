/**
 * Reversals: one sentence of the claim and one of the page join the same two things by the same
 * words, the other way round ("implements the pax format with additional support for USTAR
 * extended headers" / "implements USTAR with additional support for pax extended headers"). Every
 * word is there, so word matching calls the claim stated; the link between the two says which is
 * which.
 *
 * A link reads the same both ways, and then proves nothing, when it is a coordination or a
 * symmetric relation ("A and B", "A is compatible with B"), a passive ("B is used by A" for "A
 * uses B"), or runs across statements (a comma, a semicolon, a clause of its own).
 */
import { nameMark, sentenceRanges } from './analyze.js';
import type { Analysis, Token } from './analyze.js';
import type { Conflict } from './verify-claim.js';

/** Most tokens between the two things: further apart, they are in different statements. */
const MAX_LINK = 6;

/** Tokens that make a link read the same both ways, or end a statement within it. */
const SYMMETRIC = new Set(
  (
    'and or nor but versus vs plus both either neither between among alongside along together ' +
    'compatible incompatible similar same equal equivalent identical interchangeable alike like ' +
    'unlike different differ match mix pair combine merge share each other than by while whereas ' +
    'if when unless whether that which who where respectively'
  ).split(' '),
);

/** Tokens left out of a link as read: articles, which paraphrases add and drop at will. */
const SKIPPED = /^(?:the|a|an)$/;

/** Anchors a sentence names exactly once: nouns and names, by lemma, with their place. */
function anchors(a: Analysis, [first, last]: [number, number]): Map<string, number> {
  const seen = new Map<string, number>();
  const twice = new Set<string>();
  for (let k = first; k <= last; k++) {
    const t = a.tokens[k]!;
    if (!t.content || !/^(?:NOUN|PROPN|X)$/.test(t.pos) || t.lemma.length < 2) continue;
    // A piece of a compound ("-ffold-simple-inlines", "eventsource-parser") is not a thing.
    if (a.tokens[k - 1]?.text === '-' || a.tokens[k + 1]?.text === '-') continue;
    if (seen.has(t.lemma)) twice.add(t.lemma);
    seen.set(t.lemma, k);
  }
  for (const w of twice) seen.delete(w);
  return seen;
}

/**
 * The words between two places, as lemmas, or undefined when they cannot be a one-way link. Words
 * with no verb or preposition among them make a compound, whose order is free ("the cache size
 * option" / "the option controls the size of the cache").
 */
function link(tokens: readonly Token[], from: number, to: number): string[] | undefined {
  let between = 0;
  for (let k = from + 1; k < to; k++) {
    if (!nameMark(tokens, k)) between++;
  }
  if (between < 1 || between > MAX_LINK) return undefined;
  const out: string[] = [];
  let joins = false;
  for (let k = from + 1; k < to; k++) {
    const t = tokens[k]!;
    // The dot inside a name and the brackets of a call ("fs.lstatSync()") are the name's.
    if (nameMark(tokens, k)) continue;
    if (t.pos === 'PUNCT') return undefined;
    if (SYMMETRIC.has(t.lower) || SYMMETRIC.has(t.lemma) || t.cue) return undefined;
    if (/^(?:VERB|ADP)$/.test(t.pos)) joins = true;
    if (!SKIPPED.test(t.lower)) out.push(t.lemma);
  }
  return joins ? out : undefined;
}

/** True when `inner` is a run of `outer`'s lemmas. */
function within(inner: readonly string[], outer: readonly string[]): boolean {
  for (let i = 0; i + inner.length <= outer.length; i++) {
    if (inner.every((w, j) => outer[i + j] === w)) return true;
  }
  return false;
}

/**
 * Two things a claim sentence and a page sentence join by the same link, in the other order.
 * @example
 * reversals(
 *   analyze('It implements the pax format with support for USTAR headers.'),
 *   analyze('It implements USTAR with support for pax headers.'),
 * ) // [{ kind: 'term', claim: 'pax', page: 'USTAR' }]
 */
export function reversals(claim: Analysis, page: Analysis): Conflict[] {
  const pageSentences = sentenceRanges(page).map((r) => anchors(page, r));
  for (const cs of sentenceRanges(claim)) {
    const mine = anchors(claim, cs);
    const names = [...mine.entries()].sort((x, y) => x[1] - y[1]);
    for (const [i, [a, at]] of names.entries()) {
      for (const [b, bt] of names.slice(i + 1)) {
        const ours = link(claim.tokens, at, bt);
        if (!ours) continue;
        for (const theirs of pageSentences) {
          const pa = theirs.get(a);
          const pb = theirs.get(b);
          if (pa === undefined || pb === undefined || pb > pa) continue;
          const their = link(page.tokens, pb, pa);
          if (!their) continue;
          const [short, long] = ours.length <= their.length ? [ours, their] : [their, ours];
          if (short.length === 0 || !within(short, long)) continue;
          return [{ kind: 'term', claim: claim.tokens[at]!.text, page: page.tokens[pb]!.text }];
        }
      }
    }
  }
  return [];
}
