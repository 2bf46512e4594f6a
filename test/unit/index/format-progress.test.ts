// Progress inside one large file: a PDF reports page by page, a DOCX once converted and as its
// HTML is read. Both are real bytes their libraries must parse (pdf.js, mammoth).
import { describe, expect, it } from 'vitest';
import { readDocx } from '../../../src/server/engines/index/formats/docx.js';
import { readPdf } from '../../../src/server/engines/index/formats/pdf.js';
import { buildDocx } from './docx-builder.js';

/** A valid PDF of `pages` pages, page n showing the line "Page n says hello." in Helvetica. */
function buildPdf(pages: number): Uint8Array {
  const objects: string[] = [];
  const pageIds = Array.from({ length: pages }, (_, i) => 4 + i * 2);
  objects[1] = '<< /Type /Catalog /Pages 2 0 R >>';
  objects[2] = `<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(' ')}] /Count ${pages} >>`;
  objects[3] = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>';
  pageIds.forEach((id, i) => {
    const stream = `BT /F1 12 Tf 72 720 Td (Page ${i + 1} says hello.) Tj ET`;
    objects[id] =
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents ${id + 1} 0 R >>`;
    objects[id + 1] = `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`;
  });
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  for (let id = 1; id < objects.length; id++) {
    offsets[id] = out.length;
    out += `${id} 0 obj\n${objects[id]}\nendobj\n`;
  }
  const xref = out.length;
  out += `xref\n0 ${objects.length}\n0000000000 65535 f \n`;
  for (let id = 1; id < objects.length; id++)
    out += `${String(offsets[id]).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return new TextEncoder().encode(out);
}

describe('progress inside one file', () => {
  it('a PDF reports each page as it is read, ending at 1, and keeps every page', async () => {
    const fractions: number[] = [];
    const doc = await readPdf(buildPdf(8), 'eight pages', (f) => fractions.push(f));
    expect(fractions).toEqual([1, 2, 3, 4, 5, 6, 7, 8].map((n) => n / 8));
    const text = doc.blocks.map((b) => ('text' in b ? b.text : '')).join('\n');
    for (let n = 1; n <= 8; n++) expect(text).toContain(`Page ${n} says hello.`);
  });

  it('a DOCX reports half once converted, then the rest as its HTML is read, ending at 1', async () => {
    const paragraphs = Array.from({ length: 12_000 }, (_, i) => ({
      text: `Paragraph ${i} of the long memo describes storage capacity and grid balancing in detail.`,
    }));
    const fractions: number[] = [];
    const doc = await readDocx(buildDocx(paragraphs), 'memo', (f) => fractions.push(f));
    expect(fractions[0]).toBe(0.5);
    expect(fractions.at(-1)).toBe(1);
    // A large document streams: progress between the halves, never going back.
    expect(fractions.some((f) => f > 0.5 && f < 1)).toBe(true);
    expect(fractions).toEqual([...fractions].sort((a, b) => a - b));
    expect(doc.blocks.map((b) => ('text' in b ? b.text : '')).join('\n')).toContain(
      'Paragraph 11999 of the long memo',
    );
  });
});
