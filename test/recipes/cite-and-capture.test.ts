import { existsSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { citeAndCapture } from '../../recipes/index.js';
import type { CiteProgress, CitationCheck } from '../../recipes/index.js';
import { pngSize } from '../integration/page/png.js';
import { FACTS, startHardCases } from './support.js';
import type { HardCases } from './support.js';

/** A fact as a quote: the passage found excludes the sentence's final period. */
const bare = (s: string): string => s.replace(/\.$/, '');

const byUrl = (checks: CitationCheck[], url: string): CitationCheck => {
  const found = checks.find((c) => c.url === url);
  if (!found) throw new Error(`no citation of ${url} in ${checks.map((c) => c.url).join(', ')}`);
  return found;
};

describe('citeAndCapture', () => {
  let w: HardCases;
  const outDir = path.join(os.tmpdir(), `svc-recipes-cite-${process.pid}`);

  beforeAll(async () => {
    w = await startHardCases();
  });
  afterAll(async () => {
    await w?.close();
    rmSync(outDir, { recursive: true, force: true });
  });

  it('checks every citation of a streamed answer and gives each hard case its verdict', async () => {
    const events: CiteProgress['type'][] = [];
    const r = await citeAndCapture('What is known about the Wrenfield harbour?', {
      client: w.client,
      model: 'core-pro',
      poolSize: 2,
      outDir,
      onProgress: (e) => events.push(e.type),
    });
    expect(r.question).toBe('What is known about the Wrenfield harbour?');
    expect(r.citations).toHaveLength(5);
    // The cited URLs were known (and their pages queued) before the answer text was complete.
    expect(events.indexOf('sources')).toBeLessThan(events.indexOf('answer'));
    expect(r.timings.firstSourcesMs).not.toBeNull();
    expect(r.timings.firstSourcesMs!).toBeLessThanOrEqual(r.timings.answerMs);

    const market = byUrl(r.citations, w.urls.market);
    expect(market).toMatchObject({ verdict: 'supported', passage: { method: 'exact' } });
    expect(market.passage!.quote).toBe(bare(FACTS.market));
    expect(market.passage!.textFragmentUrl).toContain('#:~:text=The%20Wrenfield%20harbour');
    expect(market.passage!.domPath).toMatch(/p/);
    expect(market.page).toMatchObject({ status: 200, redirected: false });
    expect(market.page!.contentHash).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(market.page!.fetchMs).toBeGreaterThan(0);
    const shot = pngSize(market.screenshots!.passage);
    expect(shot.height).toBeLessThan(pngSize(market.screenshots!.viewport).height);
    expect(existsSync(path.join(outDir, market.screenshots!.passagePath!))).toBe(true);

    // Lazily loaded: the sentence exists only after scrolling.
    expect(byUrl(r.citations, w.urls.lighthouse)).toMatchObject({
      verdict: 'supported',
      passage: { quote: bare(FACTS.lighthouse) },
    });
    // Very long page: the passage 40 000 px down is found and cropped.
    const breakwater = byUrl(r.citations, w.urls.breakwater);
    expect(breakwater).toMatchObject({
      verdict: 'supported',
      passage: { quote: bare(FACTS.breakwater) },
    });
    expect(pngSize(breakwater.screenshots!.passage).width).toBeGreaterThan(100);
    // Challenge page: blocked, never counted as support.
    const customs = byUrl(r.citations, w.urls.customs);
    expect(customs.verdict).toBe('blocked');
    expect(customs.reason).toMatch(/challenge/);
    expect(customs.passage).toBeNull();
    // Dead link.
    const ferry = byUrl(r.citations, w.urls.ferry);
    expect(ferry.verdict).toBe('unreachable');
    expect(ferry.reason).toMatch(/ERR_CONNECTION_REFUSED/);

    expect(r.summary).toEqual({
      total: 5,
      supported: 3,
      contradicted: 0,
      not_found: 0,
      blocked: 1,
      unreachable: 1,
      score: 0.6,
    });
    const html = readFileSync(r.report!.html, 'utf8');
    expect(html).toContain('data:image/png;base64,');
    expect(html).toContain(`href="#c-0-${r.citations[0]!.n}"`);
    const json = JSON.parse(readFileSync(r.report!.json, 'utf8'));
    expect(json.summary.score).toBe(0.6);
    expect(json.citations[0].screenshots.passagePath).toMatch(/^shots\/.*passage\.png$/);
  });

  it('follows a redirect, reads a PDF and notices a page rewritten since indexing', async () => {
    const r = await citeAndCapture('What does the Calloway orchard do?', {
      client: w.client,
      model: 'core-pro',
      poolSize: 2,
      report: false,
    });
    expect(r.report).toBeNull();
    const cider = byUrl(r.citations, w.urls.cider);
    expect(cider).toMatchObject({ verdict: 'supported', passage: { quote: bare(FACTS.cider) } });
    expect(cider.page).toMatchObject({ redirected: true, status: 200 });
    expect(cider.page!.finalUrl).toBe(`${w.sites.url}/calloway-cider.html`);
    expect(cider.passage!.textFragmentUrl.startsWith(cider.page!.finalUrl)).toBe(true);

    const pears = byUrl(r.citations, w.urls.pears);
    expect(pears).toMatchObject({
      verdict: 'supported',
      page: { contentType: 'application/pdf', rendered: 'pdf-text' },
      passage: { quote: bare(FACTS.pears) },
    });
    expect(pears.screenshots).not.toBeNull();

    const mill = byUrl(r.citations, w.urls.mill);
    expect(mill.page!.status).toBe(200);
    // The sentence is gone from the page: no exact match can exist.
    expect(mill.passage?.method).not.toBe('exact');
    if (mill.verdict === 'supported') expect(mill.passage!.quote).not.toBe(FACTS.mill);
    else expect(mill.verdict).toBe('not_found');
  });

  it('checks a given answer under Puppeteer and escapes everything in the report', async () => {
    const hostile = '<script>alert(1)</script>';
    const r = await citeAndCapture(
      {
        question: `Question ${hostile}`,
        answer: `${FACTS.market.slice(0, -1)} [1]. The moon is made of cheese ${hostile} [2]. Unsourced claim [3].`,
        citations: [w.urls.market, `${w.sites.url}/nowhere.html`],
        search_results: [{ url: w.urls.market, title: `Market ${hostile}` }],
      },
      { client: w.client, driver: 'puppeteer', poolSize: 1, outDir, embeddings: false },
    );
    expect(r.citations.map((c) => [c.n, c.verdict])).toEqual([
      [1, 'supported'],
      [2, 'unreachable'],
      [3, 'not_found'],
    ]);
    expect(r.citations[1]!.reason).toMatch(/404/);
    expect(r.citations[2]!.reason).toMatch(/no entry in citations/);
    const html = readFileSync(r.report!.html, 'utf8');
    expect(html).not.toContain('<script>');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain("default-src 'none'");
  });
});
