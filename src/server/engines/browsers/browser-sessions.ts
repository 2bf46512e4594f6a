// Browser sessions: one Chromium process per session, a warm pool, timers, and cleanup.
import { randomUUID } from 'node:crypto';
import { mkdir, readdir } from 'node:fs/promises';
import path from 'node:path';
import type { WebSocket } from 'ws';
import { canRestorePriority, ChromiumNotFoundError, reniceTree } from '../../../chromium.js';
import type { Principal, ServerContext } from '../../context.js';
import { CapacityExhausted, Conflict, DomainError, NotFound, Unavailable } from '../../errors.js';
import { createBackend } from './backend.js';
import type { BrowserBackend } from './backend.js';
import { disposeBrowser, renderRecord } from './browser.js';
import type { Browser, Viewport } from './browser.js';
import { BrowserContexts } from './contexts.js';
import type { ContextLease } from './contexts.js';
import { writeProfile } from './contexts-archive.js';
import { linkSession, saveContextAndDispose } from './contexts-lifecycle.js';
import type { CdpConnection } from './files/cdp-connection.js';
import { removeOrphans, SessionFiles } from './files/session-files.js';
import { checkIdempotencyKey, hashParams, keyReusedError } from './idempotency.js';
import type { IdempotencyKeys } from './idempotency.js';
import { LiveViews } from './live/live-views.js';
import { Recordings } from './recording/recordings.js';
import { BrowserRecycler } from './recycle.js';
import type { SessionRow, SessionStatus, SessionStore } from './store.js';
import { forwardCdp, FORWARD_HEADER, heldElsewhere, stopElsewhere } from './remote-sessions.js';
import { hashToken, newConnectToken, tokenMatches } from './token.js';
import type {
  BrowserSessionRecord,
  BrowserSessionsOptions,
  CdpAuthorization,
  CdpCredentials,
  CreateSessionParams,
} from './types.js';
import { SpareUpstreams } from './upstream.js';
import { WarmPool } from './warm-pool.js';
import type { LaunchReason } from './warm-pool.js';

/** Defaults of the browser engine. */
export const DEFAULTS = {
  endedRetentionMs: 600_000,
  /** Longest delay `setTimeout` accepts. */
  maxTimerMs: 2 ** 31 - 1,
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
  /** The server's own CDP connection to the browser (downloads, cookies). */
  cdp: CdpConnection | undefined;
  files: SessionFiles;
  context: { lease: ContextLease; persist: boolean } | undefined;
  /** Set while the session's context is being saved. */
  saved?: Promise<void>;
  /** Origins the session used, when its browser may be recycled for its user (see recycle.ts). */
  origins?: ReadonlySet<string> | undefined;
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
  /** Server CDP links of warm browsers, made while they wait so a create does not pay for them. */
  private readonly links = new Map<string, ReturnType<typeof linkSession>>();
  private readonly retentionMs: number;
  private readonly live = new Map<string, Live>();
  /** The live view of each running session (`live_url`). */
  readonly liveViews: LiveViews;
  /** Recordings of sessions created with `record: true`; they outlive their session. */
  readonly recordings: Recordings;
  private readonly processes = new Map<string, Browser>();
  private readonly disposals = new Set<Promise<void>>();
  private readonly pool: WarmPool<Browser>;
  /** Where browsers come from: local Chromium, or a Selenium Grid (`gridUrl`). */
  readonly backend: BrowserBackend;
  /** Wiped browsers kept for their user's next session (`recycle` option; off by default). */
  readonly recycler: BrowserRecycler;
  private readonly idempotency: IdempotencyKeys;
  /** A relay connection to each new session's browser, opened ahead for its first CDP client. */
  private readonly upstreams = new SpareUpstreams();
  /** Refills may start niced only if a served browser can be brought back to nice 0. */
  private readonly niceRefills = canRestorePriority();
  /** Pids of niced pool launches not yet ready, raised when a create has to wait for them. */
  private readonly nicedLaunches = new Set<number>();
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
    this.recycler = new BrowserRecycler(
      ctx.config.recycle,
      {
        dispose: (b) => {
          this.links.delete(b.id);
          const work = this.dispose(b);
          this.track(work);
          return work;
        },
        renew: (b) => this.renew(b),
        // Like a pool refill (see DEFAULTS.refillNiceness), when the nice value can be restored.
        background: (b, on) => {
          if (!this.niceRefills) return;
          const [from, to] = on ? [0, DEFAULTS.refillNiceness] : [DEFAULTS.refillNiceness, 0];
          b.chromium.renice(from, to);
        },
      },
      ctx.logger,
    );
    this.pool = new WarmPool<Browser>(
      // A Grid session held ahead of demand would take a slot other users of the Grid need.
      this.backend.poolable ? ctx.config.warmPoolSize : 0,
      (reason) => this.launch(undefined, undefined, undefined, reason),
      (b) => this.dispose(b),
      ctx.logger,
      {
        busy: () => this.creating > 0,
        boost: () => {
          for (const pid of this.nicedLaunches) reniceTree(pid, DEFAULTS.refillNiceness, 0);
        },
      },
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
    const recycled =
      params.viewport || params.user_agent || params.context || params.record
        ? undefined
        : this.recycler.claim(owner.userId, this.pool.readyCount > 0);
    while (this.live.size + this.creating + this.recycler.count >= max) {
      if (this.recycler.evictOldest()) continue;
      const retryAfter = String(this.secondsUntilFree());
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
        ? await this.launch(
            params.viewport ?? undefined,
            params.user_agent ?? undefined,
            files ? (dir) => writeProfile(dir, files) : undefined,
          )
        : (reused ?? this.promote(await this.pool.take()));
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
      this.track(this.dispose(browser));
      throw new Unavailable('Could not start a browser: it exited before the session began', {
        code: 'browser_launch_failed',
      });
    }
    const { cdp, files } = await this.prepare(browser, lease);
    const recyclable =
      this.recycler.enabled &&
      !(params.viewport || params.user_agent || params.context || params.record);
    const origins = recyclable ? await this.recycler.track(cdp).catch(() => undefined) : undefined;
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
      cdp,
      files,
      context: lease ? { lease, persist: params.context?.persist === true } : undefined,
      origins,
    };
    await this.store.insert({
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
      instance_id: this.ctx.storage.instances.id,
      instance_url: this.ctx.storage.instances.internalUrl,
      context_id: live.context?.lease.contextId ?? null,
    });
    this.live.set(live.id, live);
    this.liveViews.open(live.id, browser.chromium.wsEndpoint, params.live_view ?? 'interactive');
    if (maxDurationMs > 0) {
      live.maxTimer = setTimeout(
        () => this.end(live, 'expired', `max duration of ${maxDurationMs / 1000} s reached`),
        Math.min(maxDurationMs, DEFAULTS.maxTimerMs),
      );
      live.maxTimer.unref();
    }
    this.armIdle(live);
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
    const missing = {
      ok: false,
      status: 404,
      message: `Browser session not found: ${id}`,
    } as const;
    if (!row) return missing;
    const { instances } = this.ctx.storage;
    if (credentials.forward !== undefined) {
      if (!instances.verifyForwardToken(id, credentials.forward)) {
        return { ok: false, status: 401, message: `Invalid ${FORWARD_HEADER} credential` };
      }
    } else if (credentials.token !== undefined) {
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
    // A forwarded upgrade is never forwarded again: two instances cannot bounce it between them.
    if (!live && credentials.forward === undefined && heldElsewhere(row, instances)) {
      return forwardCdp(row, instances);
    }
    if (!live || live.ending) {
      return {
        ok: false,
        status: 404,
        message: `Browser session ${id} is not running (status ${row.status})`,
      };
    }
    return {
      ok: true,
      wsEndpoint: live.browser.chromium.wsEndpoint,
      // On a Grid the browser's disk is its node's: a path of ours would mean nothing there.
      ...(this.backend.localFiles ? { downloadPath: live.files.incomingDir } : {}),
    };
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
    live.clients.add(close);
    live.idleSince = null;
    clearTimeout(live.idleTimer);
    return (lastSeen) => {
      if (!live.clients.delete(close) || live.ending) return;
      if (live.clients.size === 0) {
        live.idleSince = Math.min(lastSeen ?? Infinity, this.ctx.clock());
        this.armIdle(live);
      }
    };
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
    await Promise.all([...this.processes.values()].map((b) => this.dispose(b)));
    await Promise.all(this.disposals);
    await this.ctx.storage.instances.close();
  }

  /**
   * `pooled`: a warm-pool launch, warmed up (first page rendered) before it is handed out; a
   * refill starts niced when the nice value can be restored later (see {@link promote}).
   */
  private async launch(
    viewport?: Viewport,
    userAgent?: string,
    seed?: (profileDir: string) => Promise<void>,
    pooled?: LaunchReason,
  ): Promise<Browser> {
    const niced = pooled === 'refill' && this.niceRefills;
    let spawned: number | undefined;
    const browser = await this.backend
      .launch(this.browsersDir, {
        viewport,
        userAgent,
        seed,
        warm: pooled !== undefined,
        niceness: niced ? DEFAULTS.refillNiceness : 0,
        onSpawn: niced ? (pid) => this.nicedLaunches.add((spawned = pid)) : undefined,
      })
      .finally(() => {
        if (spawned !== undefined) this.nicedLaunches.delete(spawned);
      });
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
    else if (pooled !== undefined && browser.alive()) this.linkEarly(browser);
    return browser;
  }

  private linkEarly(browser: Browser): void {
    const link = linkSession(browser, this.filesRoot, undefined);
    // Failures surface at create, which links again; nothing to handle here.
    link.catch(() => undefined);
    this.links.set(browser.id, link);
    browser.chromium.process.once('exit', () => this.links.delete(browser.id));
  }

  /** A wiped browser gets a new id (its next session's), and its server link is made early. */
  private renew(browser: Browser): void {
    this.processes.delete(browser.id);
    browser.id = randomUUID();
    this.processes.set(browser.id, browser);
    // Not linkEarly: its exit listener would pile up over reuses; the recycler's dispose drops it.
    const link = linkSession(browser, this.filesRoot, undefined);
    link.catch(() => undefined);
    this.links.set(browser.id, link);
  }

  /** A browser leaving the pool for a session runs at full priority from now on. */
  private promote(browser: Browser): Browser {
    if (this.niceRefills && !browser.chromium.renice(DEFAULTS.refillNiceness, 0)) {
      this.ctx.logger.warn('could not restore the priority of a warm browser', {
        sessionId: browser.id,
      });
    }
    return browser;
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
      this.track(this.dispose(browser));
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
    this.track(recorded);
    for (const close of live.clients) close();
    live.clients.clear();
    this.ctx.logger.info('browser session ended', { sessionId: live.id, status, reason });
    // A crashed browser's profile may be half-written: its context keeps the last good state.
    if (live.context?.persist && status !== 'failed') {
      live.saved = Promise.all([
        recorded,
        saveContextAndDispose(live.browser, live.cdp, live.context.lease, this.ctx.logger),
      ]).then(() => undefined);
      this.track(live.saved);
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
    this.track(this.dispose(live.browser));
    return recorded;
  }

  /**
   * Links the server to a new session's browser (downloads, the context's cookies).
   * @throws Unavailable when the browser does not answer (it is disposed, the context freed)
   */
  private async prepare(
    browser: Browser,
    lease: ContextLease | undefined,
  ): Promise<{ cdp: CdpConnection; files: SessionFiles }> {
    const early = this.links.get(browser.id);
    this.links.delete(browser.id);
    try {
      // A warm browser is never started from a context (no lease): its early link is complete.
      if (early && !lease)
        return await early.catch(() => linkSession(browser, this.filesRoot, lease));
      return await linkSession(browser, this.filesRoot, lease);
    } catch (error) {
      lease?.release();
      this.track(this.dispose(browser));
      throw new Unavailable(`Could not start a browser: ${(error as Error).message}`, {
        code: 'browser_launch_failed',
        cause: error,
      });
    }
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
      (id) => known.has(id) || this.processes.has(id) || this.live.has(id),
    );
    for (const id of this.endedFiles.keys()) if (!known.has(id)) this.endedFiles.delete(id);
  }

  private armIdle(live: Live): void {
    clearTimeout(live.idleTimer);
    if (live.clients.size > 0 || live.idleTimeoutMs <= 0) return;
    const idleFor = live.idleSince === null ? 0 : Math.max(0, this.ctx.clock() - live.idleSince);
    live.idleTimer = setTimeout(
      () =>
        this.end(
          live,
          'expired',
          `idle for ${live.idleTimeoutMs / 1000} s with no CDP client connected`,
        ),
      Math.min(Math.max(0, live.idleTimeoutMs - idleFor), DEFAULTS.maxTimerMs),
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

  private track(work: Promise<void>): void {
    this.disposals.add(work);
    void work.finally(() => this.disposals.delete(work));
  }

  private render(row: SessionRow): BrowserSessionRecord {
    const live = this.live.get(row.id);
    const running = live !== undefined && !live.ending;
    const record = renderRecord(row, this.ctx.baseUrl(), running ? live.token : undefined);
    const liveUrl = running ? this.liveViews.url(row.id) : undefined;
    if (liveUrl) record.live_url = liveUrl;
    if (this.recordings.exists(row.id, row.user_id))
      record.recording_url = this.recordings.htmlUrl(row.id);
    return record;
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

function notFound(id: string): NotFound {
  return new NotFound(`Browser session not found: ${id}`, { code: 'session_not_found' });
}
