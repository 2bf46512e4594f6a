import { statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '../../../src/client/index.js';
import { NotFoundError, SvcError } from '../../../src/errors.js';
import { SessionManager } from '../../../src/sessions/index.js';
import { startTestServer } from '../../support/server.js';
import type { TestServer } from '../../support/server.js';
import { ALICE, BOB, KEYS, ON_GRID, api, processesMentioning, waitFor } from './helpers.js';

const COOKIE_SECRET = 'cookie-secret-7f3a9c1e';

/** `/login` sets an HttpOnly session cookie and a persistent one; every path is a small page. */
async function siteServer(): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    if (req.url === '/login') {
      res.setHeader('set-cookie', [
        `sid=${COOKIE_SECRET}; Path=/; HttpOnly`,
        'theme=dark; Path=/; Max-Age=86400',
      ]);
    }
    res.setHeader('content-type', 'text/html; charset=utf-8');
    res.end('<!doctype html><title>site</title><p>site</p>');
  });
  server.keepAliveTimeout = 1;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

async function connect(cdpUrl: string): Promise<Browser> {
  return chromium.connectOverCDP(cdpUrl);
}

describe('browser contexts', () => {
  let server: TestServer;
  let site: { url: string; close(): Promise<void> };
  let alice: Client;
  let bob: Client;

  beforeAll(async () => {
    server = await startTestServer({ apiKeys: KEYS, maxSessions: 4 });
    site = await siteServer();
    alice = new Client({ baseURL: server.url, apiKey: ALICE, maxRetries: 0 });
    bob = new Client({ baseURL: server.url, apiKey: BOB, maxRetries: 0 });
  });
  afterAll(async () => {
    await alice?.close();
    await bob?.close();
    await site?.close();
    const dir = server?.dataDir;
    await server?.dispose();
    if (dir) expect(processesMentioning(dir)).toEqual([]);
  });

  it('a persisted session saves cookies, localStorage and IndexedDB, and the next session starts with them', async () => {
    const context = await alice.browser.contexts.create();
    expect(context).toMatchObject({ id: expect.any(String), created_at: expect.any(Number) });

    const a = await alice.browser.sessions.create({ context: { id: context.id, persist: true } });
    const browserA = await connect(a.cdp_url!);
    const pageA = browserA.contexts()[0]!.pages()[0]!;
    await pageA.goto(`${site.url}/login`);
    await pageA.evaluate(async () => {
      localStorage.setItem('draft', 'kept across sessions');
      await new Promise<void>((resolve, reject) => {
        const open = indexedDB.open('app', 1);
        open.onupgradeneeded = () => open.result.createObjectStore('notes');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const tx = open.result.transaction('notes', 'readwrite');
          tx.objectStore('notes').put({ text: 'from A', at: new Date(1_700_000_000_000) }, 'n1');
          tx.oncomplete = () => resolve();
          tx.onerror = () => reject(tx.error);
        };
      });
    });
    expect((await alice.browser.contexts.get(context.id)).session_id).toBe(a.session_id);
    await browserA.close();
    await alice.browser.sessions.delete(a.session_id);

    const saved = await alice.browser.contexts.get(context.id);
    expect(saved.session_id).toBeNull();
    expect(saved.updated_at).toEqual(expect.any(Number));
    expect(saved.size_bytes).toBeGreaterThan(0);

    const b = await alice.browser.sessions.create({ context: { id: context.id } });
    const browserB = await connect(b.cdp_url!);
    try {
      const contextB = browserB.contexts()[0]!;
      const cookies = await contextB.cookies(site.url);
      expect(cookies).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ name: 'sid', value: COOKIE_SECRET, httpOnly: true }),
          expect.objectContaining({ name: 'theme', value: 'dark' }),
        ]),
      );
      const pageB = contextB.pages()[0]!;
      await pageB.goto(`${site.url}/`);
      if (ON_GRID) {
        // On a Grid only cookies travel (docs/sessions.md): a profile's storage stays on its node.
        expect(await pageB.evaluate(() => localStorage.getItem('draft'))).toBeNull();
        return;
      }
      const stored = await pageB.evaluate(async () => {
        const note = await new Promise<{ text: string; at: Date } | undefined>(
          (resolve, reject) => {
            const open = indexedDB.open('app', 1);
            open.onerror = () => reject(open.error);
            open.onsuccess = () => {
              const get = open.result.transaction('notes').objectStore('notes').get('n1');
              get.onsuccess = () => resolve(get.result as { text: string; at: Date } | undefined);
              get.onerror = () => reject(get.error);
            };
          },
        );
        return {
          draft: localStorage.getItem('draft'),
          note: note?.text,
          isDate: note?.at instanceof Date,
          at: note?.at.getTime(),
        };
      });
      expect(stored).toEqual({
        draft: 'kept across sessions',
        note: 'from A',
        isDate: true,
        at: 1_700_000_000_000,
      });
    } finally {
      await browserB.close();
      await alice.browser.sessions.delete(b.session_id);
    }
  });

  it('a persisting session that expires (idle) saves its context too', async () => {
    const context = await alice.browser.contexts.create();
    const a = await alice.browser.sessions.create({
      idle_timeout_s: 5,
      context: { id: context.id, persist: true },
    });
    const browserA = await connect(a.cdp_url!);
    await browserA.contexts()[0]!.pages()[0]!.goto(`${site.url}/login`);
    await browserA.close();
    expect(
      await waitFor(
        async () => (await alice.browser.contexts.get(context.id)).updated_at != null,
        20_000,
      ),
    ).toBe(true);
    expect((await alice.browser.sessions.get(a.session_id)).status).toBe('expired');
    const b = await alice.browser.sessions.create({ context: { id: context.id } });
    const browserB = await connect(b.cdp_url!);
    try {
      const names = (await browserB.contexts()[0]!.cookies(site.url)).map((c) => c.name);
      expect(names.sort()).toEqual(['sid', 'theme']);
    } finally {
      await browserB.close();
      await alice.browser.sessions.delete(b.session_id);
    }
  });

  it('a context held by a running session answers 409 to a second session and to delete', async () => {
    const context = await alice.browser.contexts.create();
    const a = await alice.browser.sessions.create({ context: { id: context.id, persist: true } });
    try {
      const second = await api(server, ALICE, 'POST', '/v1/browser/sessions', {
        context: { id: context.id },
      });
      expect(second.status).toBe(409);
      expect(second.json.error.code).toBe('context_in_use');
      const del = await api(server, ALICE, 'DELETE', `/v1/browser/contexts/${context.id}`);
      expect(del.status).toBe(409);
    } finally {
      await alice.browser.sessions.delete(a.session_id);
    }
    // Freed (and saved) once the holder stopped: the next session may take it, then it deletes.
    const b = await alice.browser.sessions.create({ context: { id: context.id } });
    await alice.browser.sessions.delete(b.session_id);
    await alice.browser.contexts.delete(context.id);
    await expect(alice.browser.contexts.get(context.id)).rejects.toBeInstanceOf(NotFoundError);
  });

  it('the session manager passes context to the service: a login kept by one withSession is there in the next', async () => {
    const { id } = await alice.browser.contexts.create();
    const manager = new SessionManager({ client: alice, apiKey: ALICE, handleExit: false });
    try {
      await manager.withSession({ context: { id, persist: true } }, async (session) => {
        await session.page.goto(`${site.url}/login`);
      });
      const cookies = await manager.withSession({ context: { id } }, async (session) =>
        session.page.context().cookies(site.url),
      );
      expect(cookies.map((c) => `${c.name}=${c.value}`).sort()).toEqual([
        `sid=${COOKIE_SECRET}`,
        'theme=dark',
      ]);
      const local = new SessionManager({ provider: 'local', handleExit: false });
      await expect(local.create({ context: { id } })).rejects.toBeInstanceOf(SvcError);
      await local.close();
    } finally {
      await manager.close();
    }
  });

  it("another user's context reads as 404 everywhere, like an unknown one", async () => {
    const context = await alice.browser.contexts.create();
    await expect(bob.browser.contexts.get(context.id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(bob.browser.contexts.delete(context.id)).rejects.toBeInstanceOf(NotFoundError);
    const create = await api(server, BOB, 'POST', '/v1/browser/sessions', {
      context: { id: context.id, persist: true },
    });
    expect(create.status).toBe(404);
    expect(create.json.error.code).toBe('context_not_found');
    expect((await bob.browser.contexts.list()).contexts.map((c) => c.id)).not.toContain(context.id);
    expect((await alice.browser.contexts.list()).contexts.map((c) => c.id)).toContain(context.id);
  });

  it('stores state sealed: the cookie value is not in the file, which does not even gunzip; the key is 0600', async () => {
    const context = await alice.browser.contexts.create();
    const a = await alice.browser.sessions.create({ context: { id: context.id, persist: true } });
    const browserA = await connect(a.cdp_url!);
    await browserA.contexts()[0]!.pages()[0]!.goto(`${site.url}/login`);
    await browserA.close();
    await alice.browser.sessions.delete(a.session_id);

    // On SQLite the archive is a file of the data dir; on PostgreSQL a column of the context's row.
    const sealed = (await server.engines.browsers.contexts.sealedBytes(context.id))!;
    expect(sealed.length).toBeGreaterThan(100);
    expect(sealed.includes(Buffer.from(COOKIE_SECRET))).toBe(false);
    expect(() => gunzipSync(sealed)).toThrow();
    if (server.storage.dialect === 'sqlite') {
      const file = path.join(server.dataDir, 'contexts', `${context.id}.ctx`);
      expect(await readFile(file)).toEqual(sealed);
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(statSync(path.join(server.dataDir, 'context.key')).mode & 0o777).toBe(0o600);
    }
  });

  it('refuses a bad context field with a 422 at its exact loc', async () => {
    const res = await api(server, ALICE, 'POST', '/v1/browser/sessions', {
      context: { id: '', persist: 'yes' },
    });
    expect(res.status).toBe(422);
    const locs = res.json.detail.map((d: { loc: unknown[] }) => d.loc.join('.'));
    expect(locs).toEqual(expect.arrayContaining(['body.context.id', 'body.context.persist']));
    expect(await waitFor(() => server.engines.browsers.runningCount === 0, 5_000)).toBe(true);
  });
});
