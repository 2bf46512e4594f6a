import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium } from 'playwright-core';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrowserSessionSchema } from '../../../src/protocol/index.js';
import { CHROMIUM_PATH, CHROMIUM_TEST_ARGS } from '../../support/chromium.js';
import { startTestServer } from '../../support/server.js';
import type { TestServer } from '../../support/server.js';
import { ALICE, KEYS, api } from './helpers.js';
import type { Json } from './helpers.js';

/**
 * `/` is a page whose top-left quarter is a counter button and whose bottom half is a text input;
 * `/second` is another page, for the tab-following test.
 */
async function fixtureServer(): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    res.setHeader('content-type', 'text/html; charset=utf-8');
    if (req.url === '/second') {
      res.end('<!doctype html><title>Second tab</title><h1>The second tab</h1>');
      return;
    }
    res.end(`<!doctype html><title>Counter</title>
<style>html,body{margin:0;height:100%;overflow:hidden}
#count{position:fixed;left:0;top:0;width:50vw;height:50vh;font-size:40px}
#text{position:fixed;left:0;top:60vh;width:100vw;height:30vh;font-size:30px}</style>
<button id="count" onclick="this.textContent=String(Number(this.textContent)+1)">0</button>
<input id="text" autocomplete="off">`);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

function tokenOf(liveUrl: string): string {
  const token = /#token=([A-Za-z0-9_-]+)$/.exec(liveUrl)?.[1];
  if (!token) throw new Error(`no token in ${liveUrl}`);
  return token;
}

/** Clicks the live view's screen at fractions of its size. */
async function clickScreen(viewer: Page, fx: number, fy: number): Promise<void> {
  const box = await viewer.locator('#screen').boundingBox();
  if (!box) throw new Error('the live view shows no screen');
  await viewer.mouse.click(box.x + box.width * fx, box.y + box.height * fy);
}

const frames = (viewer: Page): Promise<number> =>
  viewer.evaluate(() => Number(document.body.dataset.frames));

describe('live view of a browser session', () => {
  let server: TestServer;
  let fixture: Awaited<ReturnType<typeof fixtureServer>>;
  let viewerBrowser: Browser;

  beforeAll(async () => {
    server = await startTestServer({ apiKeys: KEYS, warmPoolSize: 0 });
    fixture = await fixtureServer();
    viewerBrowser = await chromium.launch({
      executablePath: CHROMIUM_PATH,
      args: [...CHROMIUM_TEST_ARGS],
    });
  });
  afterAll(async () => {
    await viewerBrowser?.close();
    await server?.dispose();
    await fixture?.close();
  });

  async function startSession(
    body: Json = {},
  ): Promise<{ session: Json; browser: Browser; page: Page }> {
    const { status, json: session } = await api(server, ALICE, 'POST', '/v1/browser/sessions', {
      viewport: { width: 800, height: 600 },
      ...body,
    });
    expect(status).toBe(200);
    const browser = await chromium.connectOverCDP(session.cdp_url);
    const context = browser.contexts()[0]!;
    const page = context.pages()[0] ?? (await context.newPage());
    await page.goto(fixture.url + '/');
    return { session, browser, page };
  }

  async function openViewer(liveUrl: string): Promise<Page> {
    const viewer = await viewerBrowser.newPage({ viewport: { width: 1000, height: 800 } });
    await viewer.goto(liveUrl);
    await viewer.waitForFunction(
      () => document.body.dataset.state === 'live' && Number(document.body.dataset.frames) > 0,
    );
    return viewer;
  }

  it('shows the session live: frames change as Playwright drives it, and a click in the view reaches the page', async () => {
    const { session, browser, page } = await startSession();
    const record = BrowserSessionSchema.parse(session);
    expect(record.live_url).toMatch(
      new RegExp(`^${server.url}/v1/browser/sessions/${record.session_id}/live#token=`),
    );
    expect(record.live_url).not.toContain(ALICE);
    const viewer = await openViewer(record.live_url!);
    try {
      // The token left the address bar once read.
      expect(viewer.url()).not.toContain('token');
      expect(await viewer.evaluate(() => document.body.dataset.mode)).toBe('interactive');

      const before = await frames(viewer);
      await page.click('#count');
      await page.click('#count');
      expect(await page.textContent('#count')).toBe('2');
      await viewer.waitForFunction((n) => Number(document.body.dataset.frames) > n, before);

      // The button covers the top-left quarter of the viewport: click its middle in the view.
      await clickScreen(viewer, 0.25, 0.25);
      await page.waitForFunction(() => document.querySelector('#count')?.textContent === '3');

      // Keys: focus the input through the view, then type into the view.
      await clickScreen(viewer, 0.5, 0.75);
      await page.waitForFunction(() => document.activeElement?.id === 'text');
      await viewer.keyboard.type('hi there');
      await viewer.keyboard.press('Backspace');
      await page.waitForFunction(
        () => (document.querySelector('#text') as HTMLInputElement).value === 'hi ther',
      );

      // Scroll: the wheel reaches the page.
      await page.evaluate(() => {
        document.body.style.height = '5000px';
        document.documentElement.style.overflow = 'auto';
        document.body.style.overflow = 'auto';
      });
      const box = (await viewer.locator('#screen').boundingBox())!;
      await viewer.mouse.move(box.x + box.width * 0.75, box.y + box.height * 0.25);
      await viewer.mouse.wheel(0, 400);
      await page.waitForFunction(() => window.scrollY > 0);
    } finally {
      await viewer.close();
      await browser.close();
      await api(server, ALICE, 'DELETE', `/v1/browser/sessions/${record.session_id}`);
    }
  });

  it('follows the active tab when the agent opens a new one, and goes back when it closes', async () => {
    const { session, browser, page } = await startSession();
    const viewer = await openViewer(session.live_url);
    try {
      await viewer.waitForFunction((url) => document.body.dataset.url === url, fixture.url + '/');
      const second = await page.context().newPage();
      await second.goto(fixture.url + '/second');
      await viewer.waitForFunction(
        (url) => document.body.dataset.url === url,
        fixture.url + '/second',
      );
      const seen = await frames(viewer);
      await second.close();
      await viewer.waitForFunction((url) => document.body.dataset.url === url, fixture.url + '/');
      await clickScreen(viewer, 0.25, 0.25);
      await page.waitForFunction(() => document.querySelector('#count')?.textContent === '1');
      expect(await frames(viewer)).toBeGreaterThan(seen);
    } finally {
      await viewer.close();
      await browser.close();
      await api(server, ALICE, 'DELETE', `/v1/browser/sessions/${session.session_id}`);
    }
  });

  it('refuses input on a read-only view: the page shows frames, input is 403 and never reaches the tab', async () => {
    const { session, browser, page } = await startSession({ live_view: 'read-only' });
    const viewer = await openViewer(session.live_url);
    try {
      expect(await viewer.evaluate(() => document.body.dataset.mode)).toBe('read-only');
      const res = await fetch(
        `${server.url}/v1/browser/sessions/${session.session_id}/live/input`,
        {
          method: 'POST',
          headers: {
            'x-live-token': tokenOf(session.live_url),
            'content-type': 'application/json',
          },
          body: JSON.stringify({
            events: [
              { type: 'mouse', action: 'down', x: 0.25, y: 0.25, buttons: 1 },
              { type: 'mouse', action: 'up', x: 0.25, y: 0.25 },
            ],
          }),
        },
      );
      expect(res.status).toBe(403);
      expect((await res.json()).error.code).toBe('live_view_read_only');
      await clickScreen(viewer, 0.25, 0.25);
      // A click the page does take, to know any earlier one had time to land.
      await page.click('#count');
      expect(await page.textContent('#count')).toBe('1');
    } finally {
      await viewer.close();
      await browser.close();
      await api(server, ALICE, 'DELETE', `/v1/browser/sessions/${session.session_id}`);
    }
  });

  it('answers 401 to a wrong or missing token and to the API key, 404 to an unknown session, 422 to bad input', async () => {
    const { json: session } = await api(server, ALICE, 'POST', '/v1/browser/sessions', {});
    const base = `${server.url}/v1/browser/sessions/${session.session_id}/live`;
    try {
      for (const headers of [
        {},
        { 'x-live-token': 'not-the-token' },
        { 'x-live-token': ALICE },
        { authorization: `Bearer ${ALICE}` },
      ]) {
        const res = await fetch(`${base}/frames`, { headers });
        expect(res.status).toBe(401);
        expect((await res.json()).error.code).toBe('invalid_token');
      }
      const unknown = `${server.url}/v1/browser/sessions/00000000-0000-4000-8000-000000000000/live`;
      expect((await fetch(unknown)).status).toBe(404);
      expect(
        (
          await fetch(`${unknown}/frames`, {
            headers: { 'x-live-token': tokenOf(session.live_url) },
          })
        ).status,
      ).toBe(404);
      const bad = await fetch(`${base}/input`, {
        method: 'POST',
        headers: { 'x-live-token': tokenOf(session.live_url), 'content-type': 'application/json' },
        body: JSON.stringify({ events: [{ type: 'mouse', action: 'down', x: 2, y: 0.5 }] }),
      });
      expect(bad.status).toBe(422);
      expect((await bad.json()).detail[0].loc).toEqual(['body', 'events', 0, 'x']);
      // The token is in no log line.
      expect(server.logs.join('\n')).not.toContain(tokenOf(session.live_url));
    } finally {
      await api(server, ALICE, 'DELETE', `/v1/browser/sessions/${session.session_id}`);
    }
  });

  it('keeps an idle session running while someone watches, and lets it expire once they leave', async () => {
    const { json: session } = await api(server, ALICE, 'POST', '/v1/browser/sessions', {
      idle_timeout_s: 5,
    });
    const url = `/v1/browser/sessions/${session.session_id}`;
    const viewer = await openViewer(session.live_url);
    try {
      // Past the idle timeout with no CDP client: the viewer alone holds the session.
      await viewer.waitForTimeout(7_000);
      expect((await api(server, ALICE, 'GET', url)).json.status).toBe('running');
    } finally {
      await viewer.close();
    }
    await expect
      .poll(async () => (await api(server, ALICE, 'GET', url)).json.status, { timeout: 20_000 })
      .toBe('expired');
  });

  it('closes the view when the session ends, and the page and stream are 404 after', async () => {
    const { session, browser } = await startSession();
    const viewer = await openViewer(session.live_url);
    try {
      await browser.close();
      expect(
        (await api(server, ALICE, 'DELETE', `/v1/browser/sessions/${session.session_id}`)).status,
      ).toBe(204);
      await viewer.waitForFunction(() => document.body.dataset.state === 'ended');
      const { json: ended } = await api(
        server,
        ALICE,
        'GET',
        `/v1/browser/sessions/${session.session_id}`,
      );
      expect(ended.status).toBe('stopped');
      expect(ended.live_url).toBeUndefined();
      const base = `${server.url}/v1/browser/sessions/${session.session_id}/live`;
      expect((await fetch(base)).status).toBe(404);
      expect(
        (await fetch(`${base}/frames`, { headers: { 'x-live-token': tokenOf(session.live_url) } }))
          .status,
      ).toBe(404);
    } finally {
      await viewer.close();
    }
  });
});
