// Where the browsers of sessions come from: local Chromium processes (the default) or a Selenium
// Grid (`svc serve --grid-url`). The rest of the engine sees one `Browser` with one browser-level
// CDP endpoint (`chromium.wsEndpoint`) either way: the `/cdp` relay, contexts, live view and
// recording all connect there; only what needs this machine's disk or process table differs.
import { findSessionChromium } from '../../../chromium.js';
import type { Logger } from '../../logger.js';
import { launchBrowser } from './browser.js';
import type { Browser, LaunchBrowserOptions } from './browser.js';
import { GridBackend } from './grid-backend.js';
import type { GridBackendOptions } from './grid-backend.js';
import { reapLeftovers } from './reaper.js';

/** What a start found and ended of a previous server's browsers. */
export interface ReapReport {
  /** Local processes killed. */
  killed: number;
  /** Local profile dirs removed. */
  removed: number;
  /** Grid sessions deleted (recorded as ours, still open). */
  gridDeleted?: number;
}

/** A source of browsers for sessions. */
export interface BrowserBackend {
  /** `local`: Chromium processes on this machine; `grid`: sessions on a Selenium Grid. */
  readonly kind: 'local' | 'grid';
  /**
   * Whether the warm pool may hold browsers ahead of demand. False on a Grid: an idle pre-created
   * session would hold a slot of a farm other users share.
   */
  readonly poolable: boolean;
  /**
   * Whether the browser writes its downloads and reads its uploads on this machine (session
   * files). False on a Grid: the browser's disk is the node's.
   */
  readonly localFiles: boolean;
  /** Ends what a previous server on this data dir left behind (processes, Grid sessions). */
  reap(browsersDir: string): Promise<ReapReport>;
  /** Resolves when browsers can be had. @throws the reason they cannot (no Chromium, no Grid) */
  check(): Promise<void>;
  /** Starts a browser with a fresh profile. @throws the launch or Grid error */
  launch(browsersDir: string, options: LaunchBrowserOptions): Promise<Browser>;
  /** Ends browsers still being created (server shutdown); live ones are disposed by their owners. */
  close(): Promise<void>;
}

/**
 * Local Chromium processes, one per session (see `launchBrowser`). Found with the packaged
 * headless shell first (`findSessionChromium`): it starts and renders its first
 * page about three times as fast as a full Chromium, which is most of a cold session's cost.
 */
export class LocalBackend implements BrowserBackend {
  readonly kind = 'local';
  readonly poolable = true;
  readonly localFiles = true;

  /** @param chromePath the executable; discovered by `findSessionChromium` when undefined */
  constructor(private readonly chromePath: string | undefined) {}

  reap(browsersDir: string): Promise<ReapReport> {
    return reapLeftovers(browsersDir);
  }

  async check(): Promise<void> {
    await this.executable();
  }

  async launch(browsersDir: string, options: LaunchBrowserOptions): Promise<Browser> {
    return launchBrowser(browsersDir, await this.executable(), options);
  }

  async close(): Promise<void> {
    // Local launches are awaited by their callers, which dispose of them once closed.
  }

  private async executable(): Promise<string> {
    return this.chromePath ?? (await findSessionChromium()).path;
  }
}

/** What selects a backend (from `ServerConfig`). */
export interface BackendConfig {
  chromePath: string | undefined;
  /** A Selenium Grid 4 URL: sessions run there instead of on this machine. */
  gridUrl: string | undefined;
  dataDir: string;
}

/**
 * The backend `config` asks for: a {@link GridBackend} when `gridUrl` is set, else local Chromium.
 * @throws Error naming `gridUrl` when it is not an http(s) URL
 */
export function createBackend(
  config: BackendConfig,
  logger: Logger,
  gridOptions: GridBackendOptions = {},
): BrowserBackend {
  if (config.gridUrl === undefined) return new LocalBackend(config.chromePath);
  return new GridBackend(config.gridUrl, config.dataDir, logger, gridOptions);
}
