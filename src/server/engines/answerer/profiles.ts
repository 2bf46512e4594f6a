import type { ChatModel, ReasoningEffort, SearchContextSize } from '../../../protocol/index.js';

/** How a model reads and writes: the differences users expect between the four models. */
export interface ModelProfile {
  /** Sources retrieved per search, by `search_context_size`. */
  sources: Record<SearchContextSize, number>;
  /** Sentences in the answer (per sub-question for deep research). */
  sentences: number;
  /** Sentences taken from one source at most. */
  perSource: number;
  /** Emits its reasoning in a `<think>` block and counts `reasoning_tokens`. */
  thinks: boolean;
  /** Sub-questions searched separately, by `reasoning_effort`; 1 for single-search models. */
  subQueries: Record<ReasoningEffort, number>;
}

const single = { minimal: 1, low: 1, medium: 1, high: 1 } as const;

/** The four chat models. `core-pro` reads more sources; deep research decomposes the question. */
export const MODEL_PROFILES: Readonly<Record<ChatModel, ModelProfile>> = {
  core: {
    sources: { low: 5, medium: 8, high: 10 },
    sentences: 3,
    perSource: 1,
    thinks: false,
    subQueries: single,
  },
  'core-pro': {
    sources: { low: 10, medium: 15, high: 20 },
    sentences: 6,
    perSource: 2,
    thinks: false,
    subQueries: single,
  },
  'core-reasoning-pro': {
    sources: { low: 8, medium: 10, high: 15 },
    sentences: 5,
    perSource: 2,
    thinks: true,
    subQueries: single,
  },
  'core-deep-research': {
    sources: { low: 8, medium: 10, high: 12 },
    sentences: 3,
    perSource: 2,
    thinks: true,
    subQueries: { minimal: 1, low: 2, medium: 3, high: 5 },
  },
};
