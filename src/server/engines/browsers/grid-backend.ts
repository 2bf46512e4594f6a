// Sessions' browsers on a Selenium Grid 4: a WebDriver new session per browser (Chromium, headless,
// the product's flags), driven over the session's `se:cdp` WebSocket, ended with the WebDriver
// delete. Never leak a slot: every open session is in the ledger until the Grid confirms its
// deletion, creates that finish after their caller gave up (or after shutdown began) are deleted
// on arrival, and the next start deletes whatever a dead server left open.
import { EventEmitter } from 'node:events';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { CHROMIUM_ARGS } from '../../../chromium.js';
import type { Logger } from '../../logger.js';
import type { BrowserBackend, ReapReport } from './backend.js';
import { warmUp, WARM_UP } from './browser.js';
import type { Browser, BrowserHandle, LaunchBrowserOptions } from './browser.js';
import { GridLedger } from './grid-ledger.js';
import { reapLeftovers } from './reaper.js';
import { WebDriverClient, WebDriverError } from './webdriver.js';

/** Defaults of {@link GridBackend}. */
export const GRID_DEFAULTS = {
  /**
   * How often each session is checked with a WebDriver read: finds a session the Grid ended (node
   * lost, deleted by someone else, its browser crashed) and resets the Grid's inactivity timeout,
   * which CDP traffic does not reset. The Grid does not always close the CDP socket of a session
   * it ended, so this bounds how long a dead session can look running.
   */
  heartbeatMs: 5_000,
  /** Longest a create waits for the Grid (its queue included) before answering 503. */
  createTimeoutMs: 90_000,
  /** At shutdown, how long creates still in the Grid's queue are awaited (then abandoned). */
  closeGraceMs: 10_000,
  /** Deletes tried before an open session is left to the next start (it stays in the ledger). */
  deleteAttempts: 3,
} as const;

/** Options of {@link GridBackend}. */
export interface GridBackendOptions {
  /** @default GRID_DEFAULTS.heartbeatMs */
  heartbeatMs?: number | undefined;
  /** @default GRID_DEFAULTS.createTimeoutMs */
  createTimeoutMs?: number | undefined;
}

/**
 * Chromium flags asked of the Grid: the product's own, less the DevTools transport, which the
 * node's chromedriver chooses.
 */
export const GRID_CHROME_ARGS: readonly string[] = CHROMIUM_ARGS.filter(
  (arg) => !arg.startsWith('--remote-debugging-'),
);

/** How long after a first out-of-turn check the second one runs. */
const PROBE_AGAIN_MS = 1_000;

/** Ends when its Grid session ends; `exit` carries no code (there is no process here). */
class GridExit extends EventEmitter {
  exitCode: number | null = null;
  signalCode: NodeJS.Signals | null = null;
}

/** One Grid session as a browser handle. */
class GridSessionHandle implements BrowserHandle {
  readonly pid = undefined;
  readonly process = new GridExit();
  exitReason: string | undefined;
  private ended = false;
  private deleting: Promise<void> | undefined;
  private readonly timer: NodeJS.Timeout;
  private warned = false;

  constructor(
    readonly browserId: string,
    readonly sessionId: string,
    readonly wsEndpoint: string,
    private readonly backend: GridBackend,
    heartbeatMs: number,
  ) {
    this.timer = setInterval(() => void this.beat(), heartbeatMs);
    this.timer.unref();
  }

  get alive(): boolean {
    return !this.ended;
  }

  renice(): boolean {
    return true;
  }

  /**
   * A check now, out of turn, and again a second later (the Grid may close the CDP socket a moment
   * before it forgets the session): a session deleted behind our back fails in a round trip.
   */
  probe(): void {
    void this.beat().then(() => {
      if (!this.ended) setTimeout(() => void this.beat(), PROBE_AGAIN_MS).unref();
    });
  }

  kill(): Promise<void> {
    this.deleting ??= (async () => {
      clearInterval(this.timer);
      // Marked ended first, as SIGKILL is for a local browser: nothing may use it from now on.
      this.finish('deleted by the server');
      await this.backend.deleteOpen(this.browserId, this.sessionId);
    })();
    return this.deleting;
  }

  private async beat(): Promise<void> {
    if (this.ended) return;
    try {
      await this.backend.client.touch(this.sessionId);
    } catch (error) {
      if (this.ended) return;
      if (error instanceof WebDriverError && error.sessionGone) {
        clearInterval(this.timer);
        this.finish(
          'its Grid session ended (deleted on the Grid, its browser crashed, timed out, or its node was lost)',
        );
        // Not ours to delete any more; only the ledger entry is left.
        await this.backend.forget(this.browserId);
        return;
      }
      if (!this.warned) {
        this.warned = true;
        this.backend.logger.warn('Grid session check failed; retrying', {
          sessionId: this.browserId,
          error: (error as Error).message,
        });
      }
    }
  }

  private finish(reason: string): void {
    if (this.ended) return;
    this.ended = true;
    this.exitReason = reason;
    this.process.emit('exit', null, null);
  }
}

/**
 * The Grid backend (see {@link BrowserBackend}). No warm pool (a pre-created session would hold a
 * shared slot); no local files (the browser's disk is the node's).
 * @example
 * const grid = new GridBackend('http://127.0.0.1:4444', dataDir, logger);
 * const browser = await grid.launch(browsersDir, {}); await browser.chromium.kill();
 */
export class GridBackend implements BrowserBackend {
  readonly kind = 'grid';
  readonly poolable = false;
  readonly localFiles = false;
  /** The WebDriver endpoint (its `safeUrl` is the Grid URL without credentials). */
  readonly client: WebDriverClient;
  private readonly ledger: GridLedger;
  private readonly heartbeatMs: number;
  private readonly createTimeoutMs: number;
  /** New-session requests under way, with the means to abandon them. */
  private readonly creating = new Map<Promise<unknown>, AbortController>();
  private closed = false;
  private seedWarned = false;

  /** @throws Error naming `gridUrl` when it is not an http(s) URL */
  constructor(
    gridUrl: string,
    dataDir: string,
    readonly logger: Logger,
    options: GridBackendOptions = {},
  ) {
    this.client = new WebDriverClient(gridUrl);
    this.ledger = new GridLedger(path.join(dataDir, 'grid-sessions'));
    this.heartbeatMs = options.heartbeatMs ?? GRID_DEFAULTS.heartbeatMs;
    this.createTimeoutMs = options.createTimeoutMs ?? GRID_DEFAULTS.createTimeoutMs;
  }

  /** Deletes the Grid sessions a previous server on this data dir recorded and left open. */
  async reap(browsersDir: string): Promise<ReapReport> {
    let gridDeleted = 0;
    for (const entry of await this.ledger.list()) {
      // A session on another Grid (the URL changed since) is deleted there, without credentials.
      const client =
        entry.grid === this.client.safeUrl ? this.client : new WebDriverClient(entry.grid);
      try {
        await client.deleteSession(entry.sessionId);
        await this.ledger.remove(entry.browserId);
        gridDeleted++;
      } catch (error) {
        this.logger.warn('could not delete a Grid session left by a previous server', {
          sessionId: entry.browserId,
          grid: entry.grid,
          error: (error as Error).message,
        });
      }
    }
    // Local leftovers of an earlier run without a Grid, and the pool's dirs.
    return { ...(await reapLeftovers(browsersDir)), gridDeleted };
  }

  async check(): Promise<void> {
    const res = await fetch(`${this.client.safeUrl}/status`, {
      signal: AbortSignal.timeout(10_000),
    }).catch((error: unknown) => {
      throw new Error(
        `Selenium Grid at ${this.client.safeUrl} is not reachable: ${(error as Error).message}`,
      );
    });
    await res.body?.cancel();
  }

  /**
   * Opens a Grid session. The viewport and user agent become Chromium flags; a saved context's
   * profile files cannot be written on the node before the browser starts (its cookies are set
   * over CDP afterwards, see `linkSession`).
   * @throws WebDriverError when the Grid refuses or does not answer within `createTimeoutMs`
   */
  async launch(browsersDir: string, options: LaunchBrowserOptions): Promise<Browser> {
    if (this.closed) throw new Error('browser backend is closed');
    if (options.seed && !this.seedWarned) {
      this.seedWarned = true;
      this.logger.warn(
        'a saved context on a Grid restores cookies only: its localStorage and IndexedDB live in a local profile the Grid node cannot receive',
      );
    }
    const id = randomUUID();
    const args = [...GRID_CHROME_ARGS];
    if (options.viewport)
      args.push(`--window-size=${options.viewport.width},${options.viewport.height}`);
    if (options.userAgent !== undefined) args.push(`--user-agent=${options.userAgent}`);
    const session = await this.open(id, {
      browserName: 'chrome',
      'goog:chromeOptions': { args },
    });
    const handle = new GridSessionHandle(
      id,
      session.sessionId,
      session.cdpUrl,
      this,
      this.heartbeatMs,
    );
    const browser: Browser = {
      id,
      backend: 'grid',
      profileDir: path.join(browsersDir, id),
      chromium: handle,
      alive: () => handle.alive,
    };
    if (options.warm) {
      try {
        await warmUp(session.cdpUrl, WARM_UP.timeoutMs);
      } catch (error) {
        await handle.kill();
        throw error;
      }
    }
    return browser;
  }

  /** Waits (at most `closeGraceMs`) for creates in the Grid's queue, deleting what they return. */
  async close(): Promise<void> {
    this.closed = true;
    const pending = [...this.creating.keys()];
    if (pending.length === 0) return;
    let timer: NodeJS.Timeout | undefined;
    const grace = new Promise<void>((r) => (timer = setTimeout(r, GRID_DEFAULTS.closeGraceMs)));
    await Promise.race([Promise.allSettled(pending), grace]);
    clearTimeout(timer);
    for (const abort of this.creating.values()) abort.abort();
    await Promise.allSettled(pending);
  }

  /** Deletes a session and forgets it once the Grid confirms; a failure leaves it to the next start. */
  async deleteOpen(browserId: string, sessionId: string): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        await this.client.deleteSession(sessionId);
        await this.forget(browserId);
        return;
      } catch (error) {
        if (attempt >= GRID_DEFAULTS.deleteAttempts) {
          this.logger.error('could not delete a Grid session; the next start deletes it', {
            sessionId: browserId,
            error: (error as Error).message,
          });
          return;
        }
        await new Promise((r) => setTimeout(r, 500 * attempt));
      }
    }
  }

  /** Drops a session from the ledger (deleted, or ended on the Grid). Never rejects. */
  async forget(browserId: string): Promise<void> {
    await this.ledger.remove(browserId).catch((error: unknown) =>
      this.logger.warn('could not update the Grid session ledger', {
        error: (error as Error).message,
      }),
    );
  }

  /**
   * A new session, recorded in the ledger before it is handed out. The caller waits at most
   * `createTimeoutMs`; the request itself runs on, and a session that arrives after its caller
   * gave up (or after close) is deleted at once.
   */
  private async open(
    browserId: string,
    capabilities: Record<string, unknown>,
  ): Promise<{ sessionId: string; cdpUrl: string }> {
    const abort = new AbortController();
    let abandoned = false;
    const request = this.client.newSession(capabilities, abort.signal).then(async (session) => {
      if (abandoned || this.closed) {
        await this.client.deleteSession(session.sessionId).catch((error: unknown) =>
          this.logger.error('could not delete a Grid session that arrived too late', {
            error: (error as Error).message,
          }),
        );
        throw new Error('the Grid session arrived after its create was abandoned');
      }
      try {
        await this.ledger.add({
          browserId,
          sessionId: session.sessionId,
          grid: this.client.safeUrl,
          createdAt: Date.now(),
        });
      } catch (error) {
        await this.client.deleteSession(session.sessionId).catch(() => undefined);
        throw error;
      }
      return session;
    });
    const tracked = request.finally(() => this.creating.delete(tracked));
    tracked.catch(() => undefined);
    this.creating.set(tracked, abort);
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        abandoned = true;
        reject(
          new WebDriverError(
            `Grid at ${this.client.safeUrl} gave no session within ${this.createTimeoutMs / 1000} s (every slot busy?)`,
            undefined,
            undefined,
          ),
        );
      }, this.createTimeoutMs);
      timer.unref();
    });
    try {
      return await Promise.race([request, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }
}
