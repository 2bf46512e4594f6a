import { z } from 'zod';
import {
  DateFilterSchema,
  SearchDomainFilterSchema,
  SearchLanguageFilterSchema,
  SearchModeSchema,
  SearchRecencyFilterSchema,
  intRange,
  numberRange,
  parseFilterDate,
} from './fields.js';
import { ChatModelSchema, SearchContextSizeSchema } from './models.js';

export { parseFilterDate };

/** Most `max_tokens` a chat request may ask for (spec 8). */
export const MAX_CHAT_MAX_TOKENS = 128_000;

/** Message roles (spec 2.2). */
export const CHAT_ROLES = ['system', 'user', 'assistant', 'tool'] as const;
/** Schema for a message role. */
export const ChatRoleSchema = z.enum(CHAT_ROLES);

const UrlObject = z.object({ url: z.string() });

/** `{type: 'text', text}` content chunk. */
export const TextChunkSchema = z.object({ type: z.literal('text'), text: z.string() });
/** `{type: 'image_url', image_url: {url} | string}` content chunk. */
export const ImageUrlChunkSchema = z.object({
  type: z.literal('image_url'),
  image_url: z.union([UrlObject, z.string()]),
});
/** `{type: 'file_url', file_url: {url} | string, file_name?}` content chunk (PDF, DOC, DOCX, TXT, RTF). */
export const FileUrlChunkSchema = z.object({
  type: z.literal('file_url'),
  file_url: z.union([UrlObject, z.string()]),
  file_name: z.string().nullish(),
});
/** `{type: 'pdf_url', pdf_url: {url} | string}` content chunk. */
export const PdfUrlChunkSchema = z.object({
  type: z.literal('pdf_url'),
  pdf_url: z.union([UrlObject, z.string()]),
});
/** `{type: 'video_url', video_url: {url, frame_interval} | string}`; `frame_interval` @default 25 */
export const VideoUrlChunkSchema = z.object({
  type: z.literal('video_url'),
  video_url: z.union([
    z.object({ url: z.string(), frame_interval: z.union([z.string(), z.int()]).default(25) }),
    z.string(),
  ]),
});

/** One content chunk, discriminated on `type` (spec 2.2). */
export const ContentChunkSchema = z.discriminatedUnion('type', [
  TextChunkSchema,
  ImageUrlChunkSchema,
  FileUrlChunkSchema,
  PdfUrlChunkSchema,
  VideoUrlChunkSchema,
]);

/** Message content: a string, an array of chunks, or null. */
export const MessageContentSchema = z.union([z.string(), z.array(ContentChunkSchema)]).nullable();

/** A request message. The `content` key is required; its value may be null (spec 2.2). */
export const ChatMessageSchema = z.object({ role: ChatRoleSchema, content: MessageContentSchema });

/** `response_format: {type: 'text'}`. */
export const ResponseFormatTextSchema = z.object({ type: z.literal('text') });
/** `response_format: {type: 'json_schema', json_schema: {schema, name, description, strict}}`. */
export const ResponseFormatJSONSchemaSchema = z.object({
  type: z.literal('json_schema'),
  json_schema: z.object({
    schema: z.record(z.string(), z.unknown()),
    name: z.string().nullable().default('schema'),
    description: z.string().nullish(),
    strict: z.boolean().nullable().default(true),
  }),
});
/** `response_format`, discriminated on `type` (spec 2.3). @default text output */
export const ResponseFormatSchema = z.discriminatedUnion('type', [
  ResponseFormatTextSchema,
  ResponseFormatJSONSchemaSchema,
]);

/** `web_search_options.user_location` (all fields nullable and optional). */
export const UserLocationSchema = z.object({
  latitude: numberRange(-90, 90).nullish(),
  longitude: numberRange(-180, 180).nullish(),
  country: z.string().nullish(),
  city: z.string().nullish(),
  region: z.string().nullish(),
});

/** `search_type` values. */
export const SEARCH_TYPES = ['fast', 'pro', 'auto'] as const;

/** `web_search_options` (spec 2.4). */
export const WebSearchOptionsSchema = z.object({
  /** @default 'low' */
  search_context_size: SearchContextSizeSchema.default('low'),
  search_type: z.enum(SEARCH_TYPES).nullish(),
  user_location: UserLocationSchema.nullish(),
  /** @default false */
  image_results_enhanced_relevance: z.boolean().default(false),
});

/** `reasoning_effort` values. */
export const REASONING_EFFORTS = ['minimal', 'low', 'medium', 'high'] as const;
/** Schema for `reasoning_effort`. @default 'medium' for the deep-research model */
export const ReasoningEffortSchema = z.enum(REASONING_EFFORTS);

/** `stream_mode` values. */
export const STREAM_MODES = ['full', 'concise'] as const;

/**
 * Chat completion request (spec 2.1). Unknown keys are stripped, not rejected: generic OpenAI
 * clients send extras such as `n` or `stream_options`.
 */
export const ChatCompletionRequestSchema = z.object({
  model: ChatModelSchema,
  messages: z.array(ChatMessageSchema).min(1, { error: 'must contain at least one message' }),
  max_tokens: intRange(0, MAX_CHAT_MAX_TOKENS, true).nullish(),
  /** @default false */
  stream: z.boolean().nullable().default(false),
  /** @default 'full' */
  stream_mode: z.enum(STREAM_MODES).default('full'),
  stop: z.union([z.string(), z.array(z.string())]).nullish(),
  temperature: numberRange(0, 2).nullish(),
  top_p: numberRange(0, 1).nullish(),
  response_format: ResponseFormatSchema.nullish(),
  web_search_options: WebSearchOptionsSchema.optional(),
  search_mode: SearchModeSchema.nullish(),
  return_images: z.boolean().nullish(),
  return_related_questions: z.boolean().nullish(),
  enable_search_classifier: z.boolean().nullish(),
  disable_search: z.boolean().nullish(),
  search_domain_filter: SearchDomainFilterSchema.nullish(),
  search_language_filter: SearchLanguageFilterSchema.nullish(),
  search_recency_filter: SearchRecencyFilterSchema.nullish(),
  search_after_date_filter: DateFilterSchema.nullish(),
  search_before_date_filter: DateFilterSchema.nullish(),
  last_updated_after_filter: DateFilterSchema.nullish(),
  last_updated_before_filter: DateFilterSchema.nullish(),
  image_format_filter: z.array(z.string()).nullish(),
  image_domain_filter: z.array(z.string()).nullish(),
  reasoning_effort: ReasoningEffortSchema.nullish(),
  language_preference: z.string().nullish(),
});

// ---- Response side: lenient (unknown keys pass through) because the hosted service adds fields.

/** A message as it appears in responses: lenient on roles and chunk shapes. */
export const ResponseMessageSchema = z.looseObject({
  role: z.string(),
  content: z.union([z.string(), z.array(z.looseObject({ type: z.string() }))]).nullish(),
});

/** A streamed delta: every key optional. */
export const DeltaMessageSchema = z.looseObject({
  role: z.string().optional(),
  content: z.union([z.string(), z.array(z.looseObject({ type: z.string() }))]).nullish(),
});

/** One choice of a completion (spec 2.5). `finish_reason` is `stop` or `length` when set. */
export const ChoiceSchema = z.looseObject({
  index: z.int(),
  finish_reason: z.string().nullish(),
  message: ResponseMessageSchema,
  delta: DeltaMessageSchema,
});

/** One search result (spec 2.5). `snippet` @default '' · `source` @default 'web' */
export const SearchResultSchema = z.looseObject({
  title: z.string(),
  url: z.string(),
  date: z.string().nullish(),
  last_updated: z.string().nullish(),
  snippet: z.string().default(''),
  source: z.string().default('web'),
});

/** One image result (spec 2.5). */
export const ImageResultSchema = z.looseObject({
  image_url: z.string(),
  origin_url: z.string(),
  title: z.string(),
  width: z.int(),
  height: z.int(),
});

/** Cost of a completion in USD (spec 2.5). */
export const CostSchema = z.looseObject({
  input_tokens_cost: z.number(),
  output_tokens_cost: z.number(),
  total_cost: z.number(),
  reasoning_tokens_cost: z.number().nullish(),
  request_cost: z.number().nullish(),
  citation_tokens_cost: z.number().nullish(),
  search_queries_cost: z.number().nullish(),
});

/** Token usage of a completion (spec 2.5). */
export const UsageInfoSchema = z.looseObject({
  prompt_tokens: z.int(),
  completion_tokens: z.int(),
  total_tokens: z.int(),
  cost: CostSchema,
  search_context_size: z.string().nullish(),
  citation_tokens: z.int().nullish(),
  num_search_queries: z.int().nullish(),
  reasoning_tokens: z.int().nullish(),
});

/** Chat completion response (spec 2.5). `object` @default 'chat.completion' */
export const ChatCompletionResponseSchema = z.looseObject({
  id: z.string(),
  model: z.string(),
  created: z.int(),
  object: z.string().default('chat.completion'),
  choices: z.array(ChoiceSchema),
  usage: UsageInfoSchema.nullish(),
  citations: z.array(z.string()).nullish(),
  search_results: z.array(SearchResultSchema).nullish(),
  images: z.array(ImageResultSchema).nullish(),
  related_questions: z.array(z.string()).nullish(),
});

/** One choice of a streamed chunk: `delta` always; `finish_reason` on the last chunk. */
export const ChunkChoiceSchema = z.looseObject({
  index: z.int(),
  delta: DeltaMessageSchema,
  finish_reason: z.string().nullish(),
  message: ResponseMessageSchema.optional(),
});

/**
 * One SSE `data:` payload of a streamed completion (ARCHITECTURE "streaming"). `search_results` and
 * `citations` appear as soon as known; `usage` on the last chunk.
 */
export const ChatCompletionChunkSchema = z.looseObject({
  id: z.string(),
  model: z.string(),
  created: z.int(),
  object: z.literal('chat.completion.chunk'),
  choices: z.array(ChunkChoiceSchema),
  search_results: z.array(SearchResultSchema).nullish(),
  citations: z.array(z.string()).nullish(),
  images: z.array(ImageResultSchema).nullish(),
  related_questions: z.array(z.string()).nullish(),
  usage: UsageInfoSchema.nullish(),
});

/** One choice of the final `chat.completion.done` event: the whole message. */
export const DoneChoiceSchema = z.looseObject({
  index: z.int(),
  message: ResponseMessageSchema,
  finish_reason: z.string().nullish(),
  delta: DeltaMessageSchema.optional(),
});

/**
 * Final event of `stream_mode: concise`: the whole message with `search_results`, `citations` and
 * `usage`, sent after the delta chunks and before `[DONE]`.
 */
export const ChatCompletionDoneEventSchema = z.looseObject({
  id: z.string(),
  model: z.string(),
  created: z.int(),
  object: z.literal('chat.completion.done'),
  choices: z.array(DoneChoiceSchema),
  search_results: z.array(SearchResultSchema).nullish(),
  citations: z.array(z.string()).nullish(),
  images: z.array(ImageResultSchema).nullish(),
  related_questions: z.array(z.string()).nullish(),
  usage: UsageInfoSchema.nullish(),
});

/** A chat request as callers write it (defaults optional). */
export type ChatCompletionRequest = z.input<typeof ChatCompletionRequestSchema>;
/** A chat request after parsing (defaults applied). */
export type ChatCompletionRequestParsed = z.output<typeof ChatCompletionRequestSchema>;
/** A request message. */
export type ChatMessage = z.infer<typeof ChatMessageSchema>;
/** A message role. */
export type ChatRole = z.infer<typeof ChatRoleSchema>;
/** One content chunk. */
export type ContentChunk = z.input<typeof ContentChunkSchema>;
/** `response_format`. */
export type ResponseFormat = z.input<typeof ResponseFormatSchema>;
/** `web_search_options` as callers write it. */
export type WebSearchOptions = z.input<typeof WebSearchOptionsSchema>;
/** `web_search_options.user_location`. */
export type UserLocation = z.infer<typeof UserLocationSchema>;
/** `reasoning_effort`. */
export type ReasoningEffort = z.infer<typeof ReasoningEffortSchema>;
/** Chat completion response. */
export type ChatCompletionResponse = z.infer<typeof ChatCompletionResponseSchema>;
/** A response message. */
export type ResponseMessage = z.infer<typeof ResponseMessageSchema>;
/** A streamed delta. */
export type DeltaMessage = z.infer<typeof DeltaMessageSchema>;
/** One choice. */
export type Choice = z.infer<typeof ChoiceSchema>;
/** One search result. */
export type SearchResult = z.infer<typeof SearchResultSchema>;
/** One image result. */
export type ImageResult = z.infer<typeof ImageResultSchema>;
/** Token usage. */
export type UsageInfo = z.infer<typeof UsageInfoSchema>;
/** Cost in USD. */
export type Cost = z.infer<typeof CostSchema>;
/** One streamed chunk. */
export type ChatCompletionChunk = z.infer<typeof ChatCompletionChunkSchema>;
/** One choice of a streamed chunk. */
export type ChunkChoice = z.infer<typeof ChunkChoiceSchema>;
/** Final event of concise streaming. */
export type ChatCompletionDoneEvent = z.infer<typeof ChatCompletionDoneEventSchema>;
