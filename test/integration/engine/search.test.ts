// POST /search over HTTP against the fixture corpus: every filter changes the results the way it
// should, snippets are the matching passage, result URLs open as pages, bad bodies are 422s.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countTokens } from '../../../src/protocol/index.js';
import type { TestServer } from '../../support/server.js';
import { corpusServer, locs, openUrl, pageText, postJson, squash } from './helpers.js';

interface Hit {
  title: string;
  url: string;
  snippet: string;
  date: string | null;
  last_updated: string | null;
}

// Titles of the fixture pages by the domain their canonical URL names.
const NORTHWIND = [
  'How grid-scale batteries are reshaping the power market',
  'Battery recycling plant opens as first packs reach end of life',
  'Divers map a decade of coral bleaching on the outer reef',
  'Why teenagers really do sleep later',
];
const TIDEWATER = [
  'Rendering script-heavy pages with headless Chromium',
  'Choosing an async runtime without regrets',
  'Full-text search with SQLite FTS5 and BM25 ranking',
];
const RECYCLING = NORTHWIND[1]!;
const GRID = NORTHWIND[0]!;
const CHROMIUM = TIDEWATER[0]!;
const ARXIV =
  'Calendar ageing of lithium iron phosphate cells under partial state of charge cycling';
const SEC = 'Voltaic Storage Systems, Inc. – Form 10-K Annual Report, Item 1A Risk Factors';
const HEISE_STORAGE = 'Batteriespeicher für Photovoltaik: Lohnt sich der Heimspeicher?';
const LEMONDE = "Le stockage par batteries s'impose sur le réseau électrique";

let server: TestServer;

beforeAll(async () => {
  server = await corpusServer();
});
afterAll(() => server?.dispose());

async function search(body: Record<string, unknown>): Promise<Hit[]> {
  const reply = await postJson<{ id: string; results: Hit[]; server_time: string }>(
    server,
    '/search',
    body,
  );
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  expect(typeof reply.body.id).toBe('string');
  expect(Number.isNaN(Date.parse(reply.body.server_time))).toBe(false);
  return reply.body.results;
}
const titles = async (body: Record<string, unknown>): Promise<string[]> =>
  (await search({ max_results: 20, ...body })).map((h) => h.title);

describe('POST /search filters', () => {
  it('a domain filter keeps only that domain; a -domain entry removes it', async () => {
    const all = await titles({ query: 'battery storage grid' });
    expect(all).toEqual(expect.arrayContaining([GRID, RECYCLING, ARXIV, SEC]));

    const only = await titles({
      query: 'battery storage grid',
      search_domain_filter: ['northwind-journal.com'],
    });
    expect(only.length).toBeGreaterThan(0);
    for (const t of only) expect(NORTHWIND).toContain(t);

    const without = await titles({
      query: 'battery storage grid',
      search_domain_filter: ['-northwind-journal.com'],
    });
    expect(without.length).toBeGreaterThan(0);
    for (const t of without) expect(NORTHWIND).not.toContain(t);
    expect(without).toEqual(expect.arrayContaining([ARXIV, SEC]));

    // Subdomains count: blog.tidewater.dev is inside tidewater.dev.
    const blog = await titles({ query: 'search pages', search_domain_filter: ['tidewater.dev'] });
    expect(blog.length).toBeGreaterThan(0);
    for (const t of blog) expect(TIDEWATER).toContain(t);
  });

  it('recency windows are measured back from the server clock', async () => {
    // The injected clock is 2025-06-15 12:00 UTC; with the real clock none of these would match.
    const q = 'battery storage chromium pages';
    expect(await titles({ query: q, search_recency_filter: 'day' })).toEqual([RECYCLING]);
    expect(await titles({ query: q, search_recency_filter: 'week' })).toEqual([RECYCLING]);
    expect((await titles({ query: q, search_recency_filter: 'month' })).sort()).toEqual(
      [RECYCLING, CHROMIUM].sort(),
    );
    expect((await titles({ query: q, search_recency_filter: 'year' })).sort()).toEqual(
      [RECYCLING, CHROMIUM, ARXIV].sort(),
    );
    expect((await titles({ query: q })).length).toBeGreaterThan(3);
  });

  it('published date filters accept M/D/YYYY and YYYY-MM-DD and include the named day', async () => {
    const q = 'battery storage grid';
    for (const [after, before] of [
      ['6/15/2025', '6/14/2025'],
      ['2025-06-15', '2025-06-14'],
    ] as const) {
      // Published 2025-06-15 06:30 UTC: inside "after 6/15", outside "before 6/14".
      const since = await search({ query: q, max_results: 20, search_after_date_filter: after });
      expect(since.map((h) => h.title)).toContain(RECYCLING);
      expect(since.map((h) => h.title)).not.toContain(GRID);
      for (const h of since) expect(h.date! >= '2025-06-15').toBe(true);

      const until = await search({ query: q, max_results: 20, search_before_date_filter: before });
      expect(until.map((h) => h.title)).not.toContain(RECYCLING);
      expect(until.map((h) => h.title)).toContain(GRID);
      for (const h of until) expect(h.date! <= '2025-06-14').toBe(true);
    }
    // The named day itself is inside an upper bound, whatever the time of publication.
    expect(await titles({ query: q, search_before_date_filter: '6/15/2025' })).toContain(RECYCLING);
    expect(
      await titles({
        query: q,
        search_after_date_filter: '2023-01-01',
        search_before_date_filter: '9/2/2024',
      }),
    ).toEqual(expect.arrayContaining([ARXIV, SEC, LEMONDE]));
  });

  it('last-updated filters use the modified date; published filters do not', async () => {
    // Grid batteries: published 2019-03-12, modified 2021-07-01.
    for (const [after, before] of [
      ['6/1/2021', '12/31/2021'],
      ['2021-06-01', '2021-12-31'],
    ] as const) {
      expect(
        await titles({
          query: 'battery',
          last_updated_after_filter: after,
          last_updated_before_filter: before,
        }),
      ).toEqual([GRID]);
      expect(
        await titles({
          query: 'battery',
          search_after_date_filter: after,
          search_before_date_filter: before,
        }),
      ).toEqual([]);
    }
    const hits = await search({ query: 'battery', last_updated_after_filter: '2021-06-01' });
    for (const h of hits) expect(h.last_updated! >= '2021-06-01').toBe(true);
    expect(hits.map((h) => h.title)).toContain(GRID);
  });

  it('a language filter keeps documents in those languages', async () => {
    const all = await titles({ query: 'Tesla Megapack' });
    expect(all).toEqual(expect.arrayContaining([HEISE_STORAGE, LEMONDE, GRID]));
    expect(await titles({ query: 'Tesla Megapack', search_language_filter: ['de'] })).toEqual([
      HEISE_STORAGE,
    ]);
    expect(await titles({ query: 'Tesla Megapack', search_language_filter: ['fr'] })).toEqual([
      LEMONDE,
    ]);
    expect(
      (await titles({ query: 'Tesla Megapack', search_language_filter: ['en', 'de'] })).sort(),
    ).toEqual([GRID, HEISE_STORAGE].sort());
  });

  it('academic and sec modes search only papers and filings', async () => {
    const web = await titles({ query: 'battery cells', search_mode: 'web' });
    expect(web).toEqual(expect.arrayContaining([ARXIV, SEC]));
    expect(web.length).toBeGreaterThan(2);
    expect(await titles({ query: 'battery cells', search_mode: 'academic' })).toEqual([ARXIV]);
    expect(await titles({ query: 'battery cells', search_mode: 'sec' })).toEqual([SEC]);
  });

  it('max_results caps the list, and max_tokens_per_page shortens snippets', async () => {
    const full = await search({ query: 'battery storage' });
    expect(full.length).toBeGreaterThan(3);
    expect(full.length).toBeLessThanOrEqual(10);
    const two = await search({ query: 'battery storage', max_results: 2 });
    expect(two.map((h) => h.title)).toEqual(full.slice(0, 2).map((h) => h.title));

    const long = await search({ query: 'Hornsdale ancillary services revenue', max_results: 1 });
    const short = await search({
      query: 'Hornsdale ancillary services revenue',
      max_results: 1,
      max_tokens_per_page: 30,
    });
    expect(short[0]!.title).toBe(GRID);
    expect(countTokens(short[0]!.snippet)).toBeLessThanOrEqual(30);
    expect(short[0]!.snippet.length).toBeLessThan(long[0]!.snippet.length);
    // The short snippet is the matching passage, not the first characters of the page.
    expect(short[0]!.snippet).toContain('Hornsdale');
  });

  it('an array query returns one result list per query, each as if searched alone', async () => {
    const queries = ['coral bleaching', 'melatonin teenagers', 'FTS5 bm25'];
    const reply = await postJson<{ results: Hit[][] }>(server, '/search', {
      query: queries,
      max_results: 3,
    });
    expect(reply.status).toBe(200);
    expect(reply.body.results).toHaveLength(3);
    const firsts = reply.body.results.map((list) => list[0]!.title);
    expect(firsts).toEqual([
      'Divers map a decade of coral bleaching on the outer reef',
      'Why teenagers really do sleep later',
      'Full-text search with SQLite FTS5 and BM25 ranking',
    ]);
    for (const [i, q] of queries.entries()) {
      const alone = await search({ query: q, max_results: 3 });
      expect(reply.body.results[i]!.map((h) => h.url)).toEqual(alone.map((h) => h.url));
    }
  });
});

describe('POST /search snippets and links', () => {
  it('snippets contain the query terms and are text of the page their URL opens', async () => {
    const terms = ['frequency', 'ancillary', 'revenue'];
    const hits = await search({ query: terms.join(' '), max_results: 5 });
    expect(hits.length).toBeGreaterThan(2);
    expect(hits[0]!.title).toBe(GRID);
    expect(hits[0]!.snippet).toMatch(/Hornsdale/);
    for (const hit of hits) {
      expect(terms.some((t) => hit.snippet.toLowerCase().includes(t))).toBe(true);
      const page = await openUrl(hit.url);
      expect(page.status).toBe(200);
      expect(page.type).toMatch(/text\/html/);
      expect(pageText(page.html)).toContain(squash(hit.snippet));
    }
  });

  // Every chunk's FTS row carries its document's title, so a short chunk can match through the
  // title alone; the document must still be represented by a chunk whose text holds the terms.
  it('represents each document by a chunk whose own text matches, not one matching via the title', async () => {
    // The index stems (porter): "managers" matches "management", so compare stems.
    const stems = ['thermal', 'manag', 'lfp', 'degrad'];
    const hits = await search({ query: 'thermal management lfp degradation', max_results: 5 });
    expect(hits.length).toBeGreaterThan(1);
    for (const hit of hits) {
      expect(
        stems.some((t) => hit.snippet.toLowerCase().includes(t)),
        hit.title,
      ).toBe(true);
    }
  });

  it('a tampered or missing signature is a 404, as for an unknown document', async () => {
    const [hit] = await search({ query: 'coral bleaching', max_results: 1 });
    const url = new URL(hit!.url);
    expect((await openUrl(url.href)).status).toBe(200);
    const sig = url.searchParams.get('sig')!;
    const tampered = new URL(url);
    tampered.searchParams.set('sig', (sig[0] === 'A' ? 'B' : 'A') + sig.slice(1));
    const missing = new URL(url);
    missing.searchParams.delete('sig');
    const otherId = new URL(url);
    otherId.pathname = '/docs/0000000000000000';
    for (const bad of [tampered, missing, otherId]) {
      const page = await openUrl(bad.href);
      expect(page.status).toBe(404);
      expect(page.html).not.toContain('bleaching');
    }
  });
});

describe('POST /search validation', () => {
  it('answers 422 naming the exact field of a bad body', async () => {
    const bad = (body: unknown) => postJson(server, '/search', body);
    expect(locs(await bad({ query: 'x', max_results: 0 }))).toEqual([['body', 'max_results']]);
    expect(locs(await bad({ query: 'x', max_results: 21 }))).toEqual([['body', 'max_results']]);
    expect(locs(await bad({ query: 'x', search_after_date_filter: '2025/06/15' }))).toEqual([
      ['body', 'search_after_date_filter'],
    ]);
    expect(locs(await bad({ query: 'x', search_before_date_filter: '31/12/2024' }))).toEqual([
      ['body', 'search_before_date_filter'],
    ]);
    expect(locs(await bad({ query: 'x', last_updated_after_filter: '2/30/2025' }))).toEqual([
      ['body', 'last_updated_after_filter'],
    ]);
    expect(locs(await bad({ query: 'x', search_recency_filter: 'decade' }))).toEqual([
      ['body', 'search_recency_filter'],
    ]);
    expect(locs(await bad({ query: 'x', search_mode: 'news' }))).toEqual([['body', 'search_mode']]);
    expect(locs(await bad({ query: 'x', max_tokens_per_page: 0 }))).toEqual([
      ['body', 'max_tokens_per_page'],
    ]);
    expect(locs(await bad({ max_results: 3 }))).toEqual([['body', 'query']]);
  });
});
