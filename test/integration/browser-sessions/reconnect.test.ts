import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { Client } from '../../../src/client/index.js';
import { ApiProvider, SessionManager } from '../../../src/sessions/index.js';
import type { SessionProvider } from '../../../src/sessions/index.js';
import { startTestServer } from '../../support/server.js';
import type { TestServer } from '../../support/server.js';
import { tcpRelay } from '../sessions/helpers.js';
import { ALICE, KEYS, pageServer, processesMentioning, waitFor } from './helpers.js';

type Relay = Awaited<ReturnType<typeof tcpRelay>>;

/** Routes a URL's connection through `relay` (same path and token, the relay's port). */
function through(url: string, relay: Relay): string {
  const u = new URL(url);
  u.port = String(relay.port);
  return u.toString();
}

/** The api provider, with every CDP connection made through a relay the test can cut. */
function relayedProvider(client: Client, relay: Relay): SessionProvider {
  const inner = new ApiProvider({ client, apiKey: ALICE });
  return {
    name: 'api',
    async acquire(params) {
      const lease = await inner.acquire(params);
      lease.wsEndpoint = through(lease.wsEndpoint, relay);
      return lease;
    },
    close: () => inner.close(),
  };
}

describe('reconnect and liveness of browser sessions', () => {
  let server: TestServer;
  let pages: Awaited<ReturnType<typeof pageServer>>;
  let client: Client;
  let relay: Relay;

  beforeAll(async () => {
    server = await startTestServer({ apiKeys: KEYS, maxSessions: 4 });
    pages = await pageServer('Left here');
    client = new Client({ baseURL: server.url, apiKey: ALICE, maxRetries: 0 });
  });
  afterAll(async () => {
    await client?.close();
    await pages?.close();
    const dir = server?.dataDir;
    await server?.dispose();
    if (dir) expect(processesMentioning(dir)).toEqual([]);
  });

  it.each(['playwright', 'puppeteer'] as const)(
    'the manager reattaches (%s) after the socket is cut and finds the page as it left it',
    async (driver) => {
      relay = await tcpRelay({ host: '127.0.0.1', port: Number(new URL(server.url).port) });
      const manager = new SessionManager({
        provider: relayedProvider(client, relay),
        driver,
        handleExit: false,
        reconnect: { retries: 6, minDelay: 100, maxDelay: 500 },
      });
      const events: string[] = [];
      manager.on('session-lost', (e) => events.push(`lost:${e.reason}:${e.reconnecting}`));
      manager.on('reconnecting', (e) => events.push(`reconnecting:${e.attempt}`));
      manager.on('reconnected', (e) => events.push(`reconnected:${e.attempts}`));
      try {
        const session = await manager.create({ idleTimeout: 30_000 });
        const page = session.page as unknown as {
          goto(url: string): Promise<unknown>;
          evaluate<T>(fn: () => T): Promise<T>;
          title(): Promise<string>;
        };
        await page.goto(`${pages.url}?left=here`);
        await page.evaluate(() => {
          (window as unknown as { marker: number }).marker = 42;
        });

        const cutAt = Date.now();
        relay.cut();
        expect(await waitFor(() => events.some((e) => e.startsWith('reconnected')), 15_000)).toBe(
          true,
        );
        console.log(`${driver}: reattached ${Date.now() - cutAt} ms after the socket was cut`);
        expect(events[0]).toBe('lost:disconnected:true');
        expect(events[1]).toBe('reconnecting:1');
        // The same document, not a reload: its URL and its script state are as they were.
        const state = await page.evaluate(() => ({
          href: location.href,
          marker: (window as unknown as { marker?: number }).marker,
        }));
        expect(state).toEqual({ href: `${pages.url}?left=here`, marker: 42 });
        expect(await page.title()).toBe('Left here');
        expect((await client.browser.sessions.get(session.id)).status).toBe('running');
        await session.release();
        expect((await client.browser.sessions.get(session.id)).status).toBe('stopped');
      } finally {
        await manager.close();
        await relay.close();
      }
    },
  );

  it('a client whose network is cut without a close loses its session within idle timeout + 10 s; a quiet live client keeps it', async () => {
    relay = await tcpRelay({ host: '127.0.0.1', port: Number(new URL(server.url).port) });
    const body = { idle_timeout_s: 5, max_duration_s: 600 };
    const open = (url: string) =>
      new Promise<WebSocket>((resolve, reject) => {
        const ws = new WebSocket(url);
        ws.once('open', () => resolve(ws));
        ws.once('error', reject);
      });
    // Each client connects as soon as its session exists: a create can take longer than the idle
    // timeout (a Grid-backed server waits for the Grid), and an unconnected session would expire.
    const cut = await client.browser.sessions.create(body);
    const cutSocket = await open(through(cut.cdp_url!, relay));
    const quiet = await client.browser.sessions.create(body);
    const quietSocket = await open(quiet.cdp_url!);
    try {
      // Both clients send nothing from here on; only the relayed one stops answering pings.
      relay.stall();
      const stalledAt = Date.now();
      expect(
        await waitFor(
          async () => (await client.browser.sessions.get(cut.session_id)).status !== 'running',
          60_000,
        ),
      ).toBe(true);
      const seconds = (Date.now() - stalledAt) / 1000;
      const ended = await client.browser.sessions.get(cut.session_id);
      expect(ended.status).toBe('expired');
      expect(ended.end_reason).toMatch(/idle/);
      expect(server.logs.some((l) => l.includes('CDP peer went silent'))).toBe(true);
      // Past the idle timeout and the silence limit, the connected client that answers pings
      // still has its session.
      await new Promise((r) => setTimeout(r, Math.max(0, 12_000 - (Date.now() - stalledAt))));
      expect((await client.browser.sessions.get(quiet.session_id)).status).toBe('running');
      console.log(
        `silent client: session ended ${seconds.toFixed(1)} s after its network was cut (idle_timeout_s 5)`,
      );
    } finally {
      cutSocket.terminate();
      quietSocket.close();
      await relay.close();
      await client.browser.sessions.delete(cut.session_id);
      await client.browser.sessions.delete(quiet.session_id);
    }
  });
});
