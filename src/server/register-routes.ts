// Mounts every route of the shared table (src/protocol/routes.ts, service-routes.ts) from one map
// of handlers, typed by the table: a missing or misnamed handler, or one that returns the wrong
// shape, does not compile.
import type { Context, Hono } from 'hono';
import type { ContentfulStatusCode, StatusCode } from 'hono/utils/http-status';
import { ALL_ROUTES, honoPath } from '../protocol/index.js';
import type {
  AnyRouteId,
  BodyOut,
  PathOut,
  QueryOut,
  ResponseIn,
  RouteDef,
  RouteOf,
} from '../protocol/index.js';
import type { AppEnv, Principal } from './context.js';
import { LIVE_TOKEN_HEADER } from './engines/browsers/live/live-views.js';
import type { LiveViewGrant } from './engines/browsers/live/live-views.js';
import { readBody, readPath, readQuery } from './validate.js';

/** Routes served by a handler: all but the WebSocket upgrade (served by cdp-proxy.ts). */
export type HandledRouteId = {
  [I in AnyRouteId]: RouteOf<I>['kind'] extends 'websocket' ? never : I;
}[AnyRouteId];

/** What a handler of a route of this kind returns; registerRoutes turns it into the response. */
type ResultOf<D> = D extends { kind: 'json' }
  ? ResponseIn<D>
  : D extends { kind: 'empty' }
    ? void
    : D extends { kind: 'json-sse' }
      ? ResponseIn<D> | Response
      : D extends { kind: 'html' }
        ? string
        : Response;

/** The credentials checked before the handler runs, by the route's `auth`. */
type CredentialsOf<D> = D extends { auth: 'bearer' }
  ? { principal: Principal }
  : D extends { auth: 'live-token' }
    ? { grant: LiveViewGrant }
    : unknown;

/** What the handler of route `I` receives: validated path, body and query, and its caller. */
export type RouteRequest<I extends AnyRouteId> = {
  path: PathOut<RouteOf<I>>;
  body: BodyOut<RouteOf<I>>;
  query: QueryOut<RouteOf<I>>;
} & CredentialsOf<RouteOf<I>>;

/**
 * The handler of route `I`. It returns the route's JSON (`json`; `json-sse` may return a stream
 * `Response` instead), nothing (`empty`), the page (`html`) or a `Response` (`sse`, `bytes`); the
 * status comes from the table. It throws the domain errors of errors.ts for anything else.
 */
export type Handler<I extends AnyRouteId> = (
  req: RouteRequest<I>,
  c: Context<AppEnv>,
) => ResultOf<RouteOf<I>> | Promise<ResultOf<RouteOf<I>>>;

/** One handler per served route: what {@link registerRoutes} takes. */
export type RouteHandlers = { [I in HandledRouteId]: Handler<I> };

/** The handlers of some routes, as a route module provides them. */
export type HandlersOf<I extends HandledRouteId> = Pick<RouteHandlers, I>;

/** Checks of credentials other than the bearer key (which the app checks before any route). */
export interface RouteGuards {
  /** The live view token of session `sessionId`. @throws NotFound, Unauthorized */
  liveToken(sessionId: string, token: string | undefined): LiveViewGrant;
}

type AnyHandler = (req: Record<string, unknown>, c: Context<AppEnv>) => unknown;

/**
 * Mounts every route of the table on `app`: the path (and its aliases) in Hono's syntax, then per
 * request the route's own credentials, its path, body and query checked with its schemas (a 422
 * with the exact `loc`), the handler, and the table's success status.
 */
export function registerRoutes(
  app: Hono<AppEnv>,
  handlers: RouteHandlers,
  guards: RouteGuards,
): void {
  for (const [id, route] of Object.entries(ALL_ROUTES) as [AnyRouteId, RouteDef][]) {
    if (route.kind === 'websocket') continue;
    const handle = handlers[id as HandledRouteId] as unknown as AnyHandler;
    const status = (route.status ?? 200) as StatusCode;
    const paths = [route.path, ...(route.aliases ?? [])].map(honoPath);
    app.on(route.method, paths, async (c) => {
      const params = c.req.param() as Record<string, string>;
      const req: Record<string, unknown> = {};
      if (route.auth === 'bearer') req['principal'] = c.get('principal');
      if (route.auth === 'live-token') {
        req['grant'] = guards.liveToken(
          params['session_id'] ?? '',
          c.req.header(LIVE_TOKEN_HEADER),
        );
      }
      req['path'] = route.pathSchema ? readPath(c, route.pathSchema) : params;
      if (route.body) {
        req['body'] = await readBody(c, route.body, { optional: route.bodyOptional === true });
      }
      if (route.query) req['query'] = readQuery(c, route.query);
      const result = await handle(req, c);
      switch (route.kind) {
        case 'json':
          return c.json(result, status as ContentfulStatusCode);
        case 'empty':
          return c.body(null, status);
        case 'json-sse':
          return result instanceof Response
            ? result
            : c.json(result, status as ContentfulStatusCode);
        case 'html':
          return c.html(result as string, status as ContentfulStatusCode);
        default:
          return result as Response;
      }
    });
  }
}
