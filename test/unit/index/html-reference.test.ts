// Reference pages: an entry's term or signature line heads the description under it, so every
// passage of the description is known to be about it.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readHtml } from '../../../src/server/engines/index/formats/html.js';

const blocksOf = (body: string) =>
  readHtml(`<html><head><title>T</title></head><body>${body}</body></html>`, {
    baseUrl: null,
    readability: false,
  }).blocks;

/** The text the index reads from a page of the evidence bench (`bench/evidence/pages/...`). */
const pageText = (page: string): string =>
  readHtml(
    readFileSync(new URL(`../../../bench/evidence/pages/${page}`, import.meta.url), 'utf8'),
    { baseUrl: null },
  )
    .blocks.map((b) => (b.kind === 'image' ? '' : b.text))
    .join('\n');

describe('readHtml on reference entries', () => {
  it('makes a signature line (labels, then <br>) the heading of its description, labels spaced', () => {
    expect(
      blocksOf(
        '<h2>Collections</h2><p id="max"><b class="header">max</b><code>_.max(list, [iteratee])</code><br>' +
          'Returns the maximum value in <b>list</b>. <i>-Infinity</i> is returned if <b>list</b> is empty.</p>',
      ),
    ).toEqual([
      { kind: 'heading', level: 2, text: 'Collections' },
      { kind: 'heading', level: 7, text: 'max _.max(list, [iteratee])' },
      {
        kind: 'paragraph',
        text: 'Returns the maximum value in list. -Infinity is returned if list is empty.',
      },
    ]);
  });

  it('keeps an alias after the name in the label line', () => {
    expect(
      blocksOf(
        '<p><b>uniq</b><code>_.uniq(array)</code><span class="alias">Alias: <b>unique</b></span><br>Produces a duplicate-free version of the array.</p>',
      ),
    ).toEqual([
      { kind: 'heading', level: 7, text: 'uniq _.uniq(array) Alias: unique' },
      { kind: 'paragraph', text: 'Produces a duplicate-free version of the array.' },
    ]);
  });

  it("makes a definition list's term the heading of its definition", () => {
    expect(
      blocksOf(
        '<dl><dt><code>trim</code></dt><dd><p>Removes leading and trailing spaces.</p></dd></dl>',
      ),
    ).toEqual([
      { kind: 'heading', level: 7, text: 'trim' },
      { kind: 'paragraph', text: 'Removes leading and trailing spaces.' },
    ]);
  });

  it('makes terms in a row one heading of the definition they share', () => {
    expect(
      blocksOf(
        '<dl><dt><code>-v</code></dt>\n<dt><code>--verbose</code></dt><dd><p>Prints more.</p></dd>' +
          '<dt>quiet</dt><dd>Prints less.</dd></dl>',
      ),
    ).toEqual([
      { kind: 'heading', level: 7, text: '-v, --verbose' },
      { kind: 'paragraph', text: 'Prints more.' },
      { kind: 'heading', level: 7, text: 'quiet' },
      { kind: 'paragraph', text: 'Prints less.' },
    ]);
  });

  it("makes a term table's first cell the heading of the description beside it", () => {
    // DocBook renders a variablelist as a table without a header row (GLib's G_DEBUG options).
    const row = (term: string, text: string): string =>
      `<tr><td><p><span class="term">${term}</span></p></td><td><p>${text}</p></td></tr>`;
    expect(
      blocksOf(
        `<table><tbody>${row('fatal-warnings', 'Causes GLib to abort at the first g_warning().')}` +
          `${row('gc-friendly', 'Newly allocated memory is reset to 0.')}</tbody></table>`,
      ),
    ).toEqual([
      { kind: 'heading', level: 7, text: 'fatal-warnings' },
      { kind: 'paragraph', text: 'Causes GLib to abort at the first g_warning().' },
      { kind: 'heading', level: 7, text: 'gc-friendly' },
      { kind: 'paragraph', text: 'Newly allocated memory is reset to 0.' },
    ]);
  });

  it("sets a term's placeholder apart from its flag", () => {
    // A man page writes an option's argument in italics right after it: "-o outfile", not
    // "-ooutfile", so the term holds the flag a claim names.
    expect(
      blocksOf(
        '<dl><dt><b>-o</b><i>outfile</i></dt><dd>Write output to file <i>outfile</i>.</dd>' +
          '<dt><b>-s</b>[<i>scale</i>]</dt><dd>Set input scale.</dd></dl>',
      ),
    ).toEqual([
      { kind: 'heading', level: 7, text: '-o outfile' },
      { kind: 'paragraph', text: 'Write output to file outfile.' },
      { kind: 'heading', level: 7, text: '-s[scale]' },
      { kind: 'paragraph', text: 'Set input scale.' },
    ]);
  });

  it('leaves tables of fields, questions, kinds and sentences as cells', () => {
    const paragraphs = (rows: [string, string][]) =>
      blocksOf(
        `<table>${rows.map(([a, b]) => `<tr><td>${a}</td><td>${b}</td></tr>`).join('')}</table>`,
      ).map((b) => b.kind);
    const cells = ['paragraph', 'paragraph', 'paragraph', 'paragraph'];
    // A record's fields, a question and its answer: labels, not terms.
    expect(
      paragraphs([
        ['Syntax:', 'DeflateBufferSize value'],
        ['Default:', '8096'],
      ]),
    ).toEqual(cells);
    expect(
      paragraphs([
        ['Q:', 'Why?'],
        ['A:', 'Because.'],
      ]),
    ).toEqual(cells);
    // The same word down the column is a kind of line, not a name.
    expect(
      paragraphs([
        ['#define', 'ASN1_SUCCESS 0'],
        ['#define', 'ASN1_FILE_NOT_FOUND 1'],
      ]),
    ).toEqual(cells);
    // A sentence in the first column.
    expect(
      paragraphs([
        ['It is fast.', 'Yes'],
        ['It is small.', 'No'],
      ]),
    ).toEqual(cells);
  });

  it('leaves a bold lead-in without a line break, and text before the labels, as prose', () => {
    expect(blocksOf('<p><b>Note:</b> the cache is per process.</p>')).toEqual([
      { kind: 'paragraph', text: 'Note: the cache is per process.' },
    ]);
    expect(blocksOf('<p>See <code>close()</code><br>for details.</p>')).toEqual([
      { kind: 'paragraph', text: 'See close()' },
      { kind: 'paragraph', text: 'for details.' },
    ]);
  });
});

describe('readHtml on a paragraph that labels the block after it', () => {
  it('makes a short label over an indented block or a list the heading of its items', () => {
    // reStructuredText's "Release 1.13" over an indented list, as Sphinx renders it (MIT
    // Kerberos's feature list): each release's items stand under their own release.
    expect(
      blocksOf(
        '<h2>Feature list</h2><dl><dt>Release 1.12</dt><dd><ul><li><p>Audit plugin</p></li></ul></dd></dl>' +
          '<p>Release 1.13</p><blockquote><div><ul><li><p>The KDC listens for TCP connections by default.</p></li></ul></div></blockquote>' +
          '<p>Release 1.15</p><ul><li><p>Administrator experience</p><ul><li><p>Add a tabdump command.</p></li></ul></li></ul>',
      ),
    ).toEqual([
      { kind: 'heading', level: 2, text: 'Feature list' },
      { kind: 'heading', level: 7, text: 'Release 1.12' },
      { kind: 'paragraph', text: 'Audit plugin' },
      { kind: 'heading', level: 7, text: 'Release 1.13' },
      { kind: 'paragraph', text: 'The KDC listens for TCP connections by default.' },
      { kind: 'heading', level: 7, text: 'Release 1.15' },
      // A label inside a list item heads only its sub-list: it stays a paragraph.
      { kind: 'paragraph', text: 'Administrator experience' },
      { kind: 'paragraph', text: 'Add a tabdump command.' },
    ]);
  });

  it('leaves metadata, sentences and leads as paragraphs', () => {
    const kinds = (body: string) => blocksOf(body).map((b) => b.kind);
    // Right under its heading: the heading's metadata.
    expect(
      kinds('<h2>Version 3.1.2</h2><p>Released 2022-04-28</p><ul><li>Fix a bug.</li></ul>'),
    ).toEqual(['heading', 'paragraph', 'paragraph']);
    // An entry's metadata ("Added in: v8.1.0"), a lead ending with a colon, a sentence.
    for (const lead of ['Added in: v8.1.0', 'The options are:', 'It is fast.'])
      expect(kinds(`<p>Intro.</p><p>${lead}</p><ul><li>One.</li></ul>`)).toEqual([
        'paragraph',
        'paragraph',
        'paragraph',
      ]);
  });
});

describe('readHtml on a page of sibling sections', () => {
  it('keeps every section readability drops beside the longest one', () => {
    // A DocBook man page (fontconfig's fonts-conf): each top-level section is a <div> of its own,
    // one much longer than the rest; readability keeps that one and drops "Description",
    // "Debugging Applications" and "Lang Tags".
    const text = pageText('fontconfig/fontconfig-user.html');
    expect(text).toContain('Output from these statements is sent to stdout.');
    expect(text).toContain('Fontconfig is a library designed to provide system-wide font');
    expect(text).toContain('Each font in the database contains a list of languages it supports.');
    // The section readability keeps is still there.
    expect(text).toContain('The match/edit sequences in the configuration are performed in two');
  });

  it('keeps the answers readability drops when they are a small share of the page', () => {
    // A DocBook FAQ section, one <div> per question: readability dropped four of eleven answers,
    // under a sixth of the page's prose.
    const faq = pageText('privoxy/configuration.html');
    expect(faq).toContain('Actions files are just text files in a special syntax');
    for (let n = 1; n <= 11; n++) expect(faq).toMatch(new RegExp(`^3\\.${n}\\. `, 'm'));
    // Node.js's API page: the options of dgram.createSocket().
    expect(pageText('nodejs/dgram.html')).toContain(
      'reuseAddr <boolean> When true socket.bind() will reuse the address',
    );
  });

  it('leaves out a sidebar or table of contents made of links when it reads the page whole', () => {
    // Underscore's page: readability drops some of its entries, so the page is read whole, less
    // its sidebar of links to each function ("- each", "» GitHub Repository").
    const text = pageText('underscore/index.html');
    expect(text).toContain('Returns a random integer between min and max, inclusive.');
    expect(text).not.toContain('GitHub Repository');
    expect(text).not.toMatch(/^- each$/m);
  });
});

describe('readHtml on tables', () => {
  it('keeps a table of data as a pipe table, so each row is read whole under its header', () => {
    expect(
      blocksOf(
        '<h3>basename(path)</h3><details><summary>History</summary><table><tbody>' +
          '<tr><th>Version</th><th>Changes</th></tr>' +
          '<tr><td>v6.0.0</td><td><p>Passing a non-string   path throws now.</p></td></tr>' +
          '<tr><td>v0.1.25</td><td><p><span>Added in: v0.1.25</span></p></td></tr>' +
          '</tbody></table></details>',
      ),
    ).toEqual([
      { kind: 'heading', level: 3, text: 'basename(path)' },
      { kind: 'paragraph', text: 'History' },
      {
        kind: 'paragraph',
        text: '| Version | Changes | | --- | --- | | v6.0.0 | Passing a non-string path throws now. | | v0.1.25 | Added in: v0.1.25 |',
      },
    ]);
  });

  it('reads a table without a header row, or with blocks in its cells, cell by cell', () => {
    const paragraphs = (body: string) => blocksOf(body).map((b) => (b as { text: string }).text);
    expect(paragraphs('<table><tr><td>2.1.</td><td>Why?</td></tr></table>')).toEqual([
      '2.1.',
      'Why?',
    ]);
    expect(
      paragraphs(
        '<table><tr><th>Option</th><th>Values</th></tr><tr><td>mode</td><td><ul><li>fast</li><li>safe</li></ul></td></tr></table>',
      ),
    ).toEqual(['Option', 'Values', 'mode', 'fast', 'safe']);
  });

  it('keeps a table with a pipe in a cell a table, the pipe written as in Markdown', () => {
    const paragraphs = (body: string) => blocksOf(body).map((b) => (b as { text: string }).text);
    expect(
      paragraphs(
        '<table><tr><th>Flag</th><th>Meaning</th></tr><tr><td>a|b</td><td>either</td></tr></table>',
      ),
    ).toEqual(['| Flag | Meaning | | --- | --- | | a\\|b | either |']);
  });
});
