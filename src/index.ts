// Public surface of `svc-toolkit`: explicit named exports, no `export *`.

export { connect } from './connect.js';
export type { Connection, ConnectOptions } from './connect.js';

export {
  Client,
  DEFAULTS as CLIENT_DEFAULTS,
  readClientEnv,
  Stream,
  parseSSE,
  POLL_DEFAULTS,
} from './client/index.js';
export type {
  ClientOptions,
  ClientEnv,
  RequestOptions,
  Logger,
  SSEEvent,
  PollOptions,
  ChatCompletionCreateParamsNonStreaming,
  ChatCompletionCreateParamsStreaming,
  ChatCompletionStreamEvent,
} from './client/index.js';

export {
  ERROR_CODES,
  SvcError,
  APIError,
  ValidationError,
  AuthenticationError,
  PermissionDeniedError,
  NotFoundError,
  ConflictError,
  RateLimitError,
  InternalServerError,
  BadRequestError,
  ConnectionError,
  TimeoutError,
  AbortError,
  ResponseShapeError,
  SessionError,
} from './errors.js';
export type { ErrorCode, ValidationIssue, SessionErrorReason } from './errors.js';

export { decodeInt8, decodeBinary, unpackBits, countTokens } from './protocol/index.js';
export type {
  ChatCompletionRequest,
  ChatCompletionResponse,
  ChatCompletionChunk,
  ChatCompletionDoneEvent,
  ChatMessage,
  ChatModel,
  SearchResult,
  ImageResult,
  UsageInfo,
  Cost,
  AsyncChatJob,
  AsyncChatListResponse,
  SearchRequest,
  SearchResponse,
  EmbeddingsRequest,
  EmbeddingsResponse,
  ContextualizedEmbeddingsRequest,
  ContextualizedEmbeddingsResponse,
  BrowserSession,
  BrowserSessionCreateRequest,
  BrowserSessionListResponse,
} from './protocol/index.js';
