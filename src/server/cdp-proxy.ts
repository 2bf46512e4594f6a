// The `/v1/browser/sessions/{id}/cdp` WebSocket: authenticate the upgrade, then relay frames to
// that session's own browser, both ways. And `/v1/browser/connect`: create a session in the
// upgrade, relay to it the same way, end it when the connection closes.
import { STATUS_CODES } from 'node:http';
import type http from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocket, WebSocketServer } from 'ws';
import type { RawData } from 'ws';
import type { ServerContext } from './context.js';
import type { BrowserSessions, CdpAuthorization } from './engines/browsers/index.js';
import { FORWARD_HEADER } from './engines/browsers/remote-sessions.js';
import { connectUpstream, UPSTREAM_DEFAULTS } from './engines/browsers/upstream.js';
import { ROUTES, pathPattern } from '../protocol/index.js';
import { Invalid, NotFound, Unauthorized, Upstream } from './errors.js';
import { charge } from './rate-limit.js';
import type { RateLimiter } from './rate-limit.js';
import { answerError } from './http-error.js';

/** Limits of the CDP relay. */
export const DEFAULTS = {
  /** Largest CDP message relayed (full-page screenshots are large). */
  maxPayloadBytes: UPSTREAM_DEFAULTS.maxPayloadBytes,
  /** Pause reading a side once this much is queued for the other. */
  highWaterBytes: 8 * 1024 * 1024,
  /** Resume reading once the queue drains below this. */
  lowWaterBytes: 1024 * 1024,
  /** How long the browser may take to accept the relay's connection. */
  upstreamTimeoutMs: UPSTREAM_DEFAULTS.timeoutMs,
  /** How often each side of a relayed connection is pinged (WebSocket ping). */
  pingIntervalMs: 2_500,
  /**
   * A side heard nothing from (no frame, no pong, no progress reading) for this long is gone: a
   * client whose network was cut without a close. Its connection is cut, and the session's idle
   * timeout counts from when it was last heard, so it ends within idle timeout + this + one ping.
   */
  silentAfterMs: 7_500,
} as const;

const CDP_PATH = pathPattern(ROUTES['browser.sessions.cdp'].path);
const CONNECT_PATH = ROUTES['browser.connect'].path;

/** Response header of a `/v1/browser/connect` upgrade: the id of the session it created. */
export const SESSION_HEADER = 'X-Browser-Session-Id';

type CdpAuthorized = Extract<CdpAuthorization, { ok: true }>;

/** A running CDP relay. */
export interface CdpProxy {
  /** Open relayed connections. */
  readonly connections: number;
  /** Stops handling upgrades and cuts every relayed connection. */
  close(): void;
}

/**
 * Handles WebSocket upgrades on `server`: `/v1/browser/sessions/{id}/cdp` authenticates by the
 * session's connect token (`?token=`) or by the owning user's `Authorization: Bearer` header, then
 * relays frames (text and binary, message boundaries kept, backpressure honoured) to that session's
 * browser. `/v1/browser/connect` (bearer header only, no query) creates a session with the
 * defaults, relays to it, and ends it when the connection closes. Refusals are plain HTTP answers
 * (401, 404, 422, 429, 502) with the error body and headers; any other upgrade path is a 404.
 * Neither the key nor the token is ever logged.
 *
 * Liveness: both sides are pinged every `pingIntervalMs`; a side silent for `silentAfterMs` is
 * cut, and a silent client's session counts its idle time from when it was last heard (a network
 * that vanished without a close must not hold a browser until `max_duration_s`). The session
 * outlives the connection for its idle timeout, so a client may reconnect to the same `cdp_url`
 * and find its pages as it left them.
 */
export function attachCdpProxy(
  server: http.Server,
  ctx: ServerContext,
  sessions: BrowserSessions,
  limiter: RateLimiter,
): CdpProxy {
  const wss = new WebSocketServer({
    noServer: true,
    perMessageDeflate: false,
    maxPayload: DEFAULTS.maxPayloadBytes,
  });
  const open = new Set<WebSocket>();
  // The session a `/v1/browser/connect` upgrade created, named in its 101 answer.
  const sessionOf = new WeakMap<http.IncomingMessage, string>();
  wss.on('headers', (headers, req) => {
    const id = sessionOf.get(req);
    if (id !== undefined) headers.push(`${SESSION_HEADER}: ${id}`);
  });

  const onUpgrade = (req: http.IncomingMessage, socket: Duplex, head: Buffer): void => {
    socket.on('error', () => socket.destroy());
    handle(req, socket, head).catch((error: unknown) => {
      // Logged as the routes log (app.ts): a refusal such as a connect at the session limit
      // (429) is an answer, not a failure.
      const { unexpected, status } = answerError(error);
      const fields = { error: (error as Error).message };
      if (unexpected) ctx.logger.error('CDP upgrade failed', fields);
      else if (status >= 500) ctx.logger.warn('CDP upgrade failed', fields);
      refuse(socket, error);
    });
  };

  async function handle(req: http.IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname.replace(/\/$/, '') === CONNECT_PATH) return connectNew(req, socket, head, url);
    const match = CDP_PATH.exec(url.pathname);
    if (!match?.[1])
      return refuse(
        socket,
        new NotFound(`No WebSocket endpoint at ${url.pathname}`, { code: 'not_found' }),
      );
    let id: string;
    try {
      id = decodeURIComponent(match[1]);
    } catch {
      return refuse(
        socket,
        new NotFound(`No browser session at ${url.pathname}`, { code: 'session_not_found' }),
      );
    }

    const token = url.searchParams.get('token') ?? undefined;
    let userId: string | undefined;
    if (token === undefined && req.headers.authorization !== undefined) {
      const auth = await ctx.auth.authenticateHeader(req.headers.authorization);
      if (!auth.ok)
        return refuse(socket, new Unauthorized(auth.message, { code: 'invalid_api_key' }));
      userId = auth.principal.userId;
    }
    // Set by another instance relaying to the browser held here (see remote-sessions.ts).
    const forward = req.headers[FORWARD_HEADER];
    const verdict = await sessions.authorizeCdp(id, {
      token,
      userId,
      forward: typeof forward === 'string' ? forward : undefined,
    });
    if (!verdict.ok) {
      return refuse(
        socket,
        verdict.status === 401
          ? new Unauthorized(verdict.message, { code: 'invalid_token' })
          : new NotFound(verdict.message, { code: 'session_not_found' }),
      );
    }

    await serve(req, socket, head, id, verdict);
  }

  // `/v1/browser/connect`: a new session with the defaults, its browser relayed at once, ended
  // (as a client's DELETE would end it) when this connection closes or cannot be made.
  async function connectNew(
    req: http.IncomingMessage,
    socket: Duplex,
    head: Buffer,
    url: URL,
  ): Promise<void> {
    // The key travels in the Authorization header only: a URL ends up in logs and histories.
    const param = [...url.searchParams.keys()][0];
    if (param !== undefined) {
      return refuse(
        socket,
        Invalid.at(
          ['query', param],
          `${CONNECT_PATH} takes no query parameters: send the API key in the Authorization header, and create a session with options through POST /v1/browser/sessions`,
          'extra_forbidden',
        ),
      );
    }
    const auth = await ctx.auth.authenticateHeader(req.headers.authorization);
    if (!auth.ok)
      return refuse(socket, new Unauthorized(auth.message, { code: 'invalid_api_key' }));
    const { principal } = auth;
    // A create, charged as `POST /v1/browser/sessions` is (a refusal is answered by the caller).
    charge(limiter, principal, 'browser', ctx.config.rateLimits.browser);
    const { session_id: id } = await sessions.create(principal, {});
    const end = (): void => {
      sessions.delete(principal.userId, id).catch((error: unknown) =>
        ctx.logger.warn('connected session did not end cleanly', {
          sessionId: id,
          error: (error as Error).message,
        }),
      );
    };
    let served = false;
    try {
      const verdict = await sessions.authorizeCdp(id, { userId: principal.userId });
      if (!verdict.ok) {
        return refuse(
          socket,
          new Upstream(`Browser session ${id} ended before it could be connected`, {
            code: 'browser_unreachable',
          }),
        );
      }
      served = await serve(req, socket, head, id, verdict, { sessionId: id, onClose: end });
    } finally {
      if (!served) end();
    }
  }

  /**
   * Relays `socket`, once upgraded, to the browser of session `id`; false when the client could
   * not be attached (refused, gone, or the session ended meanwhile). `connected.onClose` is called
   * when an attached client's connection closes.
   */
  async function serve(
    req: http.IncomingMessage,
    socket: Duplex,
    head: Buffer,
    id: string,
    verdict: CdpAuthorized,
    connected?: { sessionId: string; onClose: () => void },
  ): Promise<boolean> {
    let upstream: WebSocket;
    try {
      // The session's spare, opened as it was created, saves the browser's handshake here.
      const spare = verdict.forwarded ? undefined : await sessions.takeUpstream(id);
      upstream = spare ?? (await connectUpstream(verdict.wsEndpoint, verdict.headers));
    } catch (error) {
      ctx.logger.warn('CDP relay could not reach the browser', {
        sessionId: id,
        error: (error as Error).message,
      });
      refuse(
        socket,
        new Upstream(`Browser of session ${id} is not reachable`, { code: 'browser_unreachable' }),
      );
      return false;
    }
    if (socket.destroyed) {
      upstream.terminate();
      return false;
    }
    let attached = false;
    if (connected) sessionOf.set(req, connected.sessionId);
    // Calls back at once, or never when the handshake is refused or the client already left.
    wss.handleUpgrade(req, socket, head, (client) => {
      const cut = (): void => {
        client.close(1001, 'browser session ended');
        upstream.terminate();
      };
      // A relay to another instance: that instance counts the client and its idle time.
      const release =
        upstream.readyState !== WebSocket.OPEN
          ? undefined
          : verdict.forwarded
            ? () => undefined
            : sessions.attachClient(id, cut);
      if (!release) {
        cut();
        return;
      }
      attached = true;
      open.add(client);
      relay(client, upstream, verdict.downloadPath);
      const beat = heartbeat(client, upstream, ctx.clock, (side) =>
        ctx.logger.info('CDP peer went silent; connection cut', { sessionId: id, side }),
      );
      client.once('close', () => {
        open.delete(client);
        beat.stop();
        release(beat.clientLastSeen());
        connected?.onClose();
      });
      ctx.logger.debug('CDP client connected', { sessionId: id });
    });
    if (!attached) upstream.terminate();
    return attached;
  }

  server.on('upgrade', onUpgrade);
  return {
    get connections() {
      return open.size;
    },
    close() {
      server.off('upgrade', onUpgrade);
      for (const client of open) client.terminate();
      wss.close();
    },
  };
}

/**
 * Pings both sides every `pingIntervalMs`; a side silent for `silentAfterMs` is terminated (the
 * relay then closes the other). A side counts as heard while it sends frames or pongs, while we
 * hold it paused for backpressure, or while it drains what we queued for it (a slow reader of a
 * large screenshot is alive even if its pong waits behind the data).
 */
function heartbeat(
  client: WebSocket,
  upstream: WebSocket,
  clock: () => number,
  onSilent: (side: 'client' | 'browser') => void,
): { stop(): void; clientLastSeen(): number | undefined } {
  // Silence is measured in real time (a network does not follow an injected clock); only the
  // moment handed to the session is translated into the server's clock.
  const sides = [client, upstream].map((ws) => ({ ws, seen: Date.now(), buffered: 0 }));
  let clientSilent = false;
  for (const side of sides) {
    const heard = (): void => void (side.seen = Date.now());
    side.ws.on('pong', heard);
    side.ws.on('ping', heard);
    side.ws.on('message', heard);
  }
  const timer = setInterval(() => {
    const now = Date.now();
    for (const side of sides) {
      const { ws } = side;
      if (ws.readyState !== WebSocket.OPEN) continue;
      if (ws.isPaused || ws.bufferedAmount < side.buffered) side.seen = now;
      side.buffered = ws.bufferedAmount;
      if (now - side.seen > DEFAULTS.silentAfterMs) {
        if (ws === client) clientSilent = true;
        onSilent(ws === client ? 'client' : 'browser');
        ws.terminate();
        continue;
      }
      ws.ping();
    }
  }, DEFAULTS.pingIntervalMs);
  timer.unref();
  return {
    stop: () => clearInterval(timer),
    // A client that closed (or whose socket broke) was there until then; only one found silent
    // has been idle since it was last heard.
    clientLastSeen: () =>
      clientSilent ? clock() - Math.max(0, Date.now() - sides[0]!.seen) : undefined,
  };
}

/**
 * Relays both ways; closing either side closes the other with the same code when it may be sent.
 * With `downloadPath`, a client's `Browser.setDownloadBehavior` is pointed at the session's
 * download folder (its own path names a folder on its machine, not the browser's).
 */
function relay(a: WebSocket, b: WebSocket, downloadPath?: string): void {
  forward(
    a,
    b,
    downloadPath === undefined ? undefined : (data) => pinDownloads(data, downloadPath),
  );
  forward(b, a);
  a.on('close', (code, reason) => closePeer(b, code, reason));
  b.on('close', (code, reason) => closePeer(a, code, reason));
  // 'close' follows every 'error' in ws: the peer is closed there.
  a.on('error', () => a.terminate());
  b.on('error', () => b.terminate());
}

function forward(from: WebSocket, to: WebSocket, rewrite?: (text: RawData) => RawData): void {
  from.on('message', (data: RawData, isBinary: boolean) => {
    if (to.readyState !== WebSocket.OPEN) return;
    to.send(rewrite && !isBinary ? rewrite(data) : data, { binary: isBinary }, () => {
      if (from.isPaused && to.bufferedAmount < DEFAULTS.lowWaterBytes) from.resume();
    });
    // A slow reader on one side must not make us buffer without bound: stop reading the other.
    if (!from.isPaused && to.bufferedAmount > DEFAULTS.highWaterBytes) from.pause();
  });
}

const SET_DOWNLOAD_BEHAVIOR = Buffer.from('"Browser.setDownloadBehavior"');

/** Rewrites a `Browser.setDownloadBehavior` command to save into `downloadPath`, named by guid. */
function pinDownloads(data: RawData, downloadPath: string): RawData {
  const buffer = Array.isArray(data)
    ? Buffer.concat(data)
    : Buffer.isBuffer(data)
      ? data
      : Buffer.from(data);
  // Cheap test first: every other CDP message passes through untouched and unparsed.
  if (buffer.indexOf(SET_DOWNLOAD_BEHAVIOR) === -1) return data;
  let message: { method?: unknown; params?: Record<string, unknown> };
  try {
    message = JSON.parse(buffer.toString('utf8')) as typeof message;
  } catch {
    return data;
  }
  const params = message.params;
  if (message.method !== 'Browser.setDownloadBehavior' || !params || params.behavior === 'deny')
    return data;
  return Buffer.from(
    JSON.stringify({ ...message, params: { ...params, behavior: 'allowAndName', downloadPath } }),
  );
}

function closePeer(peer: WebSocket, code: number, reason: Buffer): void {
  if (peer.readyState === WebSocket.CLOSED || peer.readyState === WebSocket.CLOSING) return;
  if (code === 1005) peer.close();
  else if (sendable(code)) peer.close(code, reason);
  else peer.terminate();
}

function sendable(code: number): boolean {
  return (
    (code >= 1000 && code <= 1003) ||
    (code >= 1007 && code <= 1014) ||
    (code >= 3000 && code <= 4999)
  );
}

/** Answers a refused upgrade with the status and error body of http-error.ts's mapping. */
function refuse(socket: Duplex, error: unknown): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const { status, body: answer, headers } = answerError(error);
  const body = JSON.stringify(answer);
  const extra = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\n` +
      'Connection: close\r\nContent-Type: application/json\r\n' +
      extra.join('') +
      `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    () => socket.destroy(),
  );
}
