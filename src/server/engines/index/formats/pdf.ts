import { getDocumentProxy, getMeta } from 'unpdf';
import type { Block, ExtractedDocument } from '../types.js';
import { normalizeLanguage } from './html-meta.js';
import { blocksToHtml, textToBlocks } from './plain.js';

/** Parses a PDF date (`D:YYYYMMDDHHmmSS+HH'mm'`); `null` when absent or malformed. */
export function parsePdfDate(value: unknown): Date | null {
  if (typeof value !== 'string') return null;
  const m = /^(?:D:)?(\d{4})(\d{2})?(\d{2})?(\d{2})?(\d{2})?(\d{2})?(Z|[+-]\d{2}'?\d{2}'?)?/.exec(
    value.trim(),
  );
  if (!m) return null;
  const tz =
    m[7] && m[7] !== 'Z'
      ? `${m[7].slice(0, 3)}:${m[7].replace(/'/g, '').slice(3, 5) || '00'}`
      : 'Z';
  const iso = `${m[1]}-${m[2] ?? '01'}-${m[3] ?? '01'}T${m[4] ?? '00'}:${m[5] ?? '00'}:${m[6] ?? '00'}${tz}`;
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? null : new Date(ms);
}

/**
 * Reads a PDF with unpdf: text per page (pages become paragraph runs), title, language and dates
 * from the document info dictionary. Pages are read one at a time, so a long PDF holds one page's
 * text items at once and reports its progress page by page.
 *
 * @param data - The file bytes.
 * @param fallbackTitle - Used when the PDF info names no title.
 * @param onProgress - Called with the share of pages read so far (0 to 1).
 * @throws Error from pdf.js when the bytes are not a readable PDF.
 */
export async function readPdf(
  data: Uint8Array,
  fallbackTitle: string,
  onProgress?: (fraction: number) => void,
): Promise<ExtractedDocument> {
  // pdf.js transfers (detaches) the buffer it is given, so it gets a copy.
  const pdf = await getDocumentProxy(new Uint8Array(data), { verbosity: 0 });
  try {
    const text: string[] = [];
    for (let n = 1; n <= pdf.numPages; n++) {
      text.push(await pageText(pdf, n));
      onProgress?.(n / pdf.numPages);
    }
    // A broken info dictionary costs the title and dates, not the text.
    const meta = await getMeta(pdf).catch(() => ({ info: {} }));
    const info = (meta.info ?? {}) as Record<string, unknown>;
    const blocks: Block[] = [];
    for (const page of text)
      blocks.push(...textToBlocks(page.replace(/([^\n])\n(?!\n)/g, '$1\n\n')));
    const merged = mergeBrokenLines(blocks);
    const title =
      typeof info['Title'] === 'string' && info['Title'].trim()
        ? info['Title'].trim()
        : fallbackTitle;
    return {
      title,
      canonicalUrl: null,
      language: normalizeLanguage(typeof info['Language'] === 'string' ? info['Language'] : null),
      publishedAt: parsePdfDate(info['CreationDate']),
      updatedAt: parsePdfDate(info['ModDate']),
      category: null,
      blocks: merged,
      html: blocksToHtml(merged),
    };
  } finally {
    await pdf.destroy();
  }
}

/** The text of page `n`, one visual line per line (as unpdf's `extractText` joins it). */
async function pageText(
  pdf: Awaited<ReturnType<typeof getDocumentProxy>>,
  n: number,
): Promise<string> {
  const page = await pdf.getPage(n);
  try {
    const content = await page.getTextContent();
    // Text items carry `str`; marked-content items do not and add nothing.
    return (content.items as Array<{ str?: string; hasEOL?: boolean }>)
      .map((item) => (item.str == null ? '' : item.str + (item.hasEOL ? '\n' : '')))
      .join('');
  } finally {
    page.cleanup();
  }
}

// PDF text comes one visual line at a time; a line not ending a sentence continues into the next.
function mergeBrokenLines(blocks: Block[]): Block[] {
  const out: Block[] = [];
  for (const b of blocks) {
    const prev = out[out.length - 1];
    if (
      b.kind === 'paragraph' &&
      prev?.kind === 'paragraph' &&
      !/[.!?:;"”)]$/.test(prev.text) &&
      /^[a-z0-9(]/.test(b.text)
    ) {
      out[out.length - 1] = { kind: 'paragraph', text: `${prev.text} ${b.text}` };
    } else {
      out.push(b);
    }
  }
  return out;
}
