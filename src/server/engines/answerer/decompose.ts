import type { Passage } from './compose.js';
import { stem, terms } from './text.js';

/**
 * Splits a research question into up to `count` searches: the question itself, its facets
 * (parts joined by "and", commas, "vs"), then the question widened with the most frequent new terms
 * of the first results (pseudo-relevance feedback). Deterministic.
 */
export function decompose(
  question: string,
  count: number,
  firstResults: readonly Passage[],
): string[] {
  const queries = [question.trim()];
  const facets = question
    .split(/\s*(?:,|;|\band\b|\bvs\.?\b|\bversus\b|\bor\b)\s*/i)
    .map((f) => f.replace(/[?.!]+$/, '').trim())
    .filter((f) => terms(f).length > 0);
  if (facets.length > 1) queries.push(...facets);

  const asked = new Set(terms(question));
  const freq = new Map<string, number>();
  const surface = new Map<string, string>();
  // Titles and headings name topics; body words are mostly incidental.
  for (const p of firstResults.slice(0, 5)) {
    for (const word of [p.title, ...(p.headingPath ?? [])]
      .join(' ')
      .toLowerCase()
      .match(/\p{L}{4,}/gu) ?? []) {
      const t = stem(word);
      if (asked.has(t) || terms(word).length === 0) continue;
      freq.set(t, (freq.get(t) ?? 0) + 1);
      if (!surface.has(t)) surface.set(t, word);
    }
  }
  const related = [...freq.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  for (const [t] of related) {
    if (queries.length >= count) break;
    queries.push(`${question.replace(/[?.!]+$/, '')} ${surface.get(t)}`);
  }
  return [...new Set(queries)].slice(0, count);
}
