/**
 * The typed client: one object exposing every resource of the spec.
 *
 * Environment variables, read here and nowhere else (explicit options win):
 * - `SVC_API_KEY`: the API key, when `apiKey` is not given.
 * - `SVC_BASE_URL`: the service's base URL, when `baseURL` is not given.
 * - `SVC_CDP_URL_TEMPLATE`: the CDP URL template, when `cdpUrlTemplate` is not given.
 */
import type { Agent } from 'undici';
import { ROUTES, routePath } from '../protocol/index.js';
import type {
  BodyIn,
  QueryIn,
  ResponseOut,
  RouteDef,
  RouteId,
  RoutePathParams,
} from '../protocol/index.js';
import { SvcError } from '../errors.js';
import { Transport, TRANSPORT_DEFAULTS } from './transport.js';
import { checkCount, checkMs } from './util.js';
import type { Logger, QueryValue, RequestOptions, StreamResponse } from './transport.js';
import { parseResponse, validateRequest } from './validate.js';
import { AsyncResource } from './resources/async-chat.js';
import { Auth } from './resources/auth.js';
import { Browser } from './resources/browser-sessions.js';
import { Chat } from './resources/chat.js';
import { ContextualizedEmbeddings } from './resources/contextualized-embeddings.js';
import { Embeddings } from './resources/embeddings.js';
import { Search } from './resources/search.js';

/** Options of {@link Client}. Every field is optional; see {@link DEFAULTS}. */
export interface ClientOptions {
  /** Bearer key. @default process.env.SVC_API_KEY */
  apiKey?: string | undefined;
  /** Base URL of the service, e.g. `http://127.0.0.1:8787`. @default process.env.SVC_BASE_URL */
  baseURL?: string | undefined;
  /** Per-attempt timeout in ms (to the response headers for streams). @default DEFAULTS.timeout */
  timeout?: number | undefined;
  /** Retries after the first attempt on connection errors, 408, 409, 429, 5xx. @default DEFAULTS.maxRetries */
  maxRetries?: number | undefined;
  /** Longest silence between two stream events, in ms; `0` disables. @default DEFAULTS.idleTimeout */
  idleTimeout?: number | undefined;
  /** undici `Agent` options for the connection pool (connections, keepAliveTimeout, connect/TLS). */
  fetchOptions?: Agent.Options | undefined;
  /** Receives request, retry and failure lines; never the API key. @default no logging */
  logger?: Logger | undefined;
  /**
   * CDP URL used when a session record has no `cdp_url` (some hosted services). `{session_id}` is
   * replaced by the session id, `{ws_base}` by the base URL with `ws(s)://`.
   * @default DEFAULTS.cdpUrlTemplate
   */
  cdpUrlTemplate?: string | undefined;
  /** Validate requests with the shared schemas before sending. @default DEFAULTS.validate */
  validate?: boolean | undefined;
  /** Headers sent with every request (never `Authorization`). */
  defaultHeaders?: Record<string, string> | undefined;
}

/** Client defaults, applied once with `??`. */
export const DEFAULTS = {
  timeout: TRANSPORT_DEFAULTS.timeout,
  maxRetries: TRANSPORT_DEFAULTS.maxRetries,
  idleTimeout: TRANSPORT_DEFAULTS.idleTimeout,
  cdpUrlTemplate: '{ws_base}/v1/browser/sessions/{session_id}/cdp',
  validate: true,
} as const;

/** The environment variables the client reads, resolved. */
export interface ClientEnv {
  apiKey: string | undefined;
  baseURL: string | undefined;
  cdpUrlTemplate: string | undefined;
}

/**
 * Read `SVC_API_KEY`, `SVC_BASE_URL` and `SVC_CDP_URL_TEMPLATE`; empty values count as unset.
 * @default env process.env
 */
export function readClientEnv(env: Record<string, string | undefined> = process.env): ClientEnv {
  const get = (k: string): string | undefined => (env[k]?.trim() ? env[k]?.trim() : undefined);
  return {
    apiKey: get('SVC_API_KEY'),
    baseURL: get('SVC_BASE_URL'),
    cdpUrlTemplate: get('SVC_CDP_URL_TEMPLATE'),
  };
}

type RouteOf<I extends RouteId> = (typeof ROUTES)[I];

/** API routes of a kind: `call` reads `json`/`empty` (and `json-sse` without `stream`), `callStream` SSE, `callBytes` bytes and pages. */
type RoutesOfKind<K extends RouteDef['kind']> = {
  [I in RouteId]: RouteOf<I>['kind'] extends K ? I : never;
}[RouteId];

/** Routes {@link Client.call} serves: JSON answers, or none. */
export type CallRouteId = RoutesOfKind<'json' | 'empty' | 'json-sse'>;
/** Routes {@link Client.callStream} serves: Server-Sent Events. */
export type StreamRouteId = RoutesOfKind<'json-sse' | 'sse'>;
/** Routes {@link Client.callBytes} serves: a file's bytes or a page. */
export type BytesRouteId = RoutesOfKind<'bytes' | 'html'>;

/**
 * Arguments of a call to route `I`, typed by its table entry: `pathParams` by the template's
 * names, `body` and `query` by the route's request schemas.
 */
export type CallArgs<I extends RouteId = RouteId> = (RoutePathParams<I> extends never
  ? { pathParams?: Record<string, never> }
  : { pathParams: Record<RoutePathParams<I>, string> }) &
  (BodyIn<RouteOf<I>> extends undefined ? { body?: undefined } : { body: BodyIn<RouteOf<I>> }) &
  (QueryIn<RouteOf<I>> extends undefined ? { query?: undefined } : { query?: QueryIn<RouteOf<I>> });

/** What route `I` answers, parsed with its response schema; `undefined` when it has no body. */
export type CallResult<I extends RouteId> = ResponseOut<RouteOf<I>>;

interface LooseArgs {
  pathParams?: Record<string, string>;
  body?: unknown;
  query?: Record<string, QueryValue>;
}

/**
 * Typed client for the service.
 * @throws {SvcError} at construction when an option is invalid (the message names it) or when no
 * API key / base URL is configured (the message names `SVC_API_KEY` / `SVC_BASE_URL`).
 * @example
 * const client = new Client({ baseURL: 'http://127.0.0.1:8787', apiKey: process.env.SVC_API_KEY });
 * const res = await client.chat.completions.create({ model: 'core', messages: [{ role: 'user', content: 'Hi' }] });
 */
export class Client {
  readonly baseURL: string;
  readonly timeout: number;
  readonly maxRetries: number;
  readonly idleTimeout: number;
  readonly cdpUrlTemplate: string;
  readonly validate: boolean;
  /** The HTTP transport; resources go through {@link Client.call}. */
  readonly transport: Transport;

  readonly chat: Chat;
  readonly async: AsyncResource;
  readonly search: Search;
  readonly embeddings: Embeddings;
  readonly contextualizedEmbeddings: ContextualizedEmbeddings;
  readonly auth: Auth;
  readonly browser: Browser;

  constructor(options: ClientOptions = {}) {
    if (typeof options !== 'object' || options === null) {
      throw new SvcError('Invalid options: expected an object');
    }
    const env = readClientEnv();
    const apiKey = options.apiKey ?? env.apiKey;
    if (apiKey === undefined || typeof apiKey !== 'string' || apiKey.trim() === '') {
      throw new SvcError(
        'Missing API key: pass { apiKey } to new Client() or set the SVC_API_KEY environment variable',
      );
    }
    this.baseURL = checkBaseURL(options.baseURL ?? env.baseURL);
    this.timeout = checkMs('timeout', options.timeout ?? DEFAULTS.timeout);
    this.maxRetries = checkCount('maxRetries', options.maxRetries ?? DEFAULTS.maxRetries);
    this.idleTimeout = checkMs('idleTimeout', options.idleTimeout ?? DEFAULTS.idleTimeout, true);
    this.cdpUrlTemplate = checkTemplate(
      options.cdpUrlTemplate ?? env.cdpUrlTemplate ?? DEFAULTS.cdpUrlTemplate,
    );
    this.validate = checkBoolean('validate', options.validate ?? DEFAULTS.validate);
    checkLogger(options.logger);
    if (
      options.fetchOptions !== undefined &&
      (typeof options.fetchOptions !== 'object' || options.fetchOptions === null)
    ) {
      throw new SvcError('Invalid option fetchOptions: expected an object of undici Agent options');
    }
    this.transport = new Transport({
      baseURL: this.baseURL,
      apiKey,
      timeout: this.timeout,
      maxRetries: this.maxRetries,
      idleTimeout: this.idleTimeout,
      agentOptions: options.fetchOptions,
      logger: options.logger,
      defaultHeaders: options.defaultHeaders,
    });
    this.chat = new Chat(this);
    this.async = new AsyncResource(this);
    this.search = new Search(this);
    this.embeddings = new Embeddings(this);
    this.contextualizedEmbeddings = new ContextualizedEmbeddings(this);
    this.auth = new Auth(this);
    this.browser = new Browser(this);
  }

  /**
   * Swap the API key on the live client (key rotation); in-flight requests keep the old one.
   * @throws {SvcError} when `key` is empty.
   */
  setApiKey(key: string): void {
    this.transport.setApiKey(key);
  }

  /** Close the connection pool. Later calls fail. */
  async close(): Promise<void> {
    await this.transport.close();
  }

  /**
   * Call a route of the shared route table: validate the body, send, parse the response.
   * Resources use it; it is public for routes this version has no method for yet.
   * @throws {ValidationError} when the body breaks the route's schema (nothing is sent).
   * @throws {ResponseShapeError} when a 2xx body breaks the route's response schema.
   * @throws {APIError | ConnectionError | TimeoutError | AbortError} from the transport.
   */
  async call<I extends CallRouteId>(
    id: I,
    args: CallArgs<I>,
    options: RequestOptions = {},
  ): Promise<CallResult<I>> {
    const request = this.#prepare(id, args);
    const data = await this.transport.request<unknown>({ ...options, ...request });
    const { response } = ROUTES[id] as RouteDef;
    return (
      response === null ? undefined : parseResponse(response, data, request.method, request.path)
    ) as CallResult<I>;
  }

  /**
   * Like {@link Client.call} for a route that answers with Server-Sent Events.
   * @throws as {@link Client.call}, before the stream starts.
   */
  callStream<I extends StreamRouteId>(
    id: I,
    args: CallArgs<I>,
    options: RequestOptions = {},
  ): Promise<StreamResponse> {
    return this.transport.request({ ...options, ...this.#prepare(id, args), stream: true });
  }

  /**
   * Like {@link Client.call} for a route that answers a file's bytes or a page: the whole body.
   * @throws as {@link Client.call}.
   */
  async callBytes<I extends BytesRouteId>(
    id: I,
    args: CallArgs<I>,
    options: RequestOptions = {},
  ): Promise<Buffer> {
    const res = await this.transport.request({
      ...options,
      ...this.#prepare(id, args),
      stream: true,
    });
    const chunks: Uint8Array[] = [];
    for await (const chunk of res.body) chunks.push(chunk);
    return Buffer.concat(chunks);
  }

  /** The request of a call: its path filled, its body and query checked with the route's schemas. */
  #prepare(id: RouteId, callArgs: object) {
    const args = callArgs as LooseArgs;
    const route: RouteDef = ROUTES[id];
    const path = this.#path(id, args.pathParams);
    if (this.validate && route.body !== undefined) {
      validateRequest(route.body, args.body, route.method, path);
    }
    if (this.validate && route.query !== undefined) {
      validateRequest(route.query, args.query ?? {}, route.method, path, 'query');
    }
    return { method: route.method, path, query: args.query, body: args.body };
  }

  #path(id: RouteId, params: Record<string, string> | undefined): string {
    const route: RouteDef = ROUTES[id];
    for (const name of route.pathParams) {
      const v = params?.[name];
      if (typeof v !== 'string' || v === '') {
        throw new SvcError(
          `Invalid argument ${name}: expected a non-empty string, got ${JSON.stringify(v)}`,
        );
      }
    }
    return (routePath as (id: RouteId, p?: Record<string, string>) => string)(id, params);
  }
}

function checkBaseURL(value: unknown): string {
  if (value === undefined) {
    throw new SvcError(
      'Missing base URL: pass { baseURL } to new Client() or set the SVC_BASE_URL environment variable (e.g. the URL printed by `svc serve`)',
    );
  }
  let url: URL;
  try {
    url = new URL(String(value));
  } catch (cause) {
    throw new SvcError(
      `Invalid option baseURL: expected an http(s) URL, got ${JSON.stringify(value)}`,
      { cause },
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new SvcError(`Invalid option baseURL: expected an http(s) URL, got ${url.protocol} URL`);
  }
  if (url.search !== '' || url.username !== '' || url.password !== '') {
    throw new SvcError('Invalid option baseURL: must not carry a query string or credentials');
  }
  return url.href.replace(/\/+$/, '');
}

function checkTemplate(value: unknown): string {
  if (typeof value !== 'string' || !value.includes('{session_id}')) {
    throw new SvcError('Invalid option cdpUrlTemplate: expected a string containing {session_id}');
  }
  return value;
}

function checkBoolean(name: string, value: unknown): boolean {
  if (typeof value !== 'boolean') throw new SvcError(`Invalid option ${name}: expected a boolean`);
  return value;
}

function checkLogger(logger: unknown): void {
  if (logger === undefined) return;
  const ok =
    typeof logger === 'object' &&
    logger !== null &&
    (['debug', 'info', 'warn', 'error'] as const).every(
      (m) => typeof (logger as Record<string, unknown>)[m] === 'function',
    );
  if (!ok)
    throw new SvcError(
      'Invalid option logger: expected an object with debug, info, warn and error functions',
    );
}
