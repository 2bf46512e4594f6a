import { readdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '../../../src/client/index.js';
import { KEY, alive, processesMentioning, waitFor } from './helpers.js';
import { finish, pageOf, setUp } from './support.js';
import type { World } from './support.js';

const DRIVERS = ['playwright', 'puppeteer'] as const;
const VIEWPORT = { width: 1000, height: 700 };

describe('SessionManager providers, each with Playwright and Puppeteer', () => {
  let world: World;
  let client: Client;

  beforeAll(async () => {
    world = await setUp({ hand: true });
    client = new Client({ baseURL: world.server.url, apiKey: KEY });
  });
  afterAll(async () => {
    await client?.close();
    const left = await finish(world);
    expect(left).toEqual({ running: 0, serverChromium: 0, localChromium: 0 });
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
});
