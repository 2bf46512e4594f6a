import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { chromium } from 'playwright-core';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrowserRecordingSchema, BrowserSessionSchema } from '../../../src/protocol/index.js';
import { CHROMIUM_PATH, CHROMIUM_TEST_ARGS } from '../../support/chromium.js';
import { startTestServer, tempDir } from '../../support/server.js';
import type { TestServer } from '../../support/server.js';
import { ALICE, BOB, KEYS, api } from './helpers.js';
import type { Json } from './helpers.js';

/**
 * `/one` (a counter button), `/two` (with a cross-origin frame from `localhost`), `/frame`, and
 * `/big` (60 kB of text).
 */
async function fixtureServer(): Promise<{ url: string; close(): Promise<void> }> {
  let port = 0;
  const server = http.createServer((req, res) => {
    res.setHeader('content-type', 'text/html; charset=utf-8');
    if (req.url === '/two') {
      res.end(
        `<!doctype html><title>Two</title><h1>Page two heading</h1>` +
          `<iframe src="http://localhost:${port}/frame" width="400" height="100"></iframe>`,
      );
    } else if (req.url === '/big') {
      res.end(
        `<!doctype html><title>Big</title><h1>Big page</h1><p>${'lorem ipsum '.repeat(5_000)}</p>`,
      );
    } else if (req.url === '/frame') {
      res.end('<!doctype html><p>Framed text from another origin</p>');
    } else {
      res.end(
        `<!doctype html><title>One</title><h1>Page one heading</h1>` +
          `<button id="b" onclick="this.textContent='clicked '+(++window.n)">start</button>` +
          `<script>window.n=0</script>`,
      );
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

describe('session recording (record: true)', () => {
  let server: TestServer;
  let fixture: Awaited<ReturnType<typeof fixtureServer>>;
  let now = Date.now();

  beforeAll(async () => {
    server = await startTestServer({
      apiKeys: KEYS,
      warmPoolSize: 1,
      clock: () => now,
      recordingRetentionMs: 3_600_000,
    });
    fixture = await fixtureServer();
  });
  afterAll(async () => {
    await server?.dispose();
    await fixture?.close();
  });

  /** Creates a recorded session, visits /one (two clicks) then /two, and deletes it. */
  async function recordVisit(body: Json = {}): Promise<Json> {
    const { status, json: session } = await api(server, ALICE, 'POST', '/v1/browser/sessions', {
      record: true,
      ...body,
    });
    expect(status).toBe(200);
    const browser = await chromium.connectOverCDP(session.cdp_url);
    try {
      const context = browser.contexts()[0]!;
      const page = context.pages()[0] ?? (await context.newPage());
      await page.goto(fixture.url + '/one');
      await page.click('#b');
      await page.click('#b');
      await page.goto(fixture.url + '/two');
      await page.frameLocator('iframe').locator('p').waitFor();
      // Let the last mutations reach the server before the session ends.
      await page.waitForTimeout(300);
    } finally {
      await browser.close();
    }
    expect(
      (await api(server, ALICE, 'DELETE', `/v1/browser/sessions/${session.session_id}`)).status,
    ).toBe(204);
    return session;
  }

  it('records every page across navigations, keeps the recording after the session is deleted, and orders its events', async () => {
    const session = await recordVisit();
    const record = BrowserSessionSchema.parse(session);
    expect(record.recording_url).toMatch(
      new RegExp(`^${server.url}/v1/browser/sessions/${record.session_id}/recording\\.html\\?sig=`),
    );
    const { status, json } = await api(
      server,
      ALICE,
      'GET',
      `/v1/browser/sessions/${record.session_id}/recording`,
    );
    expect(status).toBe(200);
    const recording = BrowserRecordingSchema.parse(json);
    expect(recording.status).toBe('complete');
    expect(recording.truncated).toBe(false);
    expect(recording.ended_at).not.toBeNull();
    expect(recording.pages.map((p) => p.url)).toEqual([fixture.url + '/one', fixture.url + '/two']);
    expect(recording.pages[1]!.offset_ms).toBeGreaterThan(recording.pages[0]!.offset_ms);
    const times = recording.events.map((e) => e.timestamp);
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(recording.events[0]!.data).toMatchObject({ tag: 'svc-recording-start' });
    // One full snapshot per document, and the clicks as DOM mutations in between.
    const snapshots = recording.events.filter((e) => e.type === 2);
    expect(snapshots).toHaveLength(2);
    // Each page marker is the moment its document was drawn, so `#t=<offset_ms>` shows it.
    expect(recording.pages.map((p) => p.offset_ms)).toEqual(
      snapshots.map((e) => e.timestamp - recording.started_at),
    );
    const text = JSON.stringify(recording.events);
    expect(text).toContain('Page one heading');
    expect(text).toContain('clicked 2');
    expect(text).toContain('Page two heading');
    // The cross-origin frame is recorded through its own recorder.
    expect(text).toContain('Framed text from another origin');
    // The record stays readable while the session record lives; the page reads as "recorded".
    const { json: after } = await api(
      server,
      ALICE,
      'GET',
      `/v1/browser/sessions/${record.session_id}`,
    );
    expect(after.recording_url).toBe(record.recording_url);
  });

  it('serves a replay page that loads with no network and shows the second page at its #t= offset', async () => {
    const session = await recordVisit();
    const page = `${server.url}/v1/browser/sessions/${session.session_id}/recording.html`;
    // The owner's key, or the record's signed link without any key; nothing else.
    expect((await fetch(page, { headers: { authorization: `Bearer ${ALICE}` } })).status).toBe(200);
    expect((await fetch(page, { headers: { authorization: `Bearer ${BOB}` } })).status).toBe(404);
    expect((await fetch(page)).status).toBe(401);
    expect((await fetch(`${page}?sig=${'A'.repeat(32)}`)).status).toBe(401);
    const res = await fetch(session.recording_url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-security-policy')).toContain("connect-src 'none'");
    const html = await res.text();
    const { json: recording } = await api(
      server,
      ALICE,
      'GET',
      `/v1/browser/sessions/${session.session_id}/recording`,
    );
    const dir = tempDir('svc-replay-');
    const file = path.join(dir, 'replay.html');
    fs.writeFileSync(file, html);
    let viewer: Browser | undefined;
    try {
      viewer = await chromium.launch({
        executablePath: CHROMIUM_PATH,
        args: [...CHROMIUM_TEST_ARGS],
      });
      const context = await viewer.newContext({ offline: true });
      const requests: string[] = [];
      context.on('request', (r) => {
        if (!r.url().startsWith('file:') && !r.url().startsWith('data:')) requests.push(r.url());
      });
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      const second = recording.pages[1].offset_ms + 200;
      await page.goto(`file://${file}#t=${second}`);
      await page.waitForFunction(() => (window as Json).svcReplay?.ready === true);
      expect(errors).toEqual([]);
      expect(await page.evaluate(() => (window as Json).svcReplay.events)).toBeGreaterThan(10);
      const shown = (): Promise<string> =>
        page.evaluate(
          () =>
            (document.querySelector('.replayer-wrapper iframe') as HTMLIFrameElement | null)
              ?.contentDocument?.body?.textContent ?? '',
        );
      await page.waitForFunction(() =>
        (
          document.querySelector('.replayer-wrapper iframe') as HTMLIFrameElement | null
        )?.contentDocument?.body?.textContent?.includes('Page two heading'),
      );
      // Seeking back by hash, to just before the second document begins (its Meta event), shows
      // the first page with its clicks applied.
      const secondMeta = recording.events.find(
        (e: Json) => e.type === 4 && e.data.href === recording.pages[1].url,
      ).timestamp;
      await page.evaluate(
        (t) => (location.hash = `#t=${t}`),
        secondMeta - recording.started_at - 1,
      );
      await page.waitForFunction(() =>
        (
          document.querySelector('.replayer-wrapper iframe') as HTMLIFrameElement | null
        )?.contentDocument?.body?.textContent?.includes('clicked 2'),
      );
      expect(await shown()).toContain('Page one heading');
      // Only the recorded pages' own images or fonts could be fetched; these pages have none.
      expect(requests).toEqual([]);
    } finally {
      await viewer?.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('records a tab the agent opens, numbered in opening order, and replays the tab that loaded last', async () => {
    const { json: session } = await api(server, ALICE, 'POST', '/v1/browser/sessions', {
      record: true,
    });
    const browser = await chromium.connectOverCDP(session.cdp_url);
    try {
      const context = browser.contexts()[0]!;
      const first = context.pages()[0] ?? (await context.newPage());
      await first.goto(fixture.url + '/one');
      const second = await context.newPage();
      await second.goto(fixture.url + '/big');
      await second.waitForTimeout(300);
    } finally {
      await browser.close();
    }
    await api(server, ALICE, 'DELETE', `/v1/browser/sessions/${session.session_id}`);
    const url = `/v1/browser/sessions/${session.session_id}/recording`;
    await expect
      .poll(async () => (await api(server, ALICE, 'GET', url)).json.status)
      .toBe('complete');
    const recording = BrowserRecordingSchema.parse((await api(server, ALICE, 'GET', url)).json);
    expect(recording.pages.map((p) => [p.tab, p.url])).toEqual([
      [1, fixture.url + '/one'],
      [2, fixture.url + '/big'],
    ]);
    const html = await (await fetch(recording.pages.length ? session.recording_url : '')).text();
    const dir = tempDir('svc-replay-');
    const file = path.join(dir, 'replay.html');
    fs.writeFileSync(file, html);
    let viewer: Browser | undefined;
    try {
      viewer = await chromium.launch({
        executablePath: CHROMIUM_PATH,
        args: [...CHROMIUM_TEST_ARGS],
      });
      const page = await (await viewer.newContext({ offline: true })).newPage();
      await page.goto(`file://${file}#t=${recording.pages[1]!.offset_ms + 200}`);
      await page.waitForFunction(
        () =>
          (
            document.querySelector('.replayer-wrapper iframe') as HTMLIFrameElement | null
          )?.contentDocument?.body?.textContent?.includes('Big page'),
        null,
        // The replay rebuilds the tab's DOM from its events: slow on a busy machine.
        { timeout: 60_000 },
      );
    } finally {
      await viewer?.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 150_000);

  it('is 404 for a session not recorded and for another user, and DELETE removes it', async () => {
    const { json: plain } = await api(server, ALICE, 'POST', '/v1/browser/sessions', {});
    expect(plain.recording_url).toBeUndefined();
    expect(
      (await api(server, ALICE, 'GET', `/v1/browser/sessions/${plain.session_id}/recording`))
        .status,
    ).toBe(404);
    await api(server, ALICE, 'DELETE', `/v1/browser/sessions/${plain.session_id}`);

    const session = await recordVisit();
    const url = `/v1/browser/sessions/${session.session_id}/recording`;
    const other = await api(server, BOB, 'GET', url);
    expect(other.status).toBe(404);
    expect(other.json.error.code).toBe('recording_not_found');
    expect((await api(server, BOB, 'DELETE', url)).status).toBe(404);
    expect((await api(server, ALICE, 'DELETE', url)).status).toBe(204);
    expect((await api(server, ALICE, 'GET', url)).status).toBe(404);
    expect(
      fs.existsSync(path.join(server.dataDir, 'recordings', `${session.session_id}.ndjson`)),
    ).toBe(false);
  });

  it('deletes a recording once the retention has passed since its session ended', async () => {
    const session = await recordVisit();
    const url = `/v1/browser/sessions/${session.session_id}/recording`;
    const file = path.join(server.dataDir, 'recordings', `${session.session_id}.ndjson`);
    // Finishing the file is asynchronous after DELETE: wait until the recording reads complete.
    await expect
      .poll(async () => (await api(server, ALICE, 'GET', url)).json.status)
      .toBe('complete');
    now += 3_600_000 - 1_000;
    expect(await server.engines.browsers.recordings.purge()).toBe(0);
    expect((await api(server, ALICE, 'GET', url)).status).toBe(200);
    now += 2_000;
    expect(await server.engines.browsers.recordings.purge()).toBeGreaterThanOrEqual(1);
    expect((await api(server, ALICE, 'GET', url)).status).toBe(404);
    expect(fs.existsSync(file)).toBe(false);
  });

  it('rejects bad record and live_view values with 422 naming the field', async () => {
    const bad = await api(server, ALICE, 'POST', '/v1/browser/sessions', { record: 'yes' });
    expect(bad.status).toBe(422);
    expect(bad.json.detail[0].loc).toEqual(['body', 'record']);
    const badView = await api(server, ALICE, 'POST', '/v1/browser/sessions', { live_view: 'full' });
    expect(badView.status).toBe(422);
    expect(badView.json.detail[0].loc).toEqual(['body', 'live_view']);
  });
});

describe('recording size cap', () => {
  let server: TestServer;
  let fixture: Awaited<ReturnType<typeof fixtureServer>>;

  beforeAll(async () => {
    server = await startTestServer({ apiKeys: KEYS, maxRecordingBytes: 20_000 });
    fixture = await fixtureServer();
  });
  afterAll(async () => {
    await server?.dispose();
    await fixture?.close();
  });

  it('stops at maxRecordingBytes and marks the recording truncated', async () => {
    const { json: session } = await api(server, ALICE, 'POST', '/v1/browser/sessions', {
      record: true,
    });
    const browser = await chromium.connectOverCDP(session.cdp_url);
    try {
      const page = browser.contexts()[0]!.pages()[0]!;
      await page.goto(fixture.url + '/one');
      await page.goto(fixture.url + '/big');
      await page.waitForTimeout(300);
    } finally {
      await browser.close();
    }
    await api(server, ALICE, 'DELETE', `/v1/browser/sessions/${session.session_id}`);
    const url = `/v1/browser/sessions/${session.session_id}/recording`;
    await expect
      .poll(async () => (await api(server, ALICE, 'GET', url)).json.status)
      .toBe('complete');
    const { json: recording } = await api(server, ALICE, 'GET', url);
    expect(recording.truncated).toBe(true);
    expect(recording.events.at(-2).data.tag).toBe('svc-recording-truncated');
    expect(recording.events.at(-1).data.tag).toBe('svc-recording-end');
    const file = path.join(server.dataDir, 'recordings', `${session.session_id}.ndjson`);
    // The cap bounds the events; the truncation and end markers are the only lines past it.
    const lines = fs.readFileSync(file, 'utf8').trim().split('\n');
    const withoutMarker = lines.slice(0, -2).join('\n').length + 1;
    expect(withoutMarker).toBeLessThanOrEqual(20_000);
    const text = JSON.stringify(recording.events);
    expect(text).toContain('Page one heading');
    expect(text).not.toContain('Big page');
  });
});
