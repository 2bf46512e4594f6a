import { randomBytes } from 'node:crypto';
import { Hono } from 'hono';
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { bodyLimit } from 'hono/body-limit';
import { ALL_ROUTES, pathPattern } from '../protocol/index.js';
import type { RouteAuth, RouteDef } from '../protocol/index.js';
import type { AppEnv, ServerContext } from './context.js';
import { NotFound, TooLarge, Unauthorized } from './errors.js';
import { answerError } from './http-error.js';
import type { RateGroup } from './options.js';
import { charge } from './rate-limit.js';
import type { RateLimiter } from './rate-limit.js';
import { registerRoutes } from './register-routes.js';
import type { RouteGuards, RouteHandlers } from './register-routes.js';

interface CompiledRoute {
  method: string;
  pattern: RegExp;
  auth: RouteAuth;
  group: RateGroup | undefined;
}

const compiled: CompiledRoute[] = (Object.values(ALL_ROUTES) as RouteDef[]).flatMap((route) =>
  [route.path, ...(route.aliases ?? [])].map((path) => ({
    method: route.method,
    pattern: pathPattern(path),
    auth: route.auth,
    group: route.rateGroup,
  })),
);

function routeOf(method: string, path: string): CompiledRoute | undefined {
  return compiled.find((r) => r.method === method && r.pattern.test(path));
}

/**
 * Everything under a signed-link page's prefix (`/docs/`) is public: a path there that names no
 * page is the same 404 as a bad signature, never a 401 that would tell the two apart.
 */
const LINK_PREFIXES = (Object.values(ALL_ROUTES) as RouteDef[])
  .filter((route) => route.auth === 'signed-link')
  .map((route) => route.path.slice(0, route.path.indexOf('{')));

/** Routes that check their own credentials (signed links, live view tokens) or need none. */
const OWN_CREDENTIALS: ReadonlySet<RouteAuth> = new Set([
  'bearer-or-link',
  'signed-link',
  'live-token',
  'public',
]);

/**
 * The HTTP app: request id, body limit, bearer auth on every route (public signed-link paths
 * excepted), per-key rate limits by route group, then the registered resources. Errors render as
 * the spec's 422 detail body or ARCHITECTURE.md's error body.
 */
export function createApp(
  ctx: ServerContext,
  limiter: RateLimiter,
  handlers: RouteHandlers,
  guards: RouteGuards,
): Hono<AppEnv> {
  const app = new Hono<AppEnv>();

  app.use('*', async (c, next) => {
    const requestId = `req_${randomBytes(9).toString('base64url')}`;
    c.set('requestId', requestId);
    c.header('x-request-id', requestId);
    await next();
  });

  app.use(
    '*',
    bodyLimit({
      maxSize: ctx.config.maxBodyBytes,
      onError: () => {
        throw new TooLarge(
          `Request body too large: the limit is ${ctx.config.maxBodyBytes} bytes`,
          {
            code: 'body_too_large',
          },
        );
      },
    }),
  );

  app.use('*', async (c, next) => {
    const route = routeOf(c.req.method, c.req.path);
    if (route && OWN_CREDENTIALS.has(route.auth)) return next();
    if (LINK_PREFIXES.some((prefix) => c.req.path.startsWith(prefix))) return next();
    const result = await ctx.auth.authenticateHeader(c.req.header('authorization'));
    if (!result.ok) throw new Unauthorized(result.message, { code: 'invalid_api_key' });
    c.set('principal', result.principal);
    const group = route?.group;
    if (group) charge(limiter, result.principal, group, ctx.config.rateLimits[group]);
    return next();
  });

  registerRoutes(app, handlers, guards);

  app.notFound((c) => {
    throw new NotFound(`Not found: ${c.req.method} ${c.req.path}`);
  });
  app.onError((error, c) => renderError(error, c, ctx));
  return app;
}

/** The one place an error becomes a response (see http-error.ts for the mapping). */
function renderError(error: Error, c: Context<AppEnv>, ctx: ServerContext): Response {
  const requestId = c.get('requestId');
  const answer = answerError(error, requestId);
  const where = { requestId, method: c.req.method, path: c.req.path };
  if (answer.unexpected) {
    ctx.logger.error('unhandled error', { ...where, error: error.stack ?? String(error) });
  } else if (answer.status >= 500) {
    ctx.logger.warn('request failed', { ...where, error: describe(error) });
  }
  for (const [name, value] of Object.entries(answer.headers)) c.header(name, value);
  return c.json(answer.body, answer.status as ContentfulStatusCode);
}

/** An error and its causes, one line, for the log. */
function describe(error: unknown): string {
  const parts: string[] = [];
  for (let e = error; e instanceof Error && parts.length < 4; e = e.cause) parts.push(e.message);
  return parts.join(': ');
}
