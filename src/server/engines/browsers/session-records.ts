// What a create's params decide (timeouts, whether its browser may be recycled), the record a new
// session is stored as, and the record the API answers for a stored row.
import type { Principal } from '../../context.js';
import { NotFound } from '../../errors.js';
import type { ServerConfig } from '../../options.js';
import type { Instances } from '../../storage/instances.js';
import { renderRecord } from './browser.js';
import type { LiveViews } from './live/live-views.js';
import type { Recordings } from './recording/recordings.js';
import type { Live } from './session-live.js';
import type { SessionRow } from './store.js';
import type { BrowserSessionRecord, CreateSessionParams } from './types.js';

/** True when a wiped browser can serve a create with `params` (see recycle.ts). */
export function wipeable(params: CreateSessionParams): boolean {
  return !(params.viewport || params.user_agent || params.context || params.record);
}

/** The idle timeout and max duration of a new session, in ms (0: none). */
export function sessionTimeouts(
  params: CreateSessionParams,
  config: ServerConfig,
): { idleTimeoutMs: number; maxDurationMs: number } {
  const idleTimeoutMs = (params.idle_timeout_s ?? config.defaultIdleTimeoutMs / 1000) * 1000;
  const maxDurationMs = (params.max_duration_s ?? config.defaultMaxDurationMs / 1000) * 1000;
  return { idleTimeoutMs, maxDurationMs };
}

/** The stored record of a session started now on this instance. */
export function newSessionRow(
  live: Live,
  owner: Principal,
  params: CreateSessionParams,
  now: number,
  instances: Instances,
): SessionRow {
  const { browser } = live;
  return {
    id: live.id,
    user_id: owner.userId,
    key_id: owner.keyId,
    status: 'running',
    token_hash: live.tokenHash,
    created_at: now,
    expires_at: live.deadline,
    ended_at: null,
    end_reason: null,
    tags: JSON.stringify(params.tags ?? []),
    profile_dir: browser.profileDir,
    pid: browser.chromium.pid ?? null,
    instance_id: instances.id,
    instance_url: instances.internalUrl,
    context_id: live.context?.lease.contextId ?? null,
  };
}

/**
 * The API's record of a stored session: its connect token and live view while it runs here, its
 * recording's replay page when there is one.
 */
export function renderSession(
  row: SessionRow,
  live: Live | undefined,
  baseUrl: string,
  liveViews: LiveViews,
  recordings: Recordings,
): BrowserSessionRecord {
  const running = live !== undefined && !live.ending;
  const record = renderRecord(row, baseUrl, running ? live.token : undefined);
  const liveUrl = running ? liveViews.url(row.id) : undefined;
  if (liveUrl) record.live_url = liveUrl;
  if (recordings.exists(row.id, row.user_id)) record.recording_url = recordings.htmlUrl(row.id);
  return record;
}

/** The 404 of a session that is unknown, another user's, or ended long ago. */
export function notFound(id: string): NotFound {
  return new NotFound(`Browser session not found: ${id}`, { code: 'session_not_found' });
}
