import { z } from 'zod';

/**
 * `context` of a session create body: start the session with saved context `id`; with
 * `persist: true` the session's state is saved back into it when the session is stopped or
 * expires (not when its browser crashed: a half-written profile must not replace a good one).
 */
export const BrowserSessionContextSchema = z.strictObject({
  id: z
    .string()
    .min(1, { error: 'must not be empty' })
    .max(64, { error: 'must be at most 64 characters' }),
  persist: z.boolean().optional(),
});

/** Body of `POST /v1/browser/contexts`: nothing, or `{}`. */
export const BrowserContextCreateRequestSchema = z.strictObject({});

/**
 * A saved browser context (cookies, localStorage, IndexedDB). Times are integer Unix seconds;
 * `updated_at` is null until a session saved into it; `session_id` names the running session
 * that holds it, if any.
 */
export const BrowserContextSchema = z.looseObject({
  id: z.string(),
  created_at: z.int(),
  updated_at: z.int().nullish(),
  size_bytes: z.int().optional(),
  session_id: z.string().nullish(),
});

/** Response of `GET /v1/browser/contexts`: the caller's contexts, newest first. */
export const BrowserContextListResponseSchema = z.looseObject({
  contexts: z.array(BrowserContextSchema),
});

/** Session create `context` field. */
export type BrowserSessionContext = z.input<typeof BrowserSessionContextSchema>;
/** Context create body. */
export type BrowserContextCreateRequest = z.input<typeof BrowserContextCreateRequestSchema>;
/** A saved context. */
export type BrowserContext = z.infer<typeof BrowserContextSchema>;
/** Context list response. */
export type BrowserContextListResponse = z.infer<typeof BrowserContextListResponseSchema>;
