import { z } from 'zod';

/** One rrweb event of a recording: rrweb's `{type, data, timestamp}` plus the tab it came from. */
export const BrowserRecordingEventSchema = z.looseObject({
  type: z.int(),
  data: z.unknown(),
  /** ms since the epoch. */
  timestamp: z.number(),
  /** 1, 2, ... in the order the tabs were opened; 0 for the server's own markers. */
  tab: z.int(),
});

/**
 * A page URL marker: tab `tab` showed `url` from `offset_ms` (ms from the recording's start, when
 * the document's full snapshot was taken).
 */
export const BrowserRecordingPageSchema = z.looseObject({
  tab: z.int(),
  url: z.string(),
  offset_ms: z.number(),
});

/**
 * Response of `GET /v1/browser/sessions/{id}/recording`: the rrweb events of a session created
 * with `record: true`, ordered by time across navigations, and its page URL markers. Times are ms
 * since the epoch; `status` is `recording` while the session runs, `complete` after.
 */
export const BrowserRecordingSchema = z.looseObject({
  session_id: z.string(),
  status: z.enum(['recording', 'complete']),
  started_at: z.number(),
  ended_at: z.number().nullable(),
  truncated: z.boolean(),
  pages: z.array(BrowserRecordingPageSchema),
  events: z.array(BrowserRecordingEventSchema),
});

/** A recorded rrweb event. */
export type BrowserRecordingEvent = z.infer<typeof BrowserRecordingEventSchema>;
/** A page URL marker of a recording. */
export type BrowserRecordingPage = z.infer<typeof BrowserRecordingPageSchema>;
/** A session recording. */
export type BrowserRecording = z.infer<typeof BrowserRecordingSchema>;
