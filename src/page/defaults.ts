/** Defaults of every page action, applied once with `??`. Durations in ms, sizes in CSS pixels. */
export const DEFAULTS = {
  /** {@link visit}: navigation timeout. */
  navigationTimeout: 30_000,
  /** {@link visit}: when a navigation counts as finished. */
  waitUntil: 'load',
  /** Bound on every in-page script and screenshot that has no timeout of its own. */
  actionTimeout: 15_000,
  /** {@link findPassage}: least fuzzy score (share of the claim's content words found) to accept. */
  minScore: 0.6,
  /**
   * {@link findPassage}: least cosine similarity to accept an embedding match. Calibrated for the
   * embedded service's sentence encoder (Universal Sentence Encoder lite, through the
   * contextualized embeddings endpoint) by `bench/evidence/calibrate.ts` over the benchmark's
   * claim set: the best passage of each hand-written paraphrase on its own page scores 0.56 to
   * 0.93 (median 0.79); a true sentence cited to another page of the same collection scores 0.33
   * to 0.72 (median 0.55), a paraphrase cited to another package's page 0.25 to 0.83 (median
   * 0.53). 0.5 keeps every paraphrase with a margin; the unrelated passages above it are left to
   * the verifier, which measures the cost (false supports, claims per second) in the benchmark.
   */
  minEmbeddingScore: 0.5,
  /** {@link findPassage}: bound on one `embed` call. */
  embedTimeout: 30_000,
  /** {@link findPassage}: most characters in one chunk sent to `embed`. */
  chunkChars: 600,
  /** {@link findPassage}: most chunks sent to `embed` for one page. */
  maxChunks: 256,
  /** {@link findPassages}: most chunks embedded per claim (those sharing its rarest words). */
  maxEmbedChunks: 24,
  /** {@link highlight}: background of the `<mark>`. */
  highlightColor: '#ffeb3b',
  /** {@link capture}: margin around the passage. */
  padding: 24,
  /** {@link capture}: tallest passage crop. */
  maxPassageHeight: 1_200,
  /** {@link fullPageScreenshot}: tallest page shot in full; taller pages fall back to the viewport. */
  maxHeight: 15_000,
  /** {@link fullPageScreenshot}: bound on the full-page shot. */
  screenshotTimeout: 20_000,
  /** {@link fullPageScreenshot}: bound on scrolling through the page to trigger lazy content. */
  scrollTimeout: 8_000,
  /** {@link fullPageScreenshot}: pause after each scroll step, for observers and lazy images. */
  scrollStepDelay: 60,
  /** {@link textFragmentUrl}: quotes with more words than this become `textStart,textEnd`. */
  fragmentMaxWords: 10,
  /** {@link textFragmentUrl}: words kept at each end of a long quote. */
  fragmentEdgeWords: 4,
} as const;
