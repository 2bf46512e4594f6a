// Same-user browser recycling: the browser of a session that ended cleanly is wiped and handed to
// the next session of the same user, so a back-to-back create costs a wipe (tens of ms) instead
// of a Chromium launch (about 0.6 CPU-seconds, which on 2 cores competes with the session).
//
// Off by default. What a wipe clears, over the server's own CDP connection to the browser:
// every target (tabs, their sessionStorage, back/forward state, workers) and every browser
// context a client made; in the default context, all cookies, the HTTP cache (and the V8 code
// cache kept in it), permissions and the download behaviour; and, for every origin the session
// was seen to use, everything `Storage.clearDataForOrigin` clears (localStorage, IndexedDB,
// Cache Storage, service worker registrations, file systems, shared storage). The origins are the
// URLs of every target seen while the session ran (`Target.setDiscoverTargets`: pages, out-of-
// process iframes, workers, service workers), the domains of its cookies, the origins of every
// service worker registration, and those named by the profile's IndexedDB folders and its
// localStorage log. A fresh `about:blank` with a live renderer is then the only target.
//
// What a same-user reuse can still observe, because Chromium offers no complete enumeration of
// per-origin state over CDP: storage of an origin that never appeared in any of those places (a
// same-site iframe, which shares its parent's process and is no target, writing localStorage
// that is still only in memory); the HTTP authentication cache, open keep-alive sockets, DNS, HSTS
// and TLS session caches; visited-link history (`:visited`). The session ids, connect tokens,
// download folders, live views and recordings are new for every session whatever the browser.
// That residue is acceptable between two sessions of one user who asked for it (the user could
// have run both in one session), never between users: a recycled browser is only ever handed to
// the user whose session it served, and sessions that need launch-time settings or a provable
// start state (saved context, recording, custom viewport or user agent) always get a fresh one.
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from '../../logger.js';
import type { Browser } from './browser.js';
import { CdpConnection } from './files/cdp-connection.js';

/** Options of same-user browser recycling (`startServer({ recycle })`, `svc serve --recycle`). */
export interface RecycleOptions {
  /** Hand wiped browsers to the next session of the same user. @default false */
  enabled?: boolean | undefined;
  /** How long a wiped browser waits for its user's next session before it is killed. @default 15_000 */
  maxIdleMs?: number | undefined;
  /** Wiped browsers kept per user. @default 1 */
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

/** Defaults of {@link RecycleOptions}, plus the wipe's time limit. */
export const DEFAULTS = {
  enabled: false,
  maxIdleMs: 15_000,
  maxPerUser: 1,
  maxTotal: 2,
  maxUses: 20,
  /** A wipe that takes longer than this is abandoned and the browser killed. */
  wipeTimeoutMs: 5_000,
  /** How long the pages of the ended session may take to close before the wipe gives up. */
  closeTimeoutMs: 2_000,
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
    await call(cdp, 'Target.setDiscoverTargets', { discover: true });
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
   * @returns a promise of the browser, or undefined when `userId` has none (or its wipe failed)
   */
  claim(userId: string): Promise<Browser | undefined> | undefined {
    if (!this.enabled) return undefined;
    const at = this.parked.findIndex((p) => p.userId === userId && p.browser.alive());
    if (at >= 0) {
      const [entry] = this.parked.splice(at, 1);
      clearTimeout(entry!.timer);
      entry!.browser.chromium.process.off('exit', entry!.onExit);
      return Promise.resolve(entry!.browser);
    }
    for (const entry of this.wiping) {
      if (entry.userId !== userId || entry.claimed) continue;
      entry.claimed = true;
      this.wiping.delete(entry);
      return entry.done;
    }
    return undefined;
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

/** Sends one command; a failure names the command (the browser's messages alone rarely do). */
async function call<T = Record<string, unknown>>(
  cdp: CdpConnection,
  method: string,
  params: object = {},
): Promise<T> {
  try {
    return await cdp.send<T>(method, params as Record<string, unknown>);
  } catch (error) {
    throw new Error(`${method}: ${(error as Error).message}`, { cause: error });
  }
}

/** Adds the origin of an http(s) `url` to `origins`. */
function addOrigin(origins: Set<string>, url: unknown): void {
  if (typeof url !== 'string' || !/^https?:/.test(url)) return;
  try {
    origins.add(new URL(url).origin);
  } catch {
    // not a URL: nothing to clear for it
  }
}

/**
 * Wipes a browser over a new CDP connection (see the file's header for what is cleared), leaving
 * one warm `about:blank` page.
 * @throws Error when a step fails or the wipe exceeds `DEFAULTS.wipeTimeoutMs`
 */
export async function wipe(browser: Browser, tracked: ReadonlySet<string>): Promise<void> {
  const cdp = await CdpConnection.open(browser.chromium.wsEndpoint);
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`wipe took over ${DEFAULTS.wipeTimeoutMs} ms`)),
      DEFAULTS.wipeTimeoutMs,
    );
  });
  try {
    await Promise.race([
      wipeOver(cdp, browser.chromium.wsEndpoint, tracked, browser.profileDir),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
    cdp.close();
  }
}

type TargetInfo = { targetId: string; type: string; url: string; browserContextId?: string };

async function wipeOver(
  cdp: CdpConnection,
  browserEndpoint: string,
  tracked: ReadonlySet<string>,
  profileDir: string,
): Promise<void> {
  const origins = new Set(tracked);
  const gone = new Set<string>();
  cdp.on('Target.targetDestroyed', (p) => gone.add(String(p.targetId)));
  // Independent steps run together: the user's next session may be waiting for this wipe. The
  // new page comes first in the browser's eyes (it keeps a window open) and becomes the session's.
  const [{ targetId: blank }, { targetInfos }, { browserContextIds }, { cookies }, onDisk] =
    await Promise.all([
      call<{ targetId: string }>(cdp, 'Target.createTarget', { url: 'about:blank' }),
      call<{ targetInfos: TargetInfo[] }>(cdp, 'Target.getTargets'),
      call<{ browserContextIds: string[] }>(cdp, 'Target.getBrowserContexts'),
      call<{ cookies: { domain: string; secure: boolean }[] }>(cdp, 'Storage.getCookies'),
      originsOnDisk(profileDir),
      call(cdp, 'Target.setDiscoverTargets', { discover: true }),
    ]);
  for (const t of targetInfos) addOrigin(origins, t.url);
  for (const c of cookies) {
    const host = c.domain.replace(/^\./, '');
    addOrigin(origins, `https://${host}`);
    if (!c.secure) addOrigin(origins, `http://${host}`);
  }
  for (const origin of onDisk) origins.add(origin);
  const old = targetInfos.filter((t) => t.targetId !== blank && t.type === 'page');
  // Page-level commands go over the page's own endpoint: the browser connection stays flat.
  const [page] = await Promise.all([
    CdpConnection.open(
      browserEndpoint.replace(/\/devtools\/browser\/.*$/, `/devtools/page/${blank}`),
    ),
    // A page of a disposed context may be gone first; `untilGone` checks every one.
    ...old.map((t) =>
      call(cdp, 'Target.closeTarget', { targetId: t.targetId }).catch(() => undefined),
    ),
    ...browserContextIds.map((id) =>
      call(cdp, 'Target.disposeBrowserContext', { browserContextId: id }),
    ),
  ]);
  try {
    const registrations = new Set<string>();
    page.on('ServiceWorker.workerRegistrationUpdated', (p) => {
      for (const r of (p.registrations ?? []) as { scopeURL?: unknown }[])
        addOrigin(registrations, r.scopeURL);
    });
    await call(page, 'ServiceWorker.enable');
    await call(page, 'ServiceWorker.stopAllWorkers');
    // A closing page may still run its unload handlers: clear only once no old page is left.
    await untilGone(cdp, old, gone);
    for (const origin of registrations) origins.add(origin);
    await Promise.all([
      ...[...origins].map((origin) =>
        call(page, 'Storage.clearDataForOrigin', { origin, storageTypes: 'all' }),
      ),
      call(cdp, 'Storage.clearCookies'),
      call(page, 'Network.clearBrowserCache'),
      call(cdp, 'Browser.resetPermissions'),
      call(cdp, 'Browser.setDownloadBehavior', { behavior: 'default' }),
      // The session's first navigation then finds a running renderer.
      call(page, 'Runtime.evaluate', { expression: '1' }),
    ]);
  } finally {
    page.close();
  }
}

/**
 * Resolves once every page of `old` is destroyed (seen in `gone`, or absent from the targets).
 * @throws Error when one is still there after `DEFAULTS.closeTimeoutMs`
 */
async function untilGone(
  cdp: CdpConnection,
  old: readonly TargetInfo[],
  gone: ReadonlySet<string>,
): Promise<void> {
  const deadline = Date.now() + DEFAULTS.closeTimeoutMs;
  for (;;) {
    if (old.every((t) => gone.has(t.targetId))) return;
    const { targetInfos } = await call<{ targetInfos: TargetInfo[] }>(cdp, 'Target.getTargets');
    const left = old.filter((t) => targetInfos.some((i) => i.targetId === t.targetId));
    if (left.length === 0) return;
    if (Date.now() > deadline) throw new Error(`${left.length} page(s) survived the wipe`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/**
 * Origins named in the profile: IndexedDB folders (`http_127.0.0.1_8080.indexeddb.leveldb`) and
 * localStorage keys (`META:<origin>` in the LevelDB log, written as a page stores data).
 */
async function originsOnDisk(profileDir: string): Promise<Set<string>> {
  const origins = new Set<string>();
  const base = path.join(profileDir, 'Default');
  for (const name of await readdir(path.join(base, 'IndexedDB')).catch(() => [])) {
    const m = /^(https?)_(.+)_(\d+)\.indexeddb\.(?:leveldb|blob)$/.exec(name);
    if (m) addOrigin(origins, `${m[1]}://${m[2]}:${m[3]}`);
  }
  const leveldb = path.join(base, 'Local Storage', 'leveldb');
  for (const name of await readdir(leveldb).catch(() => [])) {
    if (!name.endsWith('.log') && !name.endsWith('.ldb')) continue;
    const text = await readFile(path.join(leveldb, name), 'latin1').catch(() => '');
    for (const m of text.matchAll(/META:(https?:\/\/[\w.:[\]-]+)/g)) addOrigin(origins, m[1]);
  }
  return origins;
}
