import { sentenceSpans } from './chunk.js';
import { queryTerms } from './query.js';
import { countTokens, truncateToTokens } from '../../../protocol/tokens.js';

// A cheap stem so "indexing" in the query finds "indexed" in the text, like the porter tokenizer does.
function stem(word: string): string {
  const w = word
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase();
  if (w.length <= 4) return w;
  return w.replace(/(ingly|edly|ing|ed|es|ly|s)$/, '') || w;
}

interface Word {
  start: number;
  end: number;
  term: number;
}

/**
 * Picks the best-matching passage of `text` for `query`: the window of at most `maxTokens` tokens
 * with the most distinct query terms, then the most matches, preferring a window that starts at a
 * sentence start; trimmed at word boundaries. The result is a verbatim substring of `text`, so a
 * browser can find it on the page.
 *
 * @param text - Usually the best chunk's text.
 * @param query - The user query.
 * @param maxTokens - Token budget of the snippet.
 */
export function bestPassage(text: string, query: string, maxTokens: number): string {
  if (countTokens(text) <= maxTokens) return text.trim();
  const terms = queryTerms(query).map(stem);
  const words: Word[] = [];
  for (const m of text.matchAll(/[\p{L}\p{N}\p{M}_]+/gu)) {
    words.push({ start: m.index, end: m.index + m[0].length, term: terms.indexOf(stem(m[0])) });
  }
  if (words.length === 0) return '';
  // Words per window: a first guess from the budget, trimmed exactly by the tokenizer below.
  const span = Math.max(4, Math.floor(maxTokens * 0.75));
  const sentenceStarts = new Set<number>();
  let w = 0;
  for (const [s] of sentenceSpans(text)) {
    while (w < words.length && words[w]!.start < s) w++;
    if (w < words.length) sentenceStarts.add(w);
  }
  // Sliding window over word positions: per-term counts give distinct terms and hits in O(words).
  const counts = new Map<number, number>();
  let hits = 0;
  const add = (i: number, delta: 1 | -1): void => {
    const t = words[i]?.term ?? -1;
    if (t < 0) return;
    const n = (counts.get(t) ?? 0) + delta;
    if (n === 0) counts.delete(t);
    else counts.set(t, n);
    hits += delta;
  };
  for (let i = 0; i < Math.min(span, words.length); i++) add(i, 1);
  let best = 0;
  let bestScore = -1;
  let bestSentence = -1;
  let bestSentenceScore = -1;
  // Windows may start near the end and run short: a final sentence can be the best passage.
  const lastStart = words.length - 1;
  for (let i = 0; i <= lastStart; i++) {
    if (i > 0) {
      add(i - 1, -1);
      if (i + span - 1 < words.length) add(i + span - 1, 1);
    }
    const s = counts.size * 1000 + hits;
    if (s > bestScore) [best, bestScore] = [i, s];
    if (sentenceStarts.has(i) && s > bestSentenceScore) [bestSentence, bestSentenceScore] = [i, s];
  }
  // A window at a sentence start reads better; take it unless it loses a matched term.
  const from =
    bestSentence >= 0 && Math.floor(bestSentenceScore / 1000) >= Math.floor(bestScore / 1000)
      ? bestSentence
      : best;
  const cut = (to: number): string =>
    text.slice(words[from]!.start, endWithPunctuation(text, words[to]!.end)).trim();
  // Largest window end that fits the budget (binary search: token counts grow with the end).
  let lo = from;
  let hi = Math.min(words.length, from + span) - 1;
  if (countTokens(cut(lo)) > maxTokens) return truncateToTokens(cut(lo), maxTokens);
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (countTokens(cut(mid)) <= maxTokens) lo = mid;
    else hi = mid - 1;
  }
  return cut(lo);
}

// Keep a sentence's closing punctuation when the window ends on its last word.
function endWithPunctuation(text: string, end: number): number {
  const m = /^[.!?…,;:)"'”’\]]+/u.exec(text.slice(end, end + 4));
  return end + (m ? m[0].length : 0);
}
