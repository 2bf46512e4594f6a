/**
 * HTTP transport on undici: a keep-alive pool, bearer auth, per-request timeout and abort,
 * retries with exponential backoff and full jitter, `Retry-After`, and redaction of secrets.
 */
import { Agent, request as undiciRequest } from 'undici';
import type { Dispatcher } from 'undici';
import {
  AbortError,
  APIError,
  ConnectionError,
  parseRetryAfter,
  redactPath,
  redactSecrets,
  ResponseShapeError,
  SvcError,
  TimeoutError,
} from '../errors.js';
import {
  checkCount,
  checkMs,
  describe,
  flatHeaders,
  lowerKeys,
  parseMaybeJSON,
  sleep,
} from './util.js';

/** A logger with the four usual levels; `console` fits. Lines never contain the API key. */
export interface Logger {
  debug(message: string, meta?: Record<string, unknown>): void;
  info(message: string, meta?: Record<string, unknown>): void;
  warn(message: string, meta?: Record<string, unknown>): void;
  error(message: string, meta?: Record<string, unknown>): void;
}

/** Options of one call, the `requestOptions` argument of every resource method. */
export interface RequestOptions {
  /** Aborting it rejects with `AbortError` and stops retries. */
  signal?: AbortSignal | undefined;
  /**
   * Per-attempt timeout in ms (for streams: until the response headers). A timed-out attempt is
   * retried like a dropped connection, as openai-node does. @default the client's
   */
  timeout?: number | undefined;
  /** Retries after the first attempt. @default the client's */
  maxRetries?: number | undefined;
  /** Extra headers; they cannot replace `Authorization`. */
  headers?: Record<string, string> | undefined;
  /** For streams: longest silence between two events, in ms. @default the client's */
  idleTimeout?: number | undefined;
}

/** Query values; `undefined` and `null` are left out. */
export type QueryValue = string | number | boolean | null | undefined;

/** One request as resources describe it. */
export interface TransportRequest extends RequestOptions {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Path below the base URL, starting with `/`. */
  path: string;
  query?: Record<string, QueryValue> | undefined;
  /** Serialised as JSON. */
  body?: unknown;
  /** Return the raw body after a 2xx instead of parsing JSON. */
  stream?: boolean | undefined;
}

/** A parsed JSON response with its metadata. */
export interface APIResponse<T> {
  data: T;
  status: number;
  headers: Record<string, string>;
  /** The server's `x-request-id`. */
  requestId: string | undefined;
}

/** A 2xx streaming response: the raw body, for {@link Stream.fromSSE}. */
export interface StreamResponse {
  body: AsyncIterable<Uint8Array>;
  status: number;
  headers: Record<string, string>;
  requestId: string | undefined;
  /** Aborting it drops the connection. */
  controller: AbortController;
  /** The caller's signal, if any. */
  signal: AbortSignal | undefined;
  method: string;
  /** The request path, secrets redacted. */
  path: string;
  idleTimeout: number;
}

/** Options of {@link Transport}. */
export interface TransportOptions {
  baseURL: string;
  apiKey: string;
  /** @default TRANSPORT_DEFAULTS.timeout */
  timeout?: number | undefined;
  /** @default TRANSPORT_DEFAULTS.maxRetries */
  maxRetries?: number | undefined;
  /** @default TRANSPORT_DEFAULTS.idleTimeout */
  idleTimeout?: number | undefined;
  /** undici `Agent` options (pool size, keep-alive, TLS, ...). Ignored when `dispatcher` is given. */
  agentOptions?: Agent.Options | undefined;
  /** Use this dispatcher instead of creating an `Agent`; the transport will not close it. */
  dispatcher?: Dispatcher | undefined;
  logger?: Logger | undefined;
  /** Headers sent with every request. */
  defaultHeaders?: Record<string, string> | undefined;
  /** First backoff ceiling in ms; doubles per retry. @default TRANSPORT_DEFAULTS.retryBaseDelay */
  retryBaseDelay?: number | undefined;
  /** Largest backoff ceiling in ms. @default TRANSPORT_DEFAULTS.retryMaxDelay */
  retryMaxDelay?: number | undefined;
  /** A `Retry-After` longer than this (ms) is not waited for: the error is thrown. @default TRANSPORT_DEFAULTS.maxRetryAfter */
  maxRetryAfter?: number | undefined;
}

/** Transport defaults, applied once with `??`. */
export const TRANSPORT_DEFAULTS = {
  timeout: 60_000,
  maxRetries: 2,
  idleTimeout: 60_000,
  retryBaseDelay: 500,
  retryMaxDelay: 8_000,
  maxRetryAfter: 60_000,
  keepAliveTimeout: 10_000,
} as const;

const RETRY_STATUSES = new Set([408, 409, 429]);
const USER_AGENT = 'svc-toolkit/0.1.0';

/**
 * Sends requests for the resources. One instance per client; it owns an undici `Agent`.
 * @example
 * const t = new Transport({ baseURL: 'http://127.0.0.1:8787', apiKey: 'key' });
 * const job = await t.request<{ id: string }>({ method: 'GET', path: '/async/chat/completions/abc' });
 */
export class Transport {
  readonly baseURL: string;
  readonly timeout: number;
  readonly maxRetries: number;
  readonly idleTimeout: number;
  #apiKey: string;
  // Every key ever set, so a rotated-out key is still scrubbed from later messages.
  readonly #secrets = new Set<string>();
  readonly #dispatcher: Dispatcher;
  readonly #ownsDispatcher: boolean;
  readonly #logger: Logger | undefined;
  readonly #defaultHeaders: Record<string, string>;
  readonly #retryBaseDelay: number;
  readonly #retryMaxDelay: number;
  readonly #maxRetryAfter: number;

  /** @throws {SvcError} when an option is out of range, naming it. */
  constructor(options: TransportOptions) {
    this.baseURL = options.baseURL.replace(/\/+$/, '');
    this.timeout = checkMs('timeout', options.timeout ?? TRANSPORT_DEFAULTS.timeout);
    this.maxRetries = checkCount('maxRetries', options.maxRetries ?? TRANSPORT_DEFAULTS.maxRetries);
    this.idleTimeout = checkMs(
      'idleTimeout',
      options.idleTimeout ?? TRANSPORT_DEFAULTS.idleTimeout,
      true,
    );
    this.#retryBaseDelay = checkMs(
      'retryBaseDelay',
      options.retryBaseDelay ?? TRANSPORT_DEFAULTS.retryBaseDelay,
      true,
    );
    this.#retryMaxDelay = checkMs(
      'retryMaxDelay',
      options.retryMaxDelay ?? TRANSPORT_DEFAULTS.retryMaxDelay,
      true,
    );
    this.#maxRetryAfter = checkMs(
      'maxRetryAfter',
      options.maxRetryAfter ?? TRANSPORT_DEFAULTS.maxRetryAfter,
      true,
    );
    this.#apiKey = '';
    this.setApiKey(options.apiKey);
    this.#logger = options.logger;
    this.#defaultHeaders = lowerKeys(options.defaultHeaders ?? {});
    this.#ownsDispatcher = options.dispatcher === undefined;
    this.#dispatcher =
      options.dispatcher ??
      new Agent({ keepAliveTimeout: TRANSPORT_DEFAULTS.keepAliveTimeout, ...options.agentOptions });
  }

  /** The `Authorization` header value of the next request (`Bearer <key>`). */
  authorization(): string {
    return `Bearer ${this.#apiKey}`;
  }

  /**
   * Swap the API key on a live client; the next request (and the next retry) uses it.
   * @throws {SvcError} when `key` is empty.
   */
  setApiKey(key: string): void {
    if (typeof key !== 'string' || key.trim() === '') {
      throw new SvcError('Invalid option apiKey: expected a non-empty string');
    }
    this.#apiKey = key;
    this.#secrets.add(key);
  }

  /**
   * Send a request and parse the JSON response (`undefined` for 204).
   * @throws {APIError} a subclass per status, after retries.
   * @throws {ConnectionError | TimeoutError | AbortError | ResponseShapeError}
   */
  async request<T>(req: TransportRequest & { stream?: false | undefined }): Promise<T>;
  /** Send a request and return the raw body of a 2xx for SSE parsing. */
  async request(req: TransportRequest & { stream: true }): Promise<StreamResponse>;
  async request<T>(req: TransportRequest): Promise<T | StreamResponse> {
    if (req.stream === true) return this.#send(req, true);
    return (await this.#send<T>(req, false)).data;
  }

  /** Like {@link Transport.request} but also returns status, headers and `requestId`. */
  async requestWithResponse<T>(req: TransportRequest): Promise<APIResponse<T>> {
    return this.#send<T>({ ...req, stream: false }, false);
  }

  /** Close the connection pool (only if the transport created it). */
  async close(): Promise<void> {
    if (this.#ownsDispatcher) await this.#dispatcher.close();
  }

  /** Scrub every API key this transport has held out of `text`. */
  redact(text: string): string {
    return redactSecrets(redactPath(text), [...this.#secrets]);
  }

  async #send(req: TransportRequest, stream: true): Promise<StreamResponse>;
  async #send<T>(req: TransportRequest, stream: false): Promise<APIResponse<T>>;
  async #send<T>(req: TransportRequest, stream: boolean): Promise<APIResponse<T> | StreamResponse> {
    const maxRetries = checkCount('maxRetries', req.maxRetries ?? this.maxRetries);
    const timeout = checkMs('timeout', req.timeout ?? this.timeout);
    const where = `${req.method} ${redactPath(req.path)}`;
    for (let attempt = 0; ; attempt++) {
      try {
        this.#log('debug', `request ${where}`, { attempt });
        return await this.#attempt<T>(req, stream, timeout, where);
      } catch (err) {
        const e = this.#scrub(err);
        const retryDelay = attempt < maxRetries ? this.#retryDelay(e, attempt) : undefined;
        if (retryDelay === undefined) {
          this.#log('debug', `failed ${where}: ${e.message}`, { attempt, code: e.code });
          throw e;
        }
        this.#log('warn', `retrying ${where} in ${Math.round(retryDelay)} ms: ${e.message}`, {
          attempt: attempt + 1,
          maxRetries,
        });
        await sleep(retryDelay, req.signal, where);
      }
    }
  }

  async #attempt<T>(
    req: TransportRequest,
    stream: boolean,
    timeout: number,
    where: string,
  ): Promise<APIResponse<T> | StreamResponse> {
    const signal = req.signal;
    if (signal?.aborted === true)
      throw new AbortError(`Request aborted: ${where}`, { cause: signal.reason });
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeout);
    const onAbort = (): void => controller.abort();
    signal?.addEventListener('abort', onAbort, { once: true });
    let handedOff = false;
    try {
      const res = await undiciRequest(this.#url(req), {
        method: req.method,
        headers: this.#headers(req, stream),
        body: req.body === undefined ? null : JSON.stringify(req.body),
        signal: controller.signal,
        dispatcher: this.#dispatcher,
      });
      const headers = flatHeaders(res.headers);
      const requestId = headers['x-request-id'];
      const ok = res.statusCode >= 200 && res.statusCode < 300;
      if (stream && ok) {
        clearTimeout(timer);
        handedOff = true;
        // The caller's signal must keep aborting the stream until the body is done.
        res.body.once('close', () => signal?.removeEventListener('abort', onAbort));
        return {
          body: res.body,
          status: res.statusCode,
          headers,
          requestId,
          controller,
          signal,
          method: req.method,
          path: redactPath(req.path),
          idleTimeout: checkMs('idleTimeout', req.idleTimeout ?? this.idleTimeout, true),
        };
      }
      const text = await res.body.text();
      if (!ok)
        throw APIError.from(res.statusCode, parseMaybeJSON(text), headers, req.method, req.path);
      if (res.statusCode === 204 || text === '') {
        return { data: undefined as T, status: res.statusCode, headers, requestId };
      }
      try {
        return { data: JSON.parse(text) as T, status: res.statusCode, headers, requestId };
      } catch (cause) {
        throw new ResponseShapeError(`Response is not JSON: ${where}: ${text.slice(0, 100)}`, {
          cause,
          body: text,
        });
      }
    } catch (err) {
      if (err instanceof SvcError) throw err;
      // Re-read through a call: TS narrowed `aborted` to false at the top of the function.
      if (isAborted(signal)) throw new AbortError(`Request aborted: ${where}`, { cause: err });
      if (timedOut) {
        throw new TimeoutError(`Request timed out after ${timeout} ms: ${where}`, {
          cause: err,
          timeout,
        });
      }
      throw new ConnectionError(`Connection failed: ${where}: ${describe(err)}`, { cause: err });
    } finally {
      clearTimeout(timer);
      if (!handedOff) signal?.removeEventListener('abort', onAbort);
    }
  }

  #retryDelay(err: SvcError, attempt: number): number | undefined {
    if (err instanceof AbortError) return undefined;
    let retryable = err instanceof ConnectionError || err instanceof TimeoutError;
    if (err instanceof APIError) {
      const hint = err.headers['x-should-retry'];
      retryable =
        hint === 'true'
          ? true
          : hint === 'false'
            ? false
            : RETRY_STATUSES.has(err.status) || err.status >= 500;
      if (!retryable) return undefined;
      const after = parseRetryAfter(err.headers);
      if (after !== undefined) return after <= this.#maxRetryAfter ? after : undefined;
    }
    if (!retryable) return undefined;
    const ceiling = Math.min(this.#retryMaxDelay, this.#retryBaseDelay * 2 ** attempt);
    return Math.random() * ceiling;
  }

  #url(req: TransportRequest): string {
    let url = this.baseURL + (req.path.startsWith('/') ? req.path : `/${req.path}`);
    if (req.query !== undefined) {
      const params = new URLSearchParams();
      for (const [k, v] of Object.entries(req.query))
        if (v !== undefined && v !== null) params.append(k, String(v));
      const qs = params.toString();
      if (qs !== '') url += (url.includes('?') ? '&' : '?') + qs;
    }
    return url;
  }

  #headers(req: TransportRequest, stream: boolean): Record<string, string> {
    const headers: Record<string, string> = {
      accept: stream ? 'text/event-stream' : 'application/json',
      'user-agent': USER_AGENT,
      ...this.#defaultHeaders,
      ...lowerKeys(req.headers ?? {}),
    };
    if (req.body !== undefined) headers['content-type'] = 'application/json';
    headers['authorization'] = `Bearer ${this.#apiKey}`;
    return headers;
  }

  #scrub(err: unknown): SvcError {
    const e = err instanceof SvcError ? err : new ConnectionError(describe(err), { cause: err });
    e.message = this.redact(e.message);
    return e;
  }

  #log(level: keyof Logger, message: string, meta: Record<string, unknown>): void {
    this.#logger?.[level](this.redact(message), meta);
  }
}

function isAborted(signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true;
}
