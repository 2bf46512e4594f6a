import { proseSentences, terms } from './text.js';

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
 * Selects the sentences of `passages` that best answer `question`: IDF-weighted coverage of the
 * question's content words (words of the passage's heading path count at half weight: a heading
 * is context, never part of a sentence), favouring earlier (better-ranked) sources and earlier sentences, then
 * maximal marginal relevance so near-duplicates are not repeated. A sentence covering less than a
 * third of the question's weight (half for two-word questions) is never selected: no answer is
 * better than an unsupported one.
 */
export function selectSentences(
  question: string,
  passages: readonly Passage[],
  limits: ComposeLimits,
  markerOffset = 0,
): CitedSentence[] {
  const qTerms = [...new Set(terms(question))];
  if (qTerms.length === 0) return [];
  const sentences = passages.flatMap((passage, source) =>
    analyse(passage).map((s) => ({ ...s, source })),
  );
  // Rarer question terms weigh more: "browser" in every sentence says less than "isolation" in one.
  const idf = new Map(
    qTerms.map((t) => {
      const df = sentences.reduce((n, s) => n + (s.terms.has(t) ? 1 : 0), 0);
      return [t, Math.log(1 + (sentences.length + 1) / (df + 0.5))];
    }),
  );
  const totalWeight = qTerms.reduce((n, t) => n + idf.get(t)!, 0);
  // A sentence must cover a real share of the question, not one incidental word.
  const floor = qTerms.length === 1 ? 1 : qTerms.length === 2 ? 0.5 : 0.34;
  const candidates: Candidate[] = [];
  for (const s of sentences) {
    let matched = 0;
    let weight = 0;
    for (const t of qTerms) {
      if (s.terms.has(t)) {
        matched++;
        weight += idf.get(t)!;
      } else if (s.context.has(t)) weight += 0.5 * idf.get(t)!;
    }
    const coverage = weight / totalWeight;
    if (matched === 0 || coverage < floor - 1e-9) continue;
    const score =
      coverage +
      (0.3 * matched) / Math.sqrt(s.terms.size + 1) +
      0.08 / (1 + s.source) +
      0.04 / (1 + s.position);
    candidates.push({
      text: s.text,
      marker: s.source + 1 + markerOffset,
      score,
      terms: s.terms,
      position: s.position,
    });
  }
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

interface AnalysedSentence {
  text: string;
  terms: Set<string>;
  /** Terms of the passage's heading path: what the sentence is about, not what it says. */
  context: Set<string>;
  position: number;
}

// One answer selects sentences several times over the same passages (per deep-research
// sub-question, per json_schema field): split and tokenize each passage once.
const analysed = new WeakMap<Passage, AnalysedSentence[]>();

function analyse(passage: Passage): AnalysedSentence[] {
  let out = analysed.get(passage);
  if (!out) {
    out = [];
    const context = new Set(terms((passage.headingPath ?? []).join(' ')));
    for (const [position, text] of proseSentences(passage.text).slice(0, 300).entries()) {
      if (text.length <= 600) out.push({ text, terms: new Set(terms(text)), context, position });
    }
    analysed.set(passage, out);
  }
  return out;
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
