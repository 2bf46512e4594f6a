/**
 * One small page interface over a Playwright page and a Puppeteer page, so every page action runs
 * unchanged whichever driver a session attached with.
 */
import type { Page as PlaywrightPage } from 'playwright-core';
import type { CDPSession, Page as PuppeteerPage } from 'puppeteer-core';
import { SvcError, TimeoutError } from '../errors.js';

/** A rectangle in CSS pixels. */
export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** When a navigation counts as finished; `networkidle` maps to Puppeteer's `networkidle0`. */
export type WaitUntil = 'load' | 'domcontentloaded' | 'networkidle';

/** What a navigation answered, the same for both drivers. */
export interface NavigationResult {
  /** HTTP status of the main document, or `null` when there was no response (e.g. `about:blank`). */
  status: number | null;
  /** Number of HTTP redirects the main document followed. */
  redirects: number;
  /** `content-type` of the main document, lower-cased, without parameters; `null` when absent. */
  contentType: string | null;
}

/** Options of {@link PageLike.screenshot}. */
export interface ScreenshotOptions {
  /** Region in page (document) coordinates. */
  clip?: Rect;
  fullPage?: boolean;
  /** @default 'png' */
  type?: 'png' | 'jpeg';
}

/** The operations page actions need, shared by Playwright and Puppeteer pages. */
export interface PageLike {
  /** Which driver the page belongs to. */
  readonly driver: 'playwright' | 'puppeteer';
  /** The wrapped driver page. */
  readonly raw: PlaywrightPage | PuppeteerPage;
  /**
   * Navigates and reports the main document's status and redirects.
   * @throws the driver's error on network failures and navigation timeouts
   */
  goto(url: string, options: { timeout: number; waitUntil: WaitUntil }): Promise<NavigationResult>;
  /**
   * Runs `fn(arg)` in the page and returns its (awaited, serialisable) result. `fn` must be
   * self-contained: it is sent as source text.
   */
  evaluate<A, R>(fn: (arg: A) => R | Promise<R>, arg: A): Promise<R>;
  /** PNG (or JPEG) bytes. */
  screenshot(options?: ScreenshotOptions): Promise<Buffer>;
  /** The serialised DOM. */
  content(): Promise<string>;
  /** The current URL. */
  url(): string;
  /** The document title. */
  title(): Promise<string>;
  /** The viewport size, or `null` when the page follows the window size. */
  viewport(): { width: number; height: number } | null;
  /** Resizes the viewport. */
  setViewport(size: { width: number; height: number }): Promise<void>;
  /** Prints the page to PDF (headless only). */
  pdf(options?: { format?: string; printBackground?: boolean }): Promise<Buffer>;
  /** A raw CDP session on this page (Puppeteer directly; Playwright through its context). */
  cdp(): Promise<CdpLike>;
}

/** The part of a CDP session the page actions use. */
export interface CdpLike {
  send(method: string, params?: Record<string, unknown>): Promise<unknown>;
  on(event: string, listener: (params: unknown) => void): void;
  detach(): Promise<void>;
}

/** A driver page, or a page already wrapped by {@link toPageLike}. */
export type AnyPage = PlaywrightPage | PuppeteerPage | PageLike;

const wrapped = new WeakMap<object, PageLike>();

/**
 * Wraps a Playwright or Puppeteer page in a {@link PageLike}; a `PageLike` passes through. The
 * driver is detected by shape (`setViewportSize`/`context` vs `setViewport`/`createCDPSession`),
 * so pages from `connectOverCDP` and `puppeteer.connect` work too.
 * @throws SvcError when `page` is neither
 * @example const page = toPageLike(await browser.newPage());
 */
export function toPageLike(page: AnyPage): PageLike {
  if (isPageLike(page)) return page;
  const cached = wrapped.get(page);
  if (cached) return cached;
  const p = page as unknown as Record<string, unknown>;
  let out: PageLike;
  if (typeof p['setViewportSize'] === 'function' && typeof p['context'] === 'function') {
    out = playwright(page as PlaywrightPage);
  } else if (
    typeof p['setViewport'] === 'function' &&
    typeof p['createCDPSession'] === 'function'
  ) {
    out = puppeteer(page as PuppeteerPage);
  } else {
    throw new SvcError('toPageLike: expected a playwright-core or puppeteer-core Page');
  }
  wrapped.set(page, out);
  return out;
}

function isPageLike(page: AnyPage): page is PageLike {
  const d = (page as { driver?: unknown }).driver;
  return (d === 'playwright' || d === 'puppeteer') && 'raw' in page;
}

/**
 * Builds the expression evaluated in the page. tsx and esbuild's `keepNames` wrap nested functions
 * in `__name(...)`, a helper that does not exist in the page: bind a no-op for it.
 */
function expression(fn: (arg: never) => unknown, arg: unknown): string {
  const json = arg === undefined ? 'undefined' : JSON.stringify(arg);
  return `((__name) => (${fn.toString()})(${json}))((f) => f)`;
}

function playwright(page: PlaywrightPage): PageLike {
  return {
    driver: 'playwright',
    raw: page,
    async goto(url, { timeout, waitUntil }) {
      const res = await page.goto(url, { timeout, waitUntil });
      if (!res) return { status: null, redirects: 0, contentType: null };
      let redirects = 0;
      for (let r = res.request().redirectedFrom(); r; r = r.redirectedFrom()) redirects++;
      return { status: res.status(), redirects, contentType: contentType(res.headers()) };
    },
    evaluate: (fn, arg) => page.evaluate(expression(fn, arg)),
    async screenshot(options = {}) {
      const { clip, fullPage, type = 'png' } = options;
      // Playwright reads `clip` in viewport coordinates unless fullPage is set.
      if (clip) return page.screenshot({ clip, fullPage: true, type });
      return page.screenshot({ fullPage: fullPage ?? false, type });
    },
    content: () => page.content(),
    url: () => page.url(),
    title: () => page.title(),
    viewport: () => page.viewportSize(),
    setViewport: (size) => page.setViewportSize(size),
    pdf: (options = {}) =>
      page.pdf({
        format: options.format ?? 'A4',
        printBackground: options.printBackground ?? true,
      }),
    async cdp() {
      const session = await page.context().newCDPSession(page);
      return {
        send: (method, params) => session.send(method as never, params as never),
        on: (event, listener) => void session.on(event as never, listener as never),
        detach: () => session.detach(),
      };
    },
  };
}

function puppeteer(page: PuppeteerPage): PageLike {
  return {
    driver: 'puppeteer',
    raw: page,
    async goto(url, { timeout, waitUntil }) {
      const res = await page.goto(url, {
        timeout,
        waitUntil: waitUntil === 'networkidle' ? 'networkidle0' : waitUntil,
      });
      if (!res) return { status: null, redirects: 0, contentType: null };
      return {
        status: res.status(),
        redirects: res.request().redirectChain().length,
        contentType: contentType(res.headers()),
      };
    },
    evaluate: (fn, arg) => page.evaluate(expression(fn, arg)) as Promise<never>,
    async screenshot(options = {}) {
      const { clip, fullPage, type = 'png' } = options;
      const shot = clip
        ? await page.screenshot({ clip, type, captureBeyondViewport: true })
        : await page.screenshot({ fullPage: fullPage ?? false, type });
      return Buffer.from(shot);
    },
    content: () => page.content(),
    url: () => page.url(),
    title: () => page.title(),
    viewport: () => page.viewport(),
    setViewport: (size) => page.setViewport(size),
    pdf: async (options = {}) =>
      Buffer.from(
        await page.pdf({
          format: (options.format ?? 'A4') as 'A4',
          printBackground: options.printBackground ?? true,
        }),
      ),
    async cdp() {
      const session: CDPSession = await page.createCDPSession();
      return {
        send: (method, params) => session.send(method as never, params as never),
        on: (event, listener) => void session.on(event as never, listener as never),
        detach: () => session.detach(),
      };
    },
  };
}

function contentType(headers: Record<string, string>): string | null {
  const value = headers['content-type'];
  return value ? (value.split(';')[0]?.trim().toLowerCase() ?? null) : null;
}

/**
 * Resolves like `promise`, or rejects with a {@link TimeoutError} after `timeout` ms. The
 * underlying work is not cancelled; callers only stop waiting for it.
 * @throws TimeoutError naming `what` when the timeout passes first
 */
export function withTimeout<T>(promise: Promise<T>, timeout: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new TimeoutError(`${what} took longer than ${timeout} ms`, { timeout })),
      timeout,
    );
  });
  return Promise.race([promise, expired]).finally(() => clearTimeout(timer));
}

/** Runs `fn(arg)` in the page, bounded by `timeout`. @throws TimeoutError */
export function evaluateWithin<A, R>(
  page: PageLike,
  fn: (arg: A) => R | Promise<R>,
  arg: A,
  timeout: number,
  what: string,
): Promise<R> {
  return withTimeout(page.evaluate(fn, arg), timeout, what);
}
