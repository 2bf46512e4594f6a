// Same-user browser recycling: the browser of a session that ended cleanly is wiped (wipe.ts) and
// handed to the next session of the same user, so a back-to-back create costs a wipe instead of a
// Chromium launch (about 0.6 CPU-seconds, which on 2 cores competes with the session). With
// `maxPerUser` 2 (the default) a user's back-to-back sessions alternate between two browsers, one
// wiped while the other serves, so a create does not even wait for the wipe.
//
// Off by default. A wipe leaves a residue that no CDP command clears (wipe.ts lists it). That
// residue is acceptable between two sessions of one user who asked for it (the user could have
// run both in one session), never between users: a recycled browser is only ever handed to the
// user whose session it served, and sessions that need launch-time settings or a provable start
// state (saved context, recording, custom viewport or user agent) always get a fresh one.
import type { Logger } from '../../logger.js';
import type { Browser } from './browser.js';
import type { CdpConnection } from './files/cdp-connection.js';
import { addOrigin, callNamed, wipe } from './wipe.js';

/** Options of same-user browser recycling (`startServer({ recycle })`, `svc serve --recycle`). */
export interface RecycleOptions {
  /** Hand wiped browsers to the next session of the same user. @default false */
  enabled?: boolean | undefined;
  /** How long a wiped browser waits for its user's next session before it is killed. @default 15_000 */
  maxIdleMs?: number | undefined;
  /**
   * Browsers kept per user, parked or being wiped. With 2, back-to-back sessions alternate
   * between two browsers: one is wiped while the other serves, so a create does not wait for a
   * wipe (see {@link BrowserRecycler.claim}). @default 2
   */
  maxPerUser?: number | undefined;
  /** Wiped browsers kept in all (they count against `maxSessions`). @default 2 */
  maxTotal?: number | undefined;
  /** Sessions one browser serves before it is killed instead of wiped again. @default 20 */
  maxUses?: number | undefined;
}

/** {@link RecycleOptions} with defaults applied. */
export type RecycleConfig = Required<{
  [K in keyof RecycleOptions]: NonNullable<RecycleOptions[K]>;
}>;

/** Defaults of {@link RecycleOptions}. */
export const DEFAULTS = {
  enabled: false,
  maxIdleMs: 15_000,
  maxPerUser: 2,
  maxTotal: 2,
  maxUses: 20,
} as const;

/**
 * Applies defaults to `recycle` (`true` and `false` switch it with default limits).
 * @throws Error naming the option (`recycle.maxIdleMs`, ...) when a value is out of range
 */
export function resolveRecycleOptions(
  recycle: boolean | RecycleOptions | undefined,
): RecycleConfig {
  const options = typeof recycle === 'boolean' ? { enabled: recycle } : (recycle ?? {});
  const config: RecycleConfig = {
    enabled: options.enabled ?? DEFAULTS.enabled,
    maxIdleMs: options.maxIdleMs ?? DEFAULTS.maxIdleMs,
    maxPerUser: options.maxPerUser ?? DEFAULTS.maxPerUser,
    maxTotal: options.maxTotal ?? DEFAULTS.maxTotal,
    maxUses: options.maxUses ?? DEFAULTS.maxUses,
  };
  if (typeof config.enabled !== 'boolean')
    throw new Error(`recycle.enabled: expected a boolean, got ${String(config.enabled)}`);
  for (const name of ['maxIdleMs', 'maxPerUser', 'maxTotal', 'maxUses'] as const) {
    const value = config[name];
    if (!Number.isInteger(value) || value < 1)
      throw new Error(`recycle.${name}: expected a positive integer, got ${String(value)}`);
  }
  return config;
}

interface Parked {
  userId: string;
  browser: Browser;
  timer: NodeJS.Timeout;
  onExit: () => void;
}

interface Wiping {
  userId: string;
  browser: Browser;
  done: Promise<Browser | undefined>;
  claimed: boolean;
}

/** What the engine does with browsers the recycler gives back or readies. */
export interface RecycleHooks {
  /** Kills a browser and removes its profile. */
  dispose(browser: Browser): Promise<void>;
  /** Called once a browser is wiped, before it is parked (the engine gives it a new id). */
  renew(browser: Browser): void;
  /**
   * Moves a browser between background priority (`true`: while it is wiped and parked, so a
   * wipe never takes CPU from a session being served) and full priority (`false`: it serves a
   * session now, or its user waits for its wipe).
   */
  background(browser: Browser, on: boolean): void;
}

/**
 * Wiped browsers waiting for their user's next session, and wipes under way. Both count against
 * the session limit (`count`). A parked browser that exits, or waits past `maxIdleMs`, is disposed.
 * @example
 * const recycler = new BrowserRecycler(resolveRecycleOptions(true), hooks, logger);
 * const origins = await recycler.track(cdp); // when the session starts
 * recycler.recycle('alice', browser, origins); // when it ends cleanly
 * const next = await recycler.claim('alice'); // the next create of alice
 */
export class BrowserRecycler {
  private readonly parked: Parked[] = [];
  private readonly wiping = new Set<Wiping>();
  /** Sessions each browser served so far. */
  private readonly uses = new WeakMap<Browser, number>();
  private closed = false;

  constructor(
    readonly config: RecycleConfig,
    private readonly hooks: RecycleHooks,
    private readonly logger: Logger,
  ) {}

  /** Whether recycling is on. */
  get enabled(): boolean {
    return this.config.enabled && !this.closed;
  }

  /** Browsers parked or being wiped: processes that count against `maxSessions`. */
  get count(): number {
    return this.parked.length + this.wiping.size;
  }

  /** Browsers parked and ready, per user (for diagnostics and tests). */
  parkedOf(userId: string): number {
    return this.parked.filter((p) => p.userId === userId).length;
  }

  /**
   * Starts recording the origins a session uses, on the server's CDP link to its browser.
   * @returns the live set of origins (filled as targets appear and navigate)
   * @throws the CDP error when the browser does not answer
   */
  async track(cdp: CdpConnection): Promise<Set<string>> {
    const origins = new Set<string>();
    const seen = (params: Record<string, unknown>): void => {
      const info = params.targetInfo as { url?: unknown } | undefined;
      addOrigin(origins, info?.url);
    };
    cdp.on('Target.targetCreated', seen);
    cdp.on('Target.targetInfoChanged', seen);
    await callNamed(cdp, 'Target.setDiscoverTargets', { discover: true });
    return origins;
  }

  /**
   * Wipes `browser` in the background and parks it for `userId`; a browser that cannot be wiped,
   * or that exceeds the limits, is disposed. The oldest parked browser (of this user first when at
   * `maxPerUser`, of anyone at `maxTotal`) makes room for the newest.
   */
  recycle(userId: string, browser: Browser, origins: ReadonlySet<string>): void {
    const uses = (this.uses.get(browser) ?? 0) + 1;
    this.uses.set(browser, uses);
    if (!this.enabled || !browser.alive() || uses >= this.config.maxUses) {
      void this.hooks.dispose(browser);
      return;
    }
    const entry: Wiping = { userId, browser, claimed: false, done: Promise.resolve(undefined) };
    this.hooks.background(browser, true);
    entry.done = wipe(browser, origins).then(
      () => {
        this.wiping.delete(entry);
        if (this.closed || !browser.alive()) {
          void this.hooks.dispose(browser);
          return undefined;
        }
        this.hooks.renew(browser);
        if (entry.claimed) return browser;
        this.park(userId, browser);
        return undefined;
      },
      (error: unknown) => {
        this.wiping.delete(entry);
        this.logger.warn('browser not recycled: the wipe failed', {
          error: (error as Error).message,
        });
        void this.hooks.dispose(browser);
        return undefined;
      },
    );
    this.wiping.add(entry);
  }

  /**
   * Takes a wiped browser of `userId` for a new session: a parked one at once, else one being
   * wiped once its wipe ends. Synchronous bookkeeping (the browser stops counting here, the
   * caller counts it as a create), so call it before checking the limit.
   *
   * Double buffering: when the user's browsers are all being wiped, fewer than `maxPerUser`, and
   * `fresh` says a pooled browser is ready, the session takes that one instead of waiting; once
   * it ends, the user has two browsers that alternate (one wiped while the other serves), and a
   * back-to-back create finds one parked. The pool then refills once, at low priority.
   * @returns a promise of the browser, or undefined when `userId` has none (or its wipe failed),
   * or when the session should take the ready pooled browser
   */
  claim(userId: string, fresh = false): Promise<Browser | undefined> | undefined {
    if (!this.enabled) return undefined;
    const at = this.parked.findIndex((p) => p.userId === userId && p.browser.alive());
    if (at >= 0) {
      const [entry] = this.parked.splice(at, 1);
      clearTimeout(entry!.timer);
      entry!.browser.chromium.process.off('exit', entry!.onExit);
      this.hooks.background(entry!.browser, false);
      return Promise.resolve(entry!.browser);
    }
    const mine = [...this.wiping].filter((w) => w.userId === userId && !w.claimed);
    const entry = mine[0];
    if (!entry || (fresh && mine.length < this.config.maxPerUser)) return undefined;
    entry.claimed = true;
    this.wiping.delete(entry);
    // Its user waits for this wipe now.
    this.hooks.background(entry.browser, false);
    return entry.done;
  }

  /** Disposes the oldest parked browser (any user) to make room. @returns whether one was */
  evictOldest(): boolean {
    const entry = this.parked[0];
    if (!entry) return false;
    this.drop(entry);
    return true;
  }

  /** Disposes every parked browser and waits for the wipes under way (their browsers too). */
  async close(): Promise<void> {
    this.closed = true;
    const parked = this.parked.splice(0);
    for (const p of parked) {
      clearTimeout(p.timer);
      p.browser.chromium.process.off('exit', p.onExit);
    }
    const wiping = [...this.wiping].map((w) => w.done);
    await Promise.all([...parked.map((p) => this.hooks.dispose(p.browser)), ...wiping]);
  }

  private park(userId: string, browser: Browser): void {
    const mine = this.parked.filter((p) => p.userId === userId);
    if (mine.length >= this.config.maxPerUser) this.drop(mine[0]!);
    if (this.parked.length >= this.config.maxTotal) this.evictOldest();
    const entry: Parked = {
      userId,
      browser,
      timer: setTimeout(() => this.drop(entry), this.config.maxIdleMs),
      onExit: () => this.drop(entry),
    };
    entry.timer.unref();
    browser.chromium.process.once('exit', entry.onExit);
    this.parked.push(entry);
  }

  private drop(entry: Parked): void {
    const at = this.parked.indexOf(entry);
    if (at < 0) return;
    this.parked.splice(at, 1);
    clearTimeout(entry.timer);
    entry.browser.chromium.process.off('exit', entry.onExit);
    void this.hooks.dispose(entry.browser);
  }
}
