// Public surface of the client layer: explicit named exports (no `export *`), for src/index.ts.
export { Client, DEFAULTS, readClientEnv } from './client.js';
export type { ClientOptions, ClientEnv, CallArgs } from './client.js';
export { Transport, TRANSPORT_DEFAULTS } from './transport.js';
export type {
  Logger,
  RequestOptions,
  TransportOptions,
  TransportRequest,
  QueryValue,
  APIResponse,
  StreamResponse,
} from './transport.js';
export { Stream, parseSSE, DEFAULT_IDLE_TIMEOUT_MS } from './sse.js';
export type { SSEEvent, ParseSSEOptions, StreamSource } from './sse.js';
export { validateRequest, parseResponse } from './validate.js';
export { Chat, Completions } from './resources/chat.js';
export type {
  ChatCompletionCreateParamsNonStreaming,
  ChatCompletionCreateParamsStreaming,
  ChatCompletionStreamEvent,
} from './resources/chat.js';
export {
  AsyncResource,
  AsyncChat,
  AsyncCompletions,
  POLL_DEFAULTS,
} from './resources/async-chat.js';
export type {
  PollOptions,
  CompletedAsyncChatJob,
  FailedAsyncChatJob,
  FinishedAsyncChatJob,
} from './resources/async-chat.js';
export {
  accumulateChatStream,
  ChatCompletionAccumulator,
  ChatCompletionStream,
} from './stream-accumulator.js';
export type {
  AccumulateOptions,
  AccumulatorUpdate,
  ChatStreamSources,
} from './stream-accumulator.js';
export { Search } from './resources/search.js';
export { Embeddings } from './resources/embeddings.js';
export { ContextualizedEmbeddings } from './resources/contextualized-embeddings.js';
export { Auth } from './resources/auth.js';
export { Browser, Sessions } from './resources/browser-sessions.js';
export { Contexts } from './resources/browser-contexts.js';
export { Downloads, Uploads } from './resources/browser-files.js';
export { Recording } from './resources/browser-recordings.js';
export { APIResource } from './resources/resource.js';
