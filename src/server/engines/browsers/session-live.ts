// A running session as the engine holds it in memory (its browser, connect token, CDP clients and
// server link), the idle and max-duration timers that end it, and when the next one frees a slot.
import type { Browser } from './browser.js';
import type { ContextLease } from './contexts.js';
import type { CdpConnection } from './files/cdp-connection.js';
import type { SessionFiles } from './files/session-files.js';

/** Longest delay `setTimeout` accepts. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/** A running session: what its record does not hold. */
export interface Live {
  id: string;
  userId: string;
  token: string;
  tokenHash: Buffer;
  browser: Browser;
  idleTimeoutMs: number;
  deadline: number | null;
  idleSince: number | null;
  clients: Set<() => void>;
  idleTimer?: NodeJS.Timeout;
  maxTimer?: NodeJS.Timeout;
  ending: boolean;
  /** The server's own CDP connection to the browser (downloads, cookies). */
  cdp: CdpConnection | undefined;
  files: SessionFiles;
  context: { lease: ContextLease; persist: boolean } | undefined;
  /** Set while the session's context is being saved. */
  saved?: Promise<void>;
  /** Origins the session used, when its browser may be recycled for its user (see recycle.ts). */
  origins?: ReadonlySet<string> | undefined;
}

/** Ends a session that timed out, with the reason to record. */
export type Expire = (reason: string) => unknown;

/**
 * Arms the idle timer of a session with no CDP client connected, counting from `idleSince`; a
 * session with clients, or with no idle timeout, gets none.
 */
export function armIdle(live: Live, clock: () => number, expire: Expire): void {
  clearTimeout(live.idleTimer);
  if (live.clients.size > 0 || live.idleTimeoutMs <= 0) return;
  const idleFor = live.idleSince === null ? 0 : Math.max(0, clock() - live.idleSince);
  live.idleTimer = setTimeout(
    () => expire(`idle for ${live.idleTimeoutMs / 1000} s with no CDP client connected`),
    Math.min(Math.max(0, live.idleTimeoutMs - idleFor), MAX_TIMER_MS),
  );
  live.idleTimer.unref();
}

/** Arms the timer that ends a session after `maxDurationMs` (none when it is 0). */
export function armMaxDuration(live: Live, maxDurationMs: number, expire: Expire): void {
  if (maxDurationMs <= 0) return;
  live.maxTimer = setTimeout(
    () => expire(`max duration of ${maxDurationMs / 1000} s reached`),
    Math.min(maxDurationMs, MAX_TIMER_MS),
  );
  live.maxTimer.unref();
}

/**
 * Registers a connected CDP client of a running session: the session is not idle while it has
 * one. The release function takes the time the client was last heard from: the session has been
 * idle since then, and its idle timer is armed when the last client goes.
 */
export function addClient(
  live: Live,
  close: () => void,
  clock: () => number,
  expire: Expire,
): (lastSeen?: number) => void {
  live.clients.add(close);
  live.idleSince = null;
  clearTimeout(live.idleTimer);
  return (lastSeen) => {
    if (!live.clients.delete(close) || live.ending) return;
    if (live.clients.size === 0) {
      live.idleSince = Math.min(lastSeen ?? Infinity, clock());
      armIdle(live, clock, expire);
    }
  };
}

/**
 * Seconds until the first of `sessions` reaches its max duration or idle timeout (the
 * `Retry-After` of a create refused for capacity): 1 to 60, 60 when none has a timer.
 */
export function secondsUntilFree(sessions: Iterable<Live>, now: number): number {
  let soonest = Infinity;
  for (const l of sessions) {
    if (l.deadline !== null) soonest = Math.min(soonest, l.deadline);
    if (l.idleSince !== null && l.idleTimeoutMs > 0)
      soonest = Math.min(soonest, l.idleSince + l.idleTimeoutMs);
  }
  const seconds = Number.isFinite(soonest) ? Math.ceil((soonest - now) / 1000) : 60;
  return Math.min(60, Math.max(1, seconds));
}
