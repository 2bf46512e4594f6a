import type { Hono } from 'hono';
import { BrowserSessionCreateRequestSchema } from '../../protocol/index.js';
import type { AppEnv, ServerContext } from '../context.js';
import type { BrowserSessions } from '../engines/browsers/index.js';
import { readBody } from '../validate.js';
import { registerBrowserContextRoutes } from './browser-contexts.js';
import { registerBrowserFileRoutes } from './browser-files.js';
import { registerBrowserLiveRoutes } from './browser-live.js';
import { registerBrowserRecordingRoutes } from './browser-recording.js';

/**
 * The browser-session routes: `POST /v1/browser/sessions` (200 with the record; `{}` works, and so
 * does no body at all, as the hosted service's SDK sends it; an `Idempotency-Key` header makes a
 * retry return the same session), `GET /v1/browser/capacity` (`{running, limit, queued,
 * available}`),
 * `GET /v1/browser/sessions` (`{sessions}`: the caller's own, newest first),
 * `GET /v1/browser/sessions/{id}` and `DELETE /v1/browser/sessions/{id}` (204). Another user's
 * session, and an unknown id, read as 404.
 */
export function registerBrowserSessionRoutes(
  app: Hono<AppEnv>,
  ctx: ServerContext,
  sessions: BrowserSessions,
): void {
  app.post('/v1/browser/sessions', async (c) => {
    // A missing body means `{}`: every field is optional (Hono caches the text for readBody).
    const empty = (await c.req.text()).length === 0;
    const body = empty ? {} : await readBody(c, BrowserSessionCreateRequestSchema);
    const idempotencyKey = c.req.header('idempotency-key');
    return c.json(await sessions.create(c.get('principal'), body, { idempotencyKey }), 200);
  });

  app.get('/v1/browser/capacity', (c) => c.json(sessions.capacity()));

  app.get('/v1/browser/sessions', (c) =>
    c.json({ sessions: sessions.list(c.get('principal').userId) }),
  );

  app.get('/v1/browser/sessions/:id', (c) =>
    c.json(sessions.get(c.get('principal').userId, c.req.param('id'))),
  );

  app.delete('/v1/browser/sessions/:id', async (c) => {
    await sessions.delete(c.get('principal').userId, c.req.param('id'));
    return c.body(null, 204);
  });

  registerBrowserContextRoutes(app, sessions.contexts);
  registerBrowserFileRoutes(app, sessions);
  registerBrowserLiveRoutes(app, sessions.liveViews);
  registerBrowserRecordingRoutes(app, ctx, sessions.recordings);
}
