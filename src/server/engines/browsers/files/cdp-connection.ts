// A small CDP client the server keeps to a session's own browser (downloads, contexts): commands
// with ids, events by name. The client's relayed connection never sees it.
import { WebSocket } from 'ws';

/** Limits of {@link CdpConnection}. */
export const CDP_CONNECTION_DEFAULTS = {
  /** How long one command may take. */
  commandTimeoutMs: 10_000,
  /** How long the browser may take to accept the connection. */
  connectTimeoutMs: 10_000,
} as const;

type Listener = (params: Record<string, unknown>) => void;

/**
 * One browser-level CDP connection (`ws://127.0.0.1:PORT/devtools/browser/<id>`).
 * @example
 * const cdp = await CdpConnection.open(browser.chromium.wsEndpoint);
 * const { cookies } = await cdp.send('Storage.getCookies');
 * cdp.close();
 */
export class CdpConnection {
  private nextId = 1;
  private readonly pending = new Map<
    number,
    { resolve(v: unknown): void; reject(e: Error): void; timer: NodeJS.Timeout }
  >();
  private readonly listeners = new Map<string, Set<Listener>>();

  private constructor(private readonly ws: WebSocket) {
    ws.on('message', (data) => this.onMessage(String(data)));
    ws.on('close', () => this.failAll(new Error('CDP connection closed')));
    ws.on('error', () => ws.terminate());
  }

  /**
   * Connects to a browser's DevTools endpoint.
   * @throws Error when the browser does not accept within `CDP_CONNECTION_DEFAULTS.connectTimeoutMs`
   */
  static open(endpoint: string): Promise<CdpConnection> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(endpoint, {
        perMessageDeflate: false,
        handshakeTimeout: CDP_CONNECTION_DEFAULTS.connectTimeoutMs,
      });
      ws.once('open', () => {
        ws.off('error', reject);
        resolve(new CdpConnection(ws));
      });
      ws.once('error', reject);
    });
  }

  /** True while the socket is open. */
  get open(): boolean {
    return this.ws.readyState === WebSocket.OPEN;
  }

  /**
   * Sends one command and resolves with its result.
   * @throws Error with the browser's message, on timeout, or when the connection closes first
   */
  send<T = Record<string, unknown>>(
    method: string,
    params: Record<string, unknown> = {},
    timeoutMs: number = CDP_CONNECTION_DEFAULTS.commandTimeoutMs,
  ): Promise<T> {
    if (!this.open) return Promise.reject(new Error(`CDP ${method}: connection closed`));
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new Error(`CDP ${method}: no answer within ${timeoutMs} ms`));
      }, timeoutMs);
      timer.unref();
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject, timer });
      this.ws.send(JSON.stringify({ id, method, params }));
    });
  }

  /** Calls `listener` with the params of every `event` (e.g. `Browser.downloadProgress`). */
  on(event: string, listener: Listener): void {
    let set = this.listeners.get(event);
    if (!set) this.listeners.set(event, (set = new Set()));
    set.add(listener);
  }

  /** Closes the connection; pending commands reject. */
  close(): void {
    this.ws.terminate();
  }

  private onMessage(text: string): void {
    let message: {
      id?: number;
      method?: string;
      params?: unknown;
      result?: unknown;
      error?: { message?: string };
    };
    try {
      message = JSON.parse(text) as typeof message;
    } catch {
      return;
    }
    if (typeof message.id === 'number') {
      const waiter = this.pending.get(message.id);
      if (!waiter) return;
      this.pending.delete(message.id);
      clearTimeout(waiter.timer);
      if (message.error) waiter.reject(new Error(message.error.message ?? 'CDP error'));
      else waiter.resolve(message.result ?? {});
      return;
    }
    if (typeof message.method === 'string') {
      for (const listener of this.listeners.get(message.method) ?? [])
        listener((message.params ?? {}) as Record<string, unknown>);
    }
  }

  private failAll(error: Error): void {
    for (const [id, waiter] of this.pending) {
      clearTimeout(waiter.timer);
      waiter.reject(error);
      this.pending.delete(id);
    }
  }
}
