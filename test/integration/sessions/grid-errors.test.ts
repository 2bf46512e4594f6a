import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BadRequestError, ConnectionError, SvcError, TimeoutError } from '../../../src/errors.js';
import { SessionManager } from '../../../src/sessions/index.js';
import type { SessionManagerOptions } from '../../../src/sessions/index.js';
import { freePort, sharedGrid, startGrid } from '../../support/grid.js';
import type { StartedGrid } from '../../support/grid.js';
import { processesMentioning, waitFor } from './helpers.js';

describe('grid provider errors', () => {
  const managers: SessionManager[] = [];
  const manager = (options: SessionManagerOptions): SessionManager => {
    const made = new SessionManager({ ...options, provider: 'grid' });
    managers.push(made);
    return made;
  };
  afterAll(async () => {
    await Promise.allSettled(managers.map((m) => m.close()));
  });

  it('rejects a gridUrl that is not an http(s) URL, and a grid provider with no URL, naming the option', () => {
    expect(() => new SessionManager({ provider: 'grid', gridUrl: 'ftp://grid:4444' })).toThrow(
      /Invalid option gridUrl: expected an http\(s\):\/\/ URL/,
    );
    const saved = process.env.SVC_GRID_URL;
    delete process.env.SVC_GRID_URL;
    try {
      expect(() => new SessionManager({ provider: 'grid' })).toThrow(SvcError);
      expect(() => new SessionManager({ provider: 'grid' })).toThrow(/gridUrl.*SVC_GRID_URL/);
    } finally {
      if (saved !== undefined) process.env.SVC_GRID_URL = saved;
    }
  });

  it('fails with ConnectionError naming the Grid URL when nothing listens there, and never shows its credentials', async () => {
    const port = await freePort();
    const error = await manager({ gridUrl: `http://alice:s3cret-pass@127.0.0.1:${port}` })
      .create()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect(String((error as Error).message)).toMatch(
      new RegExp(`Selenium Grid unreachable: POST http://127\\.0\\.0\\.1:${port}/session`),
    );
    expect(String((error as Error).message)).not.toMatch(/s3cret|alice/);
  });

  it('fails with BadRequestError carrying the Grid message when ChromeDriver rejects a capability', async () => {
    const grid = await sharedGrid();
    const mark = `--svc-test-rejected=${Date.now()}`;
    const error = await manager({
      gridUrl: grid.url,
      gridCapabilities: { 'goog:chromeOptions': { args: [mark], notAChromeOption: 1 } },
    })
      .create({ timeout: 60_000 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BadRequestError);
    const message = (error as Error).message;
    expect(message).toContain(`Selenium Grid refused the session: POST ${grid.url}/session`);
    expect(message).toMatch(/cannot parse capability: goog:chromeOptions/);
    expect(message).not.toMatch(/Host info|Build info/);
    expect(processesMentioning(mark)).toEqual([]);
  }, 180_000); // may start the shared Grid
});

describe('grid provider with every slot busy', () => {
  let grid: StartedGrid;
  beforeAll(async () => {
    // A Grid of its own with one slot, so "busy" does not depend on other test files.
    grid = await startGrid({ nodes: 1, maxSessionsPerNode: 1 });
  }, 180_000);
  afterAll(async () => {
    await grid?.stop();
    expect(grid?.processes() ?? []).toEqual([]);
  });

  it('times out naming the Grid URL, and the abandoned request never becomes a session', async () => {
    const manager = new SessionManager({ provider: 'grid', gridUrl: grid.url });
    try {
      const holder = await manager.create({ driver: 'puppeteer', timeout: 60_000 });
      const error = await manager.create({ timeout: 10_000 }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(TimeoutError);
      expect((error as Error).message).toBe(
        `No free slot on Selenium Grid ${grid.url}: all 1 slots stayed busy within 10000 ms (POST /session)`,
      );
      await holder.release();
      expect(await waitFor(async () => (await grid.sessionCount()) === 0, 5_000)).toBe(true);
      // The Grid dropped the queued request when we gave up: freeing the slot starts nothing.
      await new Promise((r) => setTimeout(r, 3_000));
      expect(await grid.sessionCount()).toBe(0);
      expect(grid.chromiumProcesses()).toEqual([]);
      expect(manager.sessions).toHaveLength(0);
    } finally {
      await manager.close();
    }
  });
});
