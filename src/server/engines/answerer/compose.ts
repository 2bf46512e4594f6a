import { splitSentences, terms } from './text.js';

/** One retrieved source, as the answerer sees it. Its position in the list is its `[n]` marker. */
export interface Passage {
  url: string;
  title: string;
  date: string | null;
  lastUpdated: string | null;
  snippet: string;
  /** The passage text the answer may quote from. */
  text: string;
  source: 'web' | 'attachment';
  images?: { url: string; width: number; height: number; alt?: string | null }[];
  headingPath?: string[];
}

/** A selected sentence and the 1-based number of the source it came from. */
export interface CitedSentence {
  text: string;
  /** 1-based index into the sources: the `[n]` marker. */
  marker: number;
  score: number;
}

/** How many sentences to take, and how many from one source at most. */
export interface ComposeLimits {
  maxSentences: number;
  maxPerSource: number;
}

interface Candidate extends CitedSentence {
  terms: Set<string>;
  position: number;
}

/**
 * Selects the sentences of `passages` that best answer `question`: term overlap with the question,
 * favouring earlier (better-ranked) sources and earlier sentences, then maximal marginal relevance so
 * near-duplicates are not repeated. Sentences sharing no content word with the question are never
 * selected: no answer is better than an unsupported one.
 */
export function selectSentences(
  question: string,
  passages: readonly Passage[],
  limits: ComposeLimits,
  markerOffset = 0,
): CitedSentence[] {
  const qTerms = new Set(terms(question));
  if (qTerms.size === 0) return [];
  const candidates: Candidate[] = [];
  passages.forEach((passage, i) => {
    splitSentences(passage.text)
      .slice(0, 300)
      .forEach((text, position) => {
        const sTerms = new Set(terms(text));
        let overlap = 0;
        for (const t of qTerms) if (sTerms.has(t)) overlap++;
        if (overlap === 0 || text.length > 600) return;
        const score =
          overlap / qTerms.size +
          (0.5 * overlap) / Math.sqrt(sTerms.size + 1) +
          0.08 / (1 + i) +
          0.04 / (1 + position);
        candidates.push({ text, marker: i + 1 + markerOffset, score, terms: sTerms, position });
      });
  });
  candidates.sort((a, b) => b.score - a.score);

  const chosen: Candidate[] = [];
  const perSource = new Map<number, number>();
  for (const c of candidates) {
    if (chosen.length >= limits.maxSentences) break;
    if ((perSource.get(c.marker) ?? 0) >= limits.maxPerSource) continue;
    if (chosen.some((s) => jaccard(s.terms, c.terms) > 0.6)) continue;
    chosen.push(c);
    perSource.set(c.marker, (perSource.get(c.marker) ?? 0) + 1);
  }
  return chosen.map(({ text, marker, score }) => ({ text, marker, score }));
}

/** Writes a sentence with its marker before the final punctuation: `Claim text [2].` */
export function withMarker(sentence: string, marker: number): string {
  const m = /^(.*?)([.!?…]+["')\]]*)$/s.exec(sentence);
  return m ? `${m[1]} [${marker}]${m[2]}` : `${sentence} [${marker}]`;
}

/** Joins cited sentences into prose, each carrying its `[n]` marker. */
export function renderSentences(sentences: readonly CitedSentence[]): string {
  return sentences.map((s) => withMarker(s.text, s.marker)).join(' ');
}

function jaccard(a: Set<string>, b: Set<string>): number {
  let shared = 0;
  for (const t of a) if (b.has(t)) shared++;
  return shared / (a.size + b.size - shared || 1);
}
