/** Marks a found passage in the page and scrolls it into view. */
import { evaluateWithin, toPageLike } from './adapter.js';
import type { AnyPage, Rect } from './adapter.js';
import { DEFAULTS } from './defaults.js';
import type { PassageMatch } from './find-passage.js';
import { collectTextInPage, unwrapMarksInPage, wrapRangeInPage } from './in-page.js';
import { normalizeSegments, normalizeText, rawText, toRange } from './text.js';
import type { TextRange } from './text.js';

/** Options of {@link highlight}. */
export interface HighlightOptions {
  /** CSS colour of the mark's background. @default '#ffeb3b' */
  color?: string;
  /** Bound on each in-page step. @default 15_000 */
  timeout?: number;
}

/** What {@link highlight} marked. */
export interface HighlightResult {
  /** Value of the marks' `data-svc-highlight` attribute; pass the result to {@link capture}. */
  id: string;
  /** Number of `<mark data-svc-highlight>` elements (one per text node the passage spans). */
  marks: number;
  /** The text inside the marks, whitespace collapsed. */
  text: string;
  /** Bounding rect of the marks in page coordinates, after scrolling. */
  rect: Rect;
}

/**
 * Wraps the matched passage in `<mark data-svc-highlight>` elements (a passage spanning several
 * text nodes gets one mark per node) and scrolls it to the centre of the viewport. When the DOM
 * changed since {@link findPassage}, the passage is looked up again by its quote.
 * @returns what was marked, or `null` when the passage is no longer on the page
 * @throws TimeoutError when the page does not answer
 * @example const h = await highlight(page, match, { color: 'orange' });
 */
export async function highlight(
  page: AnyPage,
  match: Pick<PassageMatch, 'quote' | 'range'>,
  options: HighlightOptions = {},
): Promise<HighlightResult | null> {
  const p = toPageLike(page);
  const timeout = options.timeout ?? DEFAULTS.actionTimeout;
  const color = options.color ?? DEFAULTS.highlightColor;
  // Walk the text again: it stores the nodes the wrap addresses, and tells whether they moved.
  const segments = await evaluateWithin(
    p,
    collectTextInPage,
    null,
    timeout,
    'highlight: reading text',
  );
  const wanted = normalizeText(match.quote);
  let range: TextRange | null = match.range;
  if (!inBounds(segments.texts, range) || normalizeText(rawText(segments, range)) !== wanted) {
    const norm = normalizeSegments(segments);
    const at = wanted.length > 0 ? norm.text.indexOf(wanted) : -1;
    range = at < 0 ? null : toRange(norm, segments, { start: at, end: at + wanted.length });
  }
  if (!range) return null;
  const wrapped = await evaluateWithin(
    p,
    wrapRangeInPage,
    { ...range, color },
    timeout,
    'highlight: marking',
  );
  if (!wrapped) return null;
  return {
    id: wrapped.id,
    marks: wrapped.marks,
    text: wrapped.text.replace(/\s+/g, ' ').trim(),
    rect: wrapped.rect,
  };
}

function inBounds(texts: string[], range: TextRange): boolean {
  const a = texts[range.start.node];
  const b = texts[range.end.node];
  return (
    a !== undefined &&
    b !== undefined &&
    range.start.offset <= a.length &&
    range.end.offset <= b.length &&
    (range.start.node < range.end.node || range.start.offset < range.end.offset)
  );
}

/**
 * Removes the marks of one highlight (`id` from {@link HighlightResult}), or of every highlight,
 * restoring the page's text nodes.
 * @returns the number of marks removed
 * @throws TimeoutError when the page does not answer within `timeout`
 */
export function clearHighlights(
  page: AnyPage,
  id: string | null = null,
  options: { timeout?: number } = {},
): Promise<number> {
  const timeout = options.timeout ?? DEFAULTS.actionTimeout;
  return evaluateWithin(toPageLike(page), unwrapMarksInPage, { id }, timeout, 'clearHighlights');
}
