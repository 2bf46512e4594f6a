// The browser processes of the engine, pooled or serving a session: their launch (a pool refill
// niced so it never takes CPU from a session being served), the server's CDP link made early for
// warm and recycled browsers, their priority restored when they leave the pool, and their disposal
// and that of other background work `close()` waits for.
import { randomUUID } from 'node:crypto';
import { reniceTree } from '../../../chromium.js';
import type { Logger } from '../../logger.js';
import { Unavailable } from '../../errors.js';
import type { BrowserBackend } from './backend.js';
import { disposeBrowser } from './browser.js';
import type { Browser, Viewport } from './browser.js';
import type { ContextLease } from './contexts.js';
import { linkSession } from './contexts-lifecycle.js';
import type { CdpConnection } from './files/cdp-connection.js';
import type { SessionFiles } from './files/session-files.js';
import type { LaunchReason } from './warm-pool.js';

/** What {@link SessionBrowsers} needs from its engine. */
export interface SessionBrowsersOptions {
  backend: BrowserBackend;
  /** Where local browsers get their profiles. */
  browsersDir: string;
  /** Where sessions' files (downloads, uploads) live. */
  filesRoot: string;
  /** Nice value of pool refills, or undefined when a served browser could not be brought back to 0. */
  refillNiceness: number | undefined;
  logger: Logger;
  /** True once the engine is closing: a browser launched then is disposed at once. */
  closed: () => boolean;
  /** Called once when a launched browser's process exits. */
  onExit: (browser: Browser, code: number | null, signal: string | null) => void;
}

/** The engine's browser processes and its background work. */
export class SessionBrowsers {
  private readonly processes = new Map<string, Browser>();
  private readonly disposals = new Set<Promise<void>>();
  /** Server CDP links of warm browsers, made while they wait so a create does not pay for them. */
  private readonly links = new Map<string, ReturnType<typeof linkSession>>();
  /** Pids of niced pool launches not yet ready, raised when a create has to wait for them. */
  private readonly nicedLaunches = new Set<number>();

  constructor(private readonly options: SessionBrowsersOptions) {}

  /** True while browser `id` has a process of ours. */
  has(id: string): boolean {
    return this.processes.has(id);
  }

  /**
   * `pooled`: a warm-pool launch, warmed up (first page rendered) before it is handed out; a
   * refill starts niced when the nice value can be restored later (see {@link promote}).
   */
  async launch(
    viewport?: Viewport,
    userAgent?: string,
    seed?: (profileDir: string) => Promise<void>,
    pooled?: LaunchReason,
  ): Promise<Browser> {
    const { refillNiceness } = this.options;
    const niced = pooled === 'refill' && refillNiceness !== undefined;
    let spawned: number | undefined;
    const browser = await this.options.backend
      .launch(this.options.browsersDir, {
        viewport,
        userAgent,
        seed,
        warm: pooled !== undefined,
        niceness: niced ? refillNiceness : 0,
        onSpawn: niced ? (pid) => this.nicedLaunches.add((spawned = pid)) : undefined,
      })
      .finally(() => {
        if (spawned !== undefined) this.nicedLaunches.delete(spawned);
      });
    this.processes.set(browser.id, browser);
    browser.chromium.process.once('exit', (code, signal) => {
      this.processes.delete(browser.id);
      this.options.onExit(browser, code, signal);
    });
    // The browser may have exited while we awaited: 'exit' fired before the listener existed.
    if (!browser.alive()) {
      this.processes.delete(browser.id);
      this.options.onExit(
        browser,
        browser.chromium.process.exitCode,
        browser.chromium.process.signalCode,
      );
    }
    if (this.options.closed()) await this.dispose(browser);
    else if (pooled !== undefined && browser.alive()) this.linkEarly(browser);
    return browser;
  }

  private linkEarly(browser: Browser): void {
    const link = linkSession(browser, this.options.filesRoot, undefined);
    // Failures surface at create, which links again; nothing to handle here.
    link.catch(() => undefined);
    this.links.set(browser.id, link);
    browser.chromium.process.once('exit', () => this.links.delete(browser.id));
  }

  /** A wiped browser gets a new id (its next session's), and its server link is made early. */
  renew(browser: Browser): void {
    this.processes.delete(browser.id);
    browser.id = randomUUID();
    this.processes.set(browser.id, browser);
    // Not linkEarly: its exit listener would pile up over reuses; the recycler's dispose drops it.
    const link = linkSession(browser, this.options.filesRoot, undefined);
    link.catch(() => undefined);
    this.links.set(browser.id, link);
  }

  /** A browser leaving the pool for a session runs at full priority from now on. */
  promote(browser: Browser): Browser {
    const { refillNiceness } = this.options;
    if (refillNiceness !== undefined && !browser.chromium.renice(refillNiceness, 0)) {
      this.options.logger.warn('could not restore the priority of a warm browser', {
        sessionId: browser.id,
      });
    }
    return browser;
  }

  /** Raises the niced pool launches a create is waiting for to full priority. */
  boost(): void {
    const { refillNiceness } = this.options;
    if (refillNiceness === undefined) return;
    for (const pid of this.nicedLaunches) reniceTree(pid, refillNiceness, 0);
  }

  /** Nices a kept browser while it waits (`on`), like a pool refill, and restores it after. */
  background(browser: Browser, on: boolean): void {
    const { refillNiceness } = this.options;
    if (refillNiceness === undefined) return;
    const [from, to] = on ? [0, refillNiceness] : [refillNiceness, 0];
    browser.chromium.renice(from, to);
  }

  /**
   * Links the server to a new session's browser (downloads, the context's cookies).
   * @throws Unavailable when the browser does not answer (it is disposed, the context freed)
   */
  async prepare(
    browser: Browser,
    lease: ContextLease | undefined,
  ): Promise<{ cdp: CdpConnection; files: SessionFiles }> {
    const early = this.links.get(browser.id);
    this.links.delete(browser.id);
    try {
      // A warm browser is never started from a context (no lease): its early link is complete.
      if (early && !lease)
        return await early.catch(() => linkSession(browser, this.options.filesRoot, lease));
      return await linkSession(browser, this.options.filesRoot, lease);
    } catch (error) {
      lease?.release();
      this.track(this.dispose(browser));
      throw new Unavailable(`Could not start a browser: ${(error as Error).message}`, {
        code: 'browser_launch_failed',
        cause: error,
      });
    }
  }

  /** Kills a browser and removes its profile (or ends its Grid session). */
  async dispose(browser: Browser): Promise<void> {
    await disposeBrowser(browser, this.options.logger);
  }

  /** Disposes a kept browser (the recycler's), dropping its early link; tracked for `close()`. */
  discard(browser: Browser): Promise<void> {
    this.links.delete(browser.id);
    const work = this.dispose(browser);
    this.track(work);
    return work;
  }

  /** Background work `close()` waits for. */
  track(work: Promise<void>): void {
    this.disposals.add(work);
    void work.finally(() => this.disposals.delete(work));
  }

  /** Disposes every browser still running, then waits for all tracked work. */
  async close(): Promise<void> {
    await Promise.all([...this.processes.values()].map((b) => this.dispose(b)));
    await Promise.all(this.disposals);
  }
}
