import { describe, expect, it } from 'vitest';
import { parseSSE, Stream } from '../../../src/client/sse.js';
import type { SSEEvent } from '../../../src/client/sse.js';
import {
  AbortError,
  APIError,
  ConnectionError,
  ResponseShapeError,
  TimeoutError,
} from '../../../src/errors.js';

const enc = new TextEncoder();

async function* bytes(...parts: string[]): AsyncGenerator<Uint8Array> {
  for (const p of parts) yield enc.encode(p);
}

async function collect(source: AsyncIterable<Uint8Array | string>): Promise<SSEEvent[]> {
  const out: SSEEvent[] = [];
  for await (const ev of parseSSE(source)) out.push(ev);
  return out;
}

function source(parts: string[], controller = new AbortController()) {
  return { body: bytes(...parts), controller, method: 'POST', path: '/chat/completions' };
}

describe('parseSSE', () => {
  it('yields one event per blank-line-terminated block', async () => {
    const evs = await collect(bytes('data: a\n\ndata: b\n\n'));
    expect(evs.map((e) => e.data)).toEqual(['a', 'b']);
  });

  it('joins multi-line data with newlines', async () => {
    const evs = await collect(bytes('data: line1\ndata: line2\ndata:\n\n'));
    expect(evs[0]!.data).toBe('line1\nline2\n');
  });

  it('skips comment lines and blocks without data', async () => {
    const evs = await collect(bytes(': keep-alive\n\n:another\ndata: x\n\nevent: ping\n\n'));
    expect(evs.map((e) => e.data)).toEqual(['x']);
  });

  it('accepts CRLF, CR and LF line endings, even split across chunks', async () => {
    const evs = await collect(bytes('data: a\r', '\n\r\ndata: b\r\rdata: c\n', '\n'));
    expect(evs.map((e) => e.data)).toEqual(['a', 'b', 'c']);
  });

  it('reassembles events and multi-byte characters split across chunks', async () => {
    const whole = enc.encode('data: {"t":"héllo ✓"}\n\n');
    async function* split(): AsyncGenerator<Uint8Array> {
      for (let i = 0; i < whole.length; i += 3) yield whole.slice(i, i + 3);
    }
    const evs = await collect(split());
    expect(JSON.parse(evs[0]!.data)).toEqual({ t: 'héllo ✓' });
  });

  it('reads event, id and retry fields and strips one leading space only', async () => {
    const evs = await collect(bytes('event: done\nid: 7\nretry: 1500\ndata:  two spaces\n\n'));
    expect(evs[0]).toEqual({ event: 'done', id: '7', retry: 1500, data: ' two spaces' });
  });

  it('dispatches a final event that lacks the trailing blank line', async () => {
    const evs = await collect(bytes('data: a\n\ndata: last'));
    expect(evs.map((e) => e.data)).toEqual(['a', 'last']);
  });

  it('throws TimeoutError when the source stalls longer than idleTimeout', async () => {
    let idled = false;
    async function* stalls(): AsyncGenerator<Uint8Array> {
      yield enc.encode('data: a\n\n');
      await new Promise((r) => setTimeout(r, 10_000));
    }
    const got: string[] = [];
    const run = async (): Promise<void> => {
      for await (const ev of parseSSE(stalls(), {
        idleTimeout: 50,
        onIdleTimeout: () => (idled = true),
      })) {
        got.push(ev.data);
      }
    };
    await expect(run()).rejects.toBeInstanceOf(TimeoutError);
    expect(got).toEqual(['a']);
    expect(idled).toBe(true);
  });
});

describe('Stream.fromSSE', () => {
  it('parses JSON events and stops at [DONE]', async () => {
    const stream = Stream.fromSSE<{ n: number }>(
      source(['data: {"n":1}\n\n', 'data: {"n":2}\n\ndata: [DONE]\n\ndata: {"n":3}\n\n']),
    );
    const got: number[] = [];
    for await (const x of stream) got.push(x.n);
    expect(got).toEqual([1, 2]);
  });

  it('applies the parse function to each event', async () => {
    const stream = Stream.fromSSE(
      source(['data: {"n":2}\n\n']),
      (j) => (j as { n: number }).n * 10,
    );
    const got: number[] = [];
    for await (const x of stream) got.push(x);
    expect(got).toEqual([20]);
  });

  it('throws ResponseShapeError on an event that is not JSON', async () => {
    const run = async (): Promise<void> => {
      for await (const _ of Stream.fromSSE(source(['data: nope\n\n']))) void _;
    };
    await expect(run()).rejects.toBeInstanceOf(ResponseShapeError);
  });

  it('throws APIError on an error event carrying the server message', async () => {
    const run = async (): Promise<void> => {
      for await (const _ of Stream.fromSSE(
        source(['data: {"error":{"message":"engine died"}}\n\n']),
      ))
        void _;
    };
    const err = await run().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(APIError);
    expect((err as APIError).message).toBe('Stream failed: POST /chat/completions: engine died');
    expect((err as APIError).body).toEqual({ error: { message: 'engine died' } });
  });

  it('wraps a source failure as ConnectionError', async () => {
    async function* breaks(): AsyncGenerator<Uint8Array> {
      yield enc.encode('data: {"n":1}\n\n');
      throw Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' });
    }
    const run = async (): Promise<void> => {
      for await (const _ of Stream.fromSSE({ ...source([]), body: breaks() })) void _;
    };
    const err = await run().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConnectionError);
    expect((err as Error).message).toBe(
      'Stream interrupted: POST /chat/completions: UND_ERR_SOCKET other side closed',
    );
  });

  it("reports AbortError when the caller's signal fired", async () => {
    const ac = new AbortController();
    ac.abort();
    async function* aborted(): AsyncGenerator<Uint8Array> {
      yield* [];
      throw new Error('aborted');
    }
    const run = async (): Promise<void> => {
      for await (const _ of Stream.fromSSE({ ...source([]), body: aborted(), signal: ac.signal }))
        void _;
    };
    await expect(run()).rejects.toBeInstanceOf(AbortError);
  });

  it('aborts the controller when the consumer breaks out early', async () => {
    const controller = new AbortController();
    const stream = Stream.fromSSE(source(['data: {"n":1}\n\ndata: {"n":2}\n\n'], controller));
    for await (const _ of stream) break;
    expect(controller.signal.aborted).toBe(true);
  });

  it('does not abort the controller after a clean [DONE]', async () => {
    const controller = new AbortController();
    for await (const _ of Stream.fromSSE(source(['data: {"n":1}\n\ndata: [DONE]\n\n'], controller)))
      void _;
    expect(controller.signal.aborted).toBe(false);
  });

  it('can be iterated only once', async () => {
    const stream = Stream.fromSSE(source(['data: {"n":1}\n\n']));
    for await (const _ of stream) void _;
    expect(() => stream[Symbol.asyncIterator]()).toThrow(/only once/);
  });

  it('toReadableStream emits one JSON line per item', async () => {
    const stream = Stream.fromSSE(source(['data: {"n":1}\n\ndata: {"n":2}\n\ndata: [DONE]\n\n']));
    const text = await new Response(stream.toReadableStream()).text();
    expect(text).toBe('{"n":1}\n{"n":2}\n');
  });
});
