import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SvcError } from '../../../src/errors.js';
import type { Session } from '../../../src/sessions/index.js';
import { deadPort } from '../../support/fixture-server.js';
import { alive, waitFor } from './helpers.js';
import { finish, pageOf, setUp } from './support.js';
import type { AnyPage, World } from './support.js';

const DRIVERS = ['playwright', 'puppeteer'] as const;

/** The dialog event both drivers emit. */
function onDialog(page: AnyPage, listener: () => void): void {
  (page as unknown as { on(e: 'dialog', l: () => void): void }).on('dialog', listener);
}

describe('SessionPool', () => {
  let world: World;

  beforeAll(async () => {
    world = await setUp();
  });
  afterAll(async () => {
    const left = await finish(world);
    expect(left).toEqual({ running: 0, serverChromium: 0, localChromium: 0 });
  });

  it.each(DRIVERS)(
    'gives the next task a clean page after a navigation to a dead port failed (%s)',
    async (driver) => {
      // A port nothing listens on: Chromium commits its error page behind an about:blank URL.
      const port = await deadPort();
      const pool = world.manager('api').pool({ size: 1, driver });
      try {
        const dead = await pool.run(async (rawPage) => {
          const page = rawPage as unknown as AnyPage;
          return page.goto(`http://127.0.0.1:${port}/`).then(
            () => 'loaded',
            (error: Error) => error.message,
          );
        });
        expect(dead).toMatch(/ERR_CONNECTION_REFUSED/);
        const title = await pool.run(async (rawPage) => {
          const page = rawPage as unknown as AnyPage;
          await page.goto(`${world.pages.url}after-dead`);
          return page.title();
        });
        expect(title).toBe('Page after-dead');
      } finally {
        await pool.close();
      }
    },
  );

  it.each(DRIVERS)(
    'runs tasks (%s) on at most `size` sessions, each task starting on about:blank',
    async (driver) => {
      const manager = world.manager('api');
      const pool = manager.pool({ size: 2, driver });
      let running = 0;
      let peak = 0;
      // Sessions are created side by side but may be ready a second apart on a loaded machine: a
      // task waits (a bounded time) until a second one runs, so the peak shows the pool's width
      // rather than the race between two creations.
      let bothRunning!: () => void;
      const gate = new Promise<void>((resolve) => (bothRunning = resolve));
      try {
        const results = await Promise.all(
          Array.from({ length: 6 }, (_, i) =>
            pool.run(async (rawPage, session) => {
              running++;
              peak = Math.max(peak, running);
              if (running === 2) bothRunning();
              const page = rawPage as unknown as AnyPage;
              const startedOn = page.url();
              await Promise.race([
                gate,
                new Promise((resolve) => setTimeout(resolve, 8_000).unref()),
              ]);
              await page.goto(`${world.pages.url}task-${i}`);
              const title = await page.title();
              running--;
              return { startedOn, title, id: session.id };
            }),
          ),
        );
        expect(peak).toBe(2);
        expect(results.map((r) => r.title)).toEqual(
          Array.from({ length: 6 }, (_, i) => `Page task-${i}`),
        );
        expect(results.every((r) => r.startedOn === 'about:blank')).toBe(true);
        expect(new Set(results.map((r) => r.id)).size).toBe(2);
        expect(pool.stats).toMatchObject({ created: 2, replaced: 0, tasks: 6, open: 2 });
      } finally {
        await pool.close();
      }
      expect(pool.stats.open).toBe(0);
      expect(await world.runningOnServer()).toEqual([]);
      await expect(pool.run(async () => 1)).rejects.toBeInstanceOf(SvcError);
    },
  );

  it.each(DRIVERS)(
    'clears a dialog a task left open (%s), so the next task on the same page works',
    async (driver) => {
      const manager = world.manager('local');
      const pool = manager.pool({ size: 1, driver });
      const first = await pool.run(async (rawPage, session) => {
        const page = rawPage as unknown as AnyPage;
        // A listener that never answers: the alert stays open and blocks the page.
        const seen = new Promise<void>((resolve) => onDialog(page, () => resolve()));
        void page.goto(`${world.pages.url}alert`).catch(() => undefined);
        await seen;
        return session.id;
      });
      const second = await pool.run(async (rawPage, session) => {
        const page = rawPage as unknown as AnyPage;
        const startedOn = page.url();
        await page.goto(`${world.pages.url}next`);
        return { id: session.id, startedOn, title: await page.title() };
      });
      expect(second).toEqual({ id: first, startedOn: 'about:blank', title: 'Page next' });
      // An alert nobody listens for is dismissed at once instead of blocking the task.
      const third = await pool.run(async (rawPage) => {
        const page = rawPage as unknown as AnyPage;
        await page.goto(`${world.pages.url}alert`);
        return page.title();
      });
      expect(third).toBe('Page alert');
      await pool.close();
    },
  );

  it('with reset: false, leaves the page where the previous task left it', async () => {
    const manager = world.manager('api');
    const pool = manager.pool({ size: 1, driver: 'playwright', reset: false });
    await pool.run(async (page) => {
      await page.goto(`${world.pages.url}kept`);
    });
    expect(await pool.run(async (page) => page.url())).toBe(`${world.pages.url}kept`);
    await pool.close();
  });

  it('replaces a session whose browser died, and keeps serving tasks', async () => {
    const manager = world.manager('local');
    const pool = manager.pool({ size: 1, driver: 'puppeteer' });
    const firstSession = await pool.run(async (_page, session) => session as Session);
    const pid = firstSession.pid!;
    process.kill(pid, 'SIGKILL');
    expect(await waitFor(() => firstSession.lost !== undefined, 2_000)).toBe(true);
    const next = await pool.run(async (rawPage, session) => {
      const page = pageOf(session as Session);
      expect(rawPage).toBe(session.page);
      await page.goto(`${world.pages.url}replacement`);
      return { id: session.id, pid: session.pid, title: await page.title() };
    });
    expect(next.id).not.toBe(firstSession.id);
    expect(next.title).toBe('Page replacement');
    expect(alive(pid)).toBe(false);
    expect(firstSession.released).toBe(true);
    expect(pool.stats).toMatchObject({ created: 2, replaced: 1, tasks: 2, open: 1 });
    await pool.close();
    expect(alive(next.pid!)).toBe(false);
  });
});
