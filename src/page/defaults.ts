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
  /** {@link findPassage}: least cosine similarity to accept an embedding match. */
  minEmbeddingScore: 0.5,
  /** {@link findPassage}: bound on one `embed` call. */
  embedTimeout: 30_000,
  /** {@link findPassage}: most characters in one chunk sent to `embed`. */
  chunkChars: 600,
  /** {@link findPassage}: most chunks sent to `embed` for one page. */
  maxChunks: 256,
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
