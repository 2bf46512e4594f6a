// Public surface of the protocol layer: explicit named exports (no `export *`), so the API is
// reviewed here. Schemas and constants first, then types, per module.

export {
  CHAT_MODELS,
  ChatModelSchema,
  SEARCH_CONTEXT_SIZES,
  SearchContextSizeSchema,
  STANDARD_EMBEDDING_MODELS,
  CONTEXTUALIZED_EMBEDDING_MODELS,
  StandardEmbeddingModelSchema,
  ContextualizedEmbeddingModelSchema,
  EMBEDDING_MODELS,
  CHAT_PRICES,
  computeChatCost,
  computeEmbeddingCost,
} from './models.js';
export type {
  ChatModel,
  SearchContextSize,
  StandardEmbeddingModel,
  ContextualizedEmbeddingModel,
  EmbeddingModel,
  EmbeddingModelInfo,
  ChatPrice,
  ChatUsageCounts,
  EmbeddingCost,
} from './models.js';
export {
  MAX_TOKENS_PER_TEXT,
  MAX_TOKENS_PER_REQUEST,
  utf8ByteLength,
  countTokens,
  withinTokenLimit,
  truncateToTokens,
} from './tokens.js';
export {
  encodeInt8,
  decodeInt8,
  encodeBinary,
  decodeBinary,
  unpackBits,
  truncateNormalized,
} from './encoding.js';
export {
  parseFilterDate,
  DateFilterSchema,
  SEARCH_RECENCY_FILTERS,
  SearchRecencyFilterSchema,
  SEARCH_MODES,
  SearchModeSchema,
  MAX_DOMAIN_FILTERS,
  SearchDomainFilterSchema,
  SearchLanguageFilterSchema,
} from './fields.js';
export type { SearchRecencyFilter, SearchMode } from './fields.js';
export {
  MAX_CHAT_MAX_TOKENS,
  CHAT_ROLES,
  ChatRoleSchema,
  TextChunkSchema,
  ImageUrlChunkSchema,
  FileUrlChunkSchema,
  PdfUrlChunkSchema,
  VideoUrlChunkSchema,
  ContentChunkSchema,
  MessageContentSchema,
  ChatMessageSchema,
  ResponseFormatTextSchema,
  ResponseFormatJSONSchemaSchema,
  ResponseFormatSchema,
  UserLocationSchema,
  SEARCH_TYPES,
  WebSearchOptionsSchema,
  REASONING_EFFORTS,
  ReasoningEffortSchema,
  STREAM_MODES,
  ChatCompletionRequestSchema,
  ResponseMessageSchema,
  DeltaMessageSchema,
  ChoiceSchema,
  SearchResultSchema,
  ImageResultSchema,
  CostSchema,
  UsageInfoSchema,
  ChatCompletionResponseSchema,
  ChunkChoiceSchema,
  ChatCompletionChunkSchema,
  DoneChoiceSchema,
  ChatCompletionDoneEventSchema,
} from './chat.js';
export type {
  ChatCompletionRequest,
  ChatCompletionRequestParsed,
  ChatMessage,
  ChatRole,
  ContentChunk,
  ResponseFormat,
  WebSearchOptions,
  UserLocation,
  ReasoningEffort,
  ChatCompletionResponse,
  ResponseMessage,
  DeltaMessage,
  Choice,
  SearchResult,
  ImageResult,
  UsageInfo,
  Cost,
  ChatCompletionChunk,
  ChunkChoice,
  ChatCompletionDoneEvent,
} from './chat.js';
export {
  ASYNC_CHAT_MODEL,
  AsyncChatCreateRequestSchema,
  ASYNC_CHAT_STATUSES,
  AsyncChatStatusSchema,
  AsyncChatJobSchema,
  AsyncChatListQuerySchema,
  AsyncChatListItemSchema,
  AsyncChatListResponseSchema,
} from './async-chat.js';
export type {
  AsyncChatCreateRequest,
  AsyncChatCreateRequestParsed,
  AsyncChatStatus,
  AsyncChatJob,
  AsyncChatListQuery,
  AsyncChatListQueryParsed,
  AsyncChatListItem,
  AsyncChatListResponse,
} from './async-chat.js';
export {
  MAX_SEARCH_QUERIES,
  SearchRequestSchema,
  SearchResultItemSchema,
  SearchResponseSchema,
} from './search.js';
export type {
  SearchRequest,
  SearchRequestParsed,
  SearchResultItem,
  SearchResponse,
} from './search.js';
export {
  MAX_EMBEDDING_TEXTS,
  MAX_EMBEDDING_DOCUMENTS,
  MAX_EMBEDDING_CHUNKS,
  EMBEDDING_ENCODINGS,
  EmbeddingEncodingSchema,
  EmbeddingsRequestSchema,
  ContextualizedEmbeddingsRequestSchema,
  EmbeddingObjectSchema,
  EmbeddingsResponseSchema,
  ContextualizedEmbeddingDocumentSchema,
  ContextualizedEmbeddingsResponseSchema,
} from './embeddings.js';
export type {
  EmbeddingEncoding,
  EmbeddingsRequest,
  EmbeddingsRequestParsed,
  ContextualizedEmbeddingsRequest,
  ContextualizedEmbeddingsRequestParsed,
  EmbeddingObject,
  EmbeddingsResponse,
  ContextualizedEmbeddingDocument,
  ContextualizedEmbeddingsResponse,
} from './embeddings.js';
export {
  BrowserSessionCreateRequestSchema,
  BROWSER_SESSION_STATUSES,
  BrowserSessionStatusSchema,
  BrowserSessionSchema,
  BrowserSessionListResponseSchema,
  BrowserCapacitySchema,
} from './browser-sessions.js';
export type {
  BrowserSessionCreateRequest,
  BrowserSessionStatus,
  BrowserSession,
  BrowserSessionListResponse,
  BrowserCapacity,
} from './browser-sessions.js';
export {
  BrowserSessionContextSchema,
  BrowserContextCreateRequestSchema,
  BrowserContextSchema,
  BrowserContextListResponseSchema,
} from './browser-contexts.js';
export type {
  BrowserSessionContext,
  BrowserContextCreateRequest,
  BrowserContext,
  BrowserContextListResponse,
} from './browser-contexts.js';
export {
  MAX_FILE_NAME_LENGTH,
  SessionFileNameSchema,
  BrowserUploadRequestSchema,
  BrowserUploadSchema,
  BrowserDownloadSchema,
  BrowserDownloadListResponseSchema,
} from './browser-files.js';
export type {
  BrowserUploadRequest,
  BrowserUpload,
  BrowserDownload,
  BrowserDownloadListResponse,
} from './browser-files.js';
export {
  BrowserRecordingEventSchema,
  BrowserRecordingPageSchema,
  BrowserRecordingSchema,
} from './browser-recordings.js';
export type {
  BrowserRecordingEvent,
  BrowserRecordingPage,
  BrowserRecording,
} from './browser-recordings.js';
export { RevokeAuthTokenRequestSchema, RevokeAuthTokenResponseSchema } from './auth.js';
export type { RevokeAuthTokenRequest, RevokeAuthTokenResponse } from './auth.js';
export {
  ValidationErrorDetailSchema,
  ValidationErrorBodySchema,
  ErrorBodySchema,
  ERROR_TYPES,
} from './errors.js';
export type {
  ErrorStatus,
  ValidationErrorDetail,
  ValidationErrorBody,
  ErrorBody,
} from './errors.js';
export { toValidationErrorBody, parseRequest } from './validation.js';
export type { ValidationRoot, ParseResult } from './validation.js';
export { ALL_ROUTES, ROUTES, routePath } from './routes.js';
export type { AnyRouteId, RouteId, RouteOf, RoutePathParams } from './routes.js';
export { honoPath, pathPattern } from './route-types.js';
export type {
  BodyIn,
  BodyOut,
  HttpMethod,
  PathOut,
  QueryIn,
  QueryOut,
  RateGroup,
  ResponseIn,
  ResponseOut,
  RouteAuth,
  RouteDef,
  RouteKind,
} from './route-types.js';
export { ModelListResponseSchema, ModelObjectSchema, SERVICE_ROUTES } from './service-routes.js';
export type { ModelListResponse, ModelObject } from './service-routes.js';
export { LiveInputRequestSchema } from './browser-live.js';
export type { LiveInput } from './browser-live.js';
