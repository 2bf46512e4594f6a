// Shared setup of the session-manager tests: the embedded server, a loopback page server, a
// Chromium started by hand for the `cdp` provider, and the leak count at the end.
import { rmSync } from 'node:fs';
import path from 'node:path';
import { launchChromium } from '../../../src/chromium.js';
import type { LaunchedChromium } from '../../../src/chromium.js';
import { SessionManager } from '../../../src/sessions/index.js';
import type { Session, SessionManagerOptions } from '../../../src/sessions/index.js';
import { CHROMIUM_PATH } from '../../support/chromium.js';
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
  manager(provider: 'api' | 'local' | 'cdp', extra?: SessionManagerOptions): SessionManager;
  /** Sessions still `running` on the server. */
  runningOnServer(): Promise<string[]>;
  dispose(): Promise<void>;
}

/** Starts the server (and, with `hand`, a Chromium launched by hand for the cdp provider). */
export async function setUp(
  options: { hand?: boolean; maxSessions?: number } = {},
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
  const managers: SessionManager[] = [];
  const world: World = {
    server,
    pages,
    root,
    handBrowser,
    manager(provider, extra = {}) {
      const manager = new SessionManager({
        provider,
        clientOptions: { baseURL: server.url, apiKey: KEY },
        profileRoot: root,
        executablePath: CHROMIUM_PATH,
        ...(handBrowser ? { cdpUrl: handBrowser.wsEndpoint } : {}),
        ...extra,
      } as SessionManagerOptions);
      managers.push(manager);
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

/**
 * Counts what a test file left behind: sessions running on the server, and Chromium processes
 * under the server's data dir or the local/hand profile root. All must be zero.
 */
export async function leftovers(
  world: World,
): Promise<{ running: number; serverChromium: number; localChromium: number }> {
  const running = (await world.runningOnServer()).length;
  // The hand-started browser and its helpers are expected; only the local provider's profiles count.
  const local = path.join(world.root, 'svc-session-');
  // Killed process groups take a moment to be reaped.
  await waitFor(
    () =>
      processesMentioning(world.server.dataDir).length === 0 &&
      processesMentioning(local).length === 0,
    5_000,
  );
  return {
    running,
    serverChromium: processesMentioning(world.server.dataDir).length,
    localChromium: processesMentioning(local).length,
  };
}

/** Counts {@link leftovers}, then disposes the world whatever the count did. */
export async function finish(
  world: World | undefined,
): Promise<Awaited<ReturnType<typeof leftovers>> | undefined> {
  if (!world) return undefined;
  try {
    return await leftovers(world);
  } finally {
    await world.dispose();
  }
}
