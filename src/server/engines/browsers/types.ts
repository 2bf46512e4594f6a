import type { SessionStatus } from './store.js';

/** Optional fields of a create request (the wire names of `BrowserSessionCreateRequest`). */
export interface CreateSessionParams {
  idle_timeout_s?: number | null | undefined;
  max_duration_s?: number | null | undefined;
  viewport?: { width: number; height: number } | null | undefined;
  user_agent?: string | null | undefined;
  tags?: string[] | null | undefined;
  /** Saved context to start from; `persist` saves the session's state back into it. */
  context?: { id: string; persist?: boolean | undefined } | null | undefined;
  /** Record the session with rrweb (see `recording/`). */
  record?: boolean | null | undefined;
  /** What the `live_url` viewer may do. @default 'interactive' */
  live_view?: 'interactive' | 'read-only' | null | undefined;
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
  /** While running: the live view page, its view token in the fragment. */
  live_url?: string;
  /** When recorded: the recording's replay page (`.../recording.html`, bearer key). */
  recording_url?: string;
}

/** What the CDP proxy may present on an upgrade. */
export interface CdpCredentials {
  /** The `?token=` query value. */
  token?: string | undefined;
  /** The user behind a valid bearer header. */
  userId?: string | undefined;
  /** The instance-to-instance credential of an upgrade forwarded by another instance. */
  forward?: string | undefined;
}

/** The outcome of `BrowserSessions.authorizeCdp`. */
export type CdpAuthorization =
  | {
      ok: true;
      wsEndpoint: string;
      /** Where the session's downloads go: the proxy points a client's download path here. */
      downloadPath?: string;
      /** Headers of the upstream upgrade (the forwarding credential). */
      headers?: Record<string, string>;
      /** The browser runs on another instance: `wsEndpoint` is that instance's `/cdp` route. */
      forwarded?: boolean;
    }
  | { ok: false; status: 401 | 404; message: string };

/** Engine options beyond `ServerContext.config`. */
export interface BrowserSessionsOptions {
  /** How long ended sessions stay readable. @default 600_000 */
  endedRetentionMs?: number;
}
