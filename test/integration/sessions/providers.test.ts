import { readdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '../../../src/client/index.js';
import { gridSessionIds } from '../../support/grid.js';
import { KEY, alive, processesMentioning, waitFor } from './helpers.js';
import { NOTHING_LEFT_WITH_GRID, finish, pageOf, setUp } from './support.js';
import type { World } from './support.js';

const DRIVERS = ['playwright', 'puppeteer'] as const;
const VIEWPORT = { width: 1000, height: 700 };

describe('SessionManager providers, each with Playwright and Puppeteer', () => {
  let world: World;
  let client: Client;

  // The first file to ask starts the shared Selenium Grid: tens of seconds on a busy machine.
  beforeAll(async () => {
    world = await setUp({ hand: true, grid: true });
    client = new Client({ baseURL: world.server.url, apiKey: KEY });
  }, 180_000);
  afterAll(async () => {
    await client?.close();
    const left = await finish(world);
    expect(left).toEqual(NOTHING_LEFT_WITH_GRID);
  });

  it.each(DRIVERS)(
    'api with %s: creates a session on the server, opens a loopback page, and DELETEs it on release',
    async (driver) => {
      const manager = world.manager('api');
      const session = await manager.create({ driver, viewport: VIEWPORT, tags: ['providers'] });
      expect(session.provider).toBe('api');
      expect(session.record.cdp_url).toMatch(
        /^ws:\/\/127\.0\.0\.1:\d+\/v1\/browser\/sessions\/.+\/cdp\?token=/,
      );
      expect((await client.browser.sessions.get(session.id)).status).toBe('running');
      const page = pageOf(session);
      await page.goto(`${world.pages.url}api-${driver}`);
      expect(await page.title()).toBe(`Page api-${driver}`);
      expect(await page.evaluate(() => window.innerWidth)).toBe(VIEWPORT.width);
      expect(processesMentioning(session.id).length).toBeGreaterThan(0);

      await session.release();
      const record = await client.browser.sessions.get(session.id);
      expect(record.status).toBe('stopped');
      expect(record.tags).toEqual(['providers']);
      expect(session.record.status).toBe('stopped');
      expect(await waitFor(() => processesMentioning(session.id).length === 0, 5_000)).toBe(true);
      expect(manager.sessions).toHaveLength(0);
    },
  );

  it.each(DRIVERS)(
    'local with %s: launches Chromium, opens a loopback page, and kills it and removes its profile on release',
    async (driver) => {
      const manager = world.manager('local');
      const session = await manager.create({ driver, viewport: VIEWPORT });
      expect(session.provider).toBe('local');
      const pid = session.pid!;
      expect(alive(pid)).toBe(true);
      const page = pageOf(session);
      await page.goto(`${world.pages.url}local-${driver}`);
      expect(await page.title()).toBe(`Page local-${driver}`);
      expect(await page.evaluate(() => window.innerWidth)).toBe(VIEWPORT.width);
      const profile = processesMentioning(`${world.root}/svc-session-`);
      expect(profile).toContain(pid);

      await session.release();
      expect(alive(pid)).toBe(false);
      expect(session.record.status).toBe('stopped');
      expect(readdirSync(world.root).filter((n) => n.startsWith('svc-session-'))).toEqual([]);
      expect(
        await waitFor(() => processesMentioning(`${world.root}/svc-session-`).length === 0),
      ).toBe(true);
    },
  );

  it.each(DRIVERS)(
    'cdp with %s: works in its own context of a browser started by hand, and release leaves that browser running',
    async (driver) => {
      const hand = world.handBrowser!;
      const manager = world.manager('cdp');
      const session = await manager.create({ driver, viewport: VIEWPORT });
      expect(session.provider).toBe('cdp');
      const page = pageOf(session);
      await page.goto(`${world.pages.url}cdp-${driver}`);
      expect(await page.title()).toBe(`Page cdp-${driver}`);
      expect(await page.evaluate(() => window.innerWidth)).toBe(VIEWPORT.width);
      const targets = async (): Promise<string[]> => {
        const res = await fetch(`http://127.0.0.1:${hand.port}/json/list`);
        return ((await res.json()) as { url: string }[]).map((t) => t.url);
      };
      expect(await targets()).toContain(`${world.pages.url}cdp-${driver}`);

      await session.release();
      // Our context (and its page) is closed, the browser we did not create keeps running.
      expect(
        await waitFor(async () => !(await targets()).includes(`${world.pages.url}cdp-${driver}`)),
      ).toBe(true);
      expect(alive(hand.pid)).toBe(true);
      const version = await fetch(`http://127.0.0.1:${hand.port}/json/version`);
      expect(version.status).toBe(200);
    },
  );

  it.each(DRIVERS)(
    'grid with %s: starts a WebDriver session on the Selenium Grid, drives a loopback page over se:cdp, and DELETEs it on release',
    async (driver) => {
      const grid = world.grid!;
      const manager = world.manager('grid');
      const session = await manager.create({
        driver,
        viewport: VIEWPORT,
        userAgent: `svc-grid-${driver}`,
        tags: ['providers'],
      });
      expect(session.provider).toBe('grid');
      expect(session.record.cdp_url).toBe(
        `${grid.url.replace('http:', 'ws:')}/session/${session.id}/se/cdp`,
      );
      expect(session.record.tags).toEqual(['providers']);
      expect(await gridSessionIds(grid.url)).toContain(session.id);
      const page = pageOf(session);
      await page.goto(`${world.pages.url}grid-${driver}`);
      expect(await page.title()).toBe(`Page grid-${driver}`);
      expect(await page.evaluate(() => window.innerWidth)).toBe(VIEWPORT.width);
      expect(await page.evaluate(() => navigator.userAgent)).toBe(`svc-grid-${driver}`);
      // The Grid's Chromium carries the capabilities passed through gridCapabilities.
      expect(processesMentioning(world.gridMark).length).toBeGreaterThan(0);

      await session.release();
      expect(session.record.status).toBe('stopped');
      expect(manager.sessions).toHaveLength(0);
      const url = await fetch(`${grid.url}/session/${session.id}/url`);
      expect(url.status).toBe(404);
      expect(
        await waitFor(async () => !(await gridSessionIds(grid.url)).includes(session.id), 5_000),
      ).toBe(true);
      expect(await waitFor(() => processesMentioning(world.gridMark).length === 0, 5_000)).toBe(
        true,
      );
    },
  );
});
