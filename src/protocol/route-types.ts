// The shape of a route table entry and the types both sides derive from an entry: what the client
// sends and gets back, what the server's handler receives and returns.
import type { z } from 'zod';

/** Rate-limit bucket a route draws from. */
export type RateGroup = 'chat' | 'search' | 'embeddings' | 'browser' | 'auth' | 'async';

/** HTTP method of a route. */
export type HttpMethod = 'GET' | 'POST' | 'DELETE';

/**
 * How a route answers; it decides what the server's handler returns and how the client reads it:
 * - `json`: the `response` schema's JSON with `status`.
 * - `empty`: no body (`status`, e.g. 204).
 * - `json-sse`: JSON, or Server-Sent Events when the request body asks for `stream: true`.
 * - `sse`: Server-Sent Events only.
 * - `html`: a `text/html` page.
 * - `bytes`: a file's bytes (`application/octet-stream`).
 * - `websocket`: a WebSocket upgrade, served by the server's upgrade handler, not by a route handler.
 */
export type RouteKind = 'json' | 'empty' | 'json-sse' | 'sse' | 'html' | 'bytes' | 'websocket';

/**
 * Who may call a route:
 * - `bearer`: `Authorization: Bearer <key>` (checked before any handler runs).
 * - `bearer-or-link`: the bearer key, or a signed link (`?sig=`) a browser can open.
 * - `signed-link`: only a signed link (a wrong or missing signature reads as 404).
 * - `live-token`: the session's live view token in the `X-Live-Token` header, never the key.
 * - `public`: nothing (a static page that holds no data).
 * - `cdp`: the session's connect token (`?token=`) or its owner's bearer key, on the upgrade.
 */
export type RouteAuth =
  'bearer' | 'bearer-or-link' | 'signed-link' | 'live-token' | 'public' | 'cdp';

/** One route of the service, shared by client and server. */
export interface RouteDef {
  readonly id: string;
  readonly method: HttpMethod;
  /** Path template; `{name}` segments are filled by `routePath`. */
  readonly path: string;
  /** Other paths serving the same route (e.g. the `/v1/...` alias OpenAI-compatible SDKs call). */
  readonly aliases?: readonly string[];
  readonly pathParams: readonly string[];
  /** Schema of the path parameters, when a parameter is more than an opaque id (422 at `path`). */
  readonly pathSchema?: z.ZodType;
  readonly body?: z.ZodType;
  /** No body at all means `{}` (the hosted SDK sends none); a body that is sent is checked. */
  readonly bodyOptional?: boolean;
  readonly query?: z.ZodType;
  /** Schema of the success body; `null` when the success body is not JSON (or there is none). */
  readonly response: z.ZodType | null;
  /** Success status. @default 200 */
  readonly status?: number;
  readonly kind: RouteKind;
  readonly auth: RouteAuth;
  /** The route can answer with Server-Sent Events (`stream: true` in the body). */
  readonly stream?: boolean;
  /** The route is a WebSocket upgrade. */
  readonly websocket?: boolean;
  /** Rate-limit bucket; routes without one are not rate limited. */
  readonly rateGroup?: RateGroup;
}

type Schema<D, K extends string> = D extends { readonly [P in K]: infer S extends z.ZodType }
  ? S
  : undefined;

/** The body a caller sends to route `D` (the request schema's input), `undefined` when none. */
export type BodyIn<D> =
  Schema<D, 'body'> extends z.ZodType ? z.input<Schema<D, 'body'>> : undefined;

/** The body a handler of route `D` receives, validated (the request schema's output). */
export type BodyOut<D> =
  Schema<D, 'body'> extends z.ZodType ? z.output<Schema<D, 'body'>> : undefined;

/** The query a caller sends to route `D`, `undefined` when it takes none. */
export type QueryIn<D> =
  Schema<D, 'query'> extends z.ZodType ? z.input<Schema<D, 'query'>> : undefined;

/** The query a handler of route `D` receives, validated. */
export type QueryOut<D> =
  Schema<D, 'query'> extends z.ZodType ? z.output<Schema<D, 'query'>> : undefined;

/** The path parameters of route `D`, by name (validated by its `pathSchema` when it has one). */
export type PathOut<D> =
  Schema<D, 'pathSchema'> extends z.ZodType
    ? z.output<Schema<D, 'pathSchema'>>
    : D extends { readonly pathParams: readonly (infer N extends string)[] }
      ? { [K in N]: string }
      : never;

/**
 * `T` without the index signatures lenient (`looseObject`) schemas add: what a server must send is
 * the declared fields, and a record type (an interface) without an index signature satisfies it.
 */
export type Declared<T> = T extends readonly (infer U)[]
  ? Declared<U>[]
  : T extends object
    ? { [K in keyof T as string extends K ? never : number extends K ? never : K]: Declared<T[K]> }
    : T;

/** The JSON a handler of route `D` returns: the response schema's declared fields. */
export type ResponseIn<D> = D extends { readonly response: infer S extends z.ZodType }
  ? Declared<z.input<S>>
  : undefined;

/** What a caller of route `D` gets back: the parsed response, `undefined` when it has none. */
export type ResponseOut<D> = D extends { readonly response: infer S extends z.ZodType }
  ? z.output<S>
  : undefined;

/**
 * Hono's path syntax for a template: `{session_id}` becomes `:session_id`.
 * @example honoPath('/v1/browser/sessions/{session_id}') // '/v1/browser/sessions/:session_id'
 */
export function honoPath(template: string): string {
  return template.replace(/\{(\w+)\}/g, ':$1');
}

/**
 * A regular expression matching a template's concrete paths (an optional trailing `/` too), with
 * one capture group per `{name}` segment, in order.
 * @example pathPattern('/v1/browser/sessions/{session_id}/cdp').exec('/v1/browser/sessions/a/cdp')?.[1] // 'a'
 */
export function pathPattern(template: string): RegExp {
  const escaped = template
    .split(/\{\w+\}/)
    .map((part) => part.replace(/[.*+?^$()|[\]\\]/g, '\\$&'))
    .join('([^/]+)');
  return new RegExp(`^${escaped}/?$`);
}
