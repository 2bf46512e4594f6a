import { describe, expect, it } from 'vitest';
import { layoutAndChunk } from '../../../src/server/engines/index/chunk.js';
import { readMarkdown } from '../../../src/server/engines/index/formats/markdown.js';
import { renderDocumentHtml } from '../../../src/server/engines/index/render.js';
import type { Block } from '../../../src/server/engines/index/types.js';
import { countTokens } from '../../../src/protocol/tokens.js';

const sentence = (i: number): string =>
  `Sentence number ${i} explains how the storage plant balanced the evening demand peak on the regional grid.`;
const paragraph = (from: number, n: number): string =>
  Array.from({ length: n }, (_, k) => sentence(from + k)).join(' ');

describe('layoutAndChunk', () => {
  it('keeps every chunk text equal to its slice of the document text', () => {
    const blocks: Block[] = [
      { kind: 'heading', level: 1, text: 'Report' },
      { kind: 'paragraph', text: paragraph(0, 6) },
      { kind: 'heading', level: 2, text: 'Details' },
      { kind: 'paragraph', text: paragraph(10, 30) },
    ];
    const { text, chunks } = layoutAndChunk(blocks);
    expect(chunks.length).toBeGreaterThan(2);
    for (const c of chunks) expect(text.slice(c.charStart, c.charEnd)).toBe(c.text);
    expect(chunks.map((c) => c.ordinal)).toEqual(chunks.map((_, i) => i));
  });

  it('starts a chunk at each heading and records the heading path', () => {
    const blocks: Block[] = [
      { kind: 'heading', level: 1, text: 'Guide' },
      { kind: 'paragraph', text: 'Intro text.' },
      { kind: 'heading', level: 2, text: 'Install' },
      { kind: 'paragraph', text: 'Install text.' },
      { kind: 'heading', level: 3, text: 'On Linux' },
      { kind: 'paragraph', text: 'Linux text.' },
      { kind: 'heading', level: 2, text: 'Usage' },
      { kind: 'paragraph', text: 'Usage text.' },
    ];
    const { chunks } = layoutAndChunk(blocks);
    expect(chunks.map((c) => c.headingPath)).toEqual([
      ['Guide'],
      ['Guide', 'Install'],
      ['Guide', 'Install', 'On Linux'],
      ['Guide', 'Usage'],
    ]);
    expect(chunks.map((c) => c.headingLevel)).toEqual([1, 2, 3, 2]);
    expect(chunks[3]!.text).toBe('Usage\n\nUsage text.');
  });

  it('merges a heading directly followed by a sub-heading into one chunk under the inner path', () => {
    const { chunks } = layoutAndChunk([
      { kind: 'heading', level: 1, text: 'Title' },
      { kind: 'heading', level: 2, text: 'First section' },
      { kind: 'paragraph', text: 'Body.' },
    ]);
    expect(chunks).toHaveLength(1);
    expect(chunks[0]!.headingPath).toEqual(['Title', 'First section']);
  });

  it('sizes chunks of a long section between the token targets and cuts only between sentences', () => {
    const { chunks } = layoutAndChunk([{ kind: 'paragraph', text: paragraph(0, 60) }]);
    expect(chunks.length).toBeGreaterThan(3);
    for (const c of chunks.slice(0, -1)) {
      expect(countTokens(c.text)).toBeGreaterThanOrEqual(120);
      expect(countTokens(c.text)).toBeLessThanOrEqual(250);
    }
    for (const c of chunks) {
      expect(c.text).toMatch(/^Sentence number \d+/);
      expect(c.text).toMatch(/grid\.$/);
    }
  });

  it('cuts a long pipe table between rows, never inside a cell, each part read as a table', () => {
    // Rows that end without a full stop, a row without its closing pipe, a pipe inside a cell.
    const rows = Array.from(
      { length: 30 },
      (_, i) =>
        `| dir${i} | string | Where the data of store ${i} is kept. Defaults to ./data/db${i} |`,
    );
    rows[3] = "| authMethod | 'scram' \\| 'md5' | The method to use. Defaults to md5";
    const source = `# Options\n\n| Property | Type | Description |\n|---|---|---|\n${rows.join('\n')}\n`;
    const doc = readMarkdown(source, 'Options');
    const laid = layoutAndChunk(doc.blocks);
    const table = laid.chunks.filter((c) => c.text.includes('|'));
    expect(table.length).toBeGreaterThan(1);
    for (const c of table.slice(1)) expect(c.text).toMatch(/^\| \| dir\d+ \|/);
    const html = renderDocumentHtml({
      ...doc,
      ...laid,
      id: 'options',
      url: 'file:///options.md',
      source: '/options.md',
      sourceKind: 'markdown',
      domain: '',
      category: 'web',
      contentHash: '',
      indexedAt: new Date(0),
      chunks: laid.chunks.map((c) => ({ ...c, id: c.ordinal, docId: 'options' })),
    } as Parameters<typeof renderDocumentHtml>[0]);
    expect(html).not.toMatch(/<p>[^<]*\|/);
    expect(html).toContain('<td>Where the data of store 0 is kept. Defaults to ./data/db0</td>');
    expect(html).toContain(
      '<td>&#39;scram&#39; | &#39;md5&#39;</td><td>The method to use. Defaults to md5</td>',
    );
    expect(html).toContain('<td>Where the data of store 29 is kept. Defaults to ./data/db29</td>');
  });

  it('cuts a single sentence longer than the maximum at word boundaries', () => {
    const words = Array.from({ length: 600 }, (_, i) => `word${i}`).join(' ');
    const { chunks, text } = layoutAndChunk([{ kind: 'paragraph', text: words }]);
    expect(chunks.length).toBeGreaterThan(1);
    for (const c of chunks) {
      expect(c.tokens).toBeLessThanOrEqual(260);
      expect(c.text).toMatch(/^word\d+/);
      expect(c.text).toMatch(/word\d+$/);
      expect(text.slice(c.charStart, c.charEnd)).toBe(c.text);
    }
  });

  it('records image positions in the text and keeps width and height', () => {
    const { images, text } = layoutAndChunk([
      { kind: 'paragraph', text: 'Before the chart.' },
      {
        kind: 'image',
        image: { url: 'https://x.test/a.png', width: 640, height: 360, alt: 'Chart' },
      },
      { kind: 'paragraph', text: 'After the chart.' },
    ]);
    expect(images).toEqual([
      {
        url: 'https://x.test/a.png',
        width: 640,
        height: 360,
        alt: 'Chart',
        offset: 'Before the chart.'.length,
      },
    ]);
    expect(text).toBe('Before the chart.\n\nAfter the chart.');
  });

  it('returns no chunks for blocks without text', () => {
    expect(layoutAndChunk([{ kind: 'paragraph', text: '   ' }]).chunks).toEqual([]);
  });
});
