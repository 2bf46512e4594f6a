import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Transport } from '../../../src/client/transport.js';
import type { Logger, TransportOptions } from '../../../src/client/transport.js';
import { Stream } from '../../../src/client/sse.js';
import {
  AbortError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  ConnectionError,
  ERROR_CODES,
  InternalServerError,
  NotFoundError,
  RateLimitError,
  ResponseShapeError,
  TimeoutError,
  ValidationError,
} from '../../../src/errors.js';
import { startFaultServer, startResetServer } from '../../support/fault-server.js';
import type { FaultServer } from '../../support/fault-server.js';

const KEY = 'sk-test-0123456789abcdef';
let server: FaultServer;
const transports: Transport[] = [];

function transport(opts: Partial<TransportOptions> = {}): Transport {
  const t = new Transport({ baseURL: server.url, apiKey: KEY, retryBaseDelay: 10, ...opts });
  transports.push(t);
  return t;
}

async function failure(p: Promise<unknown>): Promise<Error> {
  try {
    await p;
  } catch (err) {
    return err as Error;
  }
  throw new Error('expected the request to fail');
}

function recordingLogger(): { logger: Logger; lines: string[] } {
  const lines: string[] = [];
  const rec =
    (level: string) =>
    (msg: string, meta?: Record<string, unknown>): void => {
      lines.push(`${level} ${msg} ${JSON.stringify(meta ?? {})}`);
    };
  return {
    logger: { debug: rec('debug'), info: rec('info'), warn: rec('warn'), error: rec('error') },
    lines,
  };
}

beforeAll(async () => {
  server = await startFaultServer();
});
afterAll(async () => {
  await Promise.all(transports.map((t) => t.close()));
  await server.close();
});

describe('retries', () => {
  it('retries a socket closed mid-body and returns the next good response', async () => {
    const data = await transport().request<{ attempt: number }>({
      method: 'GET',
      path: '/drop-mid-body/heal?heal=2',
    });
    expect(data.attempt).toBe(2);
    expect(server.hits('/drop-mid-body/heal')).toBe(2);
  });

  it('gives up with ConnectionError after maxRetries when the socket keeps dropping', async () => {
    const err = await failure(
      transport({ maxRetries: 1 }).request({ method: 'GET', path: '/drop-mid-body/always' }),
    );
    expect(err).toBeInstanceOf(ConnectionError);
    expect((err as ConnectionError).code).toBe(ERROR_CODES.connection);
    expect(err.message).toMatch(/^Connection failed: GET \/drop-mid-body\/always: /);
    expect(server.hits('/drop-mid-body/always')).toBe(2);
  });

  it('retries a refused/reset connection and reports ConnectionError', async () => {
    const reset = await startResetServer();
    try {
      const t = new Transport({
        baseURL: reset.url,
        apiKey: KEY,
        retryBaseDelay: 10,
        maxRetries: 2,
      });
      transports.push(t);
      const err = await failure(
        t.request({ method: 'POST', path: '/chat/completions', body: { a: 1 } }),
      );
      expect(err).toBeInstanceOf(ConnectionError);
      expect(reset.accepted()).toBe(3);
    } finally {
      await reset.close();
    }
  });

  it('retries a 429 after Retry-After seconds', async () => {
    const started = Date.now();
    const data = await transport().request<{ attempt: number }>({
      method: 'POST',
      path: '/rate-limited/s',
      body: {},
    });
    expect(data.attempt).toBe(2);
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
  });

  it('honours retry-after-ms over the backoff', async () => {
    const started = Date.now();
    await transport({ retryBaseDelay: 0 }).request({
      method: 'GET',
      path: '/rate-limited/ms?after_ms=300',
    });
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    expect(server.hits('/rate-limited/ms')).toBe(2);
  });

  it('honours Retry-After given as an HTTP date', async () => {
    const date = new Date(Date.now() + 1500).toUTCString();
    const started = Date.now();
    await transport().request({
      method: 'GET',
      path: `/rate-limited/date?after=${encodeURIComponent(date)}`,
    });
    // HTTP dates have 1 s resolution, so the wait is between 0.5 and 1.5 s.
    expect(Date.now() - started).toBeGreaterThanOrEqual(400);
    expect(server.hits('/rate-limited/date')).toBe(2);
  });

  it('throws RateLimitError with retryAfter in ms when out of retries', async () => {
    const err = await failure(
      transport({ maxRetries: 0 }).request({ method: 'GET', path: '/rate-limited/none' }),
    );
    expect(err).toBeInstanceOf(RateLimitError);
    expect((err as RateLimitError).retryAfter).toBe(1000);
    expect((err as RateLimitError).status).toBe(429);
    expect((err as RateLimitError).requestId).toMatch(/^req_/);
    expect(err.message).toBe('Rate limited (429): GET /rate-limited/none: Too many requests');
  });

  it('does not wait for a Retry-After beyond maxRetryAfter', async () => {
    const started = Date.now();
    const err = await failure(
      transport({ maxRetryAfter: 500 }).request({
        method: 'GET',
        path: '/rate-limited/long?after=30',
      }),
    );
    expect(err).toBeInstanceOf(RateLimitError);
    expect(Date.now() - started).toBeLessThan(1000);
    expect(server.hits('/rate-limited/long')).toBe(1);
  });

  it('retries a 503 twice then returns the 200', async () => {
    const data = await transport().request<{ attempt: number }>({
      method: 'GET',
      path: '/flaky/twice',
    });
    expect(data.attempt).toBe(3);
    expect(server.hits('/flaky/twice')).toBe(3);
  });

  it('throws InternalServerError when 5xx outlasts maxRetries', async () => {
    const err = await failure(
      transport({ maxRetries: 1 }).request({ method: 'GET', path: '/flaky/out' }),
    );
    expect(err).toBeInstanceOf(InternalServerError);
    expect(err.message).toBe('Server error (503): GET /flaky/out: Unavailable 2');
    expect(server.hits('/flaky/out')).toBe(2);
  });

  it('lets a per-request maxRetries override the client default', async () => {
    const err = await failure(
      transport({ maxRetries: 5 }).request({ method: 'GET', path: '/flaky/req', maxRetries: 0 }),
    );
    expect(err).toBeInstanceOf(InternalServerError);
    expect(server.hits('/flaky/req')).toBe(1);
  });

  it.each([
    [408, BadRequestError],
    [409, ConflictError],
  ])('retries a %i', async (code, cls) => {
    const path = `/status/retry-${code}`;
    const err = await failure(
      transport({ maxRetries: 2 }).request({ method: 'GET', path: `${path}?code=${code}` }),
    );
    expect(err).toBeInstanceOf(cls);
    expect(server.hits(path)).toBe(3);
  });

  it.each([
    [400, BadRequestError, ERROR_CODES.badRequest],
    [401, AuthenticationError, ERROR_CODES.authentication],
    [404, NotFoundError, ERROR_CODES.notFound],
    [413, BadRequestError, ERROR_CODES.badRequest],
  ])('does not retry a %i', async (code, cls, errCode) => {
    const path = `/status/no-retry-${code}`;
    const err = await failure(transport().request({ method: 'GET', path: `${path}?code=${code}` }));
    expect(err).toBeInstanceOf(cls);
    expect((err as BadRequestError).code).toBe(errCode);
    expect((err as BadRequestError).requestId).toBe('req_fixed');
    expect(server.hits(path)).toBe(1);
  });

  it('does not retry a 422 and exposes detail[] with the field location', async () => {
    const err = await failure(
      transport().request({ method: 'POST', path: '/status/v?code=422', body: { x: 1 } }),
    );
    expect(err).toBeInstanceOf(ValidationError);
    expect((err as ValidationError).detail[0]?.loc).toEqual(['body', 'messages', 0, 'role']);
    expect(err.message).toMatch(
      /^Validation failed \(422\): POST \/status\/v\?code=422: body\.messages\.0\.role: /,
    );
    expect(server.hits('/status/v')).toBe(1);
  });

  it('reports a 2xx that is not JSON as ResponseShapeError', async () => {
    const err = await failure(transport().request({ method: 'GET', path: '/no-json/x' }));
    expect(err).toBeInstanceOf(ResponseShapeError);
    expect(server.hits('/no-json/x')).toBe(1);
  });
});

describe('timeout and abort', () => {
  it('throws TimeoutError when the response is slower than timeout', async () => {
    const started = Date.now();
    const err = await failure(
      transport({ maxRetries: 0 }).request({
        method: 'GET',
        path: '/slow/t?ms=3000',
        timeout: 200,
      }),
    );
    expect(err).toBeInstanceOf(TimeoutError);
    expect(err).not.toBeInstanceOf(AbortError);
    expect((err as TimeoutError).timeout).toBe(200);
    expect(err.message).toBe('Request timed out after 200 ms: GET /slow/t?ms=3000');
    expect(Date.now() - started).toBeLessThan(1500);
  });

  it('retries a timed-out attempt, each attempt getting the full timeout', async () => {
    const err = await failure(
      transport({ maxRetries: 1, timeout: 150 }).request({
        method: 'GET',
        path: '/slow/rt?ms=3000',
      }),
    );
    expect(err).toBeInstanceOf(TimeoutError);
    expect(server.hits('/slow/rt')).toBe(2);
  });

  it.each([0, 2])(
    'throws AbortError, not TimeoutError, when the caller aborts, and never retries (maxRetries %i)',
    async (maxRetries) => {
      const path = `/slow/a${maxRetries}`;
      const signal = AbortSignal.timeout(150);
      const err = await failure(
        transport({ maxRetries }).request({
          method: 'GET',
          path: `${path}?ms=3000`,
          signal,
          timeout: 5000,
        }),
      );
      expect(err).toBeInstanceOf(AbortError);
      expect(err).not.toBeInstanceOf(TimeoutError);
      expect((err as AbortError).code).toBe(ERROR_CODES.aborted);
      expect(err.message).toBe(`Request aborted: GET ${path}?ms=3000`);
      expect(server.hits(path)).toBe(1);
    },
  );

  it('stops waiting for a retry when the caller aborts during backoff', async () => {
    const ac = new AbortController();
    const started = Date.now();
    setTimeout(() => ac.abort(), 200);
    const err = await failure(
      transport({ retryBaseDelay: 10_000, retryMaxDelay: 10_000 }).request({
        method: 'GET',
        path: '/rate-limited/abort?after=5',
        signal: ac.signal,
      }),
    );
    expect(err).toBeInstanceOf(AbortError);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(server.hits('/rate-limited/abort')).toBe(1);
  });

  it('rejects at once with AbortError when the signal is already aborted', async () => {
    const err = await failure(
      transport().request({ method: 'GET', path: '/echo/pre', signal: AbortSignal.abort() }),
    );
    expect(err).toBeInstanceOf(AbortError);
    expect(server.hits('/echo/pre')).toBe(0);
  });
});

describe('authentication and redaction', () => {
  it('sends the key as a bearer header and never in the URL', async () => {
    const echo = await transport().request<{ url: string; headers: Record<string, string> }>({
      method: 'GET',
      path: '/echo/auth',
      query: { limit: 5, next_token: undefined },
    });
    expect(echo.headers['authorization']).toBe(`Bearer ${KEY}`);
    expect(echo.url).toBe('/echo/auth?limit=5');
    expect(echo.url).not.toContain(KEY);
  });

  it('does not let caller headers replace the Authorization header', async () => {
    const echo = await transport().request<{ headers: Record<string, string> }>({
      method: 'GET',
      path: '/echo/override',
      headers: { Authorization: 'Bearer other', 'X-Trace': 't1' },
    });
    expect(echo.headers['authorization']).toBe(`Bearer ${KEY}`);
    expect(echo.headers['x-trace']).toBe('t1');
  });

  it('uses a rotated key on the next request of a live client', async () => {
    const t = transport();
    const before = await t.request<{ headers: Record<string, string> }>({
      method: 'GET',
      path: '/echo/rot1',
    });
    t.setApiKey('sk-rotated-key-9876');
    const after = await t.request<{ headers: Record<string, string> }>({
      method: 'GET',
      path: '/echo/rot2',
    });
    expect(before.headers['authorization']).toBe(`Bearer ${KEY}`);
    expect(after.headers['authorization']).toBe('Bearer sk-rotated-key-9876');
  });

  it('strips the key (current and rotated-out) from error messages', async () => {
    const t = transport({ maxRetries: 0 });
    t.setApiKey('sk-second-key-5555');
    const msg = encodeURIComponent(`invalid key ${KEY} and sk-second-key-5555`);
    const err = await failure(
      t.request({ method: 'GET', path: `/status/leak?code=401&message=${msg}` }),
    );
    expect(err).toBeInstanceOf(AuthenticationError);
    expect(err.message).not.toContain(KEY);
    expect(err.message).not.toContain('sk-second-key-5555');
    expect(err.message).toContain('invalid key [redacted] and [redacted]');
  });

  it('strips token= query values and never includes the request body in messages', async () => {
    const err = await failure(
      transport({ maxRetries: 0 }).request({
        method: 'POST',
        path: '/status/tok?code=500&token=cdp-secret-123',
        body: { auth_token: 'body-secret-456' },
      }),
    );
    expect(err.message).toContain('token=[redacted]');
    expect(err.message).not.toContain('cdp-secret-123');
    expect(err.message).not.toContain('body-secret-456');
  });

  it('keeps the key out of every log line', async () => {
    const { logger, lines } = recordingLogger();
    const msg = encodeURIComponent(`bad ${KEY}`);
    await failure(
      transport({ logger, maxRetries: 1 }).request({
        method: 'GET',
        path: `/status/log?code=500&message=${msg}`,
      }),
    );
    expect(lines.some((l) => l.startsWith('warn retrying GET /status/log'))).toBe(true);
    expect(lines.length).toBeGreaterThanOrEqual(3);
    for (const line of lines) expect(line).not.toContain(KEY);
  });
});

describe('streaming', () => {
  it('returns the raw body of a 2xx for SSE parsing and ends at [DONE]', async () => {
    const res = await transport().request({
      method: 'POST',
      path: '/sse/ok?n=3',
      body: {},
      stream: true,
    });
    expect(res.requestId).toBe('req_sse');
    const got: string[] = [];
    for await (const c of Stream.fromSSE<{ choices: { delta: { content: string } }[] }>(res)) {
      got.push(c.choices[0]!.delta.content);
    }
    expect(got).toEqual(['t0', 't1', 't2']);
  });

  it('throws TimeoutError when a stream stalls past idleTimeout and closes the socket', async () => {
    const res = await transport().request({
      method: 'POST',
      path: '/stall-stream/a',
      body: {},
      stream: true,
      idleTimeout: 200,
    });
    const closedBefore = server.closedEarly;
    const got: unknown[] = [];
    const err = await failure(
      (async () => {
        for await (const c of Stream.fromSSE(res)) got.push(c);
      })(),
    );
    expect(got).toHaveLength(1);
    expect(err).toBeInstanceOf(TimeoutError);
    expect(err.message).toBe('Stream stalled: no data for 200 ms');
    await expect.poll(() => server.closedEarly).toBeGreaterThan(closedBefore);
  });

  it('throws ConnectionError when the socket drops mid-stream', async () => {
    const res = await transport().request({
      method: 'POST',
      path: '/drop-stream/a',
      body: {},
      stream: true,
    });
    const got: unknown[] = [];
    const err = await failure(
      (async () => {
        for await (const c of Stream.fromSSE(res)) got.push(c);
      })(),
    );
    expect(got).toHaveLength(1);
    expect(err).toBeInstanceOf(ConnectionError);
  });

  it('ends iteration quietly when stream.controller aborts', async () => {
    const res = await transport().request({
      method: 'POST',
      path: '/stall-stream/b',
      body: {},
      stream: true,
    });
    const stream = Stream.fromSSE(res);
    const got: unknown[] = [];
    for await (const c of stream) {
      got.push(c);
      stream.controller.abort();
    }
    expect(got).toHaveLength(1);
  });

  it("throws AbortError when the caller's signal aborts a stream", async () => {
    const ac = new AbortController();
    const res = await transport().request({
      method: 'POST',
      path: '/stall-stream/c',
      body: {},
      stream: true,
      signal: ac.signal,
    });
    const err = await failure(
      (async () => {
        for await (const _ of Stream.fromSSE(res)) ac.abort();
      })(),
    );
    expect(err).toBeInstanceOf(AbortError);
  });

  it('throws the API error, not a stream, when a streaming request gets a 4xx', async () => {
    const err = await failure(
      transport().request({ method: 'POST', path: '/status/s?code=404', body: {}, stream: true }),
    );
    expect(err).toBeInstanceOf(NotFoundError);
  });
});
