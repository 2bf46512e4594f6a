// Browser sessions: one Chromium process per session, a warm pool, timers, and cleanup.
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { ChromiumNotFoundError, findChromium } from '../../../chromium.js';
import type { Principal, ServerContext } from '../../context.js';
import { HttpError } from '../../http-error.js';
import { disposeBrowser, launchBrowser, removeProfile, renderRecord } from './browser.js';
import type { Browser, Viewport } from './browser.js';
import { reapLeftovers } from './reaper.js';
import { SessionStore } from './store.js';
import type { SessionRow, SessionStatus } from './store.js';
import { hashToken, newConnectToken, tokenMatches } from './token.js';
import type {
  BrowserSessionRecord,
  BrowserSessionsOptions,
  CdpAuthorization,
  CdpCredentials,
  CreateSessionParams,
} from './types.js';
import { WarmPool } from './warm-pool.js';

/** Defaults of the browser engine. */
export const DEFAULTS = {
  endedRetentionMs: 600_000,
  /** Longest delay `setTimeout` accepts. */
  maxTimerMs: 2 ** 31 - 1,
} as const;

interface Live {
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
}

/**
 * The browser-session engine. Each session owns one Chromium process with a fresh profile under
 * `<dataDir>/browsers/<session_id>`; records live in SQLite (`bs_sessions`) and, while running,
 * in memory with their process, timers and connected CDP clients.
 * @example
 * const sessions = new BrowserSessions(ctx); await sessions.start();
 * const record = await sessions.create(principal, {});
 */
export class BrowserSessions {
  private readonly store: SessionStore;
  private readonly browsersDir: string;
  private readonly retentionMs: number;
  private readonly live = new Map<string, Live>();
  private readonly processes = new Map<string, Browser>();
  private readonly disposals = new Set<Promise<void>>();
  private readonly pool: WarmPool<Browser>;
  private creating = 0;
  private closed = false;
  private purgeTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly ctx: ServerContext,
    options: BrowserSessionsOptions = {},
  ) {
    this.store = new SessionStore(ctx.db);
    this.browsersDir = path.join(ctx.config.dataDir, 'browsers');
    this.retentionMs = options.endedRetentionMs ?? DEFAULTS.endedRetentionMs;
    this.pool = new WarmPool<Browser>(
      ctx.config.warmPoolSize,
      () => this.launch(),
      (b) => this.dispose(b),
      ctx.logger,
    );
  }

  /** Reaps what a crashed server left behind, then fills the warm pool. */
  async start(): Promise<void> {
    await mkdir(this.browsersDir, { recursive: true });
    const reaped = await reapLeftovers(this.browsersDir);
    const failed = this.store.failRunning('server restarted', this.ctx.clock());
    this.store.purge(this.ctx.clock() - this.retentionMs);
    if (reaped.killed || reaped.removed || failed) {
      this.ctx.logger.info('reaped browsers left by a previous server', {
        ...reaped,
        sessionsFailed: failed,
      });
    }
    this.purgeTimer = setInterval(
      () => this.store.purge(this.ctx.clock() - this.retentionMs),
      60_000,
    );
    this.purgeTimer.unref();
    try {
      await this.executable();
      this.pool.fill();
    } catch (error) {
      // The rest of the server works without a browser; create answers 503 with this message.
      this.ctx.logger.warn('browser sessions unavailable', { error: (error as Error).message });
    }
  }

  /**
   * Starts a session for `owner`: a warm browser when the params allow, else a fresh launch.
   * @throws HttpError 429 (with `Retry-After`) past `maxSessions`; 503 when Chromium cannot start
   */
  async create(owner: Principal, params: CreateSessionParams = {}): Promise<BrowserSessionRecord> {
    if (this.closed)
      throw new HttpError(503, 'Browser sessions are shutting down', { code: 'shutting_down' });
    const max = this.ctx.config.maxSessions;
    if (this.live.size + this.creating >= max) {
      const retryAfter = String(this.secondsUntilFree());
      throw new HttpError(
        429,
        `Too many running browser sessions: ${max} at most; delete one or retry after ${retryAfter} s`,
        { code: 'too_many_sessions', headers: { 'Retry-After': retryAfter } },
      );
    }
    this.creating++;
    let browser: Browser;
    try {
      const custom = params.viewport || params.user_agent;
      browser = custom
        ? await this.launch(params.viewport ?? undefined, params.user_agent ?? undefined)
        : await this.pool.take();
    } catch (error) {
      const notFound = error instanceof ChromiumNotFoundError;
      throw new HttpError(503, `Could not start a browser: ${(error as Error).message}`, {
        code: notFound ? 'chromium_not_found' : 'browser_launch_failed',
        cause: error,
      });
    } finally {
      this.creating--;
    }
    if (this.closed || !browser.alive()) {
      this.track(this.dispose(browser));
      throw new HttpError(503, 'Could not start a browser: it exited before the session began', {
        code: 'browser_launch_failed',
      });
    }
    const now = this.ctx.clock();
    const idleTimeoutMs =
      (params.idle_timeout_s ?? this.ctx.config.defaultIdleTimeoutMs / 1000) * 1000;
    const maxDurationMs =
      (params.max_duration_s ?? this.ctx.config.defaultMaxDurationMs / 1000) * 1000;
    const token = newConnectToken();
    const live: Live = {
      id: browser.id,
      userId: owner.userId,
      token,
      tokenHash: hashToken(token),
      browser,
      idleTimeoutMs,
      deadline: maxDurationMs > 0 ? now + maxDurationMs : null,
      idleSince: now,
      clients: new Set(),
      ending: false,
    };
    this.store.insert({
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
      pid: browser.chromium.pid,
    });
    this.live.set(live.id, live);
    if (maxDurationMs > 0) {
      live.maxTimer = setTimeout(
        () => this.end(live, 'expired', `max duration of ${maxDurationMs / 1000} s reached`),
        Math.min(maxDurationMs, DEFAULTS.maxTimerMs),
      );
      live.maxTimer.unref();
    }
    this.armIdle(live);
    this.ctx.logger.info('browser session created', {
      sessionId: live.id,
      userId: owner.userId,
      pid: browser.chromium.pid,
    });
    return this.render(this.store.byId(live.id)!);
  }

  /** A session of `userId`. @throws HttpError 404 when unknown, another user's, or ended long ago */
  get(userId: string, id: string): BrowserSessionRecord {
    const row = this.store.get(userId, id, this.ctx.clock() - this.retentionMs);
    if (!row) throw notFound(id);
    return this.render(row);
  }

  /** The sessions of `userId`, newest first, ended ones included while still readable. */
  list(userId: string): BrowserSessionRecord[] {
    return this.store.list(userId, this.ctx.clock() - this.retentionMs).map((r) => this.render(r));
  }

  /**
   * Stops a running session: SIGKILL reaches its browser's process group before this resolves; the
   * exit and the profile removal finish in the background (`close()` waits for them). Deleting an
   * ended session is a no-op.
   * @throws HttpError 404 when the session is unknown or another user's
   */
  async delete(userId: string, id: string): Promise<void> {
    this.get(userId, id);
    const live = this.live.get(id);
    if (live) this.end(live, 'stopped', 'deleted by the client');
  }

  /** Checks an upgrade's credentials for session `id`: its connect token, or its owner's bearer key. */
  authorizeCdp(id: string, credentials: CdpCredentials): CdpAuthorization {
    const row = this.store.byId(id);
    const missing = {
      ok: false,
      status: 404,
      message: `Browser session not found: ${id}`,
    } as const;
    if (!row) return missing;
    if (credentials.token !== undefined) {
      if (!tokenMatches(credentials.token, row.token_hash)) {
        return {
          ok: false,
          status: 401,
          message: 'Invalid connect token for this browser session',
        };
      }
    } else if (credentials.userId === undefined) {
      return {
        ok: false,
        status: 401,
        message:
          'Missing credentials: pass ?token=<connect token> or an Authorization: Bearer header',
      };
    } else if (credentials.userId !== row.user_id) {
      return missing;
    }
    const live = this.live.get(id);
    if (!live || live.ending) {
      return {
        ok: false,
        status: 404,
        message: `Browser session ${id} is not running (status ${row.status})`,
      };
    }
    return { ok: true, wsEndpoint: live.browser.chromium.wsEndpoint };
  }

  /**
   * Registers a connected CDP client of session `id`; `close` is called when the session ends.
   * @returns a release function, or undefined when the session is no longer running
   */
  attachClient(id: string, close: () => void): (() => void) | undefined {
    const live = this.live.get(id);
    if (!live || live.ending) return undefined;
    live.clients.add(close);
    live.idleSince = null;
    clearTimeout(live.idleTimer);
    return () => {
      if (!live.clients.delete(close) || live.ending) return;
      if (live.clients.size === 0) {
        live.idleSince = this.ctx.clock();
        this.armIdle(live);
      }
    };
  }

  /** The Chromium pid of a running session (for diagnostics and tests). */
  pidOf(id: string): number | undefined {
    return this.live.get(id)?.browser.chromium.pid;
  }

  /** Number of running sessions. */
  get runningCount(): number {
    return this.live.size;
  }

  /** Ends every session (`stopped`, reason 'server shut down'), kills every browser, removes profiles. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.purgeTimer);
    for (const live of [...this.live.values()]) this.end(live, 'stopped', 'server shut down');
    await this.pool.close();
    await Promise.all([...this.processes.values()].map((b) => this.dispose(b)));
    await Promise.all(this.disposals);
  }

  private async executable(): Promise<string> {
    return this.ctx.config.chromePath ?? (await findChromium()).path;
  }

  private async launch(viewport?: Viewport, userAgent?: string): Promise<Browser> {
    const browser = await launchBrowser(
      this.browsersDir,
      await this.executable(),
      viewport,
      userAgent,
    );
    this.processes.set(browser.id, browser);
    browser.chromium.process.once('exit', (code, signal) => {
      this.processes.delete(browser.id);
      this.onExit(browser, code, signal);
    });
    // The browser may have exited while we awaited: 'exit' fired before the listener existed.
    if (!browser.alive()) {
      this.processes.delete(browser.id);
      this.onExit(browser, browser.chromium.process.exitCode, browser.chromium.process.signalCode);
    }
    if (this.closed) await this.dispose(browser);
    return browser;
  }

  private onExit(browser: Browser, code: number | null, signal: string | null): void {
    const live = this.live.get(browser.id);
    if (live && !live.ending) {
      this.ctx.logger.warn('browser of a session exited', { sessionId: browser.id, code, signal });
      this.end(
        live,
        'failed',
        `browser process exited unexpectedly (${signal ? `signal ${signal}` : `code ${code}`})`,
      );
    } else if (this.pool.remove(browser.id)) {
      this.ctx.logger.warn('a warm browser exited', { code, signal });
      this.track(this.dispose(browser));
    }
  }

  private end(live: Live, status: Exclude<SessionStatus, 'running'>, reason: string): void {
    if (live.ending) return;
    live.ending = true;
    clearTimeout(live.idleTimer);
    clearTimeout(live.maxTimer);
    this.live.delete(live.id);
    this.store.end(live.id, status, reason, this.ctx.clock());
    for (const close of live.clients) close();
    live.clients.clear();
    this.ctx.logger.info('browser session ended', { sessionId: live.id, status, reason });
    // kill() sends SIGKILL before it first awaits: the browser is gone whatever happens next, so
    // callers need not wait for the exit and the profile removal (close() does).
    this.track(this.dispose(live.browser));
  }

  private armIdle(live: Live): void {
    clearTimeout(live.idleTimer);
    if (live.clients.size > 0 || live.idleTimeoutMs <= 0) return;
    live.idleTimer = setTimeout(
      () =>
        this.end(
          live,
          'expired',
          `idle for ${live.idleTimeoutMs / 1000} s with no CDP client connected`,
        ),
      Math.min(live.idleTimeoutMs, DEFAULTS.maxTimerMs),
    );
    live.idleTimer.unref();
  }

  private secondsUntilFree(): number {
    const now = this.ctx.clock();
    let soonest = Infinity;
    for (const l of this.live.values()) {
      if (l.deadline !== null) soonest = Math.min(soonest, l.deadline);
      if (l.idleSince !== null && l.idleTimeoutMs > 0)
        soonest = Math.min(soonest, l.idleSince + l.idleTimeoutMs);
    }
    const seconds = Number.isFinite(soonest) ? Math.ceil((soonest - now) / 1000) : 60;
    return Math.min(60, Math.max(1, seconds));
  }

  private async dispose(browser: Browser): Promise<void> {
    await disposeBrowser(browser, this.ctx.logger);
  }

  private removeProfile(browser: Browser): Promise<void> {
    return removeProfile(browser, this.ctx.logger);
  }

  private track(work: Promise<void>): void {
    this.disposals.add(work);
    void work.finally(() => this.disposals.delete(work));
  }

  private render(row: SessionRow): BrowserSessionRecord {
    const live = this.live.get(row.id);
    return renderRecord(row, this.ctx.baseUrl(), live && !live.ending ? live.token : undefined);
  }
}

function notFound(id: string): HttpError {
  return new HttpError(404, `Browser session not found: ${id}`, { code: 'session_not_found' });
}
