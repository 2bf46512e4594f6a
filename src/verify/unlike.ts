/**
 * "Unlike X, this method consumes the body": the page says what the sentence's subject does and
 * that X does not. A claim that gives X that predicate ("X waits until it has consumed the body")
 * states the opposite of the page, although every word of it is there.
 */
import type { Analysis } from './analyze.js';
import type { Conflict } from './verify-claim.js';
import { hasTerm, norm, related } from './words.js';

/** "Unlike X, S P" at a sentence start: X in group 1, the rest in group 2. */
const UNLIKE = /(?:^|[.!?]\s+)Unlike\s+([^,]{1,60}?),?\s+([^.!?]+)/g;

/** Fewest content words the claim must share with the predicate after the subject. */
const MIN_SHARED = 2;

/**
 * The claim's act that a page sentence "Unlike X, S P" denies of X: the claim names X (and no
 * "unlike" of its own), and the words it says of X share at least {@link MIN_SHARED} content
 * words with P, none of them negated.
 * @example
 * unlikeConflicts(
 *   analyze('.asResponse() consumes the body.'),
 *   analyze('Unlike .asResponse() this method consumes the body.'),
 * ) // [{ kind: 'negation', claim: 'consumes', page: 'Unlike .asResponse()' }]
 */
export function unlikeConflicts(claim: Analysis, page: Analysis): Conflict[] {
  if (claim.tokens.some((t) => t.lower === 'unlike')) return [];
  const claimText = norm(claim.text);
  const out: Conflict[] = [];
  for (const m of page.text.matchAll(UNLIKE)) {
    const other = page.keyTerms.find((k) => hasTerm(norm(m[1]!), k.text));
    if (!other || !hasTerm(claimText, other.text)) continue;
    // What the claim says of X: its words after X, up to another name, a ";" or a contrast.
    const key = norm(other.text).replace(/[^\p{L}\p{N}_$]/gu, '');
    const at = claim.tokens.findIndex((t) => t.lower.replace(/[^\p{L}\p{N}_$]/gu, '') === key);
    if (at < 0) continue;
    const others = claim.keyTerms.filter((k) => k.text !== other.text).map((k) => norm(k.text));
    const said = [];
    for (const t of claim.tokens.slice(at + 1)) {
      if (t.text === ';' || /^(?:while|whereas|but)$/.test(t.lower)) break;
      if (others.some((k) => t.lower.length >= 3 && k.includes(t.lower))) break;
      if (t.content) said.push(t);
    }
    const predicate = page.tokens.filter((t) => t.content && m[2]!.includes(t.text));
    const shared = said.filter((t) => predicate.some((q) => related(t, q)));
    if (shared.length < MIN_SHARED || shared.some((t) => t.negated)) continue;
    const verb = shared.find((t) => t.pos === 'VERB') ?? shared[0]!;
    out.push({ kind: 'negation', claim: verb.text, page: `Unlike ${m[1]!.trim()}` });
  }
  return out;
}
