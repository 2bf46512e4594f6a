import mammoth from 'mammoth';
import type { ExtractedDocument } from '../types.js';
import { readHtml } from './html.js';
import { LARGE_HTML_CHARS, readLargeHtml } from './html-stream.js';

/**
 * Reads a DOCX: mammoth converts it to HTML (headings stay headings), then the HTML reader takes
 * over without readability, since mammoth's output is already only content; a large result goes
 * through the bounded-memory reader.
 *
 * @param data - The file bytes.
 * @param fallbackTitle - Used when the document has no level-1 heading.
 * @param onProgress - Called with the share done: half once converted, then as the HTML is read.
 * @throws Error from mammoth when the bytes are not a readable DOCX.
 */
export async function readDocx(
  data: Uint8Array,
  fallbackTitle: string,
  onProgress?: (fraction: number) => void,
): Promise<ExtractedDocument> {
  const { value } = await mammoth.convertToHtml({ buffer: Buffer.from(data) });
  onProgress?.(0.5);
  const html = `<!doctype html><html><body>${value}</body></html>`;
  const doc =
    html.length > LARGE_HTML_CHARS
      ? await readLargeHtml(html, {
          baseUrl: null,
          onProgress: (f) => onProgress?.(0.5 + f / 2),
        })
      : readHtml(html, { baseUrl: null, readability: false });
  onProgress?.(1);
  const h1 = doc.blocks.find((b) => b.kind === 'heading' && b.level === 1);
  return { ...doc, title: (h1?.kind === 'heading' ? h1.text : '') || fallbackTitle };
}
