import { beforeAll, describe, expect, it } from 'vitest';
import type {
  SearchHit,
  SearchIndex,
  SearchOptions,
} from '../../../src/server/engines/index/index.js';
import { countTokens } from '../../../src/protocol/tokens.js';
import { bestPassage } from '../../../src/server/engines/index/snippet.js';
import { corpusIndex } from './helpers.js';

let index: SearchIndex;
beforeAll(async () => {
  ({ index } = await corpusIndex());
});

const find = (opts: SearchOptions): Promise<SearchHit[]> =>
  index.search({ maxResults: 20, ...opts });
const domains = (hits: SearchHit[]) => [...new Set(hits.map((h) => h.domain))].sort();
const slugs = (hits: SearchHit[]) => hits.map((h) => h.url.split('/').pop()).sort();

describe('search ranking and shape', () => {
  it('ranks the most relevant document first and fills every hit field', async () => {
    const [top] = await find({ query: 'SQLite bm25 column weights' });
    expect(top).toMatchObject({
      url: 'https://blog.tidewater.dev/posts/sqlite-fts5-bm25',
      title: 'Full-text search with SQLite FTS5 and BM25 ranking',
      domain: 'blog.tidewater.dev',
      language: 'en',
      category: 'web',
      sourceKind: 'html',
    });
    expect(top!.date?.toISOString()).toBe('2024-02-20T00:00:00.000Z');
    expect(top!.lastUpdated).toEqual(top!.date); // no modified date: falls back to published
    expect(top!.score).toBeGreaterThan(0);
    expect(top!.headingPath).toEqual(['Ranking with bm25()']);
  });

  it('returns one best chunk per document unless asked for more', async () => {
    const hits = await find({ query: 'battery grid storage' });
    expect(new Set(hits.map((h) => h.docId)).size).toBe(hits.length);
    const more = await find({ query: 'battery grid storage', chunksPerDocument: 4 });
    const fromGrid = more.filter(
      (h) => h.domain === 'northwind-journal.com' && h.url.includes('grid-scale'),
    );
    expect(fromGrid.length).toBeGreaterThan(1);
  });

  it('honours maxResults', async () => {
    expect(await find({ query: 'battery', maxResults: 2 })).toHaveLength(2);
    expect((await find({ query: 'battery' })).length).toBeGreaterThan(2);
  });

  it('returns images with width and height on hits', async () => {
    const [hit] = await find({ query: 'coral bleaching divers' });
    expect(hit!.images).toEqual([
      expect.objectContaining({
        url: 'https://cdn.northwind-journal.com/img/2022/bleached-coral.jpg',
        width: 1600,
        height: 1067,
      }),
    ]);
  });
});

describe('filters', () => {
  it('domain filter keeps a domain and its subdomains, in host or URL form', async () => {
    const base = await find({ query: 'battery storage chromium' });
    expect(domains(base).length).toBeGreaterThan(2);
    expect(
      domains(
        await find({ query: 'battery storage chromium', domainFilter: ['northwind-journal.com'] }),
      ),
    ).toEqual(['northwind-journal.com']);
    expect(
      domains(await find({ query: 'battery storage chromium', domainFilter: ['tidewater.dev'] })),
    ).toEqual(['blog.tidewater.dev']);
    expect(
      domains(
        await find({
          query: 'battery storage',
          domainFilter: ['https://www.sec.gov/edgar', 'arxiv.org'],
        }),
      ),
    ).toEqual(['arxiv.org', 'sec.gov']);
  });

  it('a -domain entry excludes that domain and its subdomains', async () => {
    const hits = await find({
      query: 'battery storage chromium',
      domainFilter: ['-northwind-journal.com', '-tidewater.dev'],
    });
    expect(hits.length).toBeGreaterThan(0);
    expect(domains(hits)).not.toContain('northwind-journal.com');
    expect(domains(hits)).not.toContain('blog.tidewater.dev');
  });

  it('recency keeps documents published within the window before now', async () => {
    const q = 'battery storage chromium pages';
    expect(slugs(await find({ query: q, recency: 'day' }))).toEqual([
      'battery-recycling-plant-opens',
    ]);
    expect(slugs(await find({ query: q, recency: 'week' }))).toEqual([
      'battery-recycling-plant-opens',
    ]);
    expect(slugs(await find({ query: q, recency: 'month' }))).toEqual([
      'battery-recycling-plant-opens',
      'rendering-pages-with-headless-chromium',
    ]);
    expect(slugs(await find({ query: q, recency: 'year' }))).toEqual([
      '2409.01234',
      'battery-recycling-plant-opens',
      'rendering-pages-with-headless-chromium',
    ]);
    // An explicit clock moves the window.
    const later = () => new Date('2025-07-01T00:00:00Z');
    expect(slugs(await find({ query: q, recency: 'week', now: later }))).toEqual([]);
  });

  it('published date bounds are inclusive and exclude undated documents', async () => {
    const after = new Date('2023-01-01T00:00:00Z');
    const before = new Date('2024-09-02T00:00:00Z');
    const hits = await find({
      query: 'battery batteries storage',
      publishedAfter: after,
      publishedBefore: before,
    });
    expect(slugs(hits)).toEqual(['2409.01234', 'form10k.htm', 'stockage-batteries-reseau']);
    for (const h of hits) expect(h.date!.getTime()).toBeGreaterThanOrEqual(after.getTime());
  });

  it('updated bounds use the modified date, falling back to the published date', async () => {
    const window = { updatedAfter: new Date('2021-06-01'), updatedBefore: new Date('2021-12-31') };
    // Published 2019, modified July 2021: in the updated window, not in the published one.
    expect(slugs(await find({ query: 'battery', ...window }))).toEqual(['grid-scale-batteries']);
    expect(
      slugs(
        await find({
          query: 'battery',
          publishedAfter: window.updatedAfter,
          publishedBefore: window.updatedBefore,
        }),
      ),
    ).toEqual([]);
    // Published May 2021 with no modified date: its published date counts as last updated.
    expect(
      slugs(
        await find({
          query: 'Megapack',
          updatedAfter: new Date('2021-05-01'),
          updatedBefore: new Date('2021-05-31'),
        }),
      ),
    ).toEqual(['batteriespeicher-photovoltaik']);
  });

  it('language filter keeps documents in the given languages', async () => {
    expect(domains(await find({ query: 'Tesla Megapack' }))).toEqual([
      'heise-beispiel.de',
      'lemonde-exemple.fr',
      'northwind-journal.com',
    ]);
    expect(domains(await find({ query: 'Tesla Megapack', languages: ['de'] }))).toEqual([
      'heise-beispiel.de',
    ]);
    expect(domains(await find({ query: 'Tesla Megapack', languages: ['FR-fr'] }))).toEqual([
      'lemonde-exemple.fr',
    ]);
    expect(domains(await find({ query: 'Tesla Megapack', languages: ['en', 'de'] }))).toEqual([
      'heise-beispiel.de',
      'northwind-journal.com',
    ]);
  });

  it('academic and sec modes restrict to those categories; web searches everything', async () => {
    expect(domains(await find({ query: 'battery cells', mode: 'academic' }))).toEqual([
      'arxiv.org',
    ]);
    expect(domains(await find({ query: 'battery cells', mode: 'sec' }))).toEqual(['sec.gov']);
    const web = domains(await find({ query: 'battery cells', mode: 'web' }));
    expect(web).toEqual(expect.arrayContaining(['arxiv.org', 'sec.gov', 'northwind-journal.com']));
  });

  it('rejects invalid options naming the option', async () => {
    await expect(find({ query: 'x', maxResults: 0 })).rejects.toThrow(/maxResults/);
    await expect(find({ query: 'x', recency: 'decade' as never })).rejects.toThrow(/recency/);
    await expect(find({ query: 'x', publishedAfter: new Date('nope') })).rejects.toThrow(
      /publishedAfter/,
    );
    await expect(find({ query: 'x', mode: 'news' as never })).rejects.toThrow(/mode/);
  });
});

describe('snippets', () => {
  it('is the best-matching passage of the chunk, not its first characters', async () => {
    const [hit] = await find({
      query: 'Hornsdale ancillary services revenue',
      maxTokensPerPage: 30,
    });
    expect(hit!.text.startsWith('Frequency response comes first')).toBe(true);
    expect(hit!.snippet).toContain('Hornsdale');
    expect(hit!.snippet).toContain('ancillary services');
    expect(hit!.text.startsWith(hit!.snippet.slice(0, 20))).toBe(false);
    expect(hit!.text).toContain(hit!.snippet);
    expect(countTokens(hit!.snippet)).toBeLessThanOrEqual(30);
  });

  it('starts and ends on word boundaries', async () => {
    const [hit] = await find({
      query: 'interconnection queues revenue quarters',
      maxTokensPerPage: 25,
    });
    const i = hit!.text.indexOf(hit!.snippet);
    expect(i).toBeGreaterThanOrEqual(0);
    expect(i === 0 || /\s/.test(hit!.text[i - 1]!)).toBe(true);
    const after = hit!.text[i + hit!.snippet.length];
    expect(after === undefined || /\s/.test(after)).toBe(true);
  });

  it('is the whole chunk when the chunk fits the budget', async () => {
    const [hit] = await find({ query: 'melatonin circadian' });
    expect(hit!.snippet).toBe(hit!.text);
  });
});

describe('rerank', () => {
  it('reorders BM25 candidates by the callback scores', async () => {
    const bm25 = await find({ query: 'battery storage', maxResults: 5 });
    let seen: readonly SearchHit[] = [];
    const reranked = await find({
      query: 'battery storage',
      maxResults: 5,
      rerankDepth: 5,
      rerank: (_q, candidates) => {
        seen = candidates;
        return candidates.map((_, i) => i); // reverse the BM25 order
      },
    });
    expect(seen.map((h) => h.docId)).toEqual(bm25.map((h) => h.docId));
    expect(reranked.map((h) => h.docId)).toEqual([...bm25].reverse().map((h) => h.docId));
    expect(reranked.map((h) => h.score)).toEqual([4, 3, 2, 1, 0]);
  });

  it('rejects a callback that returns the wrong number of scores', async () => {
    await expect(find({ query: 'battery', rerank: async () => [1] })).rejects.toThrow(/rerank/);
  });
});

describe('bestPassage', () => {
  it('stays within the budget for text whose words are many tokens long', () => {
    const cjk = '电池储能系统'.repeat(200);
    const snippet = bestPassage(`${cjk} battery`, 'battery', 20);
    expect(countTokens(snippet)).toBeLessThanOrEqual(20);
    expect(snippet.length).toBeGreaterThan(0);
  });

  it('handles long texts in linear time', () => {
    const text = Array.from({ length: 20_000 }, (_, i) => (i % 997 === 0 ? 'needle.' : 'hay')).join(
      ' ',
    );
    const started = performance.now();
    const snippet = bestPassage(text, 'needle', 40);
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(snippet).toContain('needle');
  });
});

describe('bestPassage boundaries', () => {
  it('starts at a sentence or paragraph start when that keeps every matched term', () => {
    const text =
      'Site B: the exposed reef\n\nThe exposed reef is an urchin barren: bare rock grazed clean, with only ' +
      'crustose coralline algae left. Sea stars were absent from all transects this year. Urchin density was ' +
      'above 40 per square metre in every quadrat.';
    expect(bestPassage(text, 'urchin density quadrats', 20)).toBe(
      'Urchin density was above 40 per square metre in every quadrat.',
    );
    expect(bestPassage(text, 'crustose algae barren', 25)).toMatch(
      /^The exposed reef is an urchin barren/,
    );
  });
});
