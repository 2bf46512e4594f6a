import { randomBytes } from 'node:crypto';
import { Hono } from 'hono';
import type { Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { HTTPException } from 'hono/http-exception';
import { ROUTES } from '../protocol/index.js';
import type { AppEnv, ServerContext } from './context.js';
import { HttpError, ValidationHttpError } from './http-error.js';
import type { RateGroup } from './options.js';
import type { RateLimiter } from './rate-limit.js';
import { LIVE_VIEW_PATH } from './routes/browser-live.js';
import { RECORDING_PAGE_PATH } from './routes/browser-recording.js';

/** Adds a resource's handlers to the app. */
export type RouteRegistrar = (app: Hono<AppEnv>) => void;

/** Paths served without a bearer header: signed links a browser opens (see routes/docs.ts). */
const PUBLIC_PREFIXES = ['/docs/'];
/**
 * Paths that check their own credentials instead: the live view's token (routes/browser-live.ts)
 * and the replay page's signed link or bearer key (routes/browser-recording.ts).
 */
const PUBLIC_PATTERNS = [LIVE_VIEW_PATH, RECORDING_PAGE_PATH];

interface CompiledRoute {
  method: string;
  pattern: RegExp;
  group: RateGroup;
}

const compiled: CompiledRoute[] = Object.values(ROUTES).map((route) => ({
  method: route.method,
  pattern: new RegExp('^' + route.path.replace(/\{[^}]+\}/g, '[^/]+') + '/?$'),
  group: route.rateGroup as RateGroup,
}));

function rateGroupOf(method: string, path: string): RateGroup | undefined {
  // The `/v1/chat/completions` alias shares the chat bucket.
  const canonical = path.startsWith('/v1/chat/') ? path.slice('/v1'.length) : path;
  return compiled.find((r) => r.method === method && r.pattern.test(canonical))?.group;
}

/**
 * The HTTP app: request id, body limit, bearer auth on every route (public signed-link paths
 * excepted), per-key rate limits by route group, then the registered resources. Errors render as
 * the spec's 422 detail body or ARCHITECTURE.md's error body.
 */
export function createApp(
  ctx: ServerContext,
  limiter: RateLimiter,
  registrars: RouteRegistrar[],
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
        throw new HttpError(
          413,
          `Request body too large: the limit is ${ctx.config.maxBodyBytes} bytes`,
          {
            code: 'body_too_large',
          },
        );
      },
    }),
  );

  app.use('*', async (c, next) => {
    if (PUBLIC_PREFIXES.some((p) => c.req.path.startsWith(p))) return next();
    if (PUBLIC_PATTERNS.some((p) => p.test(c.req.path))) return next();
    const result = ctx.auth.authenticateHeader(c.req.header('authorization'));
    if (!result.ok) throw new HttpError(401, result.message, { code: 'invalid_api_key' });
    c.set('principal', result.principal);
    const group = rateGroupOf(c.req.method, c.req.path);
    if (group) {
      const taken = limiter.take(
        `${result.principal.keyId}:${group}`,
        ctx.config.rateLimits[group],
      );
      if (!taken.ok) {
        throw new HttpError(
          429,
          `Rate limit exceeded for ${group} routes: ${ctx.config.rateLimits[group]} requests per minute per key; retry after ${taken.retryAfterSeconds} s`,
          {
            code: 'rate_limit_exceeded',
            headers: { 'Retry-After': String(taken.retryAfterSeconds) },
          },
        );
      }
    }
    return next();
  });

  for (const register of registrars) register(app);

  app.notFound((c) =>
    c.json(new HttpError(404, `Not found: ${c.req.method} ${c.req.path}`).toBody(), 404),
  );
  app.onError((error, c) => renderError(error, c, ctx));
  return app;
}

function renderError(error: Error, c: Context<AppEnv>, ctx: ServerContext): Response {
  if (error instanceof ValidationHttpError) return c.json(error.body, 422);
  if (error instanceof HttpError) {
    for (const [name, value] of Object.entries(error.headers)) c.header(name, value);
    return c.json(error.toBody(), error.status as 400);
  }
  if (error instanceof HTTPException) {
    const wrapped = new HttpError(error.status, error.message || 'Request failed');
    return c.json(wrapped.toBody(), error.status);
  }
  ctx.logger.error('unhandled error', {
    requestId: c.get('requestId'),
    method: c.req.method,
    path: c.req.path,
    error: error.stack ?? String(error),
  });
  const body = new HttpError(500, `Internal server error (request ${c.get('requestId')})`).toBody();
  return c.json(body, 500);
}
