import { parseHTML } from 'linkedom';
import { beforeAll, describe, expect, it } from 'vitest';
import type { IndexReport, SearchIndex } from '../../../src/server/engines/index/index.js';
import { corpusIndex, openIndex } from './helpers.js';

let index: SearchIndex;
let report: IndexReport;
beforeAll(async () => {
  ({ index, report } = await corpusIndex());
});

const idOf = (suffix: string): string =>
  report.documents.find((d) => d.path.endsWith(suffix))!.docId!;

describe('renderDocumentHtml', () => {
  it('renders one addressable section per chunk whose text is the chunk text', () => {
    const id = idOf('grid-batteries.html');
    const doc = index.getDocument(id)!;
    const { document } = parseHTML(index.renderDocumentHtml(id)!);
    const sections = Array.from(document.querySelectorAll('section[id^="c"]'));
    expect(sections.map((s) => s.getAttribute('id'))).toEqual(
      doc.chunks.map((c) => `c${c.ordinal}`),
    );
    sections.forEach((section, i) => {
      const chunk = doc.chunks[i]!;
      expect(section.getAttribute('data-char-start')).toBe(String(chunk.charStart));
      const text = Array.from(section.querySelectorAll('h2,h3,h4,h5,h6,p'))
        .map((e) => e.textContent)
        .join('\n\n');
      expect(text).toBe(chunk.text);
    });
  });

  it('has the title, metadata and language of the document', () => {
    const { document } = parseHTML(index.renderDocumentHtml(idOf('stockage-energie.html'))!);
    expect(document.documentElement.getAttribute('lang')).toBe('fr');
    expect(document.querySelector('title')!.textContent).toBe(
      "Le stockage par batteries s'impose sur le réseau électrique",
    );
    expect(document.querySelector('h1')!.textContent).toBe(
      document.querySelector('title')!.textContent,
    );
    expect(
      document.querySelector('meta[property="article:published_time"]')!.getAttribute('content'),
    ).toBe('2023-11-10T04:00:00.000Z');
    expect(document.querySelector('header a')!.getAttribute('href')).toBe(
      'https://www.lemonde-exemple.fr/economie/2023/stockage-batteries-reseau',
    );
  });

  it('names the local file it was indexed from, in a meta for reports and in its header', () => {
    const path = report.documents.find((d) => d.path.endsWith('grid-batteries.html'))!.path;
    const { document } = parseHTML(index.renderDocumentHtml(idOf('grid-batteries.html'))!);
    expect(document.querySelector('meta[name="svc:source"]')!.getAttribute('content')).toBe(path);
    const dt = Array.from(document.querySelectorAll('header dt')).find(
      (d) => d.textContent === 'Local file',
    );
    expect(dt?.nextElementSibling?.textContent).toBe(path);
  });

  it('keeps images with their size inside the chunk where they appeared', () => {
    const { document } = parseHTML(index.renderDocumentHtml(idOf('grid-batteries.html'))!);
    const img = document.querySelector(
      '#c0 img[src="https://cdn.northwind-journal.com/img/2019/battery-containers.jpg"]',
    );
    expect(img?.getAttribute('width')).toBe('1200');
    expect(img?.getAttribute('height')).toBe('675');
    expect(document.querySelectorAll('img')).toHaveLength(2);
  });

  it('escapes document text so it cannot inject markup', () => {
    const { index: fresh } = openIndex();
    const { id } = fresh.addDocument({
      source: 'test:escape',
      url: 'https://example.org/escape',
      title: '<script>alert(1)</script>',
      blocks: [
        {
          kind: 'paragraph',
          text: 'Tags like <img src=x onerror=alert(1)> stay text & so do "quotes".',
        },
      ],
    });
    const html = fresh.renderDocumentHtml(id)!;
    expect(html).not.toContain('<script>alert');
    expect(html).not.toContain('<img src=x');
    const { document } = parseHTML(html);
    expect(document.querySelector('#c0 p')!.textContent).toBe(
      'Tags like <img src=x onerror=alert(1)> stay text & so do "quotes".',
    );
  });

  it('gives each heading the level of its depth, so a run of headings nests as a lone one', () => {
    // "Usage", "Flags" and the term "-G" start one chunk; the term "-o" starts the next: both
    // terms stand under "Flags" alone, at one level, whatever level each came with (a term's is
    // 7); past h6 the level is an aria-level.
    const { index: fresh } = openIndex();
    const long = (what: string): string => `${what} ${'and so on at length. '.repeat(60)}`;
    const { id } = fresh.addDocument({
      source: 'test:levels',
      url: 'https://example.org/levels',
      title: 'Command-line usage',
      blocks: [
        { kind: 'heading', level: 2, text: 'Usage' },
        { kind: 'heading', level: 3, text: 'Flags' },
        { kind: 'heading', level: 7, text: '-G name' },
        { kind: 'paragraph', text: long('Sets a graph attribute.') },
        { kind: 'heading', level: 7, text: '-o outfile' },
        { kind: 'paragraph', text: long('Writes output to outfile.') },
        { kind: 'heading', level: 7, text: 'deep' },
        { kind: 'heading', level: 8, text: 'deeper' },
        { kind: 'heading', level: 9, text: 'deepest' },
        { kind: 'heading', level: 10, text: 'below h6' },
        { kind: 'paragraph', text: 'Nested terms.' },
      ],
    });
    const { document } = parseHTML(fresh.renderDocumentHtml(id)!);
    const headings = Array.from(document.querySelectorAll('section h2,h3,h4,h5,h6')).map(
      (h) => `${h.tagName} ${h.getAttribute('aria-level') ?? '-'} ${h.textContent}`,
    );
    expect(headings).toEqual([
      'H2 - Usage',
      'H3 - Flags',
      'H4 - -G name',
      'H4 - -o outfile',
      'H4 - deep',
      'H5 - deeper',
      'H6 - deepest',
      'H6 7 below h6',
    ]);
  });

  it('returns null for an unknown id', () => {
    expect(index.renderDocumentHtml('0000000000000000')).toBeNull();
  });
});

describe('addDocument', () => {
  it('adds, skips when unchanged and updates when changed', () => {
    const { index: fresh } = openIndex();
    const input = {
      source: 'https://example.org/a',
      url: 'https://example.org/a',
      title: 'A',
      blocks: [{ kind: 'paragraph' as const, text: 'Pumped hydro stores energy.' }],
      publishedAt: new Date('2020-01-01'),
    };
    const first = fresh.addDocument(input);
    expect(first.outcome).toBe('added');
    expect(fresh.addDocument(input)).toEqual({ id: first.id, outcome: 'skipped' });
    expect(fresh.addDocument({ ...input, title: 'A2' })).toEqual({
      id: first.id,
      outcome: 'updated',
    });
    expect(fresh.getDocument(first.id)).toMatchObject({
      title: 'A2',
      domain: 'example.org',
      sourceKind: 'text',
    });
  });
});
