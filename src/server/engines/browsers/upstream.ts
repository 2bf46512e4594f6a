// The relay's connections to a session's browser (the `/cdp` route's upstream side), and one
// opened ahead for each new session: the browser's WebSocket handshake then runs while the create
// answers and the client opens its own connection, instead of after the client's upgrade arrived
// (the upgrade checked the token, then waited for the browser, in series).
import { WebSocket } from 'ws';

/** Limits of the relay's upstream connections. */
export const UPSTREAM_DEFAULTS = {
  /** Largest CDP message relayed (full-page screenshots are large). */
  maxPayloadBytes: 512 * 1024 * 1024,
  /** How long the browser may take to accept the connection. */
  timeoutMs: 10_000,
} as const;

/**
 * Opens a WebSocket to a browser's DevTools endpoint.
 * @throws Error when the browser refuses it or does not answer within `UPSTREAM_DEFAULTS.timeoutMs`
 */
export function connectUpstream(
  endpoint: string,
  headers?: Record<string, string>,
): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(endpoint, {
      ...(headers && { headers }),
      perMessageDeflate: false,
      maxPayload: UPSTREAM_DEFAULTS.maxPayloadBytes,
      handshakeTimeout: UPSTREAM_DEFAULTS.timeoutMs,
    });
    ws.once('open', () => {
      ws.off('error', reject);
      resolve(ws);
    });
    ws.once('error', reject);
  });
}

/**
 * One upstream connection per running session, opened ahead for its first CDP client. A spare
 * that failed or closed is never handed out: the relay then connects as before.
 * @example
 * spares.open(sessionId, browser.chromium.wsEndpoint); // at create
 * const upstream = (await spares.take(sessionId)) ?? (await connectUpstream(endpoint)); // at upgrade
 * spares.drop(sessionId); // at end
 */
export class SpareUpstreams {
  private readonly spares = new Map<string, Promise<WebSocket | undefined>>();

  /** Starts a connection to `endpoint` for the next client of session `id`. */
  open(id: string, endpoint: string): void {
    this.drop(id);
    const spare = connectUpstream(endpoint).then(
      (ws) => {
        // The browser closing it (the session ended, the browser died) makes it useless.
        ws.once('close', () => {
          if (this.spares.get(id) === spare) this.spares.delete(id);
        });
        return ws;
      },
      () => {
        if (this.spares.get(id) === spare) this.spares.delete(id);
        return undefined;
      },
    );
    this.spares.set(id, spare);
  }

  /** The spare connection of session `id`, once; undefined when there is none or it broke. */
  async take(id: string): Promise<WebSocket | undefined> {
    const spare = this.spares.get(id);
    if (!spare) return undefined;
    this.spares.delete(id);
    const ws = await spare;
    return ws?.readyState === WebSocket.OPEN ? ws : undefined;
  }

  /** Closes the spare of session `id`, if any (the session ended). */
  drop(id: string): void {
    const spare = this.spares.get(id);
    if (!spare) return;
    this.spares.delete(id);
    void spare.then((ws) => ws?.terminate());
  }

  /** Closes every spare. */
  close(): void {
    for (const id of [...this.spares.keys()]) this.drop(id);
  }
}
