import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { detectBlock, toPageLike, visit } from '../../../src/page/index.js';
import type { AnyPage } from '../../../src/page/index.js';
import { deadPort } from '../../support/fixture-server.js';
import type { FixtureServer } from '../../support/fixture-server.js';
import { DRIVERS, openDriverPage, closeDriverPage } from './drivers.js';
import type { DriverBrowser } from './drivers.js';

describe.each(DRIVERS)('visit under %s', (driver) => {
  let server: FixtureServer;
  let browser: DriverBrowser;
  let page: AnyPage;

  beforeAll(async () => {
    ({ server, browser, page } = await openDriverPage(driver));
  });
  afterAll(() => closeDriverPage({ server, browser }));

  it('wraps the driver page in a PageLike of the right kind', () => {
    expect(toPageLike(page).driver).toBe(driver);
  });

  it('reports an article as ok with its status, final URL and fetch time', async () => {
    const url = `${server.url}/article.html`;
    const v = await visit(page, url);
    expect(v).toMatchObject({
      ok: true,
      status: 200,
      finalUrl: url,
      redirected: false,
      blocked: null,
      contentType: 'text/html',
    });
    expect(v.error).toBeUndefined();
    expect(v.fetchMs).toBeGreaterThanOrEqual(0);
    expect(v.fetchMs).toBeLessThan(10_000);
  });

  it('follows a 302 chain and reports the final URL as redirected', async () => {
    const v = await visit(page, `${server.url}/redirect?hops=2&to=/fuzzy.html`);
    expect(v).toMatchObject({
      ok: true,
      status: 200,
      redirected: true,
      finalUrl: `${server.url}/fuzzy.html`,
    });
    expect(server.hits('/redirect')).toBeGreaterThanOrEqual(2);
  });

  it('returns a dead link as not ok with the network error instead of throwing', async () => {
    const v = await visit(page, `http://127.0.0.1:${await deadPort()}/gone.html`);
    expect(v.ok).toBe(false);
    expect(v.status).toBeNull();
    expect(v.contentType).toBeNull();
    expect(v.blocked).toBeNull();
    expect(v.error).toMatch(/ERR_CONNECTION_REFUSED/);
  });

  it('returns a navigation timeout as not ok within the timeout', async () => {
    const started = Date.now();
    const v = await visit(page, `${server.url}/slow?ms=5000`, { timeout: 600 });
    expect(v.ok).toBe(false);
    expect(v.error).toMatch(/timeout|exceeded/i);
    expect(Date.now() - started).toBeLessThan(4_000);
  });

  it('reports a 404 as not ok and not blocked', async () => {
    const v = await visit(page, `${server.url}/status/404`);
    expect(v).toMatchObject({ ok: false, status: 404, blocked: null, error: 'HTTP 404' });
  });

  it.each([401, 403, 429, 503])('treats HTTP %i as blocked, never ok', async (code) => {
    const v = await visit(page, `${server.url}/status/${code}`);
    expect(v.ok).toBe(false);
    expect(v.status).toBe(code);
    expect(v.blocked).toEqual({ kind: 'status', reason: `HTTP ${code}` });
  });

  it('flags a Cloudflare-like challenge page served with 200 as blocked', async () => {
    const v = await visit(page, `${server.url}/challenge.html`);
    expect(v.status).toBe(200);
    expect(v.ok).toBe(false);
    expect(v.blocked?.kind).toBe('challenge');
    expect(v.blocked?.reason).toMatch(/just a moment/i);
  });

  it('names the challenge, not the status, when a challenge comes with 503', async () => {
    const v = await visit(page, `${server.url}/status/503?page=challenge.html`);
    expect(v.blocked?.kind).toBe('challenge');
  });

  it('flags a page whose only content is a captcha iframe as blocked', async () => {
    const v = await visit(page, `${server.url}/captcha.html`);
    expect(v.ok).toBe(false);
    expect(v.blocked).toMatchObject({ kind: 'challenge' });
    expect(v.blocked?.reason).toMatch(/captcha/);
  });

  it('flags a login wall as blocked', async () => {
    const v = await visit(page, `${server.url}/login.html`);
    expect(v.ok).toBe(false);
    expect(v.blocked?.kind).toBe('login');
  });

  it('detectBlock judges the page already loaded', async () => {
    await visit(page, `${server.url}/article.html`);
    expect(await detectBlock(page, 200)).toBeNull();
    expect(await detectBlock(page, 429)).toEqual({ kind: 'status', reason: 'HTTP 429' });
  });
  it('reports a PDF by its content type, so the caller can read its bytes instead', async () => {
    const v = await visit(page, `${server.url}/doc.pdf`);
    expect(v).toMatchObject({
      ok: true,
      status: 200,
      contentType: 'application/pdf',
      blocked: null,
    });
  });
});
