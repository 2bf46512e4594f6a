// The few WebDriver calls a Grid-backed server makes: new session, a keep-alive read, delete.
// A Grid URL may carry credentials (`https://user:pass@grid.example`): they are sent as a Basic
// `Authorization` header and never appear in an error message or a log line.

/** Limits of the WebDriver calls. */
export const WEBDRIVER_DEFAULTS = {
  /** One keep-alive or delete call. */
  callTimeoutMs: 15_000,
} as const;

/** A new Grid session: its WebDriver id and its browser-level CDP endpoint (`se:cdp`). */
export interface GridSession {
  sessionId: string;
  /** `ws://.../session/<id>/se/cdp`, with the Grid URL's credentials when it has some. */
  cdpUrl: string;
}

/** A WebDriver error answer, or a Grid that could not be reached. */
export class WebDriverError extends Error {
  constructor(
    message: string,
    /** HTTP status, or undefined when no answer came. */
    readonly status: number | undefined,
    /** The WebDriver error code (`invalid session id`, `session not created`, ...). */
    readonly error: string | undefined,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'WebDriverError';
  }

  /** True when the session is gone (deleted, timed out by the Grid, its node lost). */
  get sessionGone(): boolean {
    return this.status === 404 || this.error === 'invalid session id';
  }
}

/**
 * Parses a Grid URL (`gridUrl`, `SVC_GRID_URL`, `--grid-url`).
 * @throws Error naming `gridUrl` when it is not an http(s) URL (the value is not echoed: it may
 * carry credentials)
 */
export function checkGridUrl(gridUrl: string): URL {
  let url: URL;
  try {
    url = new URL(gridUrl);
  } catch {
    throw new Error(
      'gridUrl (SVC_GRID_URL): expected an http(s) URL such as http://127.0.0.1:4444',
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new Error(`gridUrl (SVC_GRID_URL): expected an http(s) URL, got a ${url.protocol} URL`);
  return url;
}

/** The Grid URL without credentials or trailing slash, for messages and the ledger. */
export function redactGridUrl(gridUrl: string): string {
  const url = new URL(gridUrl);
  url.username = '';
  url.password = '';
  return url.toString().replace(/\/+$/, '');
}

/**
 * A WebDriver endpoint (a Selenium Grid 4 router or hub, or a standalone server).
 * @example
 * const grid = new WebDriverClient('http://127.0.0.1:4444');
 * const { sessionId, cdpUrl } = await grid.newSession({ browserName: 'chrome' });
 * await grid.deleteSession(sessionId);
 */
export class WebDriverClient {
  private readonly base: string;
  private readonly authorization: string | undefined;
  private readonly credentials: { username: string; password: string } | undefined;
  /** The Grid URL with credentials removed: safe in messages. */
  readonly safeUrl: string;

  /** @throws Error naming `gridUrl` when it is not an http(s) URL */
  constructor(gridUrl: string) {
    const url = checkGridUrl(gridUrl);
    if (url.username || url.password) {
      this.credentials = {
        username: decodeURIComponent(url.username),
        password: decodeURIComponent(url.password),
      };
      this.authorization = `Basic ${Buffer.from(`${this.credentials.username}:${this.credentials.password}`).toString('base64')}`;
    }
    this.safeUrl = redactGridUrl(gridUrl);
    this.base = this.safeUrl;
  }

  /**
   * `POST /session` with `alwaysMatch` capabilities; resolves with the session's `se:cdp` URL.
   * @throws WebDriverError when the Grid refuses (no matching node, queue timeout), answers
   * without `se:cdp`, or cannot be reached
   */
  async newSession(
    capabilities: Record<string, unknown>,
    signal?: AbortSignal,
  ): Promise<GridSession> {
    const value = (await this.call(
      'POST',
      '/session',
      { capabilities: { alwaysMatch: capabilities } },
      signal,
    )) as {
      sessionId?: unknown;
      capabilities?: Record<string, unknown>;
    };
    const sessionId = typeof value.sessionId === 'string' ? value.sessionId : undefined;
    const cdp = value.capabilities?.['se:cdp'];
    if (!sessionId)
      throw new WebDriverError(
        `Grid at ${this.safeUrl} answered a new session without an id`,
        200,
        undefined,
      );
    if (typeof cdp !== 'string') {
      // A session we cannot drive still holds a slot: give it back before failing.
      await this.deleteSession(sessionId).catch(() => undefined);
      throw new WebDriverError(
        `Grid at ${this.safeUrl} gave no se:cdp URL for the session (CDP is disabled on its nodes, or the browser is not Chromium)`,
        200,
        undefined,
      );
    }
    return { sessionId, cdpUrl: this.withCredentials(cdp) };
  }

  /**
   * A cheap read of the session that reaches its browser (`GET /session/{id}/window/handles`):
   * proves the session exists and its browser answers (chromedriver ends a session whose browser
   * died as soon as a command needs the browser; `/timeouts` would still answer), and, since it is
   * a WebDriver command, resets the Grid's inactivity timeout (`--session-timeout`), which CDP
   * traffic does not. The handles list answers even when the client closed every page.
   * @throws WebDriverError (`sessionGone` when the Grid no longer knows it or its browser is gone)
   */
  async touch(sessionId: string): Promise<void> {
    await this.call('GET', `/session/${encodeURIComponent(sessionId)}/window/handles`);
  }

  /**
   * `DELETE /session/{id}`: the Grid quits the browser and frees the slot. A session the Grid no
   * longer knows counts as deleted.
   * @throws WebDriverError when the Grid cannot be reached or fails otherwise
   */
  async deleteSession(sessionId: string): Promise<void> {
    try {
      await this.call('DELETE', `/session/${encodeURIComponent(sessionId)}`);
    } catch (error) {
      if (error instanceof WebDriverError && error.sessionGone) return;
      throw error;
    }
  }

  private async call(
    method: string,
    route: string,
    body?: unknown,
    signal?: AbortSignal,
  ): Promise<unknown> {
    // A new session may wait in the Grid's queue for a free slot: only its caller bounds it.
    const bound =
      method === 'POST' ? signal : AbortSignal.timeout(WEBDRIVER_DEFAULTS.callTimeoutMs);
    let res: Response;
    try {
      res = await fetch(this.base + route, {
        method,
        headers: {
          // The Grid refuses a new session without the charset.
          ...(body === undefined ? {} : { 'content-type': 'application/json; charset=utf-8' }),
          ...(this.authorization ? { authorization: this.authorization } : {}),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        ...(bound ? { signal: bound } : {}),
      });
    } catch (error) {
      throw new WebDriverError(
        `Grid at ${this.safeUrl} could not be reached: ${method} ${route.replace(/\/session\/[^/]+/, '/session/{id}')}: ${(error as Error).message}`,
        undefined,
        undefined,
        { cause: error },
      );
    }
    const text = await res.text();
    let parsed: { value?: { error?: string; message?: string } & Record<string, unknown> } = {};
    try {
      parsed = JSON.parse(text) as typeof parsed;
    } catch {
      // Not JSON (a proxy's error page): reported by status below.
    }
    if (!res.ok) {
      const error = parsed.value?.error;
      const message = (parsed.value?.message ?? text).split('\n')[0]?.slice(0, 300) ?? '';
      throw new WebDriverError(
        `Grid at ${this.safeUrl} answered ${res.status}${error ? ` (${error})` : ''}: ${message}`,
        res.status,
        error,
      );
    }
    return parsed.value ?? {};
  }

  /** The Grid URL's credentials on a `se:cdp` URL (the `ws` library turns them into Basic auth). */
  private withCredentials(cdpUrl: string): string {
    if (!this.credentials) return cdpUrl;
    const url = new URL(cdpUrl);
    if (url.username || url.password) return cdpUrl;
    url.username = encodeURIComponent(this.credentials.username);
    url.password = encodeURIComponent(this.credentials.password);
    return url.toString();
  }
}
