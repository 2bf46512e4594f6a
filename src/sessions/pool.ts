// A pool of sessions leased to concurrent tasks, reusing each session's page between tasks.
import { SvcError } from '../errors.js';
import type { Session } from './session.js';
import type { SessionManager } from './session-manager.js';
import type { CreateSessionOptions, DriverName, DriverTypes } from './types.js';

/** Options of `manager.pool()`: the pool size plus the options of every session it creates. */
export interface PoolOptions<D extends DriverName = DriverName> extends CreateSessionOptions<D> {
  /** Most sessions open at once, hence most tasks running at once. */
  size: number;
  /**
   * Reset the page between tasks (open dialogs dismissed, `about:blank`). `false` saves one
   * navigation per task for tasks that always navigate first; unattended dialogs are still
   * dismissed. @default true
   */
  reset?: boolean | undefined;
}

/** Counters of a pool, for monitoring and tests. */
export interface PoolStats {
  /** Sessions created, replacements included. */
  created: number;
  /** Sessions replaced because they were lost (browser died, socket dropped for good). */
  replaced: number;
  /** Tasks that ran (finished or failed). */
  tasks: number;
  /** Sessions open now. */
  open: number;
}

interface Slot<D extends DriverName> {
  session: Session<D> | undefined;
  /** The page served a task since it was last reset. */
  dirty: boolean;
}

/**
 * Leases up to `size` sessions to concurrent tasks. Sessions are created on demand and kept; a
 * task gets a page reset to `about:blank` with dialogs cleared (not a new context: cookies and
 * storage persist within a session). A session found lost is released and replaced before the
 * next task; a task that fails because its session died rejects with that SessionError.
 * @example
 * const pool = manager.pool({ size: 4, driver: 'puppeteer' });
 * const titles = await Promise.all(urls.map((url) => pool.run(async (page) => {
 *   await page.goto(url);
 *   return page.title();
 * })));
 * await pool.close();
 */
export class SessionPool<D extends DriverName = DriverName> {
  /** Most sessions the pool opens. */
  readonly size: number;
  readonly #reset: boolean;
  readonly #manager: SessionManager<DriverName>;
  readonly #options: CreateSessionOptions<D>;
  readonly #idle: Slot<D>[] = [];
  readonly #all = new Set<Slot<D>>();
  readonly #waiters: { resolve: (slot: Slot<D>) => void; reject: (error: Error) => void }[] = [];
  readonly #stats = { created: 0, replaced: 0, tasks: 0 };
  #closing: Promise<void> | undefined;

  /** @internal Use `manager.pool()`. */
  constructor(manager: SessionManager<DriverName>, options: PoolOptions<D>) {
    const { size, reset, ...createOptions } = options;
    if (!Number.isInteger(size) || size < 1) {
      throw new SvcError(`Invalid option size: expected a positive integer, got ${String(size)}`);
    }
    this.size = size;
    this.#reset = reset ?? true;
    this.#manager = manager;
    this.#options = createOptions;
  }

  /** Counters since the pool was made. */
  get stats(): PoolStats {
    let open = 0;
    for (const slot of this.#all) if (slot.session && !slot.session.released) open++;
    return { ...this.#stats, open };
  }

  /**
   * Runs `task` with a leased page and its session, waiting for a free session when all are busy.
   * @throws what `task` throws; SessionError when its session was lost; what creating a session
   * throws; SvcError when the pool is closed
   */
  async run<T>(
    task: (page: DriverTypes[D]['page'], session: Session<D>) => Promise<T>,
  ): Promise<T> {
    const slot = await this.#lease();
    try {
      const session = await this.#ready(slot);
      this.#stats.tasks++;
      slot.dirty = true;
      return await task(session.page, session);
    } finally {
      this.#return(slot);
    }
  }

  /**
   * Stops leasing (queued tasks reject), and releases every session, busy ones included.
   * @throws AggregateError of the release errors
   */
  close(): Promise<void> {
    return (this.#closing ??= (async () => {
      const closed = new SvcError('SessionPool is closed');
      for (const waiter of this.#waiters.splice(0)) waiter.reject(closed);
      const sessions = [...this.#all].flatMap((s) => (s.session ? [s.session] : []));
      const results = await Promise.allSettled(sessions.map((s) => s.release()));
      const errors = results.flatMap((r) => (r.status === 'rejected' ? [r.reason as unknown] : []));
      if (errors.length > 0) throw new AggregateError(errors, 'Releasing pool sessions failed');
    })());
  }

  #lease(): Promise<Slot<D>> {
    if (this.#closing) return Promise.reject(new SvcError('SessionPool is closed'));
    const idle = this.#idle.pop();
    if (idle) return Promise.resolve(idle);
    if (this.#all.size < this.size) {
      const slot: Slot<D> = { session: undefined, dirty: false };
      this.#all.add(slot);
      return Promise.resolve(slot);
    }
    return new Promise((resolve, reject) => this.#waiters.push({ resolve, reject }));
  }

  #return(slot: Slot<D>): void {
    if (this.#closing) {
      void slot.session?.release().catch((error: unknown) => this.#warn(slot, error));
      return;
    }
    const next = this.#waiters.shift();
    if (next) next.resolve(slot);
    else this.#idle.push(slot);
  }

  /** The slot's session, ready for a task: created, replaced when lost, or reset when used. */
  async #ready(slot: Slot<D>): Promise<Session<D>> {
    const current = slot.session;
    if (current && !current.lost && !current.released) {
      if (!slot.dirty || !this.#reset) return current;
      try {
        await current.reset();
        slot.dirty = false;
        return current;
      } catch (error) {
        // A page that cannot even load about:blank is no use to the next task: replace it.
        this.#warn(slot, error);
      }
    }
    if (current) {
      this.#stats.replaced++;
      slot.session = undefined;
      await current.release().catch((error: unknown) => this.#warn(slot, error));
    }
    const session = await this.#manager.create<D>(this.#options);
    this.#stats.created++;
    if (this.#closing) {
      await session.release();
      throw new SvcError('SessionPool is closed');
    }
    slot.session = session;
    slot.dirty = false;
    return session;
  }

  #warn(slot: Slot<D>, error: unknown): void {
    this.#manager.emit('warning', {
      sessionId: slot.session?.id,
      message: 'A pool session could not be reset or released cleanly',
      error,
    });
  }
}
