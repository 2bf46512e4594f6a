/** Screenshots of a passage, the viewport and the whole page, and a PDF of the page. */
import { evaluateWithin, toPageLike, withTimeout } from './adapter.js';
import type { AnyPage, Rect } from './adapter.js';
import { DEFAULTS } from './defaults.js';
import { markedRectInPage, scrollThroughInPage } from './in-page.js';

/** Options of {@link capture}. */
export interface CaptureOptions {
  /** Margin around the passage, in CSS pixels. @default 24 */
  padding?: number;
  /** Tallest passage crop; a taller passage is cut to its top. @default 1_200 */
  maxHeight?: number;
  /** Bound on each screenshot. @default 15_000 */
  timeout?: number;
}

/** What {@link capture} took. */
export interface CaptureResult {
  /** PNG of the passage plus padding, clamped to the page. */
  passage: Buffer;
  /** PNG of the viewport as it is (after {@link highlight}: the passage centred). */
  viewport: Buffer;
  /** The region of `passage`, in page coordinates. */
  clip: Rect;
}

/**
 * Screenshots the passage (the marks of `target.id` when it is a `HighlightResult` of {@link highlight}, measured
 * afresh; else `target.rect`)
 * with `padding` around it, clamped to the page and to `maxHeight`, and the current viewport.
 * @throws TimeoutError when a screenshot takes longer than `timeout`
 * @example const { passage, viewport } = await capture(page, await highlight(page, match) ?? match);
 */
export async function capture(
  page: AnyPage,
  target: { rect: Rect; id?: string },
  options: CaptureOptions = {},
): Promise<CaptureResult> {
  const p = toPageLike(page);
  const padding = options.padding ?? DEFAULTS.padding;
  const maxHeight = options.maxHeight ?? DEFAULTS.maxPassageHeight;
  const timeout = options.timeout ?? DEFAULTS.actionTimeout;
  const marked = await evaluateWithin(
    p,
    markedRectInPage,
    { id: target.id ?? null },
    timeout,
    'capture: measuring',
  );
  const r = marked.rect ?? target.rect;
  const x = Math.max(0, Math.floor(r.x - padding));
  const y = Math.max(0, Math.floor(r.y - padding));
  const right = Math.min(marked.doc.width, Math.ceil(r.x + r.width + padding));
  const bottom = Math.min(marked.doc.height, Math.ceil(r.y + r.height + padding), y + maxHeight);
  const clip = { x, y, width: Math.max(1, right - x), height: Math.max(1, bottom - y) };
  // The viewport first: a clipped shot beyond the viewport may resize it for a moment.
  const viewport = await withTimeout(p.screenshot(), timeout, 'capture: viewport screenshot');
  const passage = await withTimeout(p.screenshot({ clip }), timeout, 'capture: passage screenshot');
  return { passage, viewport, clip };
}

/** Options of {@link fullPageScreenshot}. */
export interface FullPageOptions {
  /** Tallest page shot in full; a taller page falls back to the viewport. @default 15_000 */
  maxHeight?: number;
  /** Bound on the full-page shot; past it the shot falls back to the viewport. @default 20_000 */
  timeout?: number;
  /** Bound on scrolling through the page first. @default 8_000 */
  scrollTimeout?: number;
  /** Pause after each scroll step, in ms. @default 60 */
  scrollStepDelay?: number;
}

/** What {@link fullPageScreenshot} took. */
export interface FullPageResult {
  png: Buffer;
  /** `full`: the whole page; `viewport`: the fallback. */
  mode: 'full' | 'viewport';
  /** Why the shot fell back to the viewport, or that scrolling stopped early. */
  note?: string;
  /** Document height after scrolling, in CSS pixels. */
  height: number;
}

/**
 * Scrolls through the page so lazy content loads (IntersectionObserver, `loading=lazy` images),
 * returns to the top, then takes a full-page PNG. A page taller than `maxHeight`, or a shot that
 * fails or outlasts `timeout`, falls back to the viewport with a `note` saying why.
 * @throws TimeoutError when even the viewport shot does not finish within the action timeout
 * @example const { png, mode, note } = await fullPageScreenshot(page, { maxHeight: 12_000 });
 */
export async function fullPageScreenshot(
  page: AnyPage,
  options: FullPageOptions = {},
): Promise<FullPageResult> {
  const p = toPageLike(page);
  const maxHeight = options.maxHeight ?? DEFAULTS.maxHeight;
  const timeout = options.timeout ?? DEFAULTS.screenshotTimeout;
  const scrollTimeout = options.scrollTimeout ?? DEFAULTS.scrollTimeout;
  const stepDelay = options.scrollStepDelay ?? DEFAULTS.scrollStepDelay;
  const scrolled = await evaluateWithin(
    p,
    scrollThroughInPage,
    { maxHeight, timeout: scrollTimeout, stepDelay },
    // The in-page loop stops itself at scrollTimeout; the margin covers its last steps.
    scrollTimeout + DEFAULTS.actionTimeout,
    'fullPageScreenshot: scrolling',
  );
  const notes: string[] = [];
  if (scrolled.timedOut)
    notes.push(`scrolling stopped after ${scrollTimeout} ms, lazy content may be missing`);
  const viewportShot = async (why: string): Promise<FullPageResult> => {
    const png = await withTimeout(
      p.screenshot(),
      DEFAULTS.actionTimeout,
      'fullPageScreenshot: viewport',
    );
    return { png, mode: 'viewport', note: [why, ...notes].join('; '), height: scrolled.height };
  };
  if (scrolled.height > maxHeight) {
    return viewportShot(
      `page is ${scrolled.height} px tall, over maxHeight ${maxHeight} px: captured the viewport only`,
    );
  }
  let png: Buffer;
  try {
    png = await withTimeout(
      p.screenshot({ fullPage: true }),
      timeout,
      'fullPageScreenshot: full page',
    );
  } catch (error) {
    return viewportShot(
      `full-page screenshot failed (${(error as Error).message}): captured the viewport only`,
    );
  }
  const result: FullPageResult = { png, mode: 'full', height: scrolled.height };
  if (notes.length > 0) result.note = notes.join('; ');
  return result;
}

/** Options of {@link savePdf}. */
export interface SavePdfOptions {
  /** Paper format. @default 'A4' */
  format?: string;
  /** Print CSS backgrounds. @default true */
  printBackground?: boolean;
  /** Bound on printing. @default 15_000 */
  timeout?: number;
}

/**
 * Prints the page to PDF (headless Chromium only).
 * @throws TimeoutError when printing outlasts `timeout`; the driver's error when printing fails
 * @example await writeFile('page.pdf', await savePdf(page));
 */
export function savePdf(page: AnyPage, options: SavePdfOptions = {}): Promise<Buffer> {
  const p = toPageLike(page);
  const pdfOptions: { format?: string; printBackground?: boolean } = {};
  if (options.format !== undefined) pdfOptions.format = options.format;
  if (options.printBackground !== undefined) pdfOptions.printBackground = options.printBackground;
  return withTimeout(p.pdf(pdfOptions), options.timeout ?? DEFAULTS.actionTimeout, 'savePdf');
}
