// The server's own CDP connection to one session's browser (flat sessions), used by live view,
// recording, downloads, contexts and recycling. It never goes through the `/cdp` proxy, so it neither counts as a client of the session
// nor keeps it from going idle.
import { WebSocket } from 'ws';
import type { RawData } from 'ws';

/** Defaults of {@link CdpClient}. */
export const DEFAULTS = {
  /** How long one command may take before its promise rejects. */
  callTimeoutMs: 10_000,
  /** How long the browser may take to accept the connection. */
  connectTimeoutMs: 10_000,
  /** Largest message accepted (screencast frames and rrweb snapshots are large). */
  maxPayloadBytes: 256 * 1024 * 1024,
} as const;

/** A CDP event: its params and the flat session it came from (`undefined`: the browser target). */
export type CdpListener = (params: Record<string, unknown>, sessionId: string | undefined) => void;

interface Pending {
  resolve(result: Record<string, unknown>): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout;
}

/**
 * A minimal CDP client over the browser's DevTools WebSocket, flat sessions only.
 * @example
 * const cdp = await CdpClient.connect(browser.chromium.wsEndpoint);
 * const { targetInfos } = await cdp.send('Target.getTargets');
 * cdp.close();
 */
export class CdpClient {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private readonly listeners = new Map<string, Set<CdpListener>>();
  private readonly closeListeners = new Set<() => void>();
  private closed = false;

  private constructor(private readonly ws: WebSocket) {
    ws.on('message', (data: RawData) => this.onMessage(data));
    ws.on('close', () => this.handleClose());
    // 'close' follows every 'error' in ws.
    ws.on('error', () => ws.terminate());
  }

  /**
   * Opens a connection to `wsEndpoint` (`ws://127.0.0.1:PORT/devtools/browser/<id>`).
   * @throws Error when the browser does not accept it within {@link DEFAULTS.connectTimeoutMs}
   */
  static connect(wsEndpoint: string): Promise<CdpClient> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(wsEndpoint, {
        perMessageDeflate: false,
        maxPayload: DEFAULTS.maxPayloadBytes,
        handshakeTimeout: DEFAULTS.connectTimeoutMs,
      });
      ws.once('open', () => {
        ws.off('error', reject);
        resolve(new CdpClient(ws));
      });
      ws.once('error', reject);
    });
  }

  /** True once the connection is closed (by us, or because the browser went away). */
  get isClosed(): boolean {
    return this.closed;
  }

  /**
   * Sends a command, on the browser target or on flat session `sessionId`.
   * @throws Error with the protocol's message, on timeout, or when the connection closes first
   */
  send<T = Record<string, unknown>>(
    method: string,
    params: Record<string, unknown> = {},
    sessionId?: string,
  ): Promise<T> {
    if (this.closed) return Promise.reject(new Error(`CDP ${method}: connection closed`));
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new Error(`CDP ${method}: no answer within ${DEFAULTS.callTimeoutMs} ms`));
      }, DEFAULTS.callTimeoutMs);
      timer.unref();
      this.pending.set(id, { resolve: resolve as Pending['resolve'], reject, timer });
      this.ws.send(JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) }));
    });
  }

  /** Like {@link send}, for calls whose failure only means the target went away meanwhile. */
  async trySend(
    method: string,
    params: Record<string, unknown> = {},
    sessionId?: string,
  ): Promise<Record<string, unknown> | undefined> {
    try {
      return await this.send(method, params, sessionId);
    } catch {
      return undefined;
    }
  }

  /** Subscribes to an event; returns the unsubscribe function. */
  on(method: string, listener: CdpListener): () => void {
    let set = this.listeners.get(method);
    if (!set) this.listeners.set(method, (set = new Set()));
    set.add(listener);
    return () => set.delete(listener);
  }

  /** Calls `listener` once when the connection closes, whoever closed it (at once if closed). */
  onClose(listener: () => void): void {
    if (this.closed) listener();
    else this.closeListeners.add(listener);
  }

  private handleClose(): void {
    if (this.closed) return;
    this.closed = true;
    for (const p of this.pending.values()) {
      clearTimeout(p.timer);
      p.reject(new Error('CDP connection closed'));
    }
    this.pending.clear();
    for (const l of this.closeListeners) l();
    this.closeListeners.clear();
  }

  /** Closes the connection; pending calls reject. */
  close(): void {
    if (this.ws.readyState === WebSocket.OPEN || this.ws.readyState === WebSocket.CONNECTING)
      this.ws.terminate();
    this.handleClose();
  }

  private onMessage(data: RawData): void {
    let msg: {
      id?: number;
      method?: string;
      params?: Record<string, unknown>;
      result?: Record<string, unknown>;
      error?: { message?: string };
      sessionId?: string;
    };
    try {
      msg = JSON.parse(String(data)) as typeof msg;
    } catch {
      return;
    }
    if (msg.id !== undefined) {
      const p = this.pending.get(msg.id);
      if (!p) return;
      this.pending.delete(msg.id);
      clearTimeout(p.timer);
      if (msg.error) p.reject(new Error(msg.error.message ?? 'CDP error'));
      else p.resolve(msg.result ?? {});
      return;
    }
    if (!msg.method) return;
    for (const l of this.listeners.get(msg.method) ?? []) l(msg.params ?? {}, msg.sessionId);
  }
}
