/**
 * Neighbour swaps: two names a claim sentence and a page sentence both state, each in the other's
 * place ("obug picks up enabled namespaces from the Node.js environment variable in DEBUG" / "from
 * the DEBUG environment variable in Node.js"; "Since DOM does not come with its own Node.js
 * implementation" / "Since Node.js does not come with its own DOM implementation"). Every word is
 * there, so word matching calls the claim stated; the words right beside each name say where it
 * stands.
 *
 * How: for two key terms that the claim and the passage each state once, in one sentence, the word
 * right before and the word right after each name (articles, brackets and quotes passed over; a
 * comma, colon or semicolon ends the search) are compared. A word beside one name in the claim and
 * beside the other, on the same side, in the passage votes for a swap; one beside the same name in
 * both votes against. A swap needs a content word voting for it and none against. Reworded
 * sentences rarely keep a name's neighbours ("give decode() a Buffer" / "supply a Buffer to
 * decode()" share none), so a paraphrase gives no votes either way. Names that are items of one
 * list ("NIST and USNO", "curl, Postman or other servers") or of one frame (the same word beside
 * both: "returns FFI_OK if ..., FFI_BAD_SIZE if ..."), a name the passage writes twice, and
 * sentences that move facts about ("unlike", "rather than", "respectively") are left out: there the
 * order tells nothing. Two names side by side are one compound name ("JSON Schema" / "Schema
 * JSON"), and are read.
 */
import { sentenceBounds } from './analyze.js';
import type { Analysis, Token } from './analyze.js';
import { REORDERING, where } from './associations.js';
import type { Conflict } from './verify-claim.js';
import { norm } from './words.js';

/** Words passed over beside a name: articles and determiners, which paraphrases add and drop. */
const PASSED = /^(?:the|a|an|its|their|this|that|these|those)$/;

/** Tokens that may stand between two items of one list. */
const LISTING = /^(?:,|and|or|nor|\/|the|a|an|both|either|as|well|\(|\)|`|'|")$/;

/** A name stated once: its first and last token. */
type Span = [number, number];

/** The word beside `span` on one side (`-1` before, `1` after) within its sentence, if any. */
function beside(
  a: Analysis,
  [first, last]: Span,
  side: -1 | 1,
  [start, end]: Span,
): { at: number; token: Token } | null {
  for (let k = side < 0 ? first - 1 : last + 1; k >= start && k <= end; k += side) {
    const t = a.tokens[k]!;
    // A comma, colon or semicolon ends what stands beside the name ("xsltGetTemplate(), step
    // 2/ is ..." has no word after it).
    if (/^[,;:]$/.test(t.text)) return null;
    if (!/[\p{L}\p{N}]/u.test(t.text) || PASSED.test(t.lower)) continue;
    return { at: k, token: t };
  }
  return null;
}

/** True when two spans do not overlap. */
const apart = (x: Span, y: Span): boolean => x[1] < y[0] || y[1] < x[0];

/**
 * True when only list punctuation, conjunctions and other names stand between two spans: items of
 * one list. Two names written side by side are one compound name ("JSON Schema"), not a list.
 */
function listed(a: Analysis, x: Span, y: Span, names: ReadonlySet<number>): boolean {
  const [f, l] = x[0] < y[0] ? [x, y] : [y, x];
  if (f[1] + 1 === l[0]) return false;
  for (let k = f[1] + 1; k < l[0]; k++) {
    if (!LISTING.test(a.tokens[k]!.lower) && !names.has(k)) return false;
  }
  return true;
}

/** Each name's spans in a text, and the tokens of all of them. */
function spansOf(a: Analysis, names: readonly string[]): { spans: Span[][]; tokens: Set<number> } {
  const tokens = new Set<number>();
  const spans = names.map((w) =>
    [...where(a, [0, a.tokens.length - 1], w)].map(([s, after]): Span => {
      for (let k = s; k < after; k++) tokens.add(k);
      return [s, after - 1];
    }),
  );
  return { spans, tokens };
}

/**
 * The first pair of the claim's names that stands each in the other's place on the page (see the
 * file's header), as a `term` conflict; empty when none does.
 * @example
 * neighbourSwaps(
 *   analyze('Since DOM does not come with its own Node.js implementation, we use jsdom.'),
 *   analyze('Since Node.js does not come with its own DOM implementation, we use jsdom.'),
 * ) // [{ kind: 'term', claim: 'DOM', page: 'Node.js' }]
 */
export function neighbourSwaps(claim: Analysis, page: Analysis): Conflict[] {
  const written = new Map<string, string>();
  for (const k of claim.keyTerms) {
    const spelled = norm(k.text).replace(/\s+/g, '');
    if (k.kind !== 'rare' && spelled.length >= 2 && !written.has(spelled))
      written.set(spelled, k.text);
  }
  const names = [...written.keys()];
  if (names.length < 2) return [];
  const mine = spansOf(claim, names);
  const theirs = spansOf(page, names);
  const reorders = (a: Analysis, [s, e]: Span): boolean =>
    a.tokens.slice(s, e + 1).some((t) => REORDERING.has(t.lower));
  // The names the claim writes once; the passage must write each once too: a name it repeats is
  // in more than one of its statements, and which one the claim's words go with is not told.
  const once = names.flatMap((w, i) => {
    const [c, p] = [mine.spans[i]!, theirs.spans[i]!];
    return c.length === 1 && p.length === 1 ? [{ name: written.get(w)!, c: c[0]!, p: p[0]! }] : [];
  });
  for (const [n, x] of once.entries()) {
    for (const y of once.slice(n + 1)) {
      if (!apart(x.c, y.c) || !apart(x.p, y.p)) continue;
      if (listed(claim, x.c, y.c, mine.tokens) || listed(page, x.p, y.p, theirs.tokens)) continue;
      const cs = sentenceBounds(claim, x.c[0]);
      const ps = sentenceBounds(page, x.p[0]);
      if (cs[0] !== sentenceBounds(claim, y.c[0])[0]) continue;
      if (ps[0] !== sentenceBounds(page, y.p[0])[0]) continue;
      if (reorders(claim, cs) || reorders(page, ps)) continue;
      if (swappedBeside(claim, page, [x.c, y.c, cs], [x.p, y.p, ps])) {
        return [{ kind: 'term', claim: x.name, page: y.name }];
      }
    }
  }
  return [];
}

/**
 * True when the words beside two names (`[x, y, sentence]`) in the claim stand beside the other
 * name in the page's sentence: a content word votes for the swap, any word beside the same name
 * votes against it, and a swap needs a vote for it and none against.
 */
function swappedBeside(
  claim: Analysis,
  page: Analysis,
  [cx0, cy0, cs]: [Span, Span, Span],
  [px0, py0, ps]: [Span, Span, Span],
): boolean {
  let kept = 0;
  let swapped = 0;
  for (const side of [-1, 1] as const) {
    // The word beside a name, unless it is a piece of the other name.
    const word = (a: Analysis, s: Span, other: Span, range: Span): Token | undefined => {
      const b = beside(a, s, side, range);
      return b && (b.at < other[0] || b.at > other[1]) ? b.token : undefined;
    };
    const [cx, cy] = [word(claim, cx0, cy0, cs), word(claim, cy0, cx0, cs)];
    const [px, py] = [word(page, px0, py0, ps), word(page, py0, px0, ps)];
    // A word beside both names on one side makes them items of one frame ("returns FFI_OK if
    // ..., FFI_BAD_SIZE if ..."): the word before the first item heads them all, and the items
    // may come in any order.
    if ((cx && cx.lemma === cy?.lemma) || (px && px.lemma === py?.lemma)) return false;
    const same = (a?: Token, b?: Token): boolean => a !== undefined && a.lemma === b?.lemma;
    if (same(cx, px)) kept++;
    if (same(cy, py)) kept++;
    // Function words ("of", "is") stand beside many things: only a content word moves a fact.
    if (same(cx, py) && cx!.content && !cx!.cue) swapped++;
    if (same(cy, px) && cy!.content && !cy!.cue) swapped++;
  }
  return swapped > 0 && kept === 0;
}
