// The `grid` provider: browsers from a Selenium Grid 4, attached over the session's `se:cdp` URL.
import { Agent, request } from 'undici';
import { CHROMIUM_ARGS } from '../../chromium.js';
import { BadRequestError, ConnectionError, SvcError, TimeoutError } from '../../errors.js';
import type { AcquireParams, ProbeResult, ProviderLease, SessionProvider } from './provider.js';

/** Defaults of {@link GridProvider}. Durations in ms. */
export const GRID_PROVIDER_DEFAULTS = {
  /** Time of each DELETE and check request. */
  requestTimeout: 10_000,
  /**
   * Each open session is checked this often with a WebDriver command. The Grid's CDP proxy keeps
   * our socket open when the browser dies, so this is how a dead browser is noticed; and a Grid
   * node ends sessions with no WebDriver command for its `--session-timeout` (300 s by default;
   * CDP traffic does not count), so this also keeps a busy session alive. When this process dies
   * hard, that node timeout is what frees the slot.
   */
  checkInterval: 5_000,
  /** Browser asked for when the capabilities do not name one. */
  browserName: 'chrome',
} as const;

/** Options of {@link GridProvider}. */
export interface GridProviderOptions {
  /** The Grid's URL (hub or router), e.g. `http://grid:4444`; credentials in it become Basic auth. */
  gridUrl: string;
  /**
   * Capabilities merged into every new-session request's `alwaysMatch` (a `platformName`, a
   * `browserVersion`, `se:` or vendor options); `goog:chromeOptions.args` is appended to ours.
   * @default {}
   */
  capabilities?: Record<string, unknown> | undefined;
  /** Headers of every Grid request and of the CDP upgrade (a Grid's auth). @default {} */
  headers?: Record<string, string> | undefined;
  /** Chromium flags, before the viewport and user-agent ones. @default CHROMIUM_ARGS (headless) */
  args?: readonly string[] | undefined;
  /** @default GRID_PROVIDER_DEFAULTS.requestTimeout */
  requestTimeout?: number | undefined;
  /** Period of the session check; 0 turns it off. @default GRID_PROVIDER_DEFAULTS.checkInterval */
  checkInterval?: number | undefined;
}

/** A W3C WebDriver answer: `{ value: ... }`, an error carrying `error` and `message`. */
interface WebDriverBody {
  value?: {
    sessionId?: string;
    capabilities?: Record<string, unknown>;
    error?: string;
    message?: string;
  } | null;
}

/**
 * Starts each session as a WebDriver new-session on a Selenium Grid 4 (Chromium, headless, with the
 * capabilities you pass through), attaches to the session's `se:cdp` URL and ends it with the
 * WebDriver `DELETE /session/{id}`, which frees the Grid slot and quits the browser.
 * @throws SvcError at construction when `gridUrl` is not an http(s) URL
 */
export class GridProvider implements SessionProvider {
  readonly name = 'grid' as const;
  /** The Grid's URL without credentials, as messages show it. */
  readonly gridUrl: string;
  readonly #base: URL;
  readonly #headers: Record<string, string>;
  readonly #capabilities: Record<string, unknown>;
  readonly #args: readonly string[];
  readonly #requestTimeout: number;
  readonly #checkInterval: number;
  readonly #agent = new Agent({ keepAliveTimeout: 4_000 });

  constructor(options: GridProviderOptions) {
    let url: URL;
    try {
      url = new URL(options.gridUrl);
    } catch (cause) {
      throw new SvcError(
        `Invalid option gridUrl: expected an http(s):// URL, got ${JSON.stringify(redactUrl(options.gridUrl))}`,
        { cause },
      );
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw new SvcError(`Invalid option gridUrl: expected an http(s):// URL`);
    const headers: Record<string, string> = { ...options.headers };
    if (url.username || url.password) {
      const user = decodeURIComponent(url.username);
      const pass = decodeURIComponent(url.password);
      headers.authorization ??= `Basic ${Buffer.from(`${user}:${pass}`).toString('base64')}`;
      url.username = '';
      url.password = '';
    }
    if (!url.pathname.endsWith('/')) url.pathname += '/';
    this.#base = url;
    this.gridUrl = url.href.replace(/\/$/, '');
    this.#headers = headers;
    const caps = options.capabilities ?? {};
    if (typeof caps !== 'object' || caps === null || Array.isArray(caps))
      throw new SvcError('Invalid option gridCapabilities: expected an object of capabilities');
    this.#capabilities = caps;
    // ChromeDriver picks the DevTools port itself; our pinned address flags would fight it.
    this.#args = (options.args ?? CHROMIUM_ARGS).filter(
      (a) => !a.startsWith('--remote-debugging-'),
    );
    this.#requestTimeout = options.requestTimeout ?? GRID_PROVIDER_DEFAULTS.requestTimeout;
    this.#checkInterval = options.checkInterval ?? GRID_PROVIDER_DEFAULTS.checkInterval;
  }

  async acquire(params: AcquireParams): Promise<ProviderLease> {
    const capabilities = this.#alwaysMatch(params);
    // Give up a little before the manager does, to leave time to say why (busy slots or not).
    const reserve = Math.min(1_000, params.timeout / 10);
    const { status, body } = await this.#call('POST', 'session', params.timeout - reserve, {
      capabilities: { alwaysMatch: capabilities },
    }).catch(async (error: unknown) => {
      if (error instanceof TimeoutError)
        throw await this.#slotTimeout(params.timeout, reserve, error);
      throw error;
    });
    const value = body.value ?? {};
    if (status !== 200 || !value.sessionId) {
      const message = gridMessage(value.message) ?? `HTTP ${status}`;
      const what = `POST ${this.gridUrl}/session`;
      if (/session request timed out/i.test(message))
        throw new TimeoutError(`No free slot on Selenium Grid: ${what}: ${message}`, {
          timeout: params.timeout,
        });
      throw new BadRequestError(`Selenium Grid refused the session: ${what}: ${message}`, {
        status,
        body: { error: value.error, message: value.message },
      });
    }
    const id = value.sessionId;
    const cdp = value.capabilities?.['se:cdp'];
    if (typeof cdp !== 'string') {
      await this.#delete(id).catch(() => undefined);
      throw new SvcError(
        `Selenium Grid session ${id} has no se:cdp capability: the Grid at ${this.gridUrl} does not proxy CDP (Selenium Grid 4 with a Chromium node is needed)`,
      );
    }
    const wsEndpoint = this.#reachable(cdp);
    const deleteUrl = new URL(`session/${encodeURIComponent(id)}`, this.#base).href;
    const ended = new Set<() => void>();
    let timer: NodeJS.Timeout | undefined;
    const check = async (): Promise<void> => {
      const state = await this.#probe(id, this.#requestTimeout).catch(() => 'running' as const);
      if (state === 'running' || timer === undefined) return;
      clearInterval(timer);
      timer = undefined;
      for (const listener of ended) listener();
    };
    if (this.#checkInterval > 0) {
      timer = setInterval(() => void check(), this.#checkInterval);
      timer.unref();
    }
    let released: Promise<void> | undefined;
    return {
      provider: 'grid',
      record: {
        session_id: id,
        status: 'running',
        cdp_url: wsEndpoint,
        created_at: Math.floor(Date.now() / 1000),
        expires_at: null,
        tags: [...params.tags],
      },
      wsEndpoint,
      headers: this.#headers,
      owned: true,
      release: () =>
        (released ??= (async () => {
          clearInterval(timer);
          timer = undefined;
          await this.#delete(id);
        })().catch((error: unknown) => {
          released = undefined;
          throw error;
        })),
      probe: (timeout) => this.#probe(id, timeout),
      syncRelease: () => ({
        kind: 'http',
        method: 'DELETE',
        url: deleteUrl,
        headers: this.#headers,
      }),
      onEnded: (listener) => {
        ended.add(listener);
        return () => void ended.delete(listener);
      },
    };
  }

  async close(): Promise<void> {
    await this.#agent.close();
  }

  /** The new-session capabilities: ours, then the user's, Chromium arguments appended. */
  #alwaysMatch(params: AcquireParams): Record<string, unknown> {
    const args = [...this.#args];
    if (params.viewport)
      args.push(`--window-size=${params.viewport.width},${params.viewport.height}`);
    if (params.userAgent !== undefined) args.push(`--user-agent=${params.userAgent}`);
    const userChrome = this.#capabilities['goog:chromeOptions'];
    const chrome = (
      typeof userChrome === 'object' && userChrome !== null ? userChrome : {}
    ) as Record<string, unknown>;
    const userArgs = Array.isArray(chrome.args) ? (chrome.args as unknown[]) : [];
    return {
      browserName: GRID_PROVIDER_DEFAULTS.browserName,
      ...this.#capabilities,
      'goog:chromeOptions': { ...chrome, args: [...args, ...userArgs] },
    };
  }

  /** `se:cdp` names the Grid as it sees itself; keep the host and scheme we reached it by. */
  #reachable(cdp: string): string {
    const ws = new URL(cdp);
    ws.protocol = this.#base.protocol === 'https:' ? 'wss:' : 'ws:';
    ws.host = this.#base.host;
    return ws.href;
  }

  /** Why a new-session request ran out of time: every slot busy, or a slow Grid. */
  async #slotTimeout(timeout: number, reserve: number, cause: TimeoutError): Promise<TimeoutError> {
    const status = await this.#call('GET', 'status', reserve * 0.8).catch(() => undefined);
    const nodes = (status?.body.value as { nodes?: { slots?: { session?: unknown }[] }[] } | null)
      ?.nodes;
    const slots = (nodes ?? []).flatMap((n) => n.slots ?? []);
    const busy = slots.length > 0 && slots.every((s) => s.session != null);
    const why = busy
      ? `No free slot on Selenium Grid ${this.gridUrl}: all ${slots.length} slots stayed busy`
      : `Selenium Grid ${this.gridUrl} did not start a session`;
    return new TimeoutError(`${why} within ${timeout} ms (POST /session)`, { timeout, cause });
  }

  async #delete(id: string): Promise<void> {
    const { status, body } = await this.#call(
      'DELETE',
      `session/${encodeURIComponent(id)}`,
      this.#requestTimeout,
    );
    // Already ended (by the node's own timeout, or an earlier delete): nothing is left to free.
    if (status === 200 || status === 404 || body.value?.error === 'invalid session id') return;
    throw new SvcError(
      `Ending Selenium Grid session ${id} failed: DELETE ${this.gridUrl}/session/${id}: ${gridMessage(body.value?.message) ?? `HTTP ${status}`}`,
    );
  }

  /**
   * `GET /session/{id}/window/handles`: ChromeDriver asks the browser (so a dead one shows) without
   * waiting for a navigation to finish, as most commands do.
   */
  async #probe(id: string, timeout: number): Promise<ProbeResult> {
    const { status, body } = await this.#call(
      'GET',
      `session/${encodeURIComponent(id)}/window/handles`,
      timeout,
    );
    if (status === 200) return 'running';
    const message = body.value?.message ?? '';
    // The node's --session-timeout ended it; or the browser died and the Grid dropped the session.
    if (/session timed out|timed out due to inactivity/i.test(message)) return 'expired';
    if (status === 404 || body.value?.error === 'invalid session id')
      return /closed the connection|not reachable|disconnected/i.test(message) ? 'failed' : 'gone';
    return 'failed';
  }

  /**
   * One request to the Grid within `timeout` ms.
   * @throws ConnectionError when the Grid cannot be reached, TimeoutError when it does not answer
   */
  async #call(
    method: 'GET' | 'POST' | 'DELETE',
    path: string,
    timeout: number,
    json?: unknown,
  ): Promise<{ status: number; body: WebDriverBody }> {
    const url = new URL(path, this.#base);
    const where = `${method} ${this.gridUrl}/${path}`;
    const signal = AbortSignal.timeout(timeout);
    try {
      const res = await request(url, {
        method,
        dispatcher: this.#agent,
        signal,
        headers: {
          ...this.#headers,
          ...(json === undefined ? {} : { 'content-type': 'application/json; charset=utf-8' }),
        },
        ...(json === undefined ? {} : { body: JSON.stringify(json) }),
      });
      const text = await res.body.text();
      let body: WebDriverBody = {};
      try {
        body = JSON.parse(text) as WebDriverBody;
      } catch {
        body = { value: { message: text.slice(0, 200) } };
      }
      return { status: res.statusCode, body };
    } catch (error) {
      if (signal.aborted)
        throw new TimeoutError(`Selenium Grid request timed out after ${timeout} ms: ${where}`, {
          timeout,
          cause: error,
        });
      const code = (error as { code?: string }).code;
      throw new ConnectionError(
        `Selenium Grid unreachable: ${where}: ${code ?? (error as Error).message}`,
        { cause: error },
      );
    }
  }
}

/**
 * The Grid's error message without its diagnostics (host, build and driver info, stack), its
 * repeated "Could not start a new session." prefixes folded, on one line.
 */
function gridMessage(message: string | undefined): string | undefined {
  const text = message
    ?.split(/\n(?:Host info|Build info|System info|Driver info|Capabilities|Session ID)\b/)[0]
    ?.replace(/(Could not start a new session\.\s*)+/g, 'Could not start a new session. ')
    .replace(/\s+/g, ' ')
    .trim();
  return text ? text.slice(0, 500) : undefined;
}

/** A URL for a message, without the credentials it may carry. */
function redactUrl(text: string): string {
  return text.replace(/\/\/[^/@\s]*@/, '//[redacted]@');
}
