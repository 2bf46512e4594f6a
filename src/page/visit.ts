/** Navigation with a verdict's inputs: status, redirects, timing, and whether the page is a wall. */
import { createHash } from 'node:crypto';
import { toPageLike, evaluateWithin } from './adapter.js';
import type { AnyPage, WaitUntil } from './adapter.js';
import { DEFAULTS } from './defaults.js';
import { blockSignalsInPage } from './in-page.js';
import type { BlockSignals } from './in-page.js';

/** What kind of wall stopped us. */
export type BlockKind = 'status' | 'challenge' | 'login';

/** Why a page counts as blocked. */
export interface Blocked {
  kind: BlockKind;
  /** Human-readable reason, e.g. `HTTP 403` or `challenge page: "Just a moment..."`. */
  reason: string;
}

/** Options of {@link visit}. */
export interface VisitOptions {
  /** Navigation timeout in ms. @default 30_000 */
  timeout?: number;
  /** When the navigation counts as finished. @default 'load' */
  waitUntil?: WaitUntil;
}

/** What {@link visit} found. */
export interface VisitResult {
  /** Loaded with a 2xx/3xx status (or none, e.g. `data:`), and not blocked. */
  ok: boolean;
  /** HTTP status of the main document; `null` when the navigation failed or had no response. */
  status: number | null;
  /** The URL after redirects (the requested URL when the navigation failed). */
  finalUrl: string;
  /** At least one HTTP redirect was followed, or the final URL differs from the requested one. */
  redirected: boolean;
  /** Milliseconds from the start of the navigation until `waitUntil` (or the failure). */
  fetchMs: number;
  /**
   * `content-type` of the main document without parameters (`application/pdf` means Chromium's
   * viewer is showing it: read the bytes instead of the DOM); `null` when unknown.
   */
  contentType: string | null;
  /** A challenge, login wall or refusing status; never a success. */
  blocked: Blocked | null;
  /**
   * The local file an embedded service's document page (`/docs/{id}?sig=…` on a loopback host) was
   * indexed from, read from its `svc:source` meta; absent for every other page.
   */
  localSource?: string;
  /** Why the navigation failed (`net::ERR_CONNECTION_REFUSED ...`, a timeout) or `HTTP <status>`. */
  error?: string;
  /**
   * The URL answered with a file the browser downloads instead of showing (octet-stream, a
   * `Content-Disposition: attachment`): its bytes, fetched again outside the page. The page itself
   * stays where it was, so there is no DOM to read.
   */
  download?: Download;
}

/** A file received instead of a page. */
export interface Download {
  /** The bytes as received. */
  bytes: Buffer;
  /** File name from `Content-Disposition`, else the last path segment of the URL. */
  filename: string;
  /** `sha256:<hex>` of {@link bytes}. */
  contentHash: string;
}

/** Statuses that mean "we were refused", not "the page is gone". */
const BLOCK_STATUSES = new Set([401, 403, 429, 503]);

const CHALLENGE_TEXT =
  /just a moment|checking (?:if the site connection is secure|your browser)|verify (?:that )?you are (?:a )?human|are you a robot|attention required|enable javascript and cookies to continue|ddos protection by|unusual traffic from your|press (?:&|and) hold|complete the security check|i'?m not a robot/i;
const LOGIN_TEXT =
  /(?:sign|log) ?in to (?:continue|read|view|access)|please (?:sign|log) ?in|you must be (?:signed|logged) in|login required|subscribe to (?:continue|keep) reading|create an account to continue/i;

/** Pages with more visible text than this are articles that mention a challenge, not challenges. */
const SHORT_PAGE = 2_000;

/**
 * Decides from a page's signals whether it is a challenge or a login wall. Exposed for tests and
 * for callers that gathered signals themselves.
 */
export function judgeBlock(signals: BlockSignals, status: number | null): Blocked | null {
  const short = signals.textLength < SHORT_PAGE;
  const title = signals.title.trim();
  if (CHALLENGE_TEXT.test(title) || (short && CHALLENGE_TEXT.test(signals.text))) {
    const what = CHALLENGE_TEXT.exec(title)?.[0] ?? CHALLENGE_TEXT.exec(signals.text)?.[0] ?? '';
    return { kind: 'challenge', reason: `challenge page: "${what}"` };
  }
  if (signals.captcha !== null && signals.textLength < SHORT_PAGE * 2.5) {
    return { kind: 'challenge', reason: `challenge page: captcha element ${signals.captcha}` };
  }
  if (signals.password && short) return { kind: 'login', reason: 'login wall: password form' };
  if (short && LOGIN_TEXT.test(signals.text)) {
    return { kind: 'login', reason: `login wall: "${LOGIN_TEXT.exec(signals.text)?.[0] ?? ''}"` };
  }
  if (status !== null && BLOCK_STATUSES.has(status)) {
    return { kind: 'status', reason: `HTTP ${status}` };
  }
  return null;
}

/**
 * Tells whether the loaded page is a challenge page (Cloudflare-like interstitials, captchas), a
 * login wall (a password form on a near-empty page, "sign in to continue"), or was refused with
 * 401/403/429/503. A blocked page is never evidence.
 * @throws TimeoutError when the page does not answer within the action timeout
 * @example const blocked = await detectBlock(page, 200); // null, or { kind, reason }
 */
export async function detectBlock(
  page: AnyPage,
  status: number | null,
  options: { timeout?: number } = {},
): Promise<Blocked | null> {
  const p = toPageLike(page);
  const timeout = options.timeout ?? DEFAULTS.actionTimeout;
  const signals = await evaluateWithin(p, blockSignalsInPage, null, timeout, 'detectBlock');
  return judgeBlock(signals, status);
}

/**
 * Navigates to `url` and reports what a verdict needs. Never throws for network failures,
 * timeouts or error statuses: they come back as `ok: false` with `error`.
 * @example
 * const v = await visit(page, 'https://example.com/a');
 * if (!v.ok) console.log(v.blocked?.reason ?? v.error);
 */
export async function visit(
  page: AnyPage,
  url: string,
  options: VisitOptions = {},
): Promise<VisitResult> {
  const p = toPageLike(page);
  const timeout = options.timeout ?? DEFAULTS.navigationTimeout;
  const waitUntil = options.waitUntil ?? DEFAULTS.waitUntil;
  const started = performance.now();
  let nav;
  try {
    nav = await p.goto(url, { timeout, waitUntil });
  } catch (error) {
    const message = (error as Error).message;
    // Playwright says "Download is starting"; Puppeteer reports the cancelled navigation.
    if (/Download is starting|net::ERR_ABORTED/.test(message)) {
      const fetched = await fetchDownload(url, timeout, started);
      if (fetched) return fetched;
    }
    return {
      ok: false,
      status: null,
      finalUrl: url,
      redirected: false,
      fetchMs: Math.round(performance.now() - started),
      contentType: null,
      blocked: null,
      error: (error as Error).message.split('\n')[0] ?? String(error),
    };
  }
  const fetchMs = Math.round(performance.now() - started);
  const finalUrl = p.url();
  const redirected = nav.redirects > 0 || stripHash(finalUrl) !== stripHash(url);
  let blocked: Blocked | null;
  let busy: string | undefined;
  try {
    blocked = await detectBlock(p, nav.status, {
      timeout: Math.min(timeout, DEFAULTS.actionTimeout),
    });
  } catch (error) {
    // A page too busy to answer a short script is judged by its status alone.
    blocked = judgeBlock(
      { title: '', text: '', textLength: Infinity, password: false, captcha: null },
      nav.status,
    );
    if (!blocked) busy = (error as Error).message;
  }
  const statusOk = nav.status === null || (nav.status >= 200 && nav.status < 400);
  const result: VisitResult = {
    ok: statusOk && !blocked && busy === undefined,
    status: nav.status,
    finalUrl,
    redirected,
    fetchMs,
    contentType: nav.contentType,
    blocked,
  };
  if (busy !== undefined) {
    result.error = busy;
    return result;
  }
  if (!statusOk) result.error = `HTTP ${nav.status}`;
  if (result.ok && isServiceDocument(finalUrl)) {
    const source = await evaluateWithin(
      p,
      () => document.querySelector('meta[name="svc:source"]')?.getAttribute('content') ?? null,
      null,
      Math.min(timeout, DEFAULTS.actionTimeout),
      'visit: local source',
    ).catch(() => null);
    if (source) result.localSource = source;
  }
  return result;
}

/** A signed document link of a service on this machine: only such a page may name a local file. */
function isServiceDocument(url: string): boolean {
  try {
    const u = new URL(url);
    const loopback = ['127.0.0.1', 'localhost', '[::1]'].includes(u.hostname);
    return loopback && /^\/docs\/[^/]+$/.test(u.pathname) && u.searchParams.has('sig');
  } catch {
    return false;
  }
}

/**
 * Fetches what the browser would have downloaded. `undefined` when the second request fails too
 * (the caller then reports the navigation error).
 */
async function fetchDownload(
  url: string,
  timeout: number,
  started: number,
): Promise<VisitResult | undefined> {
  let res: Response;
  let bytes: Buffer;
  try {
    res = await fetch(url, { signal: AbortSignal.timeout(timeout), redirect: 'follow' });
    bytes = Buffer.from(await res.arrayBuffer());
  } catch {
    return undefined;
  }
  const disposition = res.headers.get('content-disposition') ?? '';
  const named = /filename\*?=(?:UTF-8'')?"?([^";]+)"?/i.exec(disposition)?.[1];
  const last = decodeURIComponent(new URL(res.url || url).pathname.split('/').pop() ?? '');
  const filename = (named ? decodeURIComponent(named) : last).replace(/[/\\]/g, '_') || 'download';
  const statusOk = res.status >= 200 && res.status < 400;
  const result: VisitResult = {
    ok: statusOk,
    status: res.status,
    finalUrl: res.url || url,
    redirected: res.redirected,
    fetchMs: Math.round(performance.now() - started),
    contentType: res.headers.get('content-type')?.split(';')[0]?.trim().toLowerCase() ?? null,
    blocked: null,
    download: {
      bytes,
      filename,
      contentHash: `sha256:${createHash('sha256').update(bytes).digest('hex')}`,
    },
  };
  if (!statusOk) result.error = `HTTP ${res.status}`;
  return result;
}

function stripHash(u: string): string {
  try {
    const parsed = new URL(u);
    parsed.hash = '';
    return parsed.href;
  } catch {
    return u;
  }
}
