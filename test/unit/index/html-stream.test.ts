import { describe, expect, it } from 'vitest';
import { readHtml } from '../../../src/server/engines/index/formats/html.js';
import {
  decodeEntities,
  readLargeHtml,
} from '../../../src/server/engines/index/formats/html-stream.js';

const PAGE = `<!doctype html><html lang="de"><head><title>Handbuch</title>
<link rel="canonical" href="https://example.org/handbuch">
<script>var ignored = "<p>not text</p>";</script></head>
<body><nav>Home &amp; away</nav><h1>Speicher &#8211; Teil 1</h1>
<p>Erster <b>Absatz</b> mit &quot;Zitat&quot; &#x2014; und&nbsp;mehr.</p>
<div hidden><p>versteckt</p></div><style>p { color: red }</style>
<img src="/bild.png" width="640" height="480" alt="Ein Bild">
<pre>line one
  line two</pre><ul><li>eins</li><li>zwei</li></ul></body></html>`;

describe('readLargeHtml', () => {
  it('reads headings, paragraphs, list items and images in document order, skipping script, style and hidden', async () => {
    const doc = await readLargeHtml(PAGE, { baseUrl: null });
    expect(doc.title).toBe('Handbuch');
    expect(doc.canonicalUrl).toBe('https://example.org/handbuch');
    expect(doc.language).toBe('de');
    expect(doc.blocks).toEqual([
      { kind: 'paragraph', text: 'Home & away' },
      { kind: 'heading', level: 1, text: 'Speicher – Teil 1' },
      { kind: 'paragraph', text: 'Erster Absatz mit "Zitat" — und mehr.' },
      {
        kind: 'image',
        image: { url: 'https://example.org/bild.png', width: 640, height: 480, alt: 'Ein Bild' },
      },
      { kind: 'paragraph', text: 'line one\n  line two' },
      { kind: 'paragraph', text: 'eins' },
      { kind: 'paragraph', text: 'zwei' },
    ]);
  });

  it('finds the same text as the DOM reader on a plain page', async () => {
    const page =
      '<html><head><title>T</title></head><body><h2>A</h2><p>one two</p><p>three</p></body></html>';
    const streamed = await readLargeHtml(page, { baseUrl: null });
    const dom = readHtml(page, { baseUrl: null, readability: false });
    expect(streamed.blocks).toEqual(dom.blocks);
  });

  it('reports progress up to 1 on a large page', async () => {
    const page = `<html><body>${'<p>word word word</p>'.repeat(100_000)}</body></html>`;
    const seen: number[] = [];
    await readLargeHtml(page, { baseUrl: null, onProgress: (f) => seen.push(f) });
    expect(seen.length).toBeGreaterThan(2);
    expect(seen.at(-1)).toBe(1);
    expect([...seen].sort((a, b) => a - b)).toEqual(seen);
  });
});

describe('decodeEntities', () => {
  it('decodes numeric and common named references and leaves unknown ones', () => {
    expect(decodeEntities('a &lt;b&gt; &#65;&#x42; &copy2; &bogus;')).toBe(
      'a <b> AB &copy2; &bogus;',
    );
  });
});
