import mammoth from 'mammoth';
import type { ExtractedDocument } from '../types.js';
import { readHtml } from './html.js';

/**
 * Reads a DOCX: mammoth converts it to HTML (headings stay headings), then the HTML reader takes
 * over without readability, since mammoth's output is already only content.
 *
 * @param data - The file bytes.
 * @param fallbackTitle - Used when the document has no level-1 heading.
 * @throws Error from mammoth when the bytes are not a readable DOCX.
 */
export async function readDocx(
  data: Uint8Array,
  fallbackTitle: string,
): Promise<ExtractedDocument> {
  const { value } = await mammoth.convertToHtml({ buffer: Buffer.from(data) });
  const doc = readHtml(`<!doctype html><html><body>${value}</body></html>`, {
    baseUrl: null,
    readability: false,
  });
  const h1 = doc.blocks.find((b) => b.kind === 'heading' && b.level === 1);
  return { ...doc, title: (h1?.kind === 'heading' ? h1.text : '') || fallbackTitle };
}
