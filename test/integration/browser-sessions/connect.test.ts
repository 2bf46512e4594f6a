// `GET /v1/browser/connect`: one WebSocket upgrade creates a session and relays to its browser;
// the session ends when that connection closes, however it closes.
import { chromium } from 'playwright-core';
import puppeteer from 'puppeteer-core';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer } from '../../support/server.js';
import type { TestServer } from '../../support/server.js';
import { ALICE, BOB, KEYS, api, liveBrowsers, pageServer, tryUpgrade, waitFor } from './helpers.js';

describe('GET /v1/browser/connect', () => {
  let server: TestServer;
  let page: Awaited<ReturnType<typeof pageServer>>;
  let endpoint: string;

  beforeAll(async () => {
    server = await startTestServer({ apiKeys: KEYS, warmPoolSize: 1 });
    page = await pageServer('Connect fixture');
    endpoint = `${server.url.replace(/^http/, 'ws')}/v1/browser/connect`;
  });
  afterAll(async () => {
    await server?.dispose();
    await page?.close();
  });

  const running = async (key: string): Promise<string[]> => {
    const { json } = await api(server, key, 'GET', '/v1/browser/sessions');
    return (json.sessions as { session_id: string; status: string }[])
      .filter((s) => s.status === 'running')
      .map((s) => s.session_id);
  };

  /** Waits until session `id` of `key` has ended and its browser is gone. */
  const ended = async (key: string, id: string): Promise<void> => {
    await waitFor(
      async () =>
        (await api(server, key, 'GET', `/v1/browser/sessions/${id}`)).json.status !== 'running',
      10_000,
      'the connected session to end',
    );
    await waitFor(
      async () => (await liveBrowsers(server, id)).length === 0,
      10_000,
      'its browser to exit',
    );
  };

  it('gives Puppeteer a new session in one upgrade, and ends it on disconnect', async () => {
    const before = await running(ALICE);
    const browser = await puppeteer.connect({
      browserWSEndpoint: endpoint,
      headers: { authorization: `Bearer ${ALICE}` },
    });
    let id: string;
    try {
      const [tab] = await browser.pages();
      await tab!.goto(page.url);
      expect(await tab!.title()).toBe('Connect fixture');
      const now = await running(ALICE);
      const added = now.filter((s) => !before.includes(s));
      expect(added).toHaveLength(1);
      id = added[0]!;
      expect(await liveBrowsers(server, id)).toHaveLength(1);
      // The session is the user's own: another user does not see it.
      expect(await running(BOB)).not.toContain(id);
    } finally {
      await browser.disconnect();
    }
    await ended(ALICE, id);
    const { json } = await api(server, ALICE, 'GET', `/v1/browser/sessions/${id}`);
    expect(json.status).toBe('stopped');
  });

  it('gives Playwright connectOverCDP a new session the same way', async () => {
    const before = await running(BOB);
    const browser = await chromium.connectOverCDP(endpoint, {
      headers: { authorization: `Bearer ${BOB}` },
    });
    let id: string;
    try {
      const context = browser.contexts()[0]!;
      const tab = context.pages()[0] ?? (await context.newPage());
      await tab.goto(page.url);
      expect(await tab.title()).toBe('Connect fixture');
      const added = (await running(BOB)).filter((s) => !before.includes(s));
      expect(added).toHaveLength(1);
      id = added[0]!;
    } finally {
      await browser.close();
    }
    await ended(BOB, id);
  });

  it('names the session it created in the upgrade answer', async () => {
    const ws = new WebSocket(endpoint, { headers: { authorization: `Bearer ${ALICE}` } });
    let id = '';
    ws.once('upgrade', (res) => (id = String(res.headers['x-browser-session-id'])));
    await new Promise((resolve, reject) => {
      ws.once('open', resolve);
      ws.once('error', reject);
    });
    expect(id).toMatch(/\S/);
    expect(await running(ALICE)).toContain(id);
    // A client that vanishes without a close frame ends the session too.
    ws.terminate();
    await ended(ALICE, id);
  });

  it('refuses a missing or wrong key, and any query parameter, before starting a browser', async () => {
    const before = [...(await running(ALICE)), ...(await running(BOB))];
    const none = await tryUpgrade(endpoint);
    expect(none.status).toBe(401);
    expect(JSON.parse(none.body).error.code).toBe('invalid_api_key');
    expect((await tryUpgrade(endpoint, { authorization: 'Bearer svc_wrong' })).status).toBe(401);
    // A key in the URL would land in logs: refused, naming the parameter, even with a valid header.
    const query = await tryUpgrade(`${endpoint}?api_key=${ALICE}`, {
      authorization: `Bearer ${ALICE}`,
    });
    expect(query.status).toBe(422);
    expect(JSON.parse(query.body).detail[0].loc).toEqual(['query', 'api_key']);
    expect([...(await running(ALICE)), ...(await running(BOB))]).toEqual(before);
  });
});

describe('GET /v1/browser/connect at the session limit', () => {
  let server: TestServer;

  beforeAll(async () => {
    // Three browser-route requests a minute: the create, the refused connect and the delete.
    server = await startTestServer({
      apiKeys: KEYS,
      warmPoolSize: 0,
      maxSessions: 1,
      rateLimits: { browser: 3 },
    });
  });
  afterAll(async () => {
    await server?.dispose();
  });

  it('answers 429 with Retry-After when no session can start, or the key spent its budget', async () => {
    const { json: held } = await api(server, ALICE, 'POST', '/v1/browser/sessions', {});
    try {
      const endpoint = `${server.url.replace(/^http/, 'ws')}/v1/browser/connect`;
      const refused = await new Promise<{ status: number; retryAfter: unknown }>(
        (resolve, reject) => {
          const ws = new WebSocket(endpoint, { headers: { authorization: `Bearer ${ALICE}` } });
          ws.once('unexpected-response', (_req, res) => {
            resolve({ status: res.statusCode ?? 0, retryAfter: res.headers['retry-after'] });
            res.resume();
          });
          ws.once('open', () => reject(new Error('connected past the session limit')));
          ws.once('error', () => undefined);
        },
      );
      expect(refused.status).toBe(429);
      expect(Number(refused.retryAfter)).toBeGreaterThan(0);
    } finally {
      await api(server, ALICE, 'DELETE', `/v1/browser/sessions/${held.session_id}`);
    }
    // A connect is a create: charged to the key's browser budget, spent by now.
    const endpoint = `${server.url.replace(/^http/, 'ws')}/v1/browser/connect`;
    const limited = await tryUpgrade(endpoint, { authorization: `Bearer ${ALICE}` });
    expect(limited.status).toBe(429);
    expect(JSON.parse(limited.body).error.code).toBe('rate_limit_exceeded');
    const { json } = await api(server, BOB, 'GET', '/v1/browser/sessions');
    expect(json.sessions).toEqual([]);
  });
});
