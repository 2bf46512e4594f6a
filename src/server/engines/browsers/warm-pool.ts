// Pre-launched browsers, so that creating a session does not wait for Chromium to start.
//
// Why one fresh browser per session, even though it caps sustained throughput: a Chromium launch
// costs about 0.6 CPU-seconds, so on 2 cores a stream of back-to-back sessions outruns the refills
// after `size` sessions and then waits for launches (refills run niced and after the request path
// is idle, so a session being served is not slowed by them, but they cannot go faster than the
// CPU). The alternative, handing the browser of an ended session, wiped, to the next session of
// the *same* user only (never across users), is built as an opt-in (`recycle`, see recycle.ts):
// back-to-back creates then cost a wipe instead of a launch. It is not the default because
// "wiped" cannot be proven for the default browser context that CDP clients use (Puppeteer's
// `browser.newPage()`, Playwright's `contexts()[0]`): cookies and cache clear wholesale over CDP,
// but localStorage, IndexedDB and service workers are per origin with no complete enumeration,
// and HTTP auth, socket pools and visited-link history are not cleared at all. Within one user
// that leaks between sessions the user may expect to be separate (two agents, two logins); a new
// process and profile leaves nothing to miss. Pool size (`warmPoolSize`) is the knob for bursts.
import type { Logger } from '../../logger.js';

/** A launched browser waiting for a session (or handed to one). */
export interface PoolItem {
  /** The session id this browser will serve; its profile dir is named after it. */
  id: string;
  alive(): boolean;
}

/**
 * Why a launch happens: `refill` keeps the pool full in the background while it still holds a
 * browser (the launcher may run it at low priority); `demand` is for a pool that is empty or a
 * `take()` that waits: full priority, since a session needs it now.
 */
export type LaunchReason = 'refill' | 'demand';

/** Options of {@link WarmPool}. */
export interface WarmPoolOptions {
  /**
   * True while a request is being served (a session being created, a client connecting): refills
   * wait until it turns false, or until `maxDeferMs` passed, so a launch never starts in the middle
   * of a session's first steps. @default never busy
   */
  busy?: (() => boolean) | undefined;
  /** Quiet time after a `take()` before a refill starts. @default DEFAULTS.quietMs */
  quietMs?: number | undefined;
  /** Longest a refill waits for the request path to be idle. @default DEFAULTS.maxDeferMs */
  maxDeferMs?: number | undefined;
  /**
   * Called when a `take()` must wait while low-priority refills are under way: the launcher should
   * raise them to full priority, since one of them will serve that session. @default nothing
   */
  boost?: (() => void) | undefined;
}

/** Defaults of {@link WarmPool}. */
export const DEFAULTS = {
  /** A session's create, connect and first load follow its `take()` within about this long. */
  quietMs: 250,
  /** Under sustained demand the pool must still refill: a niced launch after this long. */
  maxDeferMs: 1_000,
  /** How often a deferred refill looks again. */
  pollMs: 25,
  /** Backoff of a failing launcher: 500 ms doubling up to 30 s. */
  backoffBaseMs: 500,
  backoffMaxMs: 30_000,
} as const;

interface Waiter<T> {
  resolve: (item: T) => void;
  reject: (error: unknown) => void;
}

/**
 * Keeps `size` browsers ready. `take()` hands out a ready one at once, or waits for one in flight
 * (starting a `demand` launch of its own, so it never waits behind a low-priority refill alone).
 * Refills start in the background once the request path is idle (see `WarmPoolOptions.busy`). A
 * failing launcher backs off instead of spinning.
 * @example
 * const pool = new WarmPool(2, (reason) => launch(reason), dispose, logger);
 * pool.fill(); const browser = await pool.take();
 */
export class WarmPool<T extends PoolItem> {
  private readonly ready: T[] = [];
  private readonly waiters: Waiter<T>[] = [];
  private readonly inflight = new Map<Promise<void>, LaunchReason>();
  private failures = 0;
  private backoff: NodeJS.Timeout | undefined;
  private deferTimer: NodeJS.Timeout | undefined;
  private deferredSince: number | undefined;
  private lastTake = 0;
  private closed = false;
  private readonly busy: () => boolean;
  private readonly quietMs: number;
  private readonly maxDeferMs: number;
  private readonly boost: () => void;

  constructor(
    private readonly size: number,
    private readonly launch: (reason: LaunchReason) => Promise<T>,
    private readonly discard: (item: T) => Promise<void>,
    private readonly logger: Logger,
    options: WarmPoolOptions = {},
  ) {
    this.busy = options.busy ?? (() => false);
    this.quietMs = options.quietMs ?? DEFAULTS.quietMs;
    this.maxDeferMs = options.maxDeferMs ?? DEFAULTS.maxDeferMs;
    this.boost = options.boost ?? (() => undefined);
  }

  /** Number of ready browsers. */
  get readyCount(): number {
    return this.ready.length;
  }

  /** Number of launches under way (refills and demand launches). */
  get launchingCount(): number {
    return this.inflight.size;
  }

  /** Number of `take()` calls waiting for a browser. */
  get waitingCount(): number {
    return this.waiters.length;
  }

  /** Starts refills until `size` browsers are ready or in flight, once the request path is idle. */
  fill(): void {
    if (this.closed || this.backoff || !this.missing()) return;
    const now = Date.now();
    const idle = !this.busy() && now - this.lastTake >= this.quietMs;
    this.deferredSince ??= now;
    if (idle || now - this.deferredSince >= this.maxDeferMs) {
      this.deferredSince = undefined;
      clearTimeout(this.deferTimer);
      this.deferTimer = undefined;
      // An empty pool means the next create waits for this launch: no reason to hold it back.
      while (this.missing()) this.launchOne(this.ready.length > 0 ? 'refill' : 'demand');
      return;
    }
    if (this.deferTimer) return;
    this.deferTimer = setTimeout(() => {
      this.deferTimer = undefined;
      this.fill();
    }, DEFAULTS.pollMs);
    this.deferTimer.unref();
  }

  /** A ready browser, or the next one to finish launching. @throws the launch error when none can start */
  take(): Promise<T> {
    if (this.closed) return Promise.reject(new Error('browser pool is closed'));
    this.lastTake = Date.now();
    const item = this.ready.shift();
    if (item) {
      this.fill();
      return Promise.resolve(item);
    }
    const promise = new Promise<T>((resolve, reject) => this.waiters.push({ resolve, reject }));
    // Refills under way are further along than a new launch: raise them first.
    let raised = false;
    for (const [run, reason] of this.inflight) {
      if (reason !== 'refill') continue;
      this.inflight.set(run, 'demand');
      raised = true;
    }
    if (raised) this.boost();
    // Every waiter gets a full-priority launch, even while the pool backs off.
    if (this.demandCount() < this.waiters.length) this.launchOne('demand');
    this.fill();
    return promise;
  }

  /** Drops a ready browser that died while waiting; returns whether it was in the pool. */
  remove(id: string): boolean {
    const at = this.ready.findIndex((i) => i.id === id);
    if (at < 0) return false;
    this.ready.splice(at, 1);
    this.fill();
    return true;
  }

  /** Stops refilling, rejects waiters, and discards every ready or in-flight browser. */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.backoff);
    clearTimeout(this.deferTimer);
    for (const w of this.waiters.splice(0)) w.reject(new Error('browser pool is closed'));
    const ready = this.ready.splice(0);
    await Promise.all([...ready.map((i) => this.discard(i)), ...this.inflight.keys()]);
  }

  private missing(): boolean {
    return this.ready.length + this.inflight.size - this.waiters.length < this.size;
  }

  private demandCount(): number {
    let n = 0;
    for (const reason of this.inflight.values()) if (reason === 'demand') n++;
    return n;
  }

  private launchOne(reason: LaunchReason): void {
    const run: Promise<void> = this.launch(reason).then(
      (item) => {
        this.failures = 0;
        this.inflight.delete(run);
        if (this.closed || !item.alive()) {
          return this.discard(item).finally(() => this.fill());
        }
        const waiter = this.waiters.shift();
        if (waiter) waiter.resolve(item);
        else this.ready.push(item);
        this.fill();
        return undefined;
      },
      (error: unknown) => {
        this.inflight.delete(run);
        const waiter = this.waiters.shift();
        if (waiter) {
          waiter.reject(error);
          return;
        }
        if (this.closed) return;
        this.failures++;
        const delay = Math.min(DEFAULTS.backoffMaxMs, DEFAULTS.backoffBaseMs * 2 ** this.failures);
        this.logger.warn('browser pool launch failed; retrying later', {
          error: (error as Error).message,
          retryInMs: delay,
        });
        this.backoff = setTimeout(() => {
          this.backoff = undefined;
          this.fill();
        }, delay);
        this.backoff.unref();
      },
    );
    this.inflight.set(run, reason);
  }
}
