/**
 * Real loopback servers that misbehave on purpose, for transport and stream tests.
 *
 * Routes are `/<fault>/<tag>`: attempt counters are kept per full path, so each test picks its
 * own `<tag>` and the first attempt at `/flaky/a` is independent of `/flaky/b`.
 *
 * | fault | behaviour |
 * |---|---|
 * | `drop-mid-body` | sends headers and half a JSON body, then destroys the socket (every time; `?heal=N` answers 200 from attempt N) |
 * | `rate-limited` | 429 with `Retry-After: 1` (or `?after=` value, `?after_ms=` as `retry-after-ms`) on the first attempt, then 200 |
 * | `flaky` | 503 twice (or `?fail=N` times), then 200 |
 * | `status` | answers `?code=` with an `{"error": {...}}` body (422: a `detail` body) and `x-request-id` |
 * | `slow` | waits `?ms=` before answering 200 |
 * | `stall-stream` | SSE: one chunk event, then silence until the client goes away |
 * | `sse` | SSE: `?n=` chunk events then `data: [DONE]` |
 * | `drop-stream` | SSE: one chunk event, then destroys the socket |
 * | `echo` | 200 with `{method, url, headers, body}` of the request |
 * | `no-json` | 200 with an HTML body |
 * | `reply` | any path below it: answers the JSON in the `x-reply` request header with status `x-reply-status`, or SSE `data:` events from the JSON array in `x-reply-sse` |
 */
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer as createNetServer } from 'node:net';
import type { AddressInfo, Socket } from 'node:net';

/** A request as the server saw it. */
export interface RecordedRequest {
  method: string;
  url: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A running fault server. */
export interface FaultServer {
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** Number of requests seen at `path` (pathname, no query). */
  hits(path: string): number;
  /** Every request seen, in order. */
  requests: RecordedRequest[];
  /** Sockets the client closed while a `stall-stream`/`slow` response was pending. */
  closedEarly: number;
  close(): Promise<void>;
}

/** Start the fault server on `127.0.0.1:0`. */
export async function startFaultServer(): Promise<FaultServer> {
  const counts = new Map<string, number>();
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  const state = { closedEarly: 0 };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      const u = new URL(req.url ?? '/', 'http://x');
      const n = (counts.get(u.pathname) ?? 0) + 1;
      counts.set(u.pathname, n);
      handle(u, n, req, res, body, state);
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    hits: (path) => counts.get(path) ?? 0,
    requests,
    get closedEarly() {
      return state.closedEarly;
    },
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function json(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    'x-request-id': `req_${Math.random().toString(36).slice(2, 10)}`,
    ...headers,
  });
  res.end(text);
}

function chunk(i: number): string {
  const c = {
    id: 'c1',
    object: 'chat.completion.chunk',
    choices: [{ index: 0, delta: { content: `t${i}` } }],
  };
  return `data: ${JSON.stringify(c)}\n\n`;
}

function handle(
  u: URL,
  n: number,
  req: IncomingMessage,
  res: ServerResponse,
  body: string,
  state: { closedEarly: number },
): void {
  const fault = u.pathname.split('/')[1] ?? '';
  const q = (k: string): string | null => u.searchParams.get(k);
  switch (fault) {
    case 'drop-mid-body': {
      const heal = Number(q('heal') ?? Infinity);
      if (n >= heal) return json(res, 200, { ok: true, attempt: n });
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '200' });
      res.write('{"ok": true, "partial": "');
      // Let the headers and partial body reach the client before the socket dies.
      setTimeout(() => res.socket?.destroy(), 20);
      return;
    }
    case 'rate-limited': {
      if (n > 1) return json(res, 200, { ok: true, attempt: n });
      const headers: Record<string, string> = {};
      if (q('after_ms') !== null) headers['retry-after-ms'] = q('after_ms')!;
      else headers['retry-after'] = q('after') ?? '1';
      return json(
        res,
        429,
        { error: { message: 'Too many requests', type: 'rate_limit', code: 'rate_limited' } },
        headers,
      );
    }
    case 'flaky': {
      const fail = Number(q('fail') ?? 2);
      if (n <= fail) {
        return json(res, 503, {
          error: { message: `Unavailable ${n}`, type: 'server', code: 'unavailable' },
        });
      }
      return json(res, 200, { ok: true, attempt: n });
    }
    case 'status': {
      const code = Number(q('code') ?? 500);
      if (code === 422) {
        return json(res, 422, {
          detail: [
            {
              loc: ['body', 'messages', 0, 'role'],
              msg: 'Input should be system, user, assistant or tool',
              type: 'enum',
            },
          ],
        });
      }
      const message = q('message') ?? `Status ${code}`;
      return json(
        res,
        code,
        { error: { message, type: 'test', code: String(code) } },
        { 'x-request-id': 'req_fixed' },
      );
    }
    case 'slow': {
      const timer = setTimeout(
        () => json(res, 200, { ok: true, attempt: n }),
        Number(q('ms') ?? 1000),
      );
      res.on('close', () => {
        if (!res.writableEnded) state.closedEarly++;
        clearTimeout(timer);
      });
      return;
    }
    case 'stall-stream': {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      res.write(chunk(0));
      res.on('close', () => {
        if (!res.writableEnded) state.closedEarly++;
      });
      return;
    }
    case 'sse': {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'x-request-id': 'req_sse' });
      const count = Number(q('n') ?? 3);
      for (let i = 0; i < count; i++) res.write(chunk(i));
      res.end('data: [DONE]\n\n');
      return;
    }
    case 'drop-stream': {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(chunk(0));
      setTimeout(() => res.socket?.destroy(), 20);
      return;
    }
    case 'reply': {
      // The test scripts the answer through request headers, so any client path can be served.
      const sse = req.headers['x-reply-sse'];
      if (typeof sse === 'string') {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        for (const data of JSON.parse(sse) as string[]) res.write(`data: ${data}\n\n`);
        res.end();
        return;
      }
      const status = Number(req.headers['x-reply-status'] ?? 200);
      const reply = req.headers['x-reply'];
      if (status === 204) {
        res.writeHead(204);
        res.end();
        return;
      }
      return json(
        res,
        status,
        typeof reply === 'string' ? JSON.parse(reply) : { method: req.method, url: req.url, body },
      );
    }
    case 'echo':
      return json(res, 200, { method: req.method, url: req.url, headers: req.headers, body });
    case 'no-json': {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html>proxy page</html>');
      return;
    }
    default:
      return json(res, 404, { error: { message: `no fault ${fault}`, type: 'test', code: 'nf' } });
  }
}

/** A raw TCP server that accepts connections and destroys them at once (connection reset). */
export async function startResetServer(): Promise<{
  url: string;
  accepted: () => number;
  close: () => Promise<void>;
}> {
  let accepted = 0;
  const server = createNetServer((socket) => {
    accepted++;
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    accepted: () => accepted,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
