import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium } from 'playwright-core';
import puppeteer from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '../../../src/client/index.js';
import { NotFoundError, ValidationError } from '../../../src/errors.js';
import { startTestServer } from '../../support/server.js';
import type { TestServer } from '../../support/server.js';
import { ALICE, BOB, KEYS, api, processesMentioning, waitFor } from './helpers.js';

const PAYLOAD = randomBytes(300_000);

/**
 * `/` links to `/report.bin` (an attachment); `/form` has a file input whose chosen file's text
 * and size the page writes into `#out`.
 */
async function siteServer(): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    if (req.url === '/report.bin') {
      res.setHeader('content-type', 'application/octet-stream');
      res.setHeader('content-disposition', 'attachment; filename="quarterly report.bin"');
      res.end(PAYLOAD);
      return;
    }
    res.setHeader('content-type', 'text/html; charset=utf-8');
    if (req.url === '/form') {
      res.end(`<!doctype html><title>form</title><input type="file" id="f"><pre id="out"></pre>
<script>document.getElementById('f').addEventListener('change', async (e) => {
  const file = e.target.files[0];
  document.getElementById('out').textContent = file.name + ':' + file.size + ':' + (await file.text());
});</script>`);
      return;
    }
    res.end('<!doctype html><title>files</title><a id="dl" href="/report.bin">report</a>');
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

describe('browser session files', () => {
  let server: TestServer;
  let site: { url: string; close(): Promise<void> };
  let alice: Client;

  beforeAll(async () => {
    // A warm pool, as the product runs: sessions take browsers linked before they were asked for.
    server = await startTestServer({ apiKeys: KEYS, maxSessions: 4, warmPoolSize: 1 });
    site = await siteServer();
    alice = new Client({ baseURL: server.url, apiKey: ALICE, maxRetries: 0 });
  });
  afterAll(async () => {
    await alice?.close();
    await site?.close();
    const dir = server?.dataDir;
    await server?.dispose();
    if (dir) expect(processesMentioning(dir)).toEqual([]);
  });

  it('a download started by a real link is listed with its sha256 and fetched byte for byte', async () => {
    const session = await alice.browser.sessions.create();
    const browser = await chromium.connectOverCDP(session.cdp_url!);
    try {
      const page = browser.contexts()[0]!.pages()[0]!;
      await page.goto(`${site.url}/`);
      await page.click('#dl');
      const finished = async () =>
        (await alice.browser.sessions.downloads.list(session.session_id)).downloads.find(
          (d) => d.finished,
        );
      expect(await waitFor(async () => (await finished()) !== undefined, 15_000)).toBe(true);
      const entry = (await finished())!;
      const sha256 = createHash('sha256').update(PAYLOAD).digest('hex');
      expect(entry).toMatchObject({ name: 'quarterly report.bin', size: PAYLOAD.length, sha256 });
      const bytes = await alice.browser.sessions.downloads.get(session.session_id, entry.name);
      expect(createHash('sha256').update(bytes).digest('hex')).toBe(sha256);
    } finally {
      await browser.close();
      await alice.browser.sessions.delete(session.session_id);
    }
    // Still readable once the session ended (until its record is purged), and only by its owner.
    const after = await alice.browser.sessions.downloads.list(session.session_id);
    expect(after.downloads.map((d) => d.name)).toEqual(['quarterly report.bin']);
    const bob = await api(
      server,
      BOB,
      'GET',
      `/v1/browser/sessions/${session.session_id}/downloads`,
    );
    expect(bob.status).toBe(404);
  });

  it('a download from a Puppeteer page (which sets no download behaviour of its own) lands in the session folder too', async () => {
    const session = await alice.browser.sessions.create();
    const browser = await puppeteer.connect({ browserWSEndpoint: session.cdp_url! });
    try {
      const [page] = await browser.pages();
      await page!.goto(`${site.url}/`);
      await page!.click('#dl');
      expect(
        await waitFor(
          async () =>
            (await alice.browser.sessions.downloads.list(session.session_id)).downloads.some(
              (d) => d.finished,
            ),
          15_000,
        ),
      ).toBe(true);
      const { downloads } = await alice.browser.sessions.downloads.list(session.session_id);
      expect(downloads[0]).toMatchObject({
        name: 'quarterly report.bin',
        sha256: createHash('sha256').update(PAYLOAD).digest('hex'),
        url: `${site.url}/report.bin`,
      });
    } finally {
      await browser.disconnect();
      await alice.browser.sessions.delete(session.session_id);
    }
  });

  it('an upload reaches a page through setInputFiles with the path the server answered', async () => {
    const session = await alice.browser.sessions.create();
    const browser = await chromium.connectOverCDP(session.cdp_url!);
    try {
      const upload = await alice.browser.sessions.uploads.create(session.session_id, {
        name: 'notes.txt',
        data: 'hello from the uploader',
      });
      expect(upload).toMatchObject({
        name: 'notes.txt',
        size: 23,
        sha256: createHash('sha256').update('hello from the uploader').digest('hex'),
      });
      const page = browser.contexts()[0]!.pages()[0]!;
      await page.goto(`${site.url}/form`);
      await page.setInputFiles('#f', upload.path);
      await page.waitForFunction(() => document.getElementById('out')!.textContent !== '');
      expect(await page.textContent('#out')).toBe('notes.txt:23:hello from the uploader');
    } finally {
      await browser.close();
      await alice.browser.sessions.delete(session.session_id);
    }
    const late = await api(
      server,
      ALICE,
      'POST',
      `/v1/browser/sessions/${session.session_id}/uploads`,
      {
        name: 'late.txt',
        data: '',
      },
    );
    expect(late.status).toBe(409);
  });

  it('refuses names that would leave the session folder with a 422 at the exact loc', async () => {
    const session = await alice.browser.sessions.create();
    try {
      const base = `/v1/browser/sessions/${session.session_id}`;
      const traversal = await api(server, ALICE, 'GET', `${base}/downloads/..%2F..%2Fcontext.key`);
      expect(traversal.status).toBe(422);
      expect(traversal.json.detail[0].loc).toEqual(['path', 'name']);
      const control = await api(server, ALICE, 'GET', `${base}/downloads/a%00b`);
      expect(control.status).toBe(422);
      expect(control.json.detail[0].loc).toEqual(['path', 'name']);
      const missing = await api(server, ALICE, 'GET', `${base}/downloads/nothing.bin`);
      expect(missing.status).toBe(404);
      const upload = await api(server, ALICE, 'POST', `${base}/uploads`, {
        name: '../../context.key',
        data: 'AAAA',
      });
      expect(upload.status).toBe(422);
      expect(upload.json.detail[0].loc).toEqual(['body', 'name']);
      await expect(
        alice.browser.sessions.uploads.create(session.session_id, { name: 'a/b.txt', data: 'x' }),
      ).rejects.toBeInstanceOf(ValidationError);
      await expect(
        alice.browser.sessions.downloads.get(session.session_id, 'nothing.bin'),
      ).rejects.toBeInstanceOf(NotFoundError);
    } finally {
      await alice.browser.sessions.delete(session.session_id);
    }
  });

  it('refuses an upload past the size limit with 413', async () => {
    const session = await alice.browser.sessions.create();
    try {
      const res = await api(
        server,
        ALICE,
        'POST',
        `/v1/browser/sessions/${session.session_id}/uploads`,
        {
          name: 'big.bin',
          data: Buffer.alloc(7 * 1024 * 1024 + 1).toString('base64'),
        },
      );
      expect(res.status).toBe(413);
    } finally {
      await alice.browser.sessions.delete(session.session_id);
    }
  });
});
