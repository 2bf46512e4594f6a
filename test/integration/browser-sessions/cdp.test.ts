import { chromium } from 'playwright-core';
import puppeteer from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer } from '../../support/server.js';
import type { TestServer } from '../../support/server.js';
import { ALICE, BOB, KEYS, api, cdpCall, pageServer, tryUpgrade } from './helpers.js';

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47]);

describe('CDP over /v1/browser/sessions/{id}/cdp', () => {
  let server: TestServer;
  let page: Awaited<ReturnType<typeof pageServer>>;

  beforeAll(async () => {
    server = await startTestServer({ apiKeys: KEYS, warmPoolSize: 1 });
    page = await pageServer('Loopback fixture');
  });
  afterAll(async () => {
    await server?.dispose();
    await page?.close();
  });

  it('lets Playwright connectOverCDP open a loopback page, read its title and take a screenshot', async () => {
    const { json: session } = await api(server, ALICE, 'POST', '/v1/browser/sessions', {});
    const browser = await chromium.connectOverCDP(session.cdp_url);
    try {
      const context = browser.contexts()[0] ?? (await browser.newContext());
      const tab = await context.newPage();
      await tab.goto(page.url);
      expect(await tab.title()).toBe('Loopback fixture');
      const shot = await tab.screenshot();
      expect(shot.subarray(0, 4).equals(PNG)).toBe(true);
      expect(shot.length).toBeGreaterThan(1000);
    } finally {
      await browser.close();
    }
    expect(
      (await api(server, ALICE, 'DELETE', `/v1/browser/sessions/${session.session_id}`)).status,
    ).toBe(204);
  });

  it('lets Puppeteer connect with browserWSEndpoint, open a loopback page, read its title and take a screenshot', async () => {
    const { json: session } = await api(server, ALICE, 'POST', '/v1/browser/sessions', {});
    const browser = await puppeteer.connect({ browserWSEndpoint: session.cdp_url });
    try {
      const tab = await browser.newPage();
      await tab.goto(page.url);
      expect(await tab.title()).toBe('Loopback fixture');
      const shot = Buffer.from(await tab.screenshot());
      expect(shot.subarray(0, 4).equals(PNG)).toBe(true);
    } finally {
      await browser.disconnect();
    }
    await api(server, ALICE, 'DELETE', `/v1/browser/sessions/${session.session_id}`);
  });

  it('applies viewport and user_agent at launch, so a client that sets nothing sees them', async () => {
    const { json: session } = await api(server, ALICE, 'POST', '/v1/browser/sessions', {
      viewport: { width: 1024, height: 700 },
      user_agent: 'svc-test-agent/1.0 (integration; x)',
    });
    const browser = await puppeteer.connect({
      browserWSEndpoint: session.cdp_url,
      defaultViewport: null,
    });
    try {
      const tab = await browser.newPage();
      await tab.goto(page.url);
      expect(await tab.evaluate(() => navigator.userAgent)).toBe(
        'svc-test-agent/1.0 (integration; x)',
      );
      expect(await tab.evaluate(() => window.outerWidth)).toBe(1024);
    } finally {
      await browser.disconnect();
    }
    await api(server, ALICE, 'DELETE', `/v1/browser/sessions/${session.session_id}`);
  });

  it('refuses an upgrade with a wrong or missing token, and accepts the right one', async () => {
    const { json: session } = await api(server, ALICE, 'POST', '/v1/browser/sessions', {});
    const bare = session.cdp_url.split('?')[0];
    const missing = await tryUpgrade(bare);
    expect(missing.status).toBe(401);
    expect(JSON.parse(missing.body).error.message).toMatch(/Missing credentials/);
    const wrong = await tryUpgrade(`${bare}?token=${'A'.repeat(43)}`);
    expect(wrong.status).toBe(401);
    expect((await tryUpgrade(session.cdp_url)).status).toBe(101);
    await api(server, ALICE, 'DELETE', `/v1/browser/sessions/${session.session_id}`);
  });

  it("does not let one session's token reach another session's browser", async () => {
    const { json: a } = await api(server, ALICE, 'POST', '/v1/browser/sessions', {});
    const { json: b } = await api(server, ALICE, 'POST', '/v1/browser/sessions', {});
    const tokenOfA = new URL(a.cdp_url).searchParams.get('token')!;
    const crossed = `${b.cdp_url.split('?')[0]}?token=${tokenOfA}`;
    expect((await tryUpgrade(crossed)).status).toBe(401);
    // Each session is its own browser: different browser ids behind the two URLs.
    const [va, vb] = await Promise.all([
      cdpCall(a.cdp_url, 'Browser.getVersion'),
      cdpCall(b.cdp_url, 'Target.getTargets'),
    ]);
    expect(va.product).toMatch(/Chrome/);
    expect(vb.targetInfos.length).toBeGreaterThan(0);
    await api(server, ALICE, 'DELETE', `/v1/browser/sessions/${a.session_id}`);
    await api(server, ALICE, 'DELETE', `/v1/browser/sessions/${b.session_id}`);
  });

  it("accepts the owner's bearer header instead of a token, and treats another user's as not found", async () => {
    const { json: session } = await api(server, ALICE, 'POST', '/v1/browser/sessions', {});
    const bare = session.cdp_url.split('?')[0];
    expect((await tryUpgrade(bare, { authorization: `Bearer ${ALICE}` })).status).toBe(101);
    expect((await tryUpgrade(bare, { authorization: `Bearer ${BOB}` })).status).toBe(404);
    expect((await tryUpgrade(bare, { authorization: 'Bearer svc_unknown-key' })).status).toBe(401);
    await api(server, ALICE, 'DELETE', `/v1/browser/sessions/${session.session_id}`);
    expect((await tryUpgrade(session.cdp_url)).status).toBe(404);
  });

  it('answers 404 to an upgrade on any other path', async () => {
    const ws = server.url.replace('http', 'ws');
    expect((await tryUpgrade(`${ws}/v1/browser/sessions`)).status).toBe(404);
    expect((await tryUpgrade(`${ws}/elsewhere`)).status).toBe(404);
  });

  it('never puts the API key in a cdp_url or a log line, and never logs a connect token', async () => {
    const { json: session } = await api(server, ALICE, 'POST', '/v1/browser/sessions', {});
    await cdpCall(session.cdp_url, 'Browser.getVersion');
    await api(server, ALICE, 'DELETE', `/v1/browser/sessions/${session.session_id}`);
    const token = new URL(session.cdp_url).searchParams.get('token')!;
    expect(session.cdp_url).not.toContain(ALICE);
    const logs = server.logs.join('\n');
    expect(logs).toContain(session.session_id);
    expect(logs).not.toContain(ALICE);
    expect(logs).not.toContain(token);
  });
});
