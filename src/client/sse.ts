/**
 * Server-Sent Events: a parser over any byte stream (undici's body included) and {@link Stream},
 * the async iterable that streaming resources return.
 */
import {
  AbortError,
  APIError,
  ConnectionError,
  ResponseShapeError,
  SvcError,
  TimeoutError,
} from '../errors.js';
import { TRANSPORT_DEFAULTS } from './transport.js';
import { describe } from './util.js';

/** One dispatched SSE event. `data` joins multi-line `data:` fields with `\n`. */
export interface SSEEvent {
  /** The `event:` field, or `undefined` for the default `message` type. */
  event: string | undefined;
  data: string;
  /** The last `id:` seen, per the SSE spec it persists across events. */
  id: string | undefined;
  /** The `retry:` field in ms, when this event carried one. */
  retry: number | undefined;
}

/** Options of {@link parseSSE}. */
export interface ParseSSEOptions {
  /**
   * Longest silence allowed between two chunks of the source, in ms; `0` disables it.
   * @default 0
   */
  idleTimeout?: number;
  /** Called once when the idle timeout fires, before the `TimeoutError` is thrown; use it to drop the socket. */
  onIdleTimeout?: () => void;
}

const LINE_END = /\r\n|\r|\n/;

/**
 * Parse an SSE byte (or text) stream into events, following the WHATWG rules: `:` comments are
 * skipped, `data:` lines accumulate, a blank line dispatches, CR, LF and CRLF all end lines.
 * @throws {TimeoutError} when the source is silent for longer than `idleTimeout`.
 * @example
 * for await (const ev of parseSSE(res.body)) console.log(ev.data);
 */
export async function* parseSSE(
  source: AsyncIterable<Uint8Array | string>,
  options: ParseSSEOptions = {},
): AsyncGenerator<SSEEvent, void, undefined> {
  const idleTimeout = options.idleTimeout ?? 0;
  const decoder = new TextDecoder('utf-8');
  const it = source[Symbol.asyncIterator]();
  let buffer = '';
  let data: string[] = [];
  let event: string | undefined;
  let id: string | undefined;
  let retry: number | undefined;
  let sawAny = false;
  let done = false;

  const takeLine = (line: string): SSEEvent | undefined => {
    if (line === '') {
      const had = sawAny;
      const ev: SSEEvent = { event, data: data.join('\n'), id, retry };
      data = [];
      event = undefined;
      retry = undefined;
      sawAny = false;
      return had ? ev : undefined;
    }
    if (line.startsWith(':')) return undefined;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') {
      data.push(value);
      sawAny = true;
    } else if (field === 'event') {
      event = value;
    } else if (field === 'id') {
      if (!value.includes('\0')) id = value;
    } else if (field === 'retry') {
      if (/^\d+$/.test(value)) retry = Number(value);
    }
    return undefined;
  };

  try {
    while (!done) {
      const next = await nextWithin(it, idleTimeout, options.onIdleTimeout);
      if (next.done === true) {
        done = true;
        buffer += decoder.decode();
      } else {
        buffer +=
          typeof next.value === 'string'
            ? next.value
            : decoder.decode(next.value, { stream: true });
      }
      for (;;) {
        const m = LINE_END.exec(buffer);
        if (m === null) break;
        // A lone CR at the end may be the first half of a CRLF split across chunks.
        if (m[0] === '\r' && m.index === buffer.length - 1 && !done) break;
        const line = buffer.slice(0, m.index);
        buffer = buffer.slice(m.index + m[0].length);
        const ev = takeLine(line);
        if (ev !== undefined) yield ev;
      }
    }
    // The SSE spec discards an event not terminated by a blank line; servers that forget the
    // last blank line are common enough that we dispatch it anyway.
    if (buffer !== '') takeLine(buffer);
    const tail = takeLine('');
    if (tail !== undefined) yield tail;
  } finally {
    if (!done) void Promise.resolve(it.return?.()).catch(() => undefined);
  }
}

async function nextWithin<T>(
  it: AsyncIterator<T>,
  timeout: number,
  onTimeout: (() => void) | undefined,
): Promise<IteratorResult<T>> {
  if (timeout <= 0) return it.next();
  let timer: NodeJS.Timeout | undefined;
  const pending = it.next();
  const stalled = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      // The pending read will reject once the socket is dropped; nobody awaits it any more.
      pending.catch(() => undefined);
      onTimeout?.();
      reject(new TimeoutError(`Stream stalled: no data for ${timeout} ms`, { timeout }));
    }, timeout);
  });
  try {
    return await Promise.race([pending, stalled]);
  } finally {
    clearTimeout(timer);
  }
}

/** What {@link Stream.fromSSE} needs to know about the request behind a stream. */
export interface StreamSource {
  /** The raw response body. */
  body: AsyncIterable<Uint8Array | string>;
  /** Aborting it drops the connection. */
  controller: AbortController;
  /** The caller's signal: when it fired, an abort is reported as `AbortError`. */
  signal?: AbortSignal | undefined;
  /** Response headers, lower-cased. */
  headers?: Record<string, string>;
  /** For error messages. */
  method: string;
  /** For error messages. */
  path: string;
  /**
   * Longest silence between two events, in ms; `0` disables it.
   * @default DEFAULT_IDLE_TIMEOUT_MS
   */
  idleTimeout?: number | undefined;
}

/** Default stall timeout between two stream events, in ms: the transport's `idleTimeout`. */
export const DEFAULT_IDLE_TIMEOUT_MS = TRANSPORT_DEFAULTS.idleTimeout;

/**
 * An async iterable of server events. Breaking out of `for await` or calling
 * `stream.controller.abort()` closes the connection and ends iteration quietly.
 * @example
 * const stream = await client.chat.completions.create({ model: 'core', messages, stream: true });
 * for await (const chunk of stream) process.stdout.write(chunk.choices[0]?.delta.content ?? '');
 */
export class Stream<T> implements AsyncIterable<T> {
  /** Abort to close the connection; iteration then ends without an error. */
  readonly controller: AbortController;
  #make: () => AsyncGenerator<T, void, undefined>;
  #consumed = false;

  constructor(make: () => AsyncGenerator<T, void, undefined>, controller: AbortController) {
    this.#make = make;
    this.controller = controller;
  }

  /**
   * A stream of SSE `data:` payloads parsed by `parse`, ending at `data: [DONE]`. `parse` may
   * return `undefined` to skip an event (e.g. an event type this version does not know).
   * An event whose JSON carries a top-level `error` object is thrown as an {@link APIError}.
   * @throws {TimeoutError} when the stream stalls longer than `idleTimeout`.
   * @throws {ConnectionError} when the connection drops mid-stream.
   * @throws {AbortError} when the caller's `signal` fired.
   * @throws {ResponseShapeError} when an event is not JSON or `parse` rejects it.
   */
  static fromSSE<T>(
    source: StreamSource,
    parse: (json: unknown, event: SSEEvent) => T | undefined = (json) => json as T,
  ): Stream<T> {
    const { controller, method, path } = source;
    const where = `${method} ${path}`;
    async function* run(): AsyncGenerator<T, void, undefined> {
      let finished = false;
      try {
        const events = parseSSE(source.body, {
          idleTimeout: source.idleTimeout ?? DEFAULT_IDLE_TIMEOUT_MS,
          onIdleTimeout: () => controller.abort(),
        });
        for await (const ev of events) {
          if (ev.data === '[DONE]') {
            finished = true;
            return;
          }
          let json: unknown;
          try {
            json = JSON.parse(ev.data);
          } catch (cause) {
            throw new ResponseShapeError(`Stream event is not JSON: ${where}`, {
              cause,
              body: ev.data,
            });
          }
          if (ev.event === 'error' || isErrorPayload(json)) {
            const msg = errorMessage(json) ?? ev.data.slice(0, 200);
            throw new APIError(`Stream failed: ${where}: ${msg}`, {
              status: 200,
              body: json,
              headers: source.headers ?? {},
            });
          }
          const item = parse(json, ev);
          if (item !== undefined) yield item;
        }
        finished = true;
      } catch (err) {
        if (err instanceof SvcError) throw err;
        if (source.signal?.aborted === true) {
          throw new AbortError(`Request aborted: ${where}`, { cause: err });
        }
        if (controller.signal.aborted) return;
        throw new ConnectionError(`Stream interrupted: ${where}: ${describe(err)}`, { cause: err });
      } finally {
        if (!finished && !controller.signal.aborted) controller.abort();
      }
    }
    return new Stream(run, controller);
  }

  [Symbol.asyncIterator](): AsyncIterator<T> {
    if (this.#consumed) {
      throw new SvcError('Stream already consumed: a Stream can be iterated only once');
    }
    this.#consumed = true;
    return this.#make();
  }

  /**
   * A web `ReadableStream` of newline-delimited JSON, one line per item, for handing a stream to
   * a browser or another process. Cancelling it closes the connection.
   */
  toReadableStream(): ReadableStream<Uint8Array> {
    const encoder = new TextEncoder();
    let it: AsyncIterator<T> | undefined;
    return new ReadableStream<Uint8Array>({
      start: () => {
        it = this[Symbol.asyncIterator]();
      },
      pull: async (ctrl) => {
        try {
          const next = await it!.next();
          if (next.done === true) ctrl.close();
          else ctrl.enqueue(encoder.encode(`${JSON.stringify(next.value)}\n`));
        } catch (err) {
          ctrl.error(err);
        }
      },
      cancel: async () => {
        await it?.return?.();
      },
    });
  }
}

function isErrorPayload(json: unknown): boolean {
  return (
    typeof json === 'object' &&
    json !== null &&
    'error' in json &&
    typeof (json as { error: unknown }).error === 'object' &&
    !('choices' in json)
  );
}

function errorMessage(json: unknown): string | undefined {
  if (typeof json !== 'object' || json === null) return undefined;
  const e = (json as { error?: unknown }).error;
  if (
    typeof e === 'object' &&
    e !== null &&
    typeof (e as { message?: unknown }).message === 'string'
  ) {
    return (e as { message: string }).message;
  }
  return undefined;
}
