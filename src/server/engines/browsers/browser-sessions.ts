// Browser sessions: one Chromium process per session, a warm pool, timers, and cleanup.
import { mkdir, readdir } from 'node:fs/promises';
import path from 'node:path';
import type { WebSocket } from 'ws';
import { canRestorePriority, ChromiumNotFoundError } from '../../../chromium.js';
import type { Principal, ServerContext } from '../../context.js';
import { CapacityExhausted, Conflict, DomainError, Unavailable } from '../../errors.js';
import { createBackend } from './backend.js';
import type { BrowserBackend } from './backend.js';
import type { Browser } from './browser.js';
import { authorizeUpgrade } from './cdp-authorize.js';
import { BrowserContexts } from './contexts.js';
import type { ContextLease } from './contexts.js';
import { writeProfile } from './contexts-archive.js';
import { saveContextAndDispose } from './contexts-lifecycle.js';
import { removeOrphans, SessionFiles } from './files/session-files.js';
import { checkIdempotencyKey, hashParams, keyReusedError } from './idempotency.js';
import type { IdempotencyKeys } from './idempotency.js';
import { LiveViews } from './live/live-views.js';
import { Recordings } from './recording/recordings.js';
import { BrowserRecycler } from './recycle.js';
import type { SessionRow, SessionStatus, SessionStore } from './store.js';
import { heldElsewhere, stopElsewhere } from './remote-sessions.js';
import { SessionBrowsers } from './session-browsers.js';
import {
  addClient,
  armIdle,
  armMaxDuration,
  MAX_TIMER_MS,
  secondsUntilFree,
} from './session-live.js';
import type { Live } from './session-live.js';
import {
  newSessionRow,
  notFound,
  renderSession,
  sessionTimeouts,
  wipeable,
} from './session-records.js';
import { hashToken, newConnectToken } from './token.js';
import type {
  BrowserSessionRecord,
  BrowserSessionsOptions,
  CdpAuthorization,
  CdpCredentials,
  CreateSessionParams,
} from './types.js';
import { SpareUpstreams } from './upstream.js';
import { WarmPool } from './warm-pool.js';

/** Defaults of the browser engine. */
export const DEFAULTS = {
  endedRetentionMs: 600_000,
  /** Longest delay `setTimeout` accepts. */
  maxTimerMs: MAX_TIMER_MS,
  /**
   * Nice value of pool refills, so they never take CPU from a session being served (weight 36
   * against 1024 at 0: a refill runs on idle CPU). Not 10, which Chromium uses for its own
   * background threads: those keep it when the browser is promoted.
   */
  refillNiceness: 15,
} as const;

/** Figures for schedulers and load balancers (`GET /v1/browser/capacity`). */
export interface BrowserCapacity {
  /** Sessions running now. */
  running: number;
  /** `maxSessions`: running sessions allowed at once. */
  limit: number;
  /** Creates accepted and waiting for their browser to start. */
  queued: number;
  /**
   * Wiped browsers kept for their user's next session, processes counted against `limit`. Present
   * when recycling is on.
   */
  recycled?: number;
  /** Creates that would be accepted now: `limit - running - queued - recycled`, never below 0. */
  available: number;
}

/** Options of {@link BrowserSessions.create}. */
export interface CreateSessionOptions {
  /**
   * The `Idempotency-Key` of the request: the same key of the same user within 24 h returns the
   * same session, and duplicates in flight share one create.
   */
  idempotencyKey?: string | undefined;
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
  /** Saved contexts (cookies, localStorage, IndexedDB) sessions start from. */
  readonly contexts: BrowserContexts;
  private readonly filesRoot: string;
  private readonly endedFiles = new Map<string, SessionFiles>();
  private readonly retentionMs: number;
  private readonly live = new Map<string, Live>();
  /** The live view of each running session (`live_url`). */
  readonly liveViews: LiveViews;
  /** Recordings of sessions created with `record: true`; they outlive their session. */
  readonly recordings: Recordings;
  /** The browser processes, pooled or serving a session, and the background work close() awaits. */
  private readonly browsers: SessionBrowsers;
  private readonly pool: WarmPool<Browser>;
  /** Where browsers come from: local Chromium, or a Selenium Grid (`gridUrl`). */
  readonly backend: BrowserBackend;
  /** Wiped browsers kept for their user's next session (`recycle` option; off by default). */
  readonly recycler: BrowserRecycler;
  private readonly idempotency: IdempotencyKeys;
  /** A relay connection to each new session's browser, opened ahead for its first CDP client. */
  private readonly upstreams = new SpareUpstreams();
  private creating = 0;
  private closed = false;
  private purgeTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly ctx: ServerContext,
    options: BrowserSessionsOptions = {},
  ) {
    this.store = ctx.storage.sessions;
    this.backend = createBackend(ctx.config, ctx.logger);
    this.browsersDir = path.join(ctx.config.dataDir, 'browsers');
    this.contexts = new BrowserContexts(ctx);
    this.liveViews = new LiveViews(ctx, (id, close) => this.attachClient(id, close));
    this.recordings = new Recordings(ctx, {
      retentionMs: ctx.config.recordingRetentionMs,
      maxBytes: ctx.config.maxRecordingBytes,
    });
    this.filesRoot = path.join(ctx.config.dataDir, 'session-files');
    this.retentionMs = options.endedRetentionMs ?? DEFAULTS.endedRetentionMs;
    this.idempotency = ctx.storage.idempotency;
    this.browsers = new SessionBrowsers({
      backend: this.backend,
      browsersDir: this.browsersDir,
      filesRoot: this.filesRoot,
      // Refills may start niced only if a served browser can be brought back to nice 0.
      refillNiceness: canRestorePriority() ? DEFAULTS.refillNiceness : undefined,
      logger: ctx.logger,
      closed: () => this.closed,
      onExit: (browser, code, signal) => this.onExit(browser, code, signal),
    });
    const { browsers } = this;
    this.recycler = new BrowserRecycler(
      ctx.config.recycle,
      {
        dispose: (b) => browsers.discard(b),
        renew: (b) => browsers.renew(b),
        // Like a pool refill (see DEFAULTS.refillNiceness), when the nice value can be restored.
        background: (b, on) => browsers.background(b, on),
      },
      ctx.logger,
    );
    this.pool = new WarmPool<Browser>(
      // A Grid session held ahead of demand would take a slot other users of the Grid need.
      this.backend.poolable ? ctx.config.warmPoolSize : 0,
      (reason) => browsers.launch(undefined, undefined, undefined, reason),
      (b) => browsers.dispose(b),
      ctx.logger,
      { busy: () => this.creating > 0, boost: () => browsers.boost() },
    );
  }

  /** Reaps what a crashed server left behind, then fills the warm pool. */
  async start(): Promise<void> {
    await mkdir(this.browsersDir, { recursive: true });
    await mkdir(this.filesRoot, { recursive: true, mode: 0o700 });
    await this.contexts.start();
    await this.recordings.start();
    const reaped = await this.backend.reap(this.browsersDir);
    // One data dir, one server: on SQLite nothing it recorded can still run. On PostgreSQL other
    // instances' sessions run on; those of this data dir's previous server ended with it (others
    // that died are failed by the heartbeat).
    const failed =
      this.ctx.storage.dialect === 'sqlite'
        ? await this.store.failRunning('server restarted', this.ctx.clock())
        : await this.store.failRunningUnder(this.browsersDir, 'server restarted', this.ctx.clock());
    const { instances } = this.ctx.storage;
    instances.onStopRequest((id) => {
      const live = this.live.get(id);
      if (live) void this.end(live, 'stopped', 'deleted by the client');
    });
    await instances.start(
      this.ctx.config.internalUrl ?? this.ctx.baseUrl().replace('://0.0.0.0:', '://127.0.0.1:'),
      async (ids) => {
        const n = await this.store.failRunning(
          'its instance stopped answering',
          this.ctx.clock(),
          ids,
        );
        if (n > 0) this.ctx.logger.warn('sessions of a dead instance failed', { sessions: n });
      },
    );
    this.purge();
    if (reaped.killed || reaped.removed || reaped.gridDeleted || failed) {
      this.ctx.logger.info('reaped browsers left by a previous server', {
        ...reaped,
        sessionsFailed: failed,
      });
    }
    this.purgeTimer = setInterval(() => this.purge(), 60_000);
    this.purgeTimer.unref();
    try {
      await this.backend.check();
      this.pool.fill();
    } catch (error) {
      // The rest of the server works without a browser; create answers 503 with this message.
      this.ctx.logger.warn('browser sessions unavailable', { error: (error as Error).message });
    }
  }

  /**
   * Starts a session for `owner`: a warm browser when the params allow, else a fresh launch. With
   * an idempotency key, a key this user already used within 24 h returns that session as it is now
   * (running, or ended while still readable) and starts no browser; duplicates in flight wait for
   * the first one and get its session.
   * @throws CapacityExhausted (with `Retry-After`) past `maxSessions`; Unavailable when Chromium
   * cannot start; Invalid for a malformed key or a key reused with other params; Conflict
   * when the key's session is no longer readable
   */
  async create(
    owner: Principal,
    params: CreateSessionParams = {},
    options: CreateSessionOptions = {},
  ): Promise<BrowserSessionRecord> {
    if (options.idempotencyKey === undefined) return this.createNow(owner, params);
    const key = checkIdempotencyKey(options.idempotencyKey);
    const paramsHash = hashParams(params);
    return this.idempotency.once(owner.userId, key, paramsHash, async () => {
      const known = await this.idempotency.find(owner.userId, key, this.ctx.clock());
      if (known) {
        if (known.paramsHash !== paramsHash) throw keyReusedError();
        const row = await this.store.get(
          owner.userId,
          known.sessionId,
          this.ctx.clock() - this.retentionMs,
        );
        if (!row) {
          throw new Conflict(
            `Idempotency-Key already created browser session ${known.sessionId}, which ended and is no longer readable; send a new key to start another session`,
            { code: 'idempotency_key_used', retryable: false },
          );
        }
        return this.render(row);
      }
      const record = await this.createNow(owner, params);
      await this.idempotency.remember(
        owner.userId,
        key,
        paramsHash,
        record.session_id,
        this.ctx.clock(),
      );
      return record;
    });
  }

  /** The warm pool: browsers ready for the next creates, and launches under way. */
  poolStats(): { ready: number; launching: number } {
    return { ready: this.pool.readyCount, launching: this.pool.launchingCount };
  }

  /**
   * Running sessions, the limit, creates under way, and how many more would be accepted now.
   * Recycled browsers count against the limit (`recycled`); a create evicts one when it needs room.
   */
  capacity(): BrowserCapacity {
    const running = this.live.size;
    const limit = this.ctx.config.maxSessions;
    const queued = this.creating;
    const recycled = this.recycler.count;
    const available = Math.max(0, limit - running - queued - recycled);
    if (!this.recycler.config.enabled) return { running, limit, queued, available };
    return { running, limit, queued, recycled, available };
  }

  private async createNow(
    owner: Principal,
    params: CreateSessionParams,
  ): Promise<BrowserSessionRecord> {
    if (this.closed)
      throw new Unavailable('Browser sessions are shutting down', { code: 'shutting_down' });
    const max = this.ctx.config.maxSessions;
    // Only for this user, and only for sessions a wipe can serve (see recycle.ts).
    const recycled = wipeable(params)
      ? this.recycler.claim(owner.userId, this.pool.readyCount > 0)
      : undefined;
    while (this.live.size + this.creating + this.recycler.count >= max) {
      if (this.recycler.evictOldest()) continue;
      const retryAfter = String(secondsUntilFree(this.live.values(), this.ctx.clock()));
      throw new CapacityExhausted(
        `Too many running browser sessions: ${max} at most; delete one or retry after ${retryAfter} s`,
        Number(retryAfter),
        { code: 'too_many_sessions' },
      );
    }
    this.creating++;
    const reused = await recycled;
    let lease: ContextLease | undefined;
    let browser: Browser;
    try {
      lease = params.context
        ? await this.contexts.acquire(owner.userId, params.context.id)
        : undefined;
      const files = lease?.state?.files;
      // A saved context lives in the profile, which must be filled before the browser starts:
      // such a session never takes a warm browser.
      const custom = params.viewport || params.user_agent || lease;
      browser = custom
        ? await this.browsers.launch(
            params.viewport ?? undefined,
            params.user_agent ?? undefined,
            files ? (dir) => writeProfile(dir, files) : undefined,
          )
        : (reused ?? this.browsers.promote(await this.pool.take()));
    } catch (error) {
      lease?.release();
      if (error instanceof DomainError) throw error;
      const notFound = error instanceof ChromiumNotFoundError;
      throw new Unavailable(`Could not start a browser: ${(error as Error).message}`, {
        code: notFound ? 'chromium_not_found' : 'browser_launch_failed',
        cause: error,
      });
    } finally {
      this.creating--;
    }
    if (this.closed || !browser.alive()) {
      lease?.release();
      this.browsers.track(this.browsers.dispose(browser));
      throw new Unavailable('Could not start a browser: it exited before the session began', {
        code: 'browser_launch_failed',
      });
    }
    const { cdp, files } = await this.browsers.prepare(browser, lease);
    const recyclable = this.recycler.enabled && wipeable(params);
    const origins = recyclable ? await this.recycler.track(cdp).catch(() => undefined) : undefined;
    const now = this.ctx.clock();
    const { idleTimeoutMs, maxDurationMs } = sessionTimeouts(params, this.ctx.config);
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
      cdp,
      files,
      context: lease ? { lease, persist: params.context?.persist === true } : undefined,
      origins,
    };
    await this.store.insert(newSessionRow(live, owner, params, now, this.ctx.storage.instances));
    this.live.set(live.id, live);
    this.liveViews.open(live.id, browser.chromium.wsEndpoint, params.live_view ?? 'interactive');
    const expire = (reason: string) => this.end(live, 'expired', reason);
    armMaxDuration(live, maxDurationMs, expire);
    armIdle(live, this.ctx.clock, expire);
    // Not on a Grid: an idle connection would hold a resource of a farm other users share.
    if (browser.backend === 'local') this.upstreams.open(live.id, browser.chromium.wsEndpoint);
    if (params.record) await this.startRecording(live, now);
    this.ctx.logger.info('browser session created', {
      sessionId: live.id,
      userId: owner.userId,
      pid: browser.chromium.pid,
    });
    return this.render((await this.store.byId(live.id))!);
  }

  /** A session of `userId`. @throws NotFound when unknown, another user's, or ended long ago */
  async get(userId: string, id: string): Promise<BrowserSessionRecord> {
    return this.render(await this.row(userId, id));
  }

  /** The sessions of `userId`, newest first, ended ones included while still readable. */
  async list(userId: string): Promise<BrowserSessionRecord[]> {
    const rows = await this.store.list(userId, this.ctx.clock() - this.retentionMs);
    return rows.map((r) => this.render(r));
  }

  private async row(userId: string, id: string): Promise<SessionRow> {
    const row = await this.store.get(userId, id, this.ctx.clock() - this.retentionMs);
    if (!row) throw notFound(id);
    return row;
  }

  /**
   * Stops a running session: SIGKILL reaches its browser's process group before this resolves; the
   * exit and the profile removal finish in the background (`close()` waits for them). A session
   * started with `context.persist` resolves once its context is saved (the browser is shut down
   * cleanly first, so its storage is on disk). Deleting an ended session is a no-op.
   * @throws NotFound when the session is unknown or another user's
   */
  async delete(userId: string, id: string): Promise<void> {
    const row = await this.row(userId, id);
    const live = this.live.get(id);
    if (live) await this.end(live, 'stopped', 'deleted by the client');
    else if (heldElsewhere(row, this.ctx.storage.instances)) {
      const { storage, clock, logger } = this.ctx;
      await stopElsewhere(row, this.store, storage.instances, clock, logger);
    }
  }

  /**
   * The files of a session of `userId` (running, or ended and still readable).
   * @throws NotFound when the session is unknown, another user's, or purged
   */
  async filesOf(userId: string, id: string): Promise<{ files: SessionFiles; running: boolean }> {
    await this.row(userId, id);
    if (!this.backend.localFiles) {
      throw new Conflict(
        'Session files are not available on a Grid-backed server: the browser downloads to and uploads from its Grid node, not this server',
        { code: 'files_unavailable_on_grid', retryable: false },
      );
    }
    const live = this.live.get(id);
    if (live && !live.ending) return { files: live.files, running: true };
    let files = live?.files ?? this.endedFiles.get(id);
    if (!files) this.endedFiles.set(id, (files = new SessionFiles(this.filesRoot, id)));
    return { files, running: false };
  }

  /**
   * Checks an upgrade's credentials for session `id`: its connect token, its owner's bearer key, or
   * (forwarded by another instance) the instances' credential. A session running on another
   * instance is answered with that instance's `/cdp` route to relay to.
   */
  async authorizeCdp(id: string, credentials: CdpCredentials): Promise<CdpAuthorization> {
    const row = await this.store.byId(id);
    const { instances } = this.ctx.storage;
    const { localFiles } = this.backend;
    return authorizeUpgrade(id, row, this.live.get(id), credentials, instances, localFiles);
  }

  /**
   * Registers a connected CDP client of session `id`; `close` is called when the session ends.
   * The release function takes the time the client was last heard from: a client found dead by
   * the proxy's heartbeat has been idle since then, not since it was found out.
   * @returns a release function, or undefined when the session is no longer running
   */
  attachClient(id: string, close: () => void): ((lastSeen?: number) => void) | undefined {
    const live = this.live.get(id);
    if (!live || live.ending) return undefined;
    return addClient(live, close, this.ctx.clock, (reason) => this.end(live, 'expired', reason));
  }

  /**
   * The relay connection opened ahead to running session `id`'s browser, once (the proxy's first
   * upgrade takes it); undefined when there is none or it broke (the proxy connects itself).
   */
  takeUpstream(id: string): Promise<WebSocket | undefined> {
    const live = this.live.get(id);
    return live && !live.ending ? this.upstreams.take(id) : Promise.resolve(undefined);
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
    // Contexts are saved from cleanly shut-down browsers: wait for that before killing the rest.
    await Promise.all(
      [...this.live.values()].map((live) => this.end(live, 'stopped', 'server shut down')),
    );
    this.liveViews.closeAll();
    this.upstreams.close();
    await this.recordings.close();
    await this.recycler.close();
    await this.pool.close();
    await this.backend.close();
    await this.browsers.close();
    await this.ctx.storage.instances.close();
  }

  private onExit(browser: Browser, code: number | null, signal: string | null): void {
    const live = this.live.get(browser.id);
    if (live && !live.ending) {
      this.ctx.logger.warn('browser of a session exited', { sessionId: browser.id, code, signal });
      this.end(
        live,
        'failed',
        browser.chromium.exitReason ??
          `browser process exited unexpectedly (${signal ? `signal ${signal}` : `code ${code}`})`,
      );
    } else if (this.pool.remove(browser.id)) {
      this.ctx.logger.warn('a warm browser exited', { code, signal });
      this.browsers.track(this.browsers.dispose(browser));
    }
  }

  /** Ends a session; resolves once its context is saved (at once when there is none to save). */
  private end(
    live: Live,
    status: Exclude<SessionStatus, 'running'>,
    reason: string,
  ): Promise<void> {
    if (live.ending) return live.saved ?? Promise.resolve();
    live.ending = true;
    clearTimeout(live.idleTimer);
    clearTimeout(live.maxTimer);
    this.live.delete(live.id);
    this.upstreams.drop(live.id);
    this.liveViews.close(live.id);
    this.recordings.end(live.id);
    this.endedFiles.set(live.id, live.files);
    // Callers (delete) resolve once the record says so: another instance may read it next.
    const recorded = this.store.end(live.id, status, reason, this.ctx.clock()).then(
      () => undefined,
      (error: unknown) =>
        this.ctx.logger.error('could not record the end of a browser session', {
          sessionId: live.id,
          error: (error as Error).message,
        }),
    );
    this.browsers.track(recorded);
    for (const close of live.clients) close();
    live.clients.clear();
    this.ctx.logger.info('browser session ended', { sessionId: live.id, status, reason });
    // A crashed browser's profile may be half-written: its context keeps the last good state.
    if (live.context?.persist && status !== 'failed') {
      live.saved = Promise.all([
        recorded,
        saveContextAndDispose(live.browser, live.cdp, live.context.lease, this.ctx.logger),
      ]).then(() => undefined);
      this.browsers.track(live.saved);
      return live.saved;
    }
    live.context?.lease.release();
    live.cdp?.close();
    // Only a session its client deleted hands its browser on, to its own user (see recycle.ts).
    const deleted = status === 'stopped' && reason === 'deleted by the client';
    if (live.origins && deleted && !this.closed) {
      this.recycler.recycle(live.userId, live.browser, live.origins);
      return recorded;
    }
    // kill() sends SIGKILL before it first awaits: the browser is gone whatever happens next, so
    // callers need not wait for the exit and the profile removal (close() does).
    this.browsers.track(this.browsers.dispose(live.browser));
    return recorded;
  }

  /** Drops ended records past retention, and the files of sessions no longer known. */
  private purge(): void {
    this.purgeNow().catch((error: unknown) =>
      this.ctx.logger.warn('could not purge ended sessions', { error: (error as Error).message }),
    );
  }

  private async purgeNow(): Promise<void> {
    await this.store.purge(this.ctx.clock() - this.retentionMs);
    await this.idempotency.purge(this.ctx.clock());
    const known = new Set<string>();
    for (const id of [...(await readdir(this.filesRoot)), ...this.endedFiles.keys()])
      if (await this.store.byId(id)) known.add(id);
    // A browser launched while we looked has files but maybe no record yet: keep it too.
    await removeOrphans(
      this.filesRoot,
      (id) => known.has(id) || this.browsers.has(id) || this.live.has(id),
    );
    for (const id of this.endedFiles.keys()) if (!known.has(id)) this.endedFiles.delete(id);
  }

  private render(row: SessionRow): BrowserSessionRecord {
    const live = this.live.get(row.id);
    return renderSession(row, live, this.ctx.baseUrl(), this.liveViews, this.recordings);
  }

  /**
   * Starts recording a session that was just registered, before it is handed out. The recording's
   * time 0 is the record's `created_at` (whole seconds), so a client computes a replay offset as
   * `Date.now() - created_at * 1000` without any other field.
   * @throws Unavailable when the recorder cannot attach (the session ends as `failed`)
   */
  private async startRecording(live: Live, createdAt: number): Promise<void> {
    try {
      await this.recordings.begin(
        live.id,
        live.userId,
        live.browser.chromium.wsEndpoint,
        Math.floor(createdAt / 1000) * 1000,
      );
    } catch (error) {
      const message = (error as Error).message;
      await this.end(live, 'failed', `recording could not start: ${message}`);
      throw new Unavailable(`Could not start recording the session: ${message}`, {
        code: 'recording_failed',
        cause: error,
      });
    }
  }
}
