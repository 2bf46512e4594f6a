import { readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { searchAndScrape } from '../../recipes/index.js';
import type { ScrapedPage } from '../../recipes/index.js';
import { FACTS, startHardCases } from './support.js';
import type { HardCases } from './support.js';

describe('searchAndScrape', () => {
  let w: HardCases;
  const outDir = path.join(os.tmpdir(), `svc-recipes-scrape-${process.pid}`);

  beforeAll(async () => {
    w = await startHardCases();
  });
  afterAll(async () => {
    await w?.close();
    rmSync(outDir, { recursive: true, force: true });
  });

  it('reads the top results as Markdown and extracts fields with the quote and URL they came from', async () => {
    const r = await searchAndScrape('Wrenfield harbour', {
      client: w.client,
      maxResults: 5,
      report: true,
      outDir,
      schema: {
        type: 'object',
        properties: { market_opening: { type: 'string' }, breakwater_length: { type: 'string' } },
        required: ['market_opening', 'breakwater_length'],
      },
    });
    const page = (url: string): ScrapedPage => r.pages.find((p) => p.url === url)!;
    expect(r.pages).toHaveLength(5);
    const market = page(w.urls.market);
    expect(market).toMatchObject({ state: 'ok', status: 200, title: 'The fish market' });
    expect(market.markdown).toContain(FACTS.market);
    expect(market.contentHash).toMatch(/^sha256:/);
    expect(page(w.urls.customs).state).toBe('blocked');
    expect(page(w.urls.customs).markdown).toBe('');
    expect(page(w.urls.ferry).state).toBe('unreachable');

    const fields = Object.fromEntries(r.extraction!.fields.map((f) => [f.path, f]));
    expect(fields['market_opening']).toMatchObject({ url: w.urls.market, quote: FACTS.market });
    expect(fields['breakwater_length']).toMatchObject({
      url: w.urls.breakwater,
      quote: FACTS.breakwater,
    });
    expect(fields['market_opening']!.textFragmentUrl).toMatch(/#:~:text=The%20Wrenfield/);
    const html = readFileSync(r.report!.html, 'utf8');
    expect(html).toContain('The fish market');
    expect(html).toContain('market_opening');
  });
});
