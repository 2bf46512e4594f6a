// Raw HTTP requests (node:http): paths are sent byte for byte (no URL normalisation, so `..` and
// malformed percent escapes reach the server), any method may carry any bytes, any content type.
import http from 'node:http';

/** One raw request. */
export interface RawRequest {
  method: string;
  /** Sent as-is after the host: may hold `..`, `%ZZ`, a query string. */
  path: string;
  headers?: Record<string, string>;
  body?: Buffer;
}

/** A raw answer. */
export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });

/** Sends `req` to `base` (`http://127.0.0.1:PORT`); rejects on a socket error or after `timeoutMs`. */
export function rawRequest(
  base: string,
  req: RawRequest,
  timeoutMs = 30_000,
): Promise<RawResponse> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const r = http.request(
      {
        // A server may close the connection after refusing a large body unread: such requests get
        // their own connection, so the next request never lands on a socket being closed.
        agent: (req.body?.length ?? 0) > 65_536 ? false : agent,
        host: url.hostname,
        port: url.port,
        method: req.method,
        path: req.path,
        headers: {
          ...(req.body ? { 'content-length': String(req.body.length) } : {}),
          ...req.headers,
        },
        timeout: timeoutMs,
      },
      (res) => {
        const parts: Buffer[] = [];
        res.on('data', (d: Buffer) => parts.push(d));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            text: Buffer.concat(parts).toString('utf8'),
          }),
        );
        res.on('error', reject);
      },
    );
    r.on('timeout', () => r.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    r.on('error', reject);
    r.end(req.body);
  });
}

/** Closes the kept-alive sockets. */
export function closeRawAgent(): void {
  agent.destroy();
}
