export { Answerer, toSearchResults } from './answerer.js';
export { completeChat, streamChat } from './complete.js';
export type {
  AnswererDeps,
  FetchAttachmentFn,
  Retrieval,
  RetrieveFn,
  RetrieveOptions,
} from './answerer.js';
export type { CitedSentence, Passage } from './compose.js';
export { selectSentences, withMarker } from './compose.js';
export { OutputLimiter } from './output-limiter.js';
export type { FinishReason } from './output-limiter.js';
export { llmConfigFromEnv, groundedPrompt } from './llm.js';
export type { LlmConfig } from './llm.js';
export { MODEL_PROFILES } from './profiles.js';
