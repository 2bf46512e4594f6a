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
  ChatCompletionStream,
  ChatCompletionAccumulator,
  accumulateChatStream,
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
  AccumulateOptions,
  AccumulatorUpdate,
  ChatStreamSources,
  FinishedAsyncChatJob,
  CompletedAsyncChatJob,
  FailedAsyncChatJob,
} from './client/index.js';
export {
  decodeEmbedding,
  cosineSimilarity,
  hammingSimilarity,
  topK,
  truncateEmbedding,
} from './client/embedding-math.js';

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
  BrowserRecording,
  BrowserRecordingEvent,
  BrowserRecordingPage,
  BrowserCapacity,
  BrowserContext,
  BrowserContextCreateRequest,
  BrowserContextListResponse,
  BrowserSessionContext,
  BrowserDownload,
  BrowserDownloadListResponse,
  BrowserUpload,
  BrowserUploadRequest,
  AsyncChatCreateRequest,
  AsyncChatListQuery,
  RevokeAuthTokenRequest,
  RevokeAuthTokenResponse,
} from './protocol/index.js';

export { SessionManager, SessionPool, Session, SESSION_DEFAULTS } from './sessions/index.js';
export type {
  DriverName,
  ProviderName,
  SessionManagerOptions,
  CreateSessionOptions,
  SessionLostEvent,
} from './sessions/index.js';

// Page actions, as the recipes use them.
export {
  toPageLike,
  visit,
  readPage,
  findPassage,
  findPassages,
  highlight,
  clearHighlights,
  capture,
  fullPageScreenshot,
  savePdf,
  recordHar,
  textFragmentUrl,
  isCodeIndex,
} from './page/index.js';
export type {
  AnyPage,
  VisitResult,
  ReadPageResult,
  PageLink,
  PageMetadata,
  PassageMatch,
  FindPassagesOptions,
  EmbedFn,
  MatchMethod,
  FullPageResult,
  Har,
} from './page/index.js';

// Claim verification: does a located passage support the claim, contradict it, or neither.
export {
  verifyClaim,
  statedKeyTerms,
  wordSwapsOnly,
  statementsOf,
  analyze as analyzeClaim,
  extractQuantities,
  loadWordNet,
  CLAIM_DEFAULTS,
} from './verify/index.js';
export type {
  ClaimVerdict,
  ClaimVerification,
  Conflict,
  ConflictKind,
  VerifyClaimOptions,
  Analysis as ClaimAnalysis,
  Quantity,
} from './verify/index.js';

// The command framework of `svc`, for scripts that want the same flags, help and exit codes.
export { defineCommand, runCommand } from './cli/command.js';
export type {
  Command,
  CommandContext,
  CommandSpec,
  OptionSpec,
  OptionSpecs,
  OptionValues,
  SessionsOptions,
} from './cli/command.js';
export { EXIT, UsageError } from './cli/common.js';
