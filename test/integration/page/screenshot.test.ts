import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  fullPageScreenshot,
  recordHar,
  savePdf,
  toPageLike,
  visit,
} from '../../../src/page/index.js';
import type { AnyPage } from '../../../src/page/index.js';
import { deadPort } from '../../support/fixture-server.js';
import type { FixtureServer } from '../../support/fixture-server.js';
import { DRIVERS, VIEWPORT, openDriverPage, closeDriverPage } from './drivers.js';
import type { DriverBrowser } from './drivers.js';
import { decodePng, pngSize } from './png.js';

describe.each(DRIVERS)('fullPageScreenshot and savePdf under %s', (driver) => {
  let server: FixtureServer;
  let browser: DriverBrowser;
  let page: AnyPage;

  beforeAll(async () => {
    ({ server, browser, page } = await openDriverPage(driver));
  });
  afterAll(() => closeDriverPage({ server, browser }));

  it('scrolls first so lazily injected content and lazy images are in the full-page shot', async () => {
    await visit(page, `${server.url}/lazy.html`);
    const before = await toPageLike(page).evaluate(
      () => document.documentElement.scrollHeight,
      null,
    );
    expect(server.hits('/pixel.svg')).toBe(0);
    const shot = await fullPageScreenshot(page);
    expect(shot.mode).toBe('full');
    expect(shot.note).toBeUndefined();
    expect(shot.height).toBeGreaterThan(before + 1000);
    const img = decodePng(shot.png);
    expect(img.width).toBe(VIEWPORT.width);
    expect(img.height).toBe(shot.height);
    // The injected section (rgb(0, 128, 255), 1500 px) fills the bottom of the page.
    expect(img.pixel(640, shot.height - 300)).toEqual([0, 128, 255]);
    // The lazy image (solid red, 200 px) sits right after the first 4002 px block, beyond
    // Chromium's lazy-load distance: it loads only because the page was scrolled.
    expect(img.pixel(100, 4100)).toEqual([255, 0, 0]);
    expect(server.hits('/pixel.svg')).toBe(1);
  });

  it('falls back to the viewport with a note on a page taller than maxHeight', async () => {
    await visit(page, `${server.url}/long.html`);
    const started = Date.now();
    const shot = await fullPageScreenshot(page);
    expect(shot.mode).toBe('viewport');
    expect(shot.height).toBeGreaterThan(40_000);
    expect(shot.note).toMatch(/page is 4\d{4} px tall, over maxHeight 15000 px/);
    expect(pngSize(shot.png)).toEqual(VIEWPORT);
    expect(Date.now() - started).toBeLessThan(15_000);
  });

  it('falls back to the viewport with a note when the full-page shot outlasts its timeout', async () => {
    await visit(page, `${server.url}/article.html`);
    const shot = await fullPageScreenshot(page, { timeout: 1 });
    expect(shot.mode).toBe('viewport');
    expect(shot.note).toMatch(/full-page screenshot failed \(.*longer than 1 ms\)/);
    expect(pngSize(shot.png)).toEqual(VIEWPORT);
  });

  it('notes when scrolling stopped on its time bound', async () => {
    await visit(page, `${server.url}/long.html`);
    const shot = await fullPageScreenshot(page, { scrollTimeout: 150, maxHeight: 20_000 });
    expect(shot.mode).toBe('viewport');
    expect(shot.note).toMatch(/scrolling stopped after 150 ms/);
  });

  it('prints the page to PDF', async () => {
    await visit(page, `${server.url}/article.html`);
    const pdf = await savePdf(page);
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(pdf.length).toBeGreaterThan(5_000);
  });
});

describe.each(DRIVERS)('recordHar under %s', (driver) => {
  let server: FixtureServer;
  let browser: DriverBrowser;
  let page: AnyPage;

  beforeAll(async () => {
    ({ server, browser, page } = await openDriverPage(driver));
  });
  afterAll(() => closeDriverPage({ server, browser }));

  it('records redirects, documents, subresources and failures as HAR 1.2', async () => {
    const recorder = await recordHar(page);
    await visit(page, `${server.url}/redirect?to=/lazy.html`);
    await fullPageScreenshot(page);
    await visit(page, `${server.url}/status/404`);
    const dead = `http://127.0.0.1:${await deadPort()}/gone.html`;
    await visit(page, dead);
    const har = await recorder.stop();
    expect(har.log.version).toBe('1.2');
    const byUrl = (path: string) =>
      har.log.entries.find((e) => e.request.url === `${server.url}${path}`);
    const hop = byUrl('/redirect?to=/lazy.html');
    expect(hop?.response.status).toBe(302);
    expect(hop?.response.redirectURL).toBe(`${server.url}/lazy.html`);
    expect(hop?.request.queryString).toEqual([{ name: 'to', value: '/lazy.html' }]);
    const doc = byUrl('/lazy.html');
    expect(doc).toMatchObject({ _resourceType: 'Document', response: { status: 200 } });
    expect(doc!.response.content.mimeType).toBe('text/html');
    expect(doc!.response.bodySize).toBeGreaterThan(500);
    expect(byUrl('/pixel.svg')).toMatchObject({
      _resourceType: 'Image',
      response: { status: 200 },
    });
    expect(byUrl('/status/404')?.response.status).toBe(404);
    const failed = har.log.entries.find((e) => e.request.url === dead);
    expect(failed?.response.status).toBe(0);
    expect(failed?.response._error).toMatch(/ERR_CONNECTION_REFUSED/);
    const urls = har.log.entries.map((e) => e.request.url);
    expect(urls.indexOf(hop!.request.url)).toBeLessThan(urls.indexOf(doc!.request.url));
    // Traffic after stop() is not recorded.
    await visit(page, `${server.url}/fuzzy.html`);
    expect(har.log.entries.some((e) => e.request.url.endsWith('/fuzzy.html'))).toBe(false);
  });
});
