import { readFileSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sourceBundle } from '../../recipes/index.js';
import type { Bundle } from '../../recipes/index.js';
import { pngSize } from '../integration/page/png.js';
import { FACTS, startSites, simplePdf } from './support.js';
import type { Sites } from './support.js';

describe('sourceBundle', () => {
  let sites: Sites;
  const outDir = path.join(os.tmpdir(), `svc-recipes-bundle-${process.pid}`);

  beforeAll(async () => {
    sites = await startSites();
    sites.set('/report.pdf', { type: 'application/pdf', body: simplePdf([FACTS.pears]) });
  });
  afterAll(async () => {
    await sites?.close();
    rmSync(outDir, { recursive: true, force: true });
  });

  it('writes one folder per page with Markdown, HTML, full-page PNG, PDF, HAR, timings and meta', async () => {
    const urls = [
      '/wren-market.html',
      '/wren-lighthouse.html',
      '/wren-breakwater.html',
      '/report.pdf',
    ];
    const { bundles, report } = await sourceBundle(
      urls.map((u) => sites.url + u),
      { outDir, poolSize: 2, report: true },
    );
    const of = (u: string): Bundle => bundles.find((b) => b.url === sites.url + u)!;
    const market = of('/wren-market.html');
    expect(readdirSync(market.dir).sort()).toEqual(
      [
        'full.png',
        'meta.json',
        'page.har',
        'page.html',
        'page.md',
        'page.pdf',
        'timings.json',
      ].sort(),
    );
    expect(readFileSync(path.join(market.dir, 'page.md'), 'utf8')).toContain(FACTS.market);
    expect(readFileSync(path.join(market.dir, 'page.pdf')).subarray(0, 5).toString()).toBe('%PDF-');
    const har = JSON.parse(readFileSync(path.join(market.dir, 'page.har'), 'utf8'));
    expect(har.log.entries[0].request.url).toBe(sites.url + '/wren-market.html');
    expect(har.log.entries[0].response.status).toBe(200);
    const meta = JSON.parse(readFileSync(path.join(market.dir, 'meta.json'), 'utf8'));
    expect(meta).toMatchObject({ state: 'ok', status: 200, title: 'The fish market' });
    const timings = JSON.parse(readFileSync(path.join(market.dir, 'timings.json'), 'utf8'));
    expect(Object.keys(timings)).toEqual(expect.arrayContaining(['visit', 'screenshot', 'total']));

    // Lazy content exists before the page is read: the shot scrolled through it first.
    const lazy = of('/wren-lighthouse.html');
    expect(lazy.meta.screenshot.mode).toBe('full');
    expect(readFileSync(path.join(lazy.dir, 'page.html'), 'utf8')).toContain(FACTS.lighthouse);
    expect(pngSize(readFileSync(path.join(lazy.dir, 'full.png'))).height).toBeGreaterThan(3000);

    // 40 000 px is over the full-page limit: the viewport, with a note saying so.
    const long = of('/wren-breakwater.html');
    expect(long.meta.screenshot.mode).toBe('viewport');
    expect(long.meta.screenshot.note).toMatch(/maxHeight/);

    const pdf = of('/report.pdf');
    expect(pdf.meta.contentType).toBe('application/pdf');
    expect(readFileSync(path.join(pdf.dir, 'page.md'), 'utf8')).toContain(
      'twelve hundred pear trees',
    );
    expect(readFileSync(path.join(pdf.dir, 'page.pdf'))).toEqual(simplePdf([FACTS.pears]));
    expect(readFileSync(report!.html, 'utf8')).toContain('The fish market');
  });

  it('bundles the same files when the sessions are attached with Puppeteer', async () => {
    const { bundles } = await sourceBundle(`${sites.url}/wren-market.html`, {
      outDir: path.join(outDir, 'puppeteer'),
      driver: 'puppeteer',
      poolSize: 1,
    });
    const b = bundles[0]!;
    expect(b.meta).toMatchObject({ state: 'ok', status: 200 });
    expect(b.files.sort()).toEqual(
      [
        'full.png',
        'meta.json',
        'page.har',
        'page.html',
        'page.md',
        'page.pdf',
        'timings.json',
      ].sort(),
    );
    const har = JSON.parse(readFileSync(path.join(b.dir, 'page.har'), 'utf8'));
    expect(har.log.entries[0].request.url).toBe(`${sites.url}/wren-market.html`);
    expect(readFileSync(path.join(b.dir, 'page.md'), 'utf8')).toContain(FACTS.market);
  });

  it('still bundles what stood in the way of a dead link', async () => {
    const dead = await startSites();
    const url = `${dead.url}/gone.html`;
    await dead.close();
    const { bundles } = await sourceBundle(url, { outDir, poolSize: 1 });
    expect(bundles[0]!.meta.state).toBe('unreachable');
    expect(bundles[0]!.meta.reason).toMatch(/ERR_CONNECTION_REFUSED/);
    expect(bundles[0]!.files).toEqual(['page.har', 'timings.json', 'meta.json']);
  });
});
