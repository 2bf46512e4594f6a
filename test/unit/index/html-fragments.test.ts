// Pages that leave out the <html>, <head> or <body> tags (fragments as documentation generators
// ship them, valid HTML5 that implies the tags) are read like whole pages.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { asDocument } from '../../../src/html-document.js';
import { readHtml as readPageHtml } from '../../../src/page/read.js';
import { readHtml } from '../../../src/server/engines/index/formats/html.js';

const textOf = (html: string): string =>
  readHtml(html, { baseUrl: null })
    .blocks.map((b) => (b.kind === 'image' ? '' : b.text))
    .join('\n');

const PROSE =
  'The assembler is based on the input style of the Plan 9 assemblers, documented elsewhere. ' +
  'If you plan to write assembly language, you should read that document first.';

describe('readHtml on pages without their outer tags', () => {
  it('reads a fragment that opens with a comment and a heading', () => {
    const html = `<!--{\n\t"Title": "A Quick Guide",\n\t"Path": "/doc/asm"\n}-->\n\n<h2 id="intro">A Quick Guide</h2>\n<p>\n${PROSE}\n</p>\n<p>Another paragraph of the guide, long enough to be read as prose by the reader.</p>`;
    const text = textOf(html);
    expect(text).toContain('A Quick Guide');
    expect(text).toContain('you should read that document first.');
    expect(text).toContain('Another paragraph of the guide');
    expect(text).not.toContain('"Path"');
  });

  it('keeps the title, language and text of a page that implies <head> and <body>', () => {
    const doc = readHtml(
      `<!doctype html><html lang="de"><title>Leitfaden</title><meta charset="utf-8"><p>${PROSE}</p></html>`,
      {
        baseUrl: null,
      },
    );
    expect(doc.title).toBe('Leitfaden');
    expect(doc.language).toBe('de');
    expect(doc.blocks.map((b) => (b.kind === 'image' ? '' : b.text)).join('\n')).toContain(
      'you should read that document first.',
    );
  });

  it('reads the Go assembler guide, an HTML fragment shipped as a page', () => {
    const file = new URL('../../../bench/evidence/pages/golang-1.19-doc/asm.html', import.meta.url);
    const text = textOf(readFileSync(file, 'utf8'));
    expect(text).toContain('The document is not comprehensive.');
    expect(text).toContain('A Quick Guide to Go');
  });

  it('gives the page reader the same text', () => {
    const page = readPageHtml(`<h2>A Quick Guide</h2><p>${PROSE}</p>`, 'https://example.test/asm');
    expect(page.text).toContain('you should read that document first.');
  });

  it('leaves a page with a <body> tag as it is', () => {
    const html = '<html><head><title>T</title></head><body><p>x</p></body></html>';
    expect(asDocument(html)).toBe(html);
  });
});
