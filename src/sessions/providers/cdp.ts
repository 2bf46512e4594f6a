// The `cdp` provider: an existing CDP endpoint (a browser fleet, or a browser started by hand).
import { randomUUID } from 'node:crypto';
import { SvcError } from '../../errors.js';
import { withTimeout } from '../timeout.js';
import type { AcquireParams, ProbeResult, ProviderLease, SessionProvider } from './provider.js';

/** Options of {@link CdpProvider}. */
export interface CdpProviderOptions {
  /**
   * `ws(s)://...` to attach to as is (`ws://host:port/devtools/browser/<id>`, a fleet URL), or
   * `http(s)://host:port`, resolved through `/json/version` at each create.
   */
  endpoint: string;
  /** Headers for the upgrade and the `/json/version` lookup (a fleet's auth). @default {} */
  headers?: Record<string, string> | undefined;
}

/**
 * Attaches to a browser someone else runs. We did not create it, so we never end it: each session
 * works in a browser context of its own, and release closes that context and disconnects.
 * @throws SvcError at construction when `endpoint` is not a ws(s) or http(s) URL
 */
export class CdpProvider implements SessionProvider {
  readonly name = 'cdp' as const;
  readonly #endpoint: URL;
  readonly #headers: Record<string, string>;

  constructor(options: CdpProviderOptions) {
    let url: URL;
    try {
      url = new URL(options.endpoint);
    } catch (cause) {
      throw new SvcError(
        `Invalid option cdpUrl: expected a ws(s):// or http(s):// URL, got ${JSON.stringify(options.endpoint)}`,
        { cause },
      );
    }
    if (!['ws:', 'wss:', 'http:', 'https:'].includes(url.protocol)) {
      throw new SvcError(`Invalid option cdpUrl: expected a ws(s):// or http(s):// URL`);
    }
    this.#endpoint = url;
    this.#headers = options.headers ?? {};
  }

  async acquire(params: AcquireParams): Promise<ProviderLease> {
    const wsEndpoint = this.#endpoint.protocol.startsWith('http')
      ? await this.#lookup(this.#endpoint, params.timeout)
      : this.#endpoint.href;
    const now = Math.floor(Date.now() / 1000);
    return {
      provider: 'cdp',
      record: {
        session_id: randomUUID(),
        status: 'running',
        cdp_url: wsEndpoint,
        created_at: now,
        expires_at: null,
        tags: [...params.tags],
      },
      wsEndpoint,
      headers: this.#headers,
      owned: false,
      release: async () => {},
      probe: (timeout) => this.#probe(wsEndpoint, timeout),
      syncRelease: () => undefined,
    };
  }

  async close(): Promise<void> {}

  /** The browser's WebSocket URL from `/json/version`. */
  async #lookup(base: URL, timeout: number): Promise<string> {
    const url = new URL('/json/version', base);
    const res = await withTimeout(
      fetch(url, { headers: this.#headers, signal: AbortSignal.timeout(timeout) }),
      timeout,
      `CDP endpoint lookup GET ${url.origin}/json/version`,
    );
    if (!res.ok)
      throw new SvcError(
        `CDP endpoint lookup failed: GET ${url.origin}/json/version: ${res.status}`,
      );
    const body = (await res.json()) as { webSocketDebuggerUrl?: unknown };
    if (typeof body.webSocketDebuggerUrl !== 'string')
      throw new SvcError(
        `CDP endpoint lookup failed: GET ${url.origin}/json/version has no webSocketDebuggerUrl`,
      );
    // Chromium reports its own bind address; keep the host we reached it by (a tunnel, a proxy).
    const ws = new URL(body.webSocketDebuggerUrl);
    ws.host = base.host;
    ws.protocol = base.protocol === 'https:' ? 'wss:' : 'ws:';
    return ws.href;
  }

  /**
   * A browser endpoint (`/devtools/browser/<id>`) still runs when `/json/version` names the same
   * browser. A fleet URL creates a new browser per connection: the old one cannot be reached again.
   */
  async #probe(wsEndpoint: string, timeout: number): Promise<ProbeResult> {
    const ws = new URL(wsEndpoint);
    if (!ws.pathname.startsWith('/devtools/browser/')) return 'gone';
    const http = new URL(ws.href);
    http.protocol = ws.protocol === 'wss:' ? 'https:' : 'http:';
    try {
      const current = await this.#lookup(new URL(http.origin), timeout);
      return new URL(current).pathname === ws.pathname ? 'running' : 'gone';
    } catch {
      // Unreachable or not a browser any more: either way there is nothing to reconnect to.
      return 'gone';
    }
  }
}
