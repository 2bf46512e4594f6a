/**
 * Gloss swaps: a page that lists names each with its gloss in brackets ("round-robin (for short
 * connections, pick each server in turn), leastconn (for long connections, pick the least
 * recently used ...)") and a claim that gives one name another's gloss ("the round-robin
 * algorithm, meant for long connections, picks the least recently used ..."). Every word of the
 * claim is in the passage, so word matching alone calls the swap supported.
 */
import type { Analysis } from './analyze.js';
import type { Conflict } from './verify-claim.js';
import { hasTerm, norm } from './words.js';

/** A name and the gloss in brackets right after it. */
const GLOSS = /(?<![\w$.-])([A-Za-z_$][\w$.-]*[\w$])\s+\(([^()]{12,240})\)/g;

/** Fewest words a gloss must share with the claim to be the one it gives. */
const MIN_SHARED = 3;

/** How many more words the other gloss must share than the name's own. */
const MARGIN = 2;

/** A word's rough stem: plural and tense endings off, six letters at most. */
const stem = (w: string): string => w.replace(/(?:es|s|ed|ing)$/, '').slice(0, 6);

/** The stems of the words of three letters or more in `text`. */
const stems = (text: string): Set<string> =>
  new Set((text.toLowerCase().match(/\p{L}{3,}/gu) ?? []).map(stem));

/**
 * The names of a passage's list of glosses that the claim gives another's gloss: the claim names
 * one (and not the other), and shares at least {@link MIN_SHARED} words with the other's gloss and
 * {@link MARGIN} more than with its own.
 * @example
 * glossSwaps(
 *   analyze('The round-robin algorithm, meant for long connections, picks the least recently used server.'),
 *   analyze('Algorithms are round-robin (for short connections, pick each server in turn), leastconn (for long connections, pick the least recently used server).'),
 * ) // [{ kind: 'term', claim: 'round-robin', page: 'leastconn' }]
 */
export function glossSwaps(claim: Analysis, page: Analysis): Conflict[] {
  const glosses = [...page.text.matchAll(GLOSS)].map((m) => ({ name: m[1]!, gloss: m[2]! }));
  if (glosses.length < 2) return [];
  const claimText = norm(claim.text);
  const named = glosses.filter((g) => hasTerm(claimText, g.name));
  if (named.length !== 1) return [];
  const own = named[0]!;
  // The claim's words apart from the name itself.
  const words = new Set(
    claim.tokens
      .filter((t) => t.content && !norm(own.name).includes(t.lower))
      .map((t) => stem(t.lower)),
  );
  const shared = (gloss: string): number => [...stems(gloss)].filter((w) => words.has(w)).length;
  const mine = shared(own.gloss);
  const other = glosses
    .filter((g) => g !== own)
    .map((g) => ({ g, n: shared(g.gloss) }))
    .sort((a, b) => b.n - a.n)[0];
  if (!other || other.n < MIN_SHARED || other.n < mine + MARGIN) return [];
  return [{ kind: 'term', claim: own.name, page: other.g.name }];
}
