import type { SessionStatus } from './store.js';

/** Optional fields of a create request (the wire names of `BrowserSessionCreateRequest`). */
export interface CreateSessionParams {
  idle_timeout_s?: number | null | undefined;
  max_duration_s?: number | null | undefined;
  viewport?: { width: number; height: number } | null | undefined;
  user_agent?: string | null | undefined;
  tags?: string[] | null | undefined;
}

/** A session as the API returns it. Times are Unix seconds. */
export interface BrowserSessionRecord {
  session_id: string;
  status: SessionStatus;
  cdp_url: string;
  created_at: number;
  expires_at: number | null;
  tags: string[];
  ended_at?: number;
  end_reason?: string;
}

/** What the CDP proxy may present on an upgrade. */
export interface CdpCredentials {
  /** The `?token=` query value. */
  token?: string | undefined;
  /** The user behind a valid bearer header. */
  userId?: string | undefined;
}

/** The outcome of `BrowserSessions.authorizeCdp`. */
export type CdpAuthorization =
  { ok: true; wsEndpoint: string } | { ok: false; status: 401 | 404; message: string };

/** Engine options beyond `ServerContext.config`. */
export interface BrowserSessionsOptions {
  /** How long ended sessions stay readable. @default 600_000 */
  endedRetentionMs?: number;
}
