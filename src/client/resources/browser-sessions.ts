import { randomUUID } from 'node:crypto';
import type {
  BrowserCapacity,
  BrowserSession,
  BrowserSessionCreateRequest,
  BrowserSessionListResponse,
} from '../../protocol/index.js';
import { routePath } from '../../protocol/index.js';
import type { RequestOptions } from '../transport.js';
import { Contexts } from './browser-contexts.js';
import { Downloads, Uploads } from './browser-files.js';
import { Recording } from './browser-recordings.js';
import { APIResource } from './resource.js';

/** `client.browser.sessions`: remote browsers for CDP automation. */
export class Sessions extends APIResource {
  /** Files the session's browser downloaded. */
  readonly downloads: Downloads = new Downloads(this.client);
  /** Files put beside the session's browser for its file inputs. */
  readonly uploads: Uploads = new Uploads(this.client);
  /** The recording of a session created with `record: true` (kept after the session ends). */
  readonly recording: Recording = new Recording(this.client);

  /**
   * Start a browser session; `{}` is a valid body. Always `delete()` what you create.
   *
   * Retry-safe: each call sends an `Idempotency-Key` (a fresh UUID, or yours in
   * `options.headers['idempotency-key']`) that its own retries reuse, so a create whose answer was
   * lost (dropped connection, timeout) returns the session it started instead of a second one.
   * @throws {ValidationError} when `params` break the request schema (nothing is sent).
   * @throws {APIError} per status; {@link ResponseShapeError} when a 2xx breaks the contract.
   * @example
   * const s = await client.browser.sessions.create({ idle_timeout_s: 60 });
   * try { await chromium.connectOverCDP(client.browser.sessions.cdpUrl(s)); } finally { await client.browser.sessions.delete(s.session_id); }
   */
  create(
    params: BrowserSessionCreateRequest = {},
    options: RequestOptions = {},
  ): Promise<BrowserSession> {
    const given = Object.entries(options.headers ?? {}).some(
      ([name]) => name.toLowerCase() === 'idempotency-key',
    );
    // One key per logical create: the transport resends these same headers on every retry.
    const headers = given
      ? options.headers
      : { ...options.headers, 'idempotency-key': randomUUID() };
    return this.client.call('browser.sessions.create', { body: params }, { ...options, headers });
  }

  /**
   * Read a session record.
   * @throws {NotFoundError} for an unknown session.
   */
  get(sessionId: string, options: RequestOptions = {}): Promise<BrowserSession> {
    return this.client.call(
      'browser.sessions.get',
      { pathParams: { session_id: sessionId } },
      options,
    );
  }

  /** The caller's sessions, newest first. */
  list(options: RequestOptions = {}): Promise<BrowserSessionListResponse> {
    return this.client.call('browser.sessions.list', {}, options);
  }

  /**
   * Stop a session and release its browser (204).
   * @throws {NotFoundError} for an unknown session.
   */
  async delete(sessionId: string, options: RequestOptions = {}): Promise<void> {
    await this.client.call(
      'browser.sessions.delete',
      { pathParams: { session_id: sessionId } },
      options,
    );
  }

  /**
   * The CDP WebSocket URL of a session: its `cdp_url`, or the client's `cdpUrlTemplate` filled in
   * when the record has none. The URL carries a per-session token, never the API key; the
   * bearer header also works on the upgrade.
   */
  cdpUrl(session: Pick<BrowserSession, 'session_id'> & { cdp_url?: string | undefined }): string {
    if (typeof session.cdp_url === 'string' && session.cdp_url !== '') return session.cdp_url;
    const wsBase = this.client.baseURL.replace(/^http/, 'ws');
    return this.client.cdpUrlTemplate
      .replaceAll('{ws_base}', wsBase)
      .replaceAll('{base_url}', this.client.baseURL)
      .replaceAll('{session_id}', encodeURIComponent(session.session_id));
  }
}

/** `client.browser`. */
export class Browser extends APIResource {
  readonly sessions: Sessions = new Sessions(this.client);

  /**
   * The server's browser capacity: `{running, limit, queued, available}`; `available` is how many
   * creates would be accepted now (past it a create answers 429 with `Retry-After`). A method of
   * `client.browser` because the route is `GET /v1/browser/capacity`: the method path mirrors the
   * URL path, as `client.browser.sessions.*` mirrors `/v1/browser/sessions`.
   * @example
   * const { available } = await client.browser.capacity();
   */
  capacity(options: RequestOptions = {}): Promise<BrowserCapacity> {
    return this.client.call('browser.capacity', {}, options);
  }
  /** Saved browser contexts sessions start from. */
  readonly contexts: Contexts = new Contexts(this.client);

  /**
   * Where one WebSocket upgrade creates a session and connects to it (`GET /v1/browser/connect`):
   * the URL, and the headers that carry the API key (never the URL). The session has the default
   * options and ends when that connection closes; `sessions.create()` gives options, and a session
   * that outlives its connection.
   * @example
   * const { url, headers } = client.browser.connectEndpoint();
   * const browser = await puppeteer.connect({ browserWSEndpoint: url, headers });
   * // Playwright: await chromium.connectOverCDP(url, { headers });
   */
  connectEndpoint(): { url: string; headers: Record<string, string> } {
    return {
      url: `${this.client.baseURL.replace(/^http/, 'ws')}${routePath('browser.connect')}`,
      headers: { authorization: this.client.transport.authorization() },
    };
  }
}
