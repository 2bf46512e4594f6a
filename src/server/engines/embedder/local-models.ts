import { EMBEDDING_MODELS } from '../../../protocol/models.js';
import type { EmbeddingModel } from '../../../protocol/models.js';

/** Parameters of one deterministic local embedding model. */
export interface LocalModelConfig {
  /** Spec model name. */
  readonly name: EmbeddingModel;
  /** Full output dimension (spec 4.10). */
  readonly dimensions: number;
  /**
   * Upper bounds of the nested ranges each feature is hashed into, one slot per range. Slot `j` lands
   * in `[0, slotRanges[j])`, so a matryoshka prefix of `d` dimensions keeps every slot whose range is
   * at most `d` plus a share of the wider ones: the leading dimensions carry the most signal.
   */
  readonly slotRanges: readonly number[];
  /** Weight of each slot; narrower (prefix) slots weigh more. */
  readonly slotWeights: readonly number[];
  /**
   * Salt of the slot hashes. Shared by the standard and contextualized model of one size (so a
   * one-chunk document equals the plain embedding) and different between sizes.
   */
  readonly seed: number;
  /** Smallest and largest character n-gram length (on the word padded with `<` and `>`). */
  readonly charMin: number;
  /** Largest character n-gram length. */
  readonly charMax: number;
  /** Also emit skip-bigrams (content word i with content word i+2). */
  readonly skipBigrams: boolean;
  /** Weight of a word unigram, bigram, skip-bigram and character n-gram feature. */
  readonly weights: {
    readonly unigram: number;
    readonly stopword: number;
    readonly bigram: number;
    readonly skipBigram: number;
    readonly charGram: number;
  };
  /** Weight of the document context when mixing a contextualized chunk (0 for standard models). */
  readonly contextAlpha: number;
}

const SMALL = {
  seed: 0x06b1e5ed,
  slotRanges: [128, 256, 512, 1024],
  slotWeights: [1, 0.85, 0.7, 0.6],
  charMin: 3,
  charMax: 5,
  skipBigrams: false,
  weights: { unigram: 1, stopword: 0.12, bigram: 0.55, skipBigram: 0, charGram: 0.2 },
} as const;

// The 4b variant reads more of each text: longer character n-grams, skip-bigrams, and one more slot
// per feature spread over its wider space (fewer collisions at full dimension).
const LARGE = {
  seed: 0x4b0c1a55,
  slotRanges: [128, 256, 640, 1280, 2560],
  slotWeights: [1, 0.85, 0.75, 0.65, 0.55],
  charMin: 3,
  charMax: 6,
  skipBigrams: true,
  weights: { unigram: 1, stopword: 0.12, bigram: 0.55, skipBigram: 0.3, charGram: 0.17 },
} as const;

function build(name: EmbeddingModel): LocalModelConfig {
  const info = EMBEDDING_MODELS[name];
  const base = info.dimensions > 1024 ? LARGE : SMALL;
  return {
    name,
    dimensions: info.dimensions,
    ...base,
    contextAlpha: info.contextualized ? 0.5 : 0,
  };
}

/** Local model parameters for every spec embedding model name. */
export const LOCAL_MODELS: Readonly<Record<EmbeddingModel, LocalModelConfig>> = {
  'svc-embed-v1-0.6b': build('svc-embed-v1-0.6b'),
  'svc-embed-v1-4b': build('svc-embed-v1-4b'),
  'svc-embed-context-v1-0.6b': build('svc-embed-context-v1-0.6b'),
  'svc-embed-context-v1-4b': build('svc-embed-context-v1-4b'),
};

/**
 * Look up a model and check a requested dimension against the spec range.
 * @throws RangeError for an unknown model or a dimension outside `[minDimensions, dimensions]`.
 */
export function resolveModel(model: string, dimensions?: number): [LocalModelConfig, number] {
  const cfg = (LOCAL_MODELS as Record<string, LocalModelConfig | undefined>)[model];
  if (!cfg) throw new RangeError(`unknown embedding model: ${model}`);
  const min = EMBEDDING_MODELS[cfg.name].minDimensions;
  const dims = dimensions ?? cfg.dimensions;
  if (!Number.isInteger(dims) || dims < min || dims > cfg.dimensions) {
    throw new RangeError(
      `dimensions for ${model} must be an integer from ${min} to ${cfg.dimensions}, got ${dims}`,
    );
  }
  return [cfg, dims];
}
