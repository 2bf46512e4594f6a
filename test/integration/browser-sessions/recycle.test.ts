// Same-user browser recycling (`recycle: true`): the browser of a deleted session is wiped and
// handed to the same user's next session; nothing of the first session is visible in the second,
// another user never receives it, it counts against the session limit, and none outlives the server.
import { mkdtempSync, readlinkSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import puppeteer from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../../../src/chromium.js';
import { startTestServer } from '../../support/server.js';
import type { TestServer } from '../../support/server.js';
import type { RecycleOptions } from '../../../src/server/engines/browsers/recycle.js';
import { ALICE, BOB, KEYS, api, processesMentioning, waitFor } from './helpers.js';

/** One origin with a page, a service worker script, and a page whose script may be cached. */
async function originServer(): Promise<{
  url: string;
  hits: Map<string, number>;
  close(): Promise<void>;
}> {
  const hits = new Map<string, number>();
  const server = http.createServer((req, res) => {
    hits.set(req.url ?? '', (hits.get(req.url ?? '') ?? 0) + 1);
    if (req.url === '/cached.js') {
      res.setHeader('content-type', 'text/javascript');
      res.setHeader('cache-control', 'public, max-age=3600');
      res.end('window.cachedLoaded = true;');
      return;
    }
    if (req.url === '/with-cached-script') {
      res.setHeader('content-type', 'text/html; charset=utf-8');
      res.end('<!doctype html><title>cache fixture</title><script src="/cached.js"></script>');
      return;
    }
    if (req.url === '/sw.js') {
      res.setHeader('content-type', 'text/javascript');
      res.end("self.addEventListener('fetch', () => undefined);");
      return;
    }
    res.setHeader('content-type', 'text/html; charset=utf-8');
    res.end('<!doctype html><title>recycle fixture</title><p>fixture</p>');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    hits,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/** `[visibilityState, hasFocus()]` of the first page of a new Chromium, the binary `pid` runs. */
async function freshFirstPageState(pid: number): Promise<unknown[]> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'svc-recycle-fresh-'));
  const fresh = await launchChromium({
    // The link reads `<path> (deleted)` when the file was replaced since (a re-unpacked shell).
    executablePath: readlinkSync(`/proc/${pid}/exe`).replace(/ \(deleted\)$/, ''),
    userDataDir: dir,
  });
  try {
    const browser = await puppeteer.connect({ browserWSEndpoint: fresh.wsEndpoint });
    const [page] = await browser.pages();
    const state = await page!.evaluate(() => [document.visibilityState, document.hasFocus()]);
    await browser.disconnect();
    return state;
  } finally {
    await fresh.kill();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function create(server: TestServer, key: string, body: object = {}) {
  const res = await api(server, key, 'POST', '/v1/browser/sessions', body);
  expect(res.status).toBe(200);
  return res.json as { session_id: string; cdp_url: string };
}

async function remove(server: TestServer, key: string, id: string): Promise<void> {
  expect((await api(server, key, 'DELETE', `/v1/browser/sessions/${id}`)).status).toBe(204);
}

const parked = (server: TestServer, userId: string) => () =>
  server.engines.browsers.recycler.parkedOf(userId) === 1;

describe('same-user browser recycling', () => {
  let server: TestServer;
  let site: Awaited<ReturnType<typeof originServer>>;
  beforeAll(async () => {
    site = await originServer();
    server = await startTestServer({ apiKeys: KEYS, maxSessions: 2, recycle: true });
  });
  afterAll(async () => {
    await server?.dispose();
    await site?.close();
  });

  it('hands the same user a browser where nothing of the previous session is visible', async () => {
    const first = await create(server, ALICE);
    const pid = server.engines.browsers.pidOf(first.session_id);
    const browser = await puppeteer.connect({ browserWSEndpoint: first.cdp_url });
    const [tab] = await browser.pages();
    await tab!.goto(site.url);
    await tab!.evaluate(async () => {
      document.cookie = 'left=behind; max-age=3600';
      localStorage.setItem('left', 'behind');
      await new Promise<void>((resolve, reject) => {
        const open = indexedDB.open('recycle-db', 1);
        open.onupgradeneeded = () => open.result.createObjectStore('things');
        open.onsuccess = () => {
          const tx = open.result.transaction('things', 'readwrite');
          tx.objectStore('things').put('behind', 'left');
          tx.oncomplete = () => resolve();
          tx.onerror = () => reject(tx.error);
        };
        open.onerror = () => reject(open.error);
      });
      await navigator.serviceWorker.register('/sw.js');
      await navigator.serviceWorker.ready;
    });
    const second = await browser.newPage();
    await second.goto(`${site.url}?second-tab`);
    const other = await browser.createBrowserContext();
    await (await other.newPage()).goto(`${site.url}?other-context`);
    await browser.disconnect();
    await remove(server, ALICE, first.session_id);
    expect(await waitFor(parked(server, 'alice'), 30_000)).toBe(true);

    const next = await create(server, ALICE);
    expect(next.session_id).not.toBe(first.session_id);
    expect(server.engines.browsers.pidOf(next.session_id)).toBe(pid);
    // Seen through Playwright this time: one context, one blank page.
    const pw = await chromium.connectOverCDP(next.cdp_url);
    try {
      expect(pw.contexts()).toHaveLength(1);
      const pages = pw.contexts()[0]!.pages();
      expect(pages.map((p) => p.url())).toEqual(['about:blank']);
      expect(await pw.contexts()[0]!.cookies()).toEqual([]);
      const page = pages[0]!;
      await page.goto(site.url);
      const seen = await page.evaluate(async () => ({
        cookie: document.cookie,
        local: localStorage.getItem('left'),
        databases: (await indexedDB.databases()).map((d) => d.name),
        workers: (await navigator.serviceWorker.getRegistrations()).length,
      }));
      expect(seen).toEqual({ cookie: '', local: null, databases: [], workers: 0 });
    } finally {
      await pw.close();
    }
    await remove(server, ALICE, next.session_id);
    expect(await waitFor(parked(server, 'alice'), 30_000)).toBe(true);
  }, 120_000);

  it('leaves no HTTP cache entry and no focused or extra page to the next session', async () => {
    expect(await waitFor(parked(server, 'alice'), 30_000)).toBe(true);
    const loadCached = async (cdpUrl: string): Promise<void> => {
      const browser = await puppeteer.connect({ browserWSEndpoint: cdpUrl });
      const [tab] = await browser.pages();
      await tab!.goto(`${site.url}with-cached-script`);
      expect(await tab!.evaluate(() => (window as { cachedLoaded?: boolean }).cachedLoaded)).toBe(
        true,
      );
      // A second visit in the same session is served from the cache: the fixture is cacheable.
      await tab!.goto(`${site.url}with-cached-script`);
      await browser.disconnect();
    };
    const first = await create(server, ALICE);
    const pid = server.engines.browsers.pidOf(first.session_id);
    const before = site.hits.get('/cached.js') ?? 0;
    await loadCached(first.cdp_url);
    expect(site.hits.get('/cached.js')).toBe(before + 1);
    await remove(server, ALICE, first.session_id);
    expect(await waitFor(parked(server, 'alice'), 30_000)).toBe(true);

    const next = await create(server, ALICE);
    expect(server.engines.browsers.pidOf(next.session_id)).toBe(pid);
    const browser = await puppeteer.connect({ browserWSEndpoint: next.cdp_url });
    const pages = await browser.pages();
    expect(pages).toHaveLength(1);
    // Like a fresh browser's first page: visible, and focused only if a fresh one is (a full
    // Chromium's is not, a headless shell's is).
    expect(await pages[0]!.evaluate(() => [document.visibilityState, document.hasFocus()])).toEqual(
      await freshFirstPageState(pid!),
    );
    await browser.disconnect();
    await loadCached(next.cdp_url);
    expect(site.hits.get('/cached.js')).toBe(before + 2);
    await remove(server, ALICE, next.session_id);
  }, 120_000);

  it('never gives another user the browser, nor a session that asks for launch-time settings', async () => {
    expect(await waitFor(parked(server, 'alice'), 30_000)).toBe(true);
    const alice = await create(server, ALICE);
    const alicePid = server.engines.browsers.pidOf(alice.session_id);
    await remove(server, ALICE, alice.session_id);
    expect(await waitFor(parked(server, 'alice'), 30_000)).toBe(true);

    const custom = await create(server, ALICE, { user_agent: 'recycle-test/1.0' });
    expect(server.engines.browsers.pidOf(custom.session_id)).not.toBe(alicePid);
    await remove(server, ALICE, custom.session_id);
    expect(server.engines.browsers.recycler.parkedOf('alice')).toBe(1);

    const bob = await create(server, BOB);
    expect(server.engines.browsers.pidOf(bob.session_id)).not.toBe(alicePid);
    await remove(server, BOB, bob.session_id);
    // Bob's own browser is now parked for bob, alice's still for alice.
    expect(await waitFor(parked(server, 'bob'), 30_000)).toBe(true);
    expect(server.engines.browsers.recycler.parkedOf('alice')).toBe(1);

    const again = await create(server, ALICE);
    expect(server.engines.browsers.pidOf(again.session_id)).toBe(alicePid);
    await remove(server, ALICE, again.session_id);
  }, 120_000);

  it('counts parked browsers against the limit and evicts one when a create needs room', async () => {
    expect(await waitFor(parked(server, 'alice'), 30_000)).toBe(true);
    expect(await waitFor(parked(server, 'bob'), 30_000)).toBe(true);
    const capacity = await api(server, ALICE, 'GET', '/v1/browser/capacity');
    expect(capacity.json).toEqual({ running: 0, limit: 2, queued: 0, recycled: 2, available: 0 });

    // Bob takes his own; alice's parked browser must give way for bob's second session.
    const one = await create(server, BOB);
    const two = await create(server, BOB);
    const after = (await api(server, BOB, 'GET', '/v1/browser/capacity')).json;
    expect(after).toEqual({ running: 2, limit: 2, queued: 0, recycled: 0, available: 0 });
    expect(server.engines.browsers.recycler.parkedOf('alice')).toBe(0);
    await remove(server, BOB, one.session_id);
    await remove(server, BOB, two.session_id);
  }, 120_000);
});

describe('back-to-back sessions of one user', () => {
  /**
   * On a recycling server with a warm pool of 1: alice's first session, deleted, and at once her
   * second. @returns the pids of both sessions' browsers and the second session
   */
  async function backToBack(recycle: RecycleOptions) {
    const server = await startTestServer({ apiKeys: KEYS, recycle, warmPoolSize: 1 });
    const poolReady = () => server.engines.browsers.poolStats().ready > 0;
    expect(await waitFor(poolReady, 30_000)).toBe(true);
    const first = await create(server, ALICE);
    const a = server.engines.browsers.pidOf(first.session_id);
    expect(await waitFor(poolReady, 30_000)).toBe(true);
    await remove(server, ALICE, first.session_id);
    const second = await create(server, ALICE);
    return { server, a, b: server.engines.browsers.pidOf(second.session_id), second };
  }

  it('alternate between two browsers: one is wiped while the other serves', async () => {
    const { server, a, b, second } = await backToBack({ enabled: true });
    try {
      // Alice's only browser was being wiped: the ready pooled one served her at once.
      expect(b).not.toBe(a);
      await remove(server, ALICE, second.session_id);
      expect(
        await waitFor(() => server.engines.browsers.recycler.parkedOf('alice') === 2, 30_000),
      ).toBe(true);
      // From now on the two take turns, and no third browser joins them.
      const seen: (number | undefined)[] = [];
      for (let i = 0; i < 4; i++) {
        const next = await create(server, ALICE);
        seen.push(server.engines.browsers.pidOf(next.session_id));
        await remove(server, ALICE, next.session_id);
      }
      for (const pid of seen) expect([a, b]).toContain(pid);
      for (let i = 1; i < seen.length; i++) expect(seen[i]).not.toBe(seen[i - 1]);
    } finally {
      await server.dispose();
    }
  }, 120_000);

  it('wait for the wipe of their one browser with maxPerUser 1', async () => {
    const { server, a, b } = await backToBack({ enabled: true, maxPerUser: 1 });
    await server.dispose();
    expect(b).toBe(a);
  }, 120_000);
});

describe('recycling and shutdown', () => {
  it('leaves no browser behind when the server closes with parked browsers', async () => {
    const server = await startTestServer({ apiKeys: KEYS, recycle: { enabled: true } });
    const dir = server.dataDir;
    try {
      const session = await create(server, ALICE);
      await remove(server, ALICE, session.session_id);
      expect(await waitFor(parked(server, 'alice'), 30_000)).toBe(true);
      expect(processesMentioning(dir).length).toBeGreaterThan(0);
    } finally {
      await server.dispose();
    }
    expect(processesMentioning(dir)).toEqual([]);
  }, 120_000);

  it('is off by default: a deleted session leaves no browser running', async () => {
    const server = await startTestServer({ apiKeys: KEYS });
    try {
      const session = await create(server, ALICE);
      await remove(server, ALICE, session.session_id);
      expect(await waitFor(() => processesMentioning(server.dataDir).length === 0, 30_000)).toBe(
        true,
      );
      expect(server.engines.browsers.recycler.count).toBe(0);
    } finally {
      await server.dispose();
    }
  }, 120_000);

  it('rejects a bad limit naming the option', async () => {
    await expect(
      startTestServer({ apiKeys: KEYS, recycle: { enabled: true, maxIdleMs: 0 } }),
    ).rejects.toThrow(/recycle\.maxIdleMs: expected a positive integer, got 0/);
  });
});
