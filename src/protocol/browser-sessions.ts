import { z } from 'zod';
import { BrowserSessionContextSchema } from './browser-contexts.js';
import { intRange } from './fields.js';

/**
 * Body of `POST /v1/browser/sessions`. `{}` is valid; every field is optional. Timeouts are in
 * seconds on the wire (`idle_timeout_s` 5..86400, `max_duration_s` 10..86400).
 */
export const BrowserSessionCreateRequestSchema = z.object({
  idle_timeout_s: intRange(5, 86_400).optional(),
  max_duration_s: intRange(10, 86_400).optional(),
  viewport: z.object({ width: intRange(100, 7680), height: intRange(100, 4320) }).optional(),
  user_agent: z
    .string()
    .min(1, { error: 'must not be empty' })
    .max(512, { error: 'must be at most 512 characters' })
    .optional(),
  tags: z
    .array(
      z
        .string()
        .min(1, { error: 'must not be empty' })
        .max(64, { error: 'must be at most 64 characters' }),
    )
    .max(20, { error: 'must hold at most 20 tags' })
    .optional(),
  /** Start from a saved context (cookies, localStorage, IndexedDB); `persist` saves it back. */
  context: BrowserSessionContextSchema.optional(),
  /** Record the session (rrweb): `recording_url` on the record, replayable after it ends. */
  record: z.boolean().optional(),
  /** What a person with `live_url` may do: drive the tab (`interactive`) or only watch. */
  live_view: z.enum(['interactive', 'read-only']).optional(),
});

/** Session states: `running` -> `stopped` (deleted) | `expired` (timeout) | `failed` (browser died). */
export const BROWSER_SESSION_STATUSES = ['running', 'stopped', 'expired', 'failed'] as const;
/** Schema for a session state. */
export const BrowserSessionStatusSchema = z.enum(BROWSER_SESSION_STATUSES);

/**
 * A browser session record. Lenient: hosted records may lack `cdp_url` and carry extra fields.
 * Timestamps are integer unix seconds.
 */
export const BrowserSessionSchema = z.looseObject({
  session_id: z.uuid(),
  status: BrowserSessionStatusSchema,
  cdp_url: z.string().optional(),
  created_at: z.int(),
  expires_at: z.int().nullable(),
  tags: z.array(z.string()),
  ended_at: z.int().nullish(),
  end_reason: z.string().nullish(),
  /** While running: the live view page (its view token in the fragment; no API key needed). */
  live_url: z.string().nullish(),
  /** When recorded: the replay page of the recording (bearer key). */
  recording_url: z.string().nullish(),
});

/** Response of `GET /v1/browser/sessions`: the caller's sessions, newest first. */
export const BrowserSessionListResponseSchema = z.looseObject({
  sessions: z.array(BrowserSessionSchema),
});

/**
 * Response of `GET /v1/browser/capacity`, for schedulers and load balancers: `running` sessions,
 * the server's `limit`, creates `queued` (accepted, waiting for their browser), and how many more
 * creates would be accepted now (`available`; past it a create answers 429 with `Retry-After`).
 */
export const BrowserCapacitySchema = z.looseObject({
  running: z.int().nonnegative(),
  limit: z.int().nonnegative(),
  queued: z.int().nonnegative(),
  available: z.int().nonnegative(),
});

/** Session create body. */
export type BrowserSessionCreateRequest = z.input<typeof BrowserSessionCreateRequestSchema>;
/** Session state. */
export type BrowserSessionStatus = z.infer<typeof BrowserSessionStatusSchema>;
/** Session record. */
export type BrowserSession = z.infer<typeof BrowserSessionSchema>;
/** Session list response. */
export type BrowserSessionListResponse = z.infer<typeof BrowserSessionListResponseSchema>;
/** Capacity figures. */
export type BrowserCapacity = z.infer<typeof BrowserCapacitySchema>;
