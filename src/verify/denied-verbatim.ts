/**
 * A claim the page states word for word but for a denial: "Lexing templates with large amounts
 * of whitespace is not much faster" against "... is much faster", "The comment is not simply
 * thrown out" against "The comment is simply thrown out", "Generates a version 3 sourcemap"
 * against "does not generate a version 3 sourcemap". Such a pair says the opposite, whatever the
 * denied word is (an adverb, "the one", an auxiliary), so it needs no notion of which word a
 * denial touches.
 */
import type { Analysis, Token } from './analyze.js';
import type { Conflict } from './verify-claim.js';

/** The denials compared: "no" and "without" change the words around them too. */
const DENIALS = new Set(['not', 'never']);

/** The fewest words the claim must share with the page, denials set aside. */
const MIN_WORDS = 4;

interface Plain {
  /** Lemmas of the words, punctuation and denials left out. */
  words: string[];
  /** Token index of each word. */
  at: number[];
  /** Word positions a denial stands right before (the word count when it ends the text). */
  denied: Map<number, number>;
}

/** "do" only carries a denial ("does not limit" / "limits"), it is not a word of its own. */
const doSupport = (tokens: readonly Token[], k: number): boolean =>
  tokens[k]!.lemma === 'do' && tokens[k]!.pos === 'AUX' && DENIALS.has(tokens[k + 1]?.lemma ?? '');

/** "whether or not", "if not": a denial that names the other case, not a denied fact. */
const otherCase = (tokens: readonly Token[], k: number): boolean =>
  /^(?:or|if)$/.test(tokens[k - 1]?.lower ?? '') &&
  (tokens[k + 1] === undefined || tokens[k + 1]!.pos === 'PUNCT' || tokens[k - 1]!.lower === 'or');

function plain(a: Analysis): Plain {
  const out: Plain = { words: [], at: [], denied: new Map() };
  a.tokens.forEach((t, k) => {
    if (t.pos === 'PUNCT' || doSupport(a.tokens, k)) return;
    if (DENIALS.has(t.lemma)) {
      if (!otherCase(a.tokens, k)) out.denied.set(out.words.length, k);
      return;
    }
    out.words.push(t.lemma);
    out.at.push(k);
  });
  return out;
}

/** The tokens around the denial at word position `w` (or where it would stand), as written. */
function around(a: Analysis, p: Plain, w: number): string {
  const denial = p.denied.get(w);
  const from = p.at[w - 1] ?? p.at[w]!;
  const to = p.at[w] ?? p.at[w - 1]!;
  const first = Math.min(from, denial ?? from);
  const tokens = a.tokens.slice(first, Math.max(to, denial ?? to) + 1);
  return tokens
    .map((t) => t.text)
    .join(' ')
    .replace(/ n't/g, "n't");
}

/**
 * The denial that sets the claim against the page when the page holds the claim's words in its
 * order, every one, and denies where the claim does not (or does not where the claim does);
 * undefined otherwise.
 */
export function deniedVerbatim(claim: Analysis, page: Analysis): Conflict | undefined {
  const c = plain(claim);
  if (c.words.length < MIN_WORDS) return undefined;
  const p = plain(page);
  for (let start = 0; start + c.words.length <= p.words.length; start++) {
    if (!c.words.every((w, i) => p.words[start + i] === w)) continue;
    for (let i = 0; i <= c.words.length; i++) {
      // A denial right after the claim's last word belongs to the page's sentence only when the
      // claim ends there too (it ends on "does": "does" / "does not").
      if (i === c.words.length && c.denied.get(i) === undefined && !endsClause(page, p, start + i))
        continue;
      if (c.denied.has(i) === p.denied.has(start + i)) continue;
      return {
        kind: 'negation',
        claim: around(claim, c, i),
        page: around(page, p, start + i),
      };
    }
  }
  return undefined;
}

/** True when the page's denial at word position `w` ends a clause ("does not." / "does not,"). */
function endsClause(page: Analysis, p: Plain, w: number): boolean {
  const k = p.denied.get(w);
  if (k === undefined) return false;
  const next = page.tokens[k + 1];
  return next === undefined || next.pos === 'PUNCT';
}
