import type { Hono } from 'hono';
import { BrowserSessionCreateRequestSchema } from '../../protocol/index.js';
import type { AppEnv, ServerContext } from '../context.js';
import type { BrowserSessions } from '../engines/browsers/index.js';
import { readBody } from '../validate.js';

/**
 * The browser-session routes: `POST /v1/browser/sessions` (200 with the record; `{}` works),
 * `GET /v1/browser/sessions` (`{sessions}`: the caller's own, newest first),
 * `GET /v1/browser/sessions/{id}` and `DELETE /v1/browser/sessions/{id}` (204). Another user's
 * session, and an unknown id, read as 404.
 */
export function registerBrowserSessionRoutes(
  app: Hono<AppEnv>,
  _ctx: ServerContext,
  sessions: BrowserSessions,
): void {
  app.post('/v1/browser/sessions', async (c) => {
    const body = await readBody(c, BrowserSessionCreateRequestSchema);
    return c.json(await sessions.create(c.get('principal'), body), 200);
  });

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
}
