import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo, Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import puppeteer from 'puppeteer-core';
import type { Browser } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSearchIndex } from '../../../src/server/engines/index/index.js';
import type { FetchHtml } from '../../../src/server/engines/index/index.js';
import { CHROMIUM_PATH, CHROMIUM_TEST_ARGS } from '../../support/chromium.js';

// The page ships an empty shell; its article arrives from a JSON endpoint and is built by script,
// so only a real browser sees the text.
const SHELL = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Loading…</title></head>
<body><nav><a href="/">Home</a></nav><main id="app"><p class="spinner">Loading</p></main>
<script>
fetch('/api/article.json').then((r) => r.json()).then((a) => {
  document.title = a.title;
  const meta = document.createElement('meta');
  meta.setAttribute('property', 'article:published_time');
  meta.setAttribute('content', a.published);
  document.head.appendChild(meta);
  const art = document.createElement('article');
  art.innerHTML = '<h1></h1>' + a.paragraphs.map(() => '<p></p>').join('') +
    '<img src="/img/tide-chart.png" width="900" height="300" alt="Tide chart">';
  art.querySelector('h1').textContent = a.title;
  art.querySelectorAll('p').forEach((p, i) => { p.textContent = a.paragraphs[i]; });
  document.getElementById('app').replaceChildren(art);
});
</script></body></html>`;

let version = 1;
const article = () => ({
  title: 'Tidal lagoon pilot enters second season',
  published: '2025-03-04T09:00:00Z',
  paragraphs: [
    'The tidal lagoon pilot in the estuary generated power on every spring tide of its first season, according to the operator.',
    `Engineers replaced two bulb turbines over the winter; the revised design completed ${version === 1 ? 'four hundred' : 'six hundred'} hours of testing before the lagoon gates reopened.`,
    'Fishery groups continue to monitor salmon passage through the sluices, which remains the main condition of the operating licence.',
  ],
});

let server: Server;
let base: string;
let browser: Browser;
let profile: string;

const chromiumFetchHtml: FetchHtml = async (url) => {
  const page = await browser.newPage();
  try {
    await page.goto(url, { waitUntil: 'networkidle0', timeout: 20_000 });
    return { html: await page.content(), finalUrl: page.url() };
  } finally {
    await page.close();
  }
};

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/old-article') {
      res.writeHead(302, { location: '/article' }).end();
    } else if (req.url === '/article') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(SHELL);
    } else if (req.url === '/api/article.json') {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(article()));
    } else {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  profile = await mkdtemp(join(tmpdir(), 'svc-idx-chromium-'));
  browser = await puppeteer.launch({
    executablePath: CHROMIUM_PATH,
    args: [...CHROMIUM_TEST_ARGS, `--user-data-dir=${profile}`],
  });
});

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => server?.close(resolve));
  await rm(profile, { recursive: true, force: true });
});

describe('indexing URLs through a real browser', () => {
  it('a plain HTTP fetch sees only the shell, so the page cannot be indexed without rendering', async () => {
    const index = createSearchIndex(new Database(':memory:'));
    const plainFetch: FetchHtml = async (url) => {
      const res = await fetch(url);
      return { html: await res.text(), finalUrl: res.url };
    };
    const report = await index.indexPaths([`${base}/article`], { fetchHtml: plainFetch });
    const hits = await index.search({ query: 'tidal lagoon turbines' });
    const docId = report.documents[0]!.docId;
    if (docId) expect(index.getDocument(docId)!.text).not.toContain('turbines');
    expect(hits).toEqual([]);
  });

  it('indexes the script-rendered text, title, date and images of a page loaded in Chromium', async () => {
    const index = createSearchIndex(new Database(':memory:'));
    const report = await index.indexPaths([`${base}/old-article`], {
      fetchHtml: chromiumFetchHtml,
    });
    expect(report).toMatchObject({ added: 1, failed: [] });
    const [hit] = await index.search({ query: 'bulb turbines lagoon gates', maxTokensPerPage: 30 });
    expect(hit).toBeDefined();
    expect(hit!.title).toBe('Tidal lagoon pilot enters second season');
    expect(hit!.url).toBe(`${base}/article`); // the final URL after the redirect
    expect(hit!.domain).toBe('127.0.0.1');
    expect(hit!.date?.toISOString()).toBe('2025-03-04T09:00:00.000Z');
    expect(hit!.snippet).toContain('bulb turbines');
    expect(hit!.images).toEqual([
      expect.objectContaining({
        url: `${base}/img/tide-chart.png`,
        width: 900,
        height: 300,
        alt: 'Tide chart',
      }),
    ]);
    const doc = index.getDocument(hit!.docId)!;
    expect(doc.sourceKind).toBe('url');
    expect(doc.text).not.toContain('Loading');
  });

  it('skips an unchanged page and replaces it when the rendered content changes', async () => {
    version = 1;
    const index = createSearchIndex(new Database(':memory:'));
    const url = `${base}/article`;
    expect(await index.indexPaths([url], { fetchHtml: chromiumFetchHtml })).toMatchObject({
      added: 1,
    });
    expect(await index.indexPaths([url], { fetchHtml: chromiumFetchHtml })).toMatchObject({
      skipped: 1,
    });
    version = 2;
    expect(await index.indexPaths([url], { fetchHtml: chromiumFetchHtml })).toMatchObject({
      updated: 1,
    });
    expect(await index.search({ query: 'four hundred hours' })).toSatisfy((hits: unknown[]) =>
      hits.every((h) => !(h as { text: string }).text.includes('four hundred')),
    );
    expect((await index.search({ query: 'six hundred hours' }))[0]!.text).toContain(
      'six hundred hours',
    );
    expect(index.stats().documents).toBe(1);
  });

  it('records a per-URL error for a page that fails to load and indexes the other URLs', async () => {
    const index = createSearchIndex(new Database(':memory:'));
    const report = await index.indexPaths([`http://127.0.0.1:1/unreachable`, `${base}/article`], {
      fetchHtml: chromiumFetchHtml,
    });
    expect(report.added).toBe(1);
    expect(report.failed).toHaveLength(1);
    expect(report.failed[0]!.path).toBe('http://127.0.0.1:1/unreachable');
    expect(report.failed[0]!.error).toMatch(/ERR_CONNECTION_REFUSED|ERR_/);
  });
});
