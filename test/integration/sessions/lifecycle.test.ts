import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '../../../src/client/index.js';
import { SessionError } from '../../../src/errors.js';
import { ApiProvider, exitHooksInstalled } from '../../../src/sessions/index.js';
import type {
  SessionLostEvent,
  SessionProvider,
  SessionWarningEvent,
} from '../../../src/sessions/index.js';
import { gridSessionIds } from '../../support/grid.js';
import { KEY, alive, processesMentioning, tcpRelay, waitFor } from './helpers.js';
import { NOTHING_LEFT_WITH_GRID, finish, pageOf, setUp } from './support.js';
import type { World } from './support.js';

const DRIVERS = ['playwright', 'puppeteer'] as const;

describe('SessionManager lifecycle', () => {
  let world: World;
  let client: Client;
  const sigtermListeners = process.listenerCount('SIGTERM');

  // The first file to ask starts the shared Selenium Grid: tens of seconds on a busy machine.
  beforeAll(async () => {
    world = await setUp({ hand: true, maxSessions: 6, grid: true });
    client = new Client({ baseURL: world.server.url, apiKey: KEY });
  }, 180_000);
  afterAll(async () => {
    await client?.close();
    const left = await finish(world);
    expect(left).toEqual(NOTHING_LEFT_WITH_GRID);
    expect(exitHooksInstalled()).toBe(false);
    expect(process.listenerCount('SIGTERM')).toBe(sigtermListeners);
  });

  it('withSession releases the session when fn throws, and rethrows the error of fn', async () => {
    const manager = world.manager('api');
    let id = '';
    const boom = new Error('task failed');
    await expect(
      manager.withSession({ driver: 'playwright' }, async (session) => {
        id = session.id;
        await pageOf(session).goto(`${world.pages.url}throw`);
        throw boom;
      }),
    ).rejects.toBe(boom);
    expect((await client.browser.sessions.get(id)).status).toBe('stopped');
    expect(manager.sessions).toHaveLength(0);
  });

  it.each(DRIVERS)(
    'grid with %s: withSession deletes the Grid session when fn throws, and rethrows the error of fn',
    async (driver) => {
      const grid = world.grid!;
      const manager = world.manager('grid');
      let id = '';
      const boom = new Error('task failed on the grid');
      await expect(
        manager.withSession({ driver }, async (session) => {
          id = session.id;
          expect(await gridSessionIds(grid.url)).toContain(id);
          await pageOf(session).goto(`${world.pages.url}grid-throw`);
          throw boom;
        }),
      ).rejects.toBe(boom);
      expect(manager.sessions).toHaveLength(0);
      expect((await fetch(`${grid.url}/session/${id}/url`)).status).toBe(404);
      expect(await waitFor(async () => !(await gridSessionIds(grid.url)).includes(id), 5_000)).toBe(
        true,
      );
      expect(await waitFor(() => processesMentioning(world.gridMark).length === 0, 5_000)).toBe(
        true,
      );
    },
  );

  it('grid: release is idempotent, and a session the Grid already ended releases without error', async () => {
    const grid = world.grid!;
    const manager = world.manager('grid');
    const session = await manager.create({ driver: 'puppeteer' });
    const first = session.release();
    expect(session.release()).toBe(first);
    await Promise.all([first, session.release()]);
    expect((await fetch(`${grid.url}/session/${session.id}/url`)).status).toBe(404);

    // Ended behind our back (as the node's --session-timeout would): release still succeeds.
    const other = await manager.create({ driver: 'playwright' });
    const res = await fetch(`${grid.url}/session/${other.id}`, { method: 'DELETE' });
    expect(res.status).toBe(200);
    await other.release();
    expect(manager.sessions).toHaveLength(0);
  });

  it('reports a killed Grid browser as lost with reason browser_gone, and release frees the Grid slot', async () => {
    const grid = world.grid!;
    const lost: SessionLostEvent[] = [];
    const manager = world.manager('grid', { onLost: (event) => lost.push(event) });
    const session = await manager.create({ driver: 'playwright' });
    await pageOf(session).goto(`${world.pages.url}grid-doomed`);
    // The Grid's Chromium for this session: the browser process carries the mark and no --type.
    const main = processesMentioning(world.gridMark).find(
      (pid) => !readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('--type='),
    );
    expect(main).toBeDefined();
    process.kill(main!, 'SIGKILL');
    expect(await waitFor(() => lost.length > 0, 10_000)).toBe(true);
    expect(lost[0]).toMatchObject({ reason: 'browser_gone', reconnecting: false });
    await expect(pageOf(session).title()).rejects.toBeInstanceOf(SessionError);
    await session.release();
    expect(
      await waitFor(async () => !(await gridSessionIds(grid.url)).includes(session.id), 5_000),
    ).toBe(true);
  });

  it('release is idempotent: repeated calls share one promise and the server ends the session once', async () => {
    const manager = world.manager('api');
    const session = await manager.create({ driver: 'puppeteer' });
    const first = session.release();
    expect(session.release()).toBe(first);
    await Promise.all([first, session.release()]);
    await session.release();
    const ended = world.server.logs.filter(
      (l) => l.includes('browser session ended') && l.includes(session.id),
    );
    expect(ended).toHaveLength(1);
    expect((await client.browser.sessions.get(session.id)).status).toBe('stopped');
  });

  it('releaseAll({ tag }) releases only the sessions carrying that tag', async () => {
    const manager = world.manager('api');
    const a1 = await manager.create({ tags: ['batch-a'] });
    const a2 = await manager.create({ driver: 'puppeteer', tags: ['batch-a', 'x'] });
    const b = await manager.create({ tags: ['batch-b'] });
    expect(await manager.releaseAll({ tag: 'batch-a' })).toBe(2);
    expect((await client.browser.sessions.get(a1.id)).status).toBe('stopped');
    expect((await client.browser.sessions.get(a2.id)).status).toBe('stopped');
    expect((await client.browser.sessions.get(b.id)).status).toBe('running');
    expect(manager.sessions.map((s) => s.id)).toEqual([b.id]);
    expect(await manager.releaseAll()).toBe(1);
    expect((await client.browser.sessions.get(b.id)).status).toBe('stopped');
  });

  it('release is time-bounded when the CDP connection hangs, and still sends the DELETE', async () => {
    // The CDP socket goes through a relay that stops forwarding: the browser never answers.
    const api = new ApiProvider({ clientOptions: { baseURL: world.server.url, apiKey: KEY } });
    const relays: Awaited<ReturnType<typeof tcpRelay>>[] = [];
    const relayed: SessionProvider = {
      name: 'api',
      async acquire(params) {
        const lease = await api.acquire(params);
        const url = new URL(lease.wsEndpoint);
        const relay = await tcpRelay({ host: url.hostname, port: Number(url.port) });
        relays.push(relay);
        url.port = String(relay.port);
        // Attach in a context of our own, whose close() must wait for the browser's answer.
        return { ...lease, wsEndpoint: url.href, owned: false };
      },
      close: () => api.close(),
    };
    const warnings: SessionWarningEvent[] = [];
    const manager = world.manager('api', { provider: relayed, closeTimeout: 500 });
    manager.on('warning', (w) => warnings.push(w));
    const session = await manager.create({ driver: 'puppeteer' });
    relays[0]!.stall();
    const started = Date.now();
    await session.release();
    const took = Date.now() - started;
    expect(took).toBeLessThan(2_000);
    expect(warnings.map((w) => w.sessionId)).toEqual([session.id]);
    expect(String(warnings[0]!.error)).toMatch(/timed out after 500 ms/);
    expect((await client.browser.sessions.get(session.id)).status).toBe('stopped');
    for (const relay of relays) await relay.close();
  });

  it.each(DRIVERS)(
    'reports a killed local browser (%s) as lost at once, and its page calls fail with SessionError',
    async (driver) => {
      const lost: (SessionLostEvent & { at: number })[] = [];
      const manager = world.manager('local', {
        onLost: (event) => lost.push({ ...event, at: Date.now() }),
      });
      const session = await manager.create({ driver });
      const page = pageOf(session);
      await page.goto(`${world.pages.url}doomed`);
      const killedAt = Date.now();
      process.kill(session.pid!, 'SIGKILL');
      expect(await waitFor(() => lost.length > 0, 2_000)).toBe(true);
      expect(lost[0]!.at - killedAt).toBeLessThan(2_000);
      expect(lost[0]).toMatchObject({
        sessionId: session.id,
        reason: 'browser_gone',
        reconnecting: false,
      });
      const error = await page.title().then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(SessionError);
      expect(error).toMatchObject({ reason: 'browser_gone', sessionId: session.id });
      expect(session.record.status).toBe('failed');
      await session.release();
      expect(alive(session.pid!)).toBe(false);
      expect(lost).toHaveLength(1);
    },
  );

  it('reports a killed browser of an api session as lost with reason browser_gone', async () => {
    const lost: SessionLostEvent[] = [];
    const manager = world.manager('api', { onLost: (event) => lost.push(event) });
    const session = await manager.create({ driver: 'playwright' });
    // The server's Chromium for this session: the main process is the one given the debugging port.
    const pids = processesMentioning(session.id);
    const main = pids.find((pid) => {
      try {
        return /remote-debugging-port/.test(readFileSync(`/proc/${pid}/cmdline`, 'utf8'));
      } catch {
        return false;
      }
    });
    expect(main).toBeDefined();
    process.kill(main!, 'SIGKILL');
    // Told by the closed connection, not by an idle timeout: well within the bound on a busy machine.
    expect(await waitFor(() => lost.length > 0, 10_000)).toBe(true);
    expect(lost[0]).toMatchObject({ reason: 'browser_gone', reconnecting: false });
    await expect(pageOf(session).title()).rejects.toBeInstanceOf(SessionError);
    expect((await client.browser.sessions.get(session.id)).status).toBe('failed');
    await session.release();
  });

  it.each(DRIVERS)(
    'reconnects (%s) with backoff when the socket drops but the browser still runs, and the same page works again',
    async (driver) => {
      const hand = world.handBrowser!;
      const relay = await tcpRelay({ host: '127.0.0.1', port: hand.port });
      const events: string[] = [];
      const manager = world.manager('cdp', {
        cdpUrl: `http://127.0.0.1:${relay.port}`,
        reconnect: { retries: 5, minDelay: 50, maxDelay: 200 },
      });
      manager.on('session-lost', (e) => events.push(`lost:${e.reason}:${e.reconnecting}`));
      manager.on('session-reconnected', (e) => events.push(`reconnected:${e.attempts}`));
      const session = await manager.create({ driver });
      const page = pageOf(session);
      await page.goto(`${world.pages.url}before`);
      relay.cut();
      expect(await waitFor(() => events.some((e) => e.startsWith('reconnected')), 5_000)).toBe(
        true,
      );
      expect(events[0]).toBe('lost:disconnected:true');
      expect(session.lost).toBeUndefined();
      expect(session.connected).toBe(true);
      await page.goto(`${world.pages.url}after`);
      expect(await page.title()).toBe('Page after');
      await session.release();
      await relay.close();
      expect(alive(hand.pid)).toBe(true);
    },
  );
});
