// Shared setup of the session-manager tests: the embedded server, a loopback page server, a
// Chromium started by hand for the `cdp` provider, the shared Selenium Grid for the `grid`
// provider, and the leak count at the end.
import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { launchChromium } from '../../../src/chromium.js';
import type { LaunchedChromium } from '../../../src/chromium.js';
import { SessionManager } from '../../../src/sessions/index.js';
import type { Session, SessionManagerOptions } from '../../../src/sessions/index.js';
import { CHROMIUM_PATH } from '../../support/chromium.js';
import { gridSessionIds, sharedGrid } from '../../support/grid.js';
import { startTestServer } from '../../support/server.js';
import type { TestServer } from '../../support/server.js';
import { KEY, KEYS, pageServer, processesMentioning, tempDir, waitFor } from './helpers.js';

/** The page methods the tests use, common to Playwright and Puppeteer. */
export interface AnyPage {
  goto(url: string): Promise<unknown>;
  title(): Promise<string>;
  url(): string;
  evaluate<T>(fn: () => T): Promise<T>;
}

/** The session's page, typed by what both drivers share. */
export function pageOf(session: Session): AnyPage {
  return session.page as unknown as AnyPage;
}

/** Everything a session test file needs, and its teardown. */
export interface World {
  server: TestServer;
  pages: Awaited<ReturnType<typeof pageServer>>;
  /** Parent of local profiles and of the hand-started browser's profile. */
  root: string;
  handBrowser: LaunchedChromium | undefined;
  /** The shared Selenium Grid (with `grid: true`). */
  grid: { url: string } | undefined;
  /**
   * A switch every Chromium of this world's `grid` sessions carries on its command line (passed
   * through `gridCapabilities`), so the test finds the Grid's browsers that are its own.
   */
  gridMark: string;
  manager(
    provider: 'api' | 'local' | 'cdp' | 'grid',
    extra?: SessionManagerOptions,
  ): SessionManager;
  /** Ids of every session the world's `grid` managers opened (released or not). */
  gridSessions: Set<string>;
  /** Sessions still `running` on the server. */
  runningOnServer(): Promise<string[]>;
  dispose(): Promise<void>;
}

/** Starts the server (and, with `hand`, a Chromium launched by hand for the cdp provider). */
export async function setUp(
  options: { hand?: boolean; maxSessions?: number; grid?: boolean } = {},
): Promise<World> {
  const server = await startTestServer({
    apiKeys: KEYS,
    warmPoolSize: 0,
    ...(options.maxSessions ? { maxSessions: options.maxSessions } : {}),
  });
  const pages = await pageServer();
  const root = tempDir('svc-sessions-test-');
  const handBrowser = options.hand
    ? await launchChromium({
        executablePath: CHROMIUM_PATH,
        userDataDir: path.join(root, 'hand-profile'),
      })
    : undefined;
  const grid = options.grid ? await sharedGrid() : undefined;
  const gridMark = `--svc-test-grid-session=${randomUUID()}`;
  const managers: SessionManager[] = [];
  const gridSessions = new Set<string>();
  const world: World = {
    server,
    pages,
    root,
    handBrowser,
    grid,
    gridMark,
    gridSessions,
    manager(provider, extra = {}) {
      const manager = new SessionManager({
        provider,
        clientOptions: { baseURL: server.url, apiKey: KEY },
        profileRoot: root,
        executablePath: CHROMIUM_PATH,
        ...(handBrowser ? { cdpUrl: handBrowser.wsEndpoint } : {}),
        ...(grid
          ? {
              gridUrl: grid.url,
              gridCapabilities: { 'goog:chromeOptions': { args: [gridMark] } },
            }
          : {}),
        ...extra,
      } as SessionManagerOptions);
      managers.push(manager);
      if (provider === 'grid') {
        const create = manager.create.bind(manager);
        manager.create = (async (createOptions) => {
          const session = await create(createOptions);
          gridSessions.add(session.id);
          return session;
        }) as typeof manager.create;
      }
      return manager;
    },
    async runningOnServer() {
      const res = await fetch(`${server.url}/v1/browser/sessions`, {
        headers: { authorization: `Bearer ${KEY}` },
      });
      if (!res.ok) throw new Error(`GET /v1/browser/sessions: ${res.status} ${await res.text()}`);
      const body = (await res.json()) as { sessions: { session_id: string; status: string }[] };
      return body.sessions.filter((s) => s.status === 'running').map((s) => s.session_id);
    },
    async dispose() {
      await Promise.allSettled(managers.map((m) => m.close()));
      await handBrowser?.kill();
      await server.dispose();
      await pages.close();
      rmSync(root, { recursive: true, force: true });
    },
  };
  return world;
}

/** What a test file left behind; every count must be zero. */
export interface Leftovers {
  /** Sessions still running on the embedded server. */
  running: number;
  /** Chromium processes under the server's data dir. */
  serverChromium: number;
  /** Chromium processes of the local provider's profiles. */
  localChromium: number;
  /** This world's sessions still open on the Grid (counted when the world has a Grid). */
  gridSessions?: number;
  /** Chromium processes of this world's Grid sessions (counted when the world has a Grid). */
  gridChromium?: number;
}

/**
 * Counts what a test file left behind: sessions running on the server or on the Grid, and
 * Chromium processes under the server's data dir, the local/hand profile root, or of this world's
 * Grid sessions. All must be zero.
 */
export async function leftovers(world: World): Promise<Leftovers> {
  const running = (await world.runningOnServer()).length;
  // The hub learns that a session ended through its event bus: give it a moment.
  const onGrid = async (): Promise<number> =>
    world.grid
      ? (await gridSessionIds(world.grid.url)).filter((id) => world.gridSessions.has(id)).length
      : 0;
  await waitFor(async () => (await onGrid()) === 0, 5_000);
  // The hand-started browser and its helpers are expected; only the local provider's profiles count.
  const local = path.join(world.root, 'svc-session-');
  // Killed process groups take a moment to be reaped.
  await waitFor(
    () =>
      processesMentioning(world.server.dataDir).length === 0 &&
      processesMentioning(local).length === 0 &&
      processesMentioning(world.gridMark).length === 0,
    5_000,
  );
  return {
    running,
    serverChromium: processesMentioning(world.server.dataDir).length,
    localChromium: processesMentioning(local).length,
    ...(world.grid
      ? { gridSessions: await onGrid(), gridChromium: processesMentioning(world.gridMark).length }
      : {}),
  };
}

/** What {@link leftovers} must find in a world with a Grid: nothing. */
export const NOTHING_LEFT_WITH_GRID: Leftovers = {
  running: 0,
  serverChromium: 0,
  localChromium: 0,
  gridSessions: 0,
  gridChromium: 0,
};

/** Counts {@link leftovers}, then disposes the world whatever the count did. */
export async function finish(world: World | undefined): Promise<Leftovers | undefined> {
  if (!world) return undefined;
  try {
    return await leftovers(world);
  } finally {
    await world.dispose();
  }
}
