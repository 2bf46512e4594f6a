import { copyFile, mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type {
  IndexProgress,
  IndexReport,
  SearchIndex,
} from '../../../src/server/engines/index/index.js';
import { buildDocx } from './docx-builder.js';
import { CORPUS, corpusIndex, openIndex } from './helpers.js';

const docFor = (index: SearchIndex, report: IndexReport, suffix: string) => {
  const entry = report.documents.find((d) => d.path.endsWith(suffix));
  if (!entry?.docId) throw new Error(`not indexed: ${suffix}`);
  return index.getDocument(entry.docId)!;
};

describe('indexing the fixture corpus', () => {
  let index: SearchIndex;
  let report: IndexReport;
  beforeAll(async () => {
    ({ index, report } = await corpusIndex());
  });

  it('indexes every readable file and reports each corrupt one with its own error', () => {
    expect(report.added).toBe(15);
    expect(report.unsupported).toBe(1);
    expect(report.failed.map((f) => f.path.split('/').pop()).sort()).toEqual([
      'damaged-report.pdf',
      'truncated-memo.docx',
    ]);
    expect(report.failed.find((f) => f.path.endsWith('.pdf'))!.error).toMatch(
      /^cannot read PDF file: /,
    );
    expect(report.failed.find((f) => f.path.endsWith('.docx'))!.error).toMatch(
      /^cannot read DOCX file: /,
    );
    expect(index.stats()).toMatchObject({
      documents: 15,
      sourceKinds: { html: 12, markdown: 1, txt: 1, pdf: 1 },
    });
  });

  it('takes url and domain from the canonical link, title and lang from the page', () => {
    const doc = docFor(index, report, 'grid-batteries.html');
    expect(doc.url).toBe('https://northwind-journal.com/energy/2019/grid-scale-batteries');
    expect(doc.domain).toBe('northwind-journal.com');
    expect(doc.title).toBe('How grid-scale batteries are reshaping the power market');
    expect(doc.language).toBe('en');
    expect(docFor(index, report, 'stockage-energie.html')).toMatchObject({
      language: 'fr',
      domain: 'lemonde-exemple.fr',
    });
  });

  it('keeps the main content and drops navigation, sidebars, footers and scripts', () => {
    const doc = docFor(index, report, 'grid-batteries.html');
    expect(doc.text).toContain('When the wind drops at dusk');
    expect(doc.text).toContain('What changes for consumers');
    for (const boilerplate of ['Subscribe', 'Most read', 'All rights reserved', 'analytics']) {
      expect(doc.text).not.toContain(boilerplate);
    }
  });

  it('reads published and modified dates from each kind of meta data', () => {
    const iso = (s: string) => {
      const d = docFor(index, report, s);
      return [d.publishedAt?.toISOString() ?? null, d.updatedAt?.toISOString() ?? null];
    };
    expect(iso('grid-batteries.html')).toEqual([
      '2019-03-12T08:00:00.000Z',
      '2021-07-01T10:30:00.000Z',
    ]);
    expect(iso('coral-reefs.html')).toEqual([
      '2022-08-03T20:00:00.000Z',
      '2023-01-09T23:15:00.000Z',
    ]); // JSON-LD
    expect(iso('battery-recycling-plant.html')).toEqual([
      '2025-06-15T06:30:00.000Z',
      '2025-06-15T09:00:00.000Z',
    ]); // og:updated_time
    expect(iso('sleep-study.html')[0]).toBe('2017-01-15T00:00:00.000Z'); // DC.date
    expect(iso('datenschutz.html')[0]).toBe('2018-09-01T00:00:00.000Z'); // DC.date.issued
    expect(iso('rust-async.html')[0]).toBe('2020-11-05T00:00:00.000Z'); // meta name=date
    expect(iso('sqlite-fts5.html')[0]).toBe('2024-02-20T00:00:00.000Z'); // <time datetime>
    expect(iso('lfp-degradation.html')[0]).toBe('2024-09-02T00:00:00.000Z'); // citation_publication_date
    expect(iso('kelp-survey.md')).toEqual(['2023-04-22T00:00:00.000Z', '2023-05-02T00:00:00.000Z']); // front matter
    expect(iso('reading-list.txt')).toEqual([null, null]);
  });

  it('keeps images with absolute URLs, width, height and alt text', () => {
    expect(
      docFor(index, report, 'grid-batteries.html').images.map(({ offset: _, ...i }) => i),
    ).toEqual([
      {
        url: 'https://cdn.northwind-journal.com/img/2019/battery-containers.jpg',
        width: 1200,
        height: 675,
        alt: 'Battery containers at a solar farm in the Mojave desert',
      },
      {
        url: 'https://northwind-journal.com/img/2019/duck-curve-chart.png',
        width: 800,
        height: 450,
        alt: 'Chart of the duck curve: net load over a spring day',
      },
    ]);
  });

  it('categorises by citation meta tags and by domain', () => {
    expect(docFor(index, report, 'lfp-degradation.html').category).toBe('academic');
    expect(docFor(index, report, 'sec-10k-risk-factors.html').category).toBe('sec');
    expect(docFor(index, report, 'sqlite-fts5.html').category).toBe('web');
  });

  it('gives Markdown chunks their heading path and reads the front matter title', () => {
    const doc = docFor(index, report, 'kelp-survey.md');
    expect(doc.title).toBe('Kelp forest survey, field notes');
    expect(doc.url).toMatch(/^file:\/\/.*kelp-survey\.md$/);
    expect(doc.domain).toBe('');
    const barren = doc.chunks.find((c) => c.text.includes('urchin barren'))!;
    expect(barren.headingPath).toEqual(['Kelp forest survey', 'Site B: the exposed reef']);
    expect(doc.text).toContain('purple sea urchins'); // emphasis markers stripped
    expect(doc.text).not.toContain('**');
    expect(doc.images).toEqual([
      expect.objectContaining({
        url: expect.stringMatching(/^file:\/\/.*\/notes\/images\/urchin-barren\.jpg$/),
      }),
    ]);
    expect(doc.text).not.toContain('Urchin barren on the exposed reef'); // alt text is not running text
  });

  it('reads the text layer and title of a Chromium-printed PDF', () => {
    const doc = docFor(index, report, 'battery-safety-report.pdf');
    expect(doc.title).toBe('Thermal runaway propagation in containerised battery storage');
    expect(doc.text).toContain(
      'The aerogel barriers between cells were the decisive design feature.',
    );
  });

  it('titles a TXT file by its first line', () => {
    expect(docFor(index, report, 'reading-list.txt').title).toBe(
      'Reading list for the storage working group',
    );
  });
});

describe('re-indexing', () => {
  let dir: string;
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('skips an unchanged document and replaces a changed one with its chunks', async () => {
    dir = await mkdtemp(join(tmpdir(), 'svc-idx-'));
    const file = join(dir, 'memo.md');
    await writeFile(file, '# Memo\n\nThe pilot uses vanadium flow batteries.\n');
    const { index } = openIndex();
    const first = await index.indexPaths([dir]);
    expect(first).toMatchObject({ added: 1, updated: 0, skipped: 0 });
    const id = first.documents[0]!.docId!;

    expect(await index.indexPaths([dir])).toMatchObject({ added: 0, updated: 0, skipped: 1 });

    await writeFile(file, '# Memo\n\nThe pilot now uses zinc bromide cells instead.\n');
    const third = await index.indexPaths([file]);
    expect(third).toMatchObject({ added: 0, updated: 1, skipped: 0 });
    expect(third.documents[0]!.docId).toBe(id);
    expect(await index.search({ query: 'vanadium' })).toEqual([]);
    expect((await index.search({ query: 'zinc bromide' })).map((h) => h.docId)).toEqual([id]);
    expect(index.stats()).toMatchObject({ documents: 1, chunks: 1 });
    expect(index.getDocument(id)!.chunks.map((c) => c.text)).toEqual([
      'Memo\n\nThe pilot now uses zinc bromide cells instead.',
    ]);
  });

  it('removes a document with its chunks', async () => {
    dir = await mkdtemp(join(tmpdir(), 'svc-idx-'));
    await writeFile(join(dir, 'a.txt'), 'Tidal turbines in the strait.');
    const { index } = openIndex();
    const id = (await index.indexPaths([dir])).documents[0]!.docId!;
    expect(index.removeDocument(id)).toBe(true);
    expect(index.getDocument(id)).toBeNull();
    expect(await index.search({ query: 'tidal turbines' })).toEqual([]);
    expect(index.stats()).toMatchObject({ documents: 0, chunks: 0 });
  });
});

describe('per-file errors', () => {
  let dir: string;
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('reports a missing path, a dangling symlink, a corrupt PDF and an unsupported named file, and indexes the rest', async () => {
    dir = await mkdtemp(join(tmpdir(), 'svc-idx-'));
    await mkdir(join(dir, 'docs'));
    await writeFile(join(dir, 'docs', 'ok.txt'), 'Heat pumps in district heating networks.');
    await copyFile(join(CORPUS, 'broken', 'damaged-report.pdf'), join(dir, 'docs', 'bad.pdf'));
    await symlink(join(dir, 'nowhere.html'), join(dir, 'docs', 'dangling.html'));
    await writeFile(join(dir, 'data.csv'), 'a,b\n1,2\n');
    const events: IndexProgress[] = [];
    const { index } = openIndex();
    const report = await index.indexPaths(
      [join(dir, 'missing.md'), join(dir, 'docs'), join(dir, 'data.csv')],
      {
        onProgress: (p) => events.push(p),
      },
    );
    expect(report.added).toBe(1);
    const errors = Object.fromEntries(report.failed.map((f) => [f.path.split('/').pop(), f.error]));
    expect(Object.keys(errors).sort()).toEqual([
      'bad.pdf',
      'dangling.html',
      'data.csv',
      'missing.md',
    ]);
    expect(errors['missing.md']).toMatch(/ENOENT/);
    expect(errors['dangling.html']).toMatch(/ENOENT/);
    expect(errors['bad.pdf']).toMatch(/^cannot read PDF file/);
    expect(errors['data.csv']).toBe('unsupported file type ".csv"');
    expect(events.map((e) => e.done)).toEqual([1, 2, 3, 4, 5]);
    expect(events.every((e) => e.total === 5)).toBe(true);
    expect(
      events.filter((e) => e.outcome === 'failed').every((e) => typeof e.error === 'string'),
    ).toBe(true);
    expect((await index.search({ query: 'heat pumps' })).length).toBe(1);
  });

  it('fails a URL input without a fetcher instead of throwing', async () => {
    dir = await mkdtemp(join(tmpdir(), 'svc-idx-'));
    const { index } = openIndex();
    const report = await index.indexPaths(['https://example.org/page']);
    expect(report.failed).toEqual([
      {
        path: 'https://example.org/page',
        error: 'URL inputs need a fetchHtml (a browser session) to load them',
      },
    ]);
  });
});

describe('DOCX', () => {
  let dir: string;
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('indexes headings and paragraphs of a DOCX with its heading path', async () => {
    dir = await mkdtemp(join(tmpdir(), 'svc-idx-'));
    await writeFile(
      join(dir, 'memo.docx'),
      buildDocx([
        { heading: 1, text: 'Quarterly storage memo' },
        { text: 'Procurement of sodium-ion cells is on track for the second pilot site.' },
        { heading: 2, text: 'Risks' },
        { text: 'Permitting delays at the harbour site remain the main schedule risk.' },
      ]),
    );
    const { index } = openIndex();
    const report = await index.indexPaths([dir]);
    expect(report.added).toBe(1);
    const doc = index.getDocument(report.documents[0]!.docId!)!;
    expect(doc).toMatchObject({ title: 'Quarterly storage memo', sourceKind: 'docx' });
    const [hit] = await index.search({ query: 'permitting harbour' });
    expect(hit!.headingPath).toEqual(['Quarterly storage memo', 'Risks']);
    expect(hit!.text).toContain('Permitting delays at the harbour site');
  });
});
