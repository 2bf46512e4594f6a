import { z } from 'zod';
import type { RouteDef } from './route-types.js';
import { SERVICE_ROUTES } from './service-routes.js';
import {
  AsyncChatCreateRequestSchema,
  AsyncChatJobSchema,
  AsyncChatListQuerySchema,
  AsyncChatListResponseSchema,
} from './async-chat.js';
import { RevokeAuthTokenRequestSchema, RevokeAuthTokenResponseSchema } from './auth.js';
import {
  BrowserSessionCreateRequestSchema,
  BrowserCapacitySchema,
  BrowserSessionListResponseSchema,
  BrowserSessionSchema,
} from './browser-sessions.js';
import { BrowserRecordingSchema } from './browser-recordings.js';
import {
  BrowserContextCreateRequestSchema,
  BrowserContextListResponseSchema,
  BrowserContextSchema,
} from './browser-contexts.js';
import {
  SessionFileNameSchema,
  BrowserDownloadListResponseSchema,
  BrowserUploadRequestSchema,
  BrowserUploadSchema,
} from './browser-files.js';
import { ChatCompletionRequestSchema, ChatCompletionResponseSchema } from './chat.js';
import {
  ContextualizedEmbeddingsRequestSchema,
  ContextualizedEmbeddingsResponseSchema,
  EmbeddingsRequestSchema,
  EmbeddingsResponseSchema,
} from './embeddings.js';
import { SearchRequestSchema, SearchResponseSchema } from './search.js';

export type { HttpMethod, RateGroup, RouteAuth, RouteDef, RouteKind } from './route-types.js';

/** Path of a download: the name is one plain file name, so no request reaches outside the folder. */
const DownloadPathSchema = z.object({ session_id: z.string(), name: SessionFileNameSchema });

/** Every route of the spec plus the decisions of ARCHITECTURE.md, keyed by id. */
export const ROUTES = {
  'chat.completions.create': {
    id: 'chat.completions.create',
    method: 'POST',
    kind: 'json-sse',
    auth: 'bearer',
    path: '/chat/completions',
    // OpenAI-compatible SDKs append `/chat/completions` to a `.../v1` base URL.
    aliases: ['/v1/chat/completions'],
    pathParams: [],
    body: ChatCompletionRequestSchema,
    response: ChatCompletionResponseSchema,
    stream: true,
    rateGroup: 'chat',
  },
  'async.chat.completions.create': {
    id: 'async.chat.completions.create',
    method: 'POST',
    kind: 'json',
    auth: 'bearer',
    path: '/async/chat/completions',
    pathParams: [],
    body: AsyncChatCreateRequestSchema,
    response: AsyncChatJobSchema,
    rateGroup: 'async',
  },
  'async.chat.completions.get': {
    id: 'async.chat.completions.get',
    method: 'GET',
    kind: 'json',
    auth: 'bearer',
    path: '/async/chat/completions/{request_id}',
    pathParams: ['request_id'],
    response: AsyncChatJobSchema,
    rateGroup: 'async',
  },
  'async.chat.completions.list': {
    id: 'async.chat.completions.list',
    method: 'GET',
    kind: 'json',
    auth: 'bearer',
    path: '/async/chat/completions',
    pathParams: [],
    query: AsyncChatListQuerySchema,
    response: AsyncChatListResponseSchema,
    rateGroup: 'async',
  },
  'search.create': {
    id: 'search.create',
    method: 'POST',
    kind: 'json',
    auth: 'bearer',
    path: '/search',
    pathParams: [],
    body: SearchRequestSchema,
    response: SearchResponseSchema,
    rateGroup: 'search',
  },
  'embeddings.create': {
    id: 'embeddings.create',
    method: 'POST',
    kind: 'json',
    auth: 'bearer',
    path: '/v1/embeddings',
    pathParams: [],
    body: EmbeddingsRequestSchema,
    response: EmbeddingsResponseSchema,
    rateGroup: 'embeddings',
  },
  'contextualizedEmbeddings.create': {
    id: 'contextualizedEmbeddings.create',
    method: 'POST',
    kind: 'json',
    auth: 'bearer',
    path: '/v1/contextualizedembeddings',
    pathParams: [],
    body: ContextualizedEmbeddingsRequestSchema,
    response: ContextualizedEmbeddingsResponseSchema,
    rateGroup: 'embeddings',
  },
  'auth.revokeToken': {
    id: 'auth.revokeToken',
    method: 'POST',
    kind: 'json',
    auth: 'bearer',
    path: '/revoke_auth_token',
    pathParams: [],
    body: RevokeAuthTokenRequestSchema,
    response: RevokeAuthTokenResponseSchema,
    rateGroup: 'auth',
  },
  'browser.sessions.create': {
    id: 'browser.sessions.create',
    method: 'POST',
    kind: 'json',
    auth: 'bearer',
    path: '/v1/browser/sessions',
    pathParams: [],
    body: BrowserSessionCreateRequestSchema,
    bodyOptional: true,
    response: BrowserSessionSchema,
    rateGroup: 'browser',
  },
  'browser.capacity': {
    id: 'browser.capacity',
    method: 'GET',
    kind: 'json',
    auth: 'bearer',
    path: '/v1/browser/capacity',
    pathParams: [],
    response: BrowserCapacitySchema,
    rateGroup: 'browser',
  },
  'browser.sessions.list': {
    id: 'browser.sessions.list',
    method: 'GET',
    kind: 'json',
    auth: 'bearer',
    path: '/v1/browser/sessions',
    pathParams: [],
    response: BrowserSessionListResponseSchema,
    rateGroup: 'browser',
  },
  'browser.sessions.get': {
    id: 'browser.sessions.get',
    method: 'GET',
    kind: 'json',
    auth: 'bearer',
    path: '/v1/browser/sessions/{session_id}',
    pathParams: ['session_id'],
    response: BrowserSessionSchema,
    rateGroup: 'browser',
  },
  'browser.sessions.delete': {
    id: 'browser.sessions.delete',
    method: 'DELETE',
    kind: 'empty',
    auth: 'bearer',
    path: '/v1/browser/sessions/{session_id}',
    pathParams: ['session_id'],
    response: null,
    status: 204,
    rateGroup: 'browser',
  },
  'browser.sessions.cdp': {
    id: 'browser.sessions.cdp',
    method: 'GET',
    kind: 'websocket',
    auth: 'cdp',
    path: '/v1/browser/sessions/{session_id}/cdp',
    pathParams: ['session_id'],
    response: null,
    websocket: true,
    rateGroup: 'browser',
  },
  // Creates a session and connects to it in one WebSocket upgrade (the key in the Authorization
  // header); the session ends when that connection closes. Served by the server's CDP relay.
  'browser.connect': {
    id: 'browser.connect',
    method: 'GET',
    kind: 'websocket',
    auth: 'bearer',
    path: '/v1/browser/connect',
    pathParams: [],
    response: null,
    websocket: true,
    rateGroup: 'browser',
  },
  'browser.contexts.create': {
    id: 'browser.contexts.create',
    method: 'POST',
    kind: 'json',
    auth: 'bearer',
    path: '/v1/browser/contexts',
    pathParams: [],
    body: BrowserContextCreateRequestSchema,
    bodyOptional: true,
    response: BrowserContextSchema,
    rateGroup: 'browser',
  },
  'browser.contexts.list': {
    id: 'browser.contexts.list',
    method: 'GET',
    kind: 'json',
    auth: 'bearer',
    path: '/v1/browser/contexts',
    pathParams: [],
    response: BrowserContextListResponseSchema,
    rateGroup: 'browser',
  },
  'browser.contexts.get': {
    id: 'browser.contexts.get',
    method: 'GET',
    kind: 'json',
    auth: 'bearer',
    path: '/v1/browser/contexts/{context_id}',
    pathParams: ['context_id'],
    response: BrowserContextSchema,
    rateGroup: 'browser',
  },
  'browser.contexts.delete': {
    id: 'browser.contexts.delete',
    method: 'DELETE',
    kind: 'empty',
    auth: 'bearer',
    path: '/v1/browser/contexts/{context_id}',
    pathParams: ['context_id'],
    response: null,
    status: 204,
    rateGroup: 'browser',
  },
  'browser.sessions.downloads.list': {
    id: 'browser.sessions.downloads.list',
    method: 'GET',
    kind: 'json',
    auth: 'bearer',
    path: '/v1/browser/sessions/{session_id}/downloads',
    pathParams: ['session_id'],
    response: BrowserDownloadListResponseSchema,
    rateGroup: 'browser',
  },
  /** The file's bytes (`application/octet-stream`), not JSON. */
  'browser.sessions.downloads.get': {
    id: 'browser.sessions.downloads.get',
    method: 'GET',
    kind: 'bytes',
    auth: 'bearer',
    path: '/v1/browser/sessions/{session_id}/downloads/{name}',
    pathParams: ['session_id', 'name'],
    pathSchema: DownloadPathSchema,
    response: null,
    rateGroup: 'browser',
  },
  'browser.sessions.uploads.create': {
    id: 'browser.sessions.uploads.create',
    method: 'POST',
    kind: 'json',
    auth: 'bearer',
    path: '/v1/browser/sessions/{session_id}/uploads',
    pathParams: ['session_id'],
    body: BrowserUploadRequestSchema,
    response: BrowserUploadSchema,
    rateGroup: 'browser',
  },
  'browser.sessions.recording.get': {
    id: 'browser.sessions.recording.get',
    method: 'GET',
    kind: 'json',
    auth: 'bearer',
    path: '/v1/browser/sessions/{session_id}/recording',
    pathParams: ['session_id'],
    response: BrowserRecordingSchema,
    rateGroup: 'browser',
  },
  /** The self-contained replay page (`text/html`), not JSON. */
  'browser.sessions.recording.html': {
    id: 'browser.sessions.recording.html',
    method: 'GET',
    kind: 'html',
    auth: 'bearer-or-link',
    path: '/v1/browser/sessions/{session_id}/recording.html',
    pathParams: ['session_id'],
    response: null,
    rateGroup: 'browser',
  },
  'browser.sessions.recording.delete': {
    id: 'browser.sessions.recording.delete',
    method: 'DELETE',
    kind: 'empty',
    auth: 'bearer',
    path: '/v1/browser/sessions/{session_id}/recording',
    pathParams: ['session_id'],
    response: null,
    status: 204,
    rateGroup: 'browser',
  },
} as const satisfies Record<string, RouteDef>;

/** Every route the server serves: the API of {@link ROUTES} and the pages of {@link SERVICE_ROUTES}. */
export const ALL_ROUTES = { ...ROUTES, ...SERVICE_ROUTES };

/** Id of an API route, e.g. `'chat.completions.create'`: what the client calls. */
export type RouteId = keyof typeof ROUTES;

/** Id of any route the server serves (API routes and service pages). */
export type AnyRouteId = keyof typeof ALL_ROUTES;

/** The table entry of route `I`, with its schemas as types. */
export type RouteOf<I extends AnyRouteId> = (typeof ALL_ROUTES)[I];

/** Names of the path parameters of route `I`. */
export type RoutePathParams<I extends AnyRouteId> = RouteOf<I>['pathParams'][number];

/**
 * Fill the `{name}` segments of a route's path, each value passed through `encodeURIComponent`.
 * @throws Error when a parameter is missing or empty.
 * @example routePath('browser.sessions.get', { session_id: 'a/b' }) // '/v1/browser/sessions/a%2Fb'
 */
export function routePath<I extends AnyRouteId>(
  id: I,
  ...args: RoutePathParams<I> extends never
    ? [params?: Record<string, never>]
    : [params: Record<RoutePathParams<I>, string>]
): string {
  const params = (args[0] ?? {}) as Record<string, string | undefined>;
  return (ALL_ROUTES[id] as RouteDef).path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const v = params[name];
    if (v === undefined || v === '')
      throw new Error(`routePath(${id}): missing path parameter ${name}`);
    return encodeURIComponent(v);
  });
}
