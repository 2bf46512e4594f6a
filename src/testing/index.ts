/**
 * `svc-toolkit/testing`: test fixtures that give each test a fresh browser session and page and
 * release it afterwards, whatever the test did.
 *
 * Vitest, in one line:
 * ```ts
 * import { test } from 'svc-toolkit/testing';
 * test('shows the title', async ({ page }) => {
 *   await page.goto('https://example.com');
 *   expect(await page.title()).toBe('Example Domain');
 * });
 * ```
 * The provider comes from the environment like everywhere else (`SVC_SESSION_PROVIDER`,
 * `SVC_BASE_URL` + `SVC_API_KEY`, `SVC_CDP_URL`; else a local Chromium). Pick a driver or a
 * provider with {@link createSessionTest}.
 *
 * Playwright Test: the same in a fixture file (one manager per worker, one session per test):
 * ```ts
 * import { test as base } from '@playwright/test';
 * import type { Page } from 'playwright-core';
 * import { SessionManager } from 'svc-toolkit';
 * import type { Session } from 'svc-toolkit';
 *
 * export const test = base.extend<{ session: Session<'playwright'>; page: Page }, { manager: SessionManager }>({
 *   manager: [async ({}, use) => {
 *     const manager = new SessionManager({ driver: 'playwright' });
 *     await use(manager);
 *     await manager.close();
 *   }, { scope: 'worker' }],
 *   session: async ({ manager }, use) => {
 *     const session = await manager.create({ driver: 'playwright' });
 *     try { await use(session); } finally { await session.release(); }
 *   },
 *   // Replaces Playwright Test's own `page` with the remote session's page.
 *   page: async ({ session }, use) => use(session.page),
 * });
 * ```
 */
import { test as base } from 'vitest';
import { SessionManager } from '../sessions/session-manager.js';
import type { SessionManagerOptions } from '../sessions/options.js';
import type { Session } from '../sessions/session.js';
import type { CreateSessionOptions, DriverName, DriverTypes } from '../sessions/types.js';

/** Options of {@link createSessionTest}. */
export interface SessionTestOptions<D extends DriverName = 'playwright'> {
  /** Driver of every session. @default 'playwright' */
  driver?: D | undefined;
  /** Manager options: provider, client, cdpUrl, timeouts... @default from the environment */
  manager?: Omit<SessionManagerOptions<D>, 'driver'> | undefined;
  /** Options of each test's session (viewport, userAgent, tags...). @default {} */
  session?: Omit<CreateSessionOptions<D>, 'driver'> | undefined;
}

/** The fixtures a session test receives. */
export interface SessionFixtures<D extends DriverName> {
  /** One manager per worker, closed when the worker ends. */
  sessionManager: SessionManager<D>;
  /** A fresh session per test, released after it. */
  session: Session<D>;
  /** The session's page. */
  page: DriverTypes[D]['page'];
}

/**
 * A vitest `test` whose `session` and `page` fixtures come from a {@link SessionManager}: a fresh
 * session per test, released after it (passed, failed or timed out), one manager per worker.
 * @throws SvcError (when the first test runs) for invalid manager options
 * @example
 * const test = createSessionTest({ driver: 'puppeteer', manager: { provider: 'local' } });
 * test('reads the title', async ({ page }) => { await page.goto(url); expect(await page.title()).toBe('Hi'); });
 */
export function createSessionTest<D extends DriverName = 'playwright'>(
  options: SessionTestOptions<D> = {},
) {
  const driver = (options.driver ?? 'playwright') as D;
  return base.extend<{
    $worker: { sessionManager: SessionManager<D> };
    $test: { session: Session<D>; page: DriverTypes[D]['page'] };
  }>({
    sessionManager: [
      // eslint-disable-next-line no-empty-pattern -- vitest reads the fixture's dependencies from this pattern
      async ({}, use) => {
        const manager = new SessionManager<D>({ ...options.manager, driver });
        try {
          await use(manager);
        } finally {
          await manager.close();
        }
      },
      { scope: 'worker' },
    ],
    session: async ({ sessionManager }, use) => {
      const session = await sessionManager.create<D>({ ...options.session, driver });
      try {
        await use(session);
      } finally {
        await session.release();
      }
    },
    page: async ({ session }, use) => {
      await use(session.page);
    },
  });
}

/**
 * The default session test: Playwright, provider from the environment.
 * @example
 * import { test } from 'svc-toolkit/testing';
 * test('opens a page', async ({ page }) => { await page.goto(url); });
 */
export const test = createSessionTest();

export { SessionManager };
export type { Session };
