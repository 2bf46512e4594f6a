// Pre-launched browsers, so that creating a session does not wait for Chromium to start.
import type { Logger } from '../../logger.js';

/** A launched browser waiting for a session (or handed to one). */
export interface PoolItem {
  /** The session id this browser will serve; its profile dir is named after it. */
  id: string;
  alive(): boolean;
}

interface Waiter<T> {
  resolve: (item: T) => void;
  reject: (error: unknown) => void;
}

/**
 * Keeps `size` browsers ready. `take()` hands out a ready one at once, or waits for one in flight,
 * and starts a refill in the background. A failing launcher backs off instead of spinning.
 */
export class WarmPool<T extends PoolItem> {
  private readonly ready: T[] = [];
  private readonly waiters: Waiter<T>[] = [];
  private readonly inflight = new Set<Promise<void>>();
  private failures = 0;
  private backoff: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(
    private readonly size: number,
    private readonly launch: () => Promise<T>,
    private readonly discard: (item: T) => Promise<void>,
    private readonly logger: Logger,
  ) {}

  /** Number of ready browsers. */
  get readyCount(): number {
    return this.ready.length;
  }

  /** Starts launches until `size` browsers are ready or in flight. */
  fill(): void {
    if (this.closed || this.backoff) return;
    while (this.ready.length + this.inflight.size - this.waiters.length < this.size)
      this.launchOne();
  }

  /** A ready browser, or the next one to finish launching. @throws the launch error when none can start */
  take(): Promise<T> {
    if (this.closed) return Promise.reject(new Error('browser pool is closed'));
    const item = this.ready.shift();
    if (item) {
      this.fill();
      return Promise.resolve(item);
    }
    const promise = new Promise<T>((resolve, reject) => this.waiters.push({ resolve, reject }));
    // Every waiter gets its own launch in flight, even while the pool backs off.
    if (this.inflight.size < this.waiters.length) this.launchOne();
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
    for (const w of this.waiters.splice(0)) w.reject(new Error('browser pool is closed'));
    const ready = this.ready.splice(0);
    await Promise.all([...ready.map((i) => this.discard(i)), ...this.inflight]);
  }

  private launchOne(): void {
    const run = this.launch().then(
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
        const delay = Math.min(30_000, 500 * 2 ** this.failures);
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
    this.inflight.add(run);
  }
}
