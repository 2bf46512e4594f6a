import { combineHashes, fnv1a, fnvStep } from './hashing.js';
import { HashCounter } from './hash-counter.js';
import type { LocalModelConfig } from './local-models.js';

// Distinct seeds per feature kind, so the word "ing" and the character 3-gram "ing" are different
// features.
const SEED_UNIGRAM = fnv1a('unigram');
const SEED_CHAR = fnv1a('chargram');
const SALT_BIGRAM = 0x2545f491;
const SALT_SKIP = 0x6c8e9cf5;
const CODE_BOS = 0x3c; // '<'
const CODE_EOS = 0x3e; // '>'
// Very long tokens (base64 blobs, URLs) would dominate a text with hundreds of character n-grams.
const MAX_CHARGRAM_WORD = 48;

// Letters, digits and combining marks form words; everything else separates them. Han and kana
// are written without spaces, so each of their characters is a token and the bigrams of adjacent
// characters stand in for words.
const WORD_RE = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]|[\p{L}\p{N}\p{M}]+/gu;

const STOPWORDS = new Set(
  (
    'a an and are as at be been but by can could did do does for from had has have he her his how i ' +
    'if in into is it its me my no not of on or our she so such than that the their them then there ' +
    'these they this those to too us was we were what when where which who whom why will with would ' +
    'you your s t'
  ).split(' '),
);

/**
 * Light suffix-stripping stemmer (a small subset of Porter's step 1): enough that plurals and common
 * verb forms share a unigram; the character n-grams cover the rest of the morphology.
 * @example stem('studies') // 'studi'
 */
export function stem(w: string): string {
  if (w.length <= 3) return w;
  let s = w;
  if (s.endsWith('sses')) s = s.slice(0, -2);
  else if (s.endsWith('ies')) s = s.slice(0, -2);
  else if (s.endsWith('s') && !s.endsWith('ss') && !s.endsWith('us') && !s.endsWith('is')) {
    s = s.slice(0, -1);
  }
  if (s.length > 5 && s.endsWith('ing')) s = undouble(s.slice(0, -3));
  else if (s.length > 4 && s.endsWith('ed')) s = undouble(s.slice(0, -2));
  else if (s.length > 4 && s.endsWith('ly')) s = s.slice(0, -2);
  if (s.length > 3 && s.endsWith('y')) s = s.slice(0, -1) + 'i';
  else if (s.length > 4 && s.endsWith('e')) s = s.slice(0, -1);
  return s;
}

function undouble(s: string): string {
  const n = s.length;
  if (n > 2 && s.charCodeAt(n - 1) === s.charCodeAt(n - 2) && !'lsz'.includes(s[n - 1]!)) {
    return s.slice(0, -1);
  }
  return s;
}

/**
 * Reusable per-kind term-frequency tables (feature hash -> count). One instance per model is reused
 * across calls (cleared, never reallocated) to keep the hot path allocation-light.
 */
export class FeatureCounts {
  /** Word unigrams (content words). */
  readonly unigrams = new HashCounter();
  /** Stopword unigrams, weighted far lower. */
  readonly stopwords = new HashCounter(64);
  /** Adjacent content-word bigrams. */
  readonly bigrams = new HashCounter();
  /** Content-word skip-bigrams (4b only). */
  readonly skipBigrams = new HashCounter();
  /** Character n-grams of each word. */
  readonly charGrams = new HashCounter(4096);
  /** Number of word tokens seen (the mean-pooling denominator). */
  tokens = 0;

  /** Empty every table for the next text. */
  clear(): void {
    this.unigrams.clear();
    this.stopwords.clear();
    this.bigrams.clear();
    this.skipBigrams.clear();
    this.charGrams.clear();
    this.tokens = 0;
  }
}

function addCharGrams(word: string, cfg: LocalModelConfig, out: HashCounter): void {
  const len = Math.min(word.length, MAX_CHARGRAM_WORD) + 2;
  for (let n = cfg.charMin; n <= cfg.charMax; n++) {
    const seed = fnvStep(SEED_CHAR, n);
    for (let start = 0; start + n <= len; start++) {
      let h = seed;
      for (let i = start; i < start + n; i++) {
        const code = i === 0 ? CODE_BOS : i === len - 1 ? CODE_EOS : word.charCodeAt(i - 1);
        // fnvStep inlined: some loaders (tsx, vite) turn cross-module calls into getter lookups.
        h = Math.imul(h ^ code, 0x01000193);
      }
      out.add(h);
    }
  }
}

/**
 * Tokenize `text` and count its features into `out` (cleared first): lowercased words, stemmed
 * unigrams, content-word bigrams (and skip-bigrams for the 4b model), and character n-grams of each
 * content word. A text without any word character falls back to the character n-grams of its
 * trimmed self, so punctuation-only inputs still get a stable, distinct vector.
 */
export function countFeatures(text: string, cfg: LocalModelConfig, out: FeatureCounts): void {
  out.clear();
  const lower = text.toLowerCase();
  let prev = 0;
  let prevPrev = 0;
  let content = 0;
  for (const m of lower.matchAll(WORD_RE)) {
    const word = m[0];
    out.tokens++;
    if (STOPWORDS.has(word)) {
      out.stopwords.add(fnv1a(word, SEED_UNIGRAM));
      continue;
    }
    const h = fnv1a(stem(word), SEED_UNIGRAM);
    out.unigrams.add(h);
    addCharGrams(word, cfg, out.charGrams);
    if (content >= 1) out.bigrams.add(combineHashes(prev, h, SALT_BIGRAM));
    if (cfg.skipBigrams && content >= 2) out.skipBigrams.add(combineHashes(prevPrev, h, SALT_SKIP));
    prevPrev = prev;
    prev = h;
    content++;
  }
  if (out.tokens === 0) {
    const t = lower.trim();
    if (t.length > 0) {
      addCharGrams(t, cfg, out.charGrams);
      out.tokens = 1;
    }
  }
}
