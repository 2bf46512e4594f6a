import { readsAsProse } from '../../../../verify/plain-text.js';
import type { Block, ExtractedDocument } from '../types.js';

/** Escapes text for HTML element content and attribute values. */
export function escapeHtml(s: string): string {
  return s
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** Renders blocks as simple readable HTML (used as the stored HTML of non-HTML sources). */
export function blocksToHtml(blocks: readonly Block[]): string {
  return blocks
    .map((b) => {
      if (b.kind === 'heading') return `<h${b.level}>${escapeHtml(b.text)}</h${b.level}>`;
      if (b.kind === 'paragraph') return `<p>${escapeHtml(b.text)}</p>`;
      const size =
        (b.image.width ? ` width="${b.image.width}"` : '') +
        (b.image.height ? ` height="${b.image.height}"` : '');
      return `<img src="${escapeHtml(b.image.url)}" alt="${escapeHtml(b.image.alt)}"${size}>`;
    })
    .join('\n');
}

/** Splits plain text into paragraph blocks on blank lines, re-flowing hard-wrapped lines. */
export function textToBlocks(text: string): Block[] {
  return text
    .split(/\r?\n\s*\r?\n/)
    .map((p) => p.replace(/\s+/g, ' ').trim())
    .filter((p) => p.length > 0)
    .map((p) => ({ kind: 'paragraph', text: p }) as const);
}

/** What opens a list item in plain text: "- ", "* ", "o ", "1. ", "a) ". */
const LIST_ITEM = /\r?\n(?=[ \t]*(?:[-*o\u2022]|\d{1,2}[.)]|[a-z][.)])[ \t])/;

/**
 * The paragraphs of preformatted text that {@link readsAsProse}, re-flowed: cut at blank lines
 * and where a line opens a list item. `null` for code, which keeps its line breaks.
 */
export function proseParagraphs(text: string): string[] | null {
  if (!readsAsProse(text)) return null;
  return text
    .split(/\r?\n\s*\r?\n/)
    .flatMap((p) => p.split(LIST_ITEM))
    .map((p) => p.replace(/\s+/g, ' ').trim())
    .filter((p) => p.length > 0);
}

/**
 * Reads a plain-text file. The first line names the document when it is short (up to 120 characters)
 * and followed by a blank line, as in most notes and READMEs; otherwise `fallbackTitle` does.
 *
 * @param text - The file content (UTF-8).
 * @param fallbackTitle - Usually the file name.
 */
export function readText(text: string, fallbackTitle: string): ExtractedDocument {
  const normalized = text.replace(/^\uFEFF/, '');
  const firstBreak = /^([^\n]{1,120})\r?\n\s*\r?\n/.exec(normalized);
  const title = firstBreak?.[1]?.trim() || fallbackTitle;
  const blocks = textToBlocks(normalized);
  if (firstBreak && blocks[0]?.kind === 'paragraph')
    blocks[0] = { kind: 'heading', level: 1, text: title };
  return {
    title,
    canonicalUrl: null,
    language: null,
    publishedAt: null,
    updatedAt: null,
    category: null,
    blocks,
    html: blocksToHtml(blocks),
  };
}
