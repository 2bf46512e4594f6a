import { z } from 'zod';
import { ChatCompletionRequestSchema, ChatCompletionResponseSchema } from './chat.js';
import { intRange } from './fields.js';
import { ChatModelSchema } from './models.js';

/** The only model the async endpoint runs (ARCHITECTURE "async create"). */
export const ASYNC_CHAT_MODEL = 'core-deep-research';

/**
 * Body of `POST /async/chat/completions`: `{request, idempotency_key?}`. `request.model` must be
 * `core-deep-research` (issue at `["request","model"]`). The same `idempotency_key` within 24 h
 * returns the same job.
 */
export const AsyncChatCreateRequestSchema = z.object({
  request: ChatCompletionRequestSchema.extend({
    model: ChatModelSchema.refine((m) => m === ASYNC_CHAT_MODEL, {
      error: `must be ${ASYNC_CHAT_MODEL} for asynchronous chat completions`,
    }),
  }),
  idempotency_key: z
    .string()
    .min(1, { error: 'must not be empty' })
    .max(256, { error: 'must be at most 256 characters' })
    .optional(),
});

/** Async job states: `CREATED` -> `IN_PROGRESS` -> `COMPLETED` | `FAILED`. */
export const ASYNC_CHAT_STATUSES = ['CREATED', 'IN_PROGRESS', 'COMPLETED', 'FAILED'] as const;
/** Schema for an async job state. */
export const AsyncChatStatusSchema = z.enum(ASYNC_CHAT_STATUSES);

/** Query of `GET /async/chat/completions`. `limit` (1..100) @default 20 */
export const AsyncChatListQuerySchema = z.object({
  limit: z.coerce.number().pipe(intRange(1, 100)).default(20),
  next_token: z.string().optional(),
});

/** One entry of the async job list (no `response`). */
export const AsyncChatListItemSchema = z.looseObject({
  id: z.string(),
  model: z.string(),
  status: AsyncChatStatusSchema,
  created_at: z.int(),
  started_at: z.int().nullish(),
  completed_at: z.int().nullish(),
  failed_at: z.int().nullish(),
});

/** An async chat job (spec 2.6): a list entry plus its error and response. Lenient. */
export const AsyncChatJobSchema = AsyncChatListItemSchema.extend({
  error_message: z.string().nullish(),
  response: ChatCompletionResponseSchema.nullish(),
});

/** Response of `GET /async/chat/completions`: newest first; `next_token` null on the last page. */
export const AsyncChatListResponseSchema = z.looseObject({
  requests: z.array(AsyncChatListItemSchema),
  next_token: z.string().nullable(),
});

/** Async create body as callers write it. */
export type AsyncChatCreateRequest = z.input<typeof AsyncChatCreateRequestSchema>;
/** Async create body after parsing. */
export type AsyncChatCreateRequestParsed = z.output<typeof AsyncChatCreateRequestSchema>;
/** Async job state. */
export type AsyncChatStatus = z.infer<typeof AsyncChatStatusSchema>;
/** Async job. */
export type AsyncChatJob = z.infer<typeof AsyncChatJobSchema>;
/** Async list query as callers write it. */
export type AsyncChatListQuery = z.input<typeof AsyncChatListQuerySchema>;
/** Async list query after parsing. */
export type AsyncChatListQueryParsed = z.output<typeof AsyncChatListQuerySchema>;
/** One async list entry. */
export type AsyncChatListItem = z.infer<typeof AsyncChatListItemSchema>;
/** Async list response. */
export type AsyncChatListResponse = z.infer<typeof AsyncChatListResponseSchema>;
