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

describe('a <pre> of prose (a plain-text guide shown as is)', () => {
  const guide = `<html><head><title>Guide</title></head><body><h2>Sizing</h2><pre class="text">Typical figures show 15% of the processing time spent in the proxy
versus 85% in the kernel in close mode.

HAProxy is not :

  - a static web server : during startup, it isolates itself inside a chroot
    jail and drops its privileges.

  - a data scrubber : it will not modify the body of requests nor responses.
</pre><pre>pool {
  sockets = 10;
}</pre></body></html>`;
  const expected = [
    { kind: 'heading', level: 2, text: 'Sizing' },
    {
      kind: 'paragraph',
      text: 'Typical figures show 15% of the processing time spent in the proxy versus 85% in the kernel in close mode.',
    },
    { kind: 'paragraph', text: 'HAProxy is not :' },
    {
      kind: 'paragraph',
      text: '- a static web server : during startup, it isolates itself inside a chroot jail and drops its privileges.',
    },
    {
      kind: 'paragraph',
      text: '- a data scrubber : it will not modify the body of requests nor responses.',
    },
    { kind: 'paragraph', text: 'pool {\n  sockets = 10;\n}' },
  ];

  it('is read as paragraphs re-flowed, cut at blank lines and list items; code keeps its lines', async () => {
    expect(readHtml(guide, { baseUrl: null, readability: false }).blocks).toEqual(expected);
    expect((await readLargeHtml(guide, { baseUrl: null })).blocks).toEqual(expected);
  });
});
