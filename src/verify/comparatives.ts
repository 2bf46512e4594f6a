/**
 * Comparatives of an analysed text: comparative adjectives and adverbs (`faster`, through WordNet's
 * bases), `more X`/`less X`, negated equatives (`not as fast as`), and comparison words whose
 * opposite WordNet does not record (`before`/`after`, `increase`/`decrease`).
 */
import type { Comparative, Token } from './analyze.js';
import { ONCE_LIKE } from './quantity-words.js';
import { loadWordNet } from './wordnet.js';

/** Comparison words whose opposite is not an antonym in WordNet, with their direction. */
const RELATIONS: Record<string, [string, 1 | -1]> = {
  before: ['before', 1],
  after: ['before', -1],
  prior: ['before', 1],
  ahead: ['before', 1],
  behind: ['before', -1],
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
  lower: ['high', -1],
};

/** A comparison word's entry (own keys only: `constructor` is not a comparison). */
const relationOf = (word: string): [string, 1 | -1] | undefined =>
  Object.hasOwn(RELATIONS, word) ? RELATIONS[word] : undefined;

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

/** Comparatives: `faster`, `more memory`, `less often`, `before`, `exceeds`. */
export function comparativesOf(tokens: readonly Token[]): Comparative[] {
  const out: Comparative[] = [];
  tokens.forEach((t, i) => {
    // A negated equative compares the other way: "not as stable as" is "less stable than".
    const equative = tokens[i - 2];
    if (
      tokens[i - 1]?.lower === 'as' &&
      equative &&
      /^(?:not|n't|never)$/.test(equative.lower) &&
      tokens[i + 1]?.lower === 'as' &&
      (t.pos === 'ADJ' || t.pos === 'ADV')
    ) {
      const base = comparativeBase(t.lower) ?? t.lemma;
      out.push({ text: `${equative.text} as ${t.text} as`, base, sign: -1, at: i });
      return;
    }
    // "no longer supported", "not any longer": a change of state, no comparison.
    if (t.lower === 'longer' && /^(?:no|any)$/.test(tokens[i - 1]?.lower ?? '')) return;
    const relation = relationOf(t.lemma) ?? relationOf(t.lower);
    const next = tokens[i + 1];
    // "at least as many colors as count" (>=) against "at most as many ... as" (<=): a bound with
    // no number, an equative.
    if (/^(?:most|least)$/.test(t.lower) && tokens[i - 1]?.lower === 'at' && next?.lower === 'as') {
      const sign = t.lower === 'least' ? 1 : -1;
      out.push({ text: `at ${t.text} as`, base: 'more', sign, at: i });
      return;
    }
    // "at most 3", "more than 3": bounds of a quantity, compared with the quantity.
    if (
      relation &&
      (tokens[i - 1]?.lower === 'at' ||
        // "50 or more", "3 or fewer"; "one more origin" adds one, it compares nothing
        (tokens[i - 1]?.lower === 'or' && tokens[i - 2]?.pos === 'NUM') ||
        // "one before endAddress" names a place in an order, not a bound of the number.
        (tokens[i - 1]?.pos === 'NUM' && relation[0] !== 'before') ||
        (next?.lower === 'than' &&
          (tokens[i + 2]?.pos === 'NUM' ||
            ONCE_LIKE.has(tokens[i + 2]?.lower ?? '') ||
            // "more than a hundred", "fewer than a dozen"
            (/^an?$/.test(tokens[i + 2]?.lower ?? '') &&
              (tokens[i + 3]?.pos === 'NUM' ||
                /^(?:hundred|thousand|million|billion|dozen)$/.test(
                  tokens[i + 3]?.lower ?? '',
                ))))) ||
        next?.pos === 'NUM')
    ) {
      return;
    }
    // "most dramatically", "least likely": the superlative of the modifier, not of an amount.
    const superlative = /^(?:most|least)$/.test(t.lower) && /^(?:ADJ|ADV)$/.test(next?.pos ?? '');
    if (
      relation &&
      (t.lower === 'more' || t.lower === 'less' || t.lower === 'fewer' || superlative) &&
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
    // A capital opening the sentence makes the tagger read a name ("Higher levels result...").
    const opening = t.pos === 'PROPN' && (i === 0 || /^[.!?:;]$/.test(tokens[i - 1]!.text));
    if (t.pos !== 'ADJ' && t.pos !== 'ADV' && !opening) return;
    const base = comparativeBase(t.lower);
    if (base) out.push({ text: t.text, base, sign: 1, at: i });
  });
  return out;
}
