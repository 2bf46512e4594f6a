import type { Hono } from 'hono';
import { BrowserContextCreateRequestSchema } from '../../protocol/index.js';
import type { AppEnv } from '../context.js';
import type { BrowserContexts } from '../engines/browsers/contexts.js';
import { readBody } from '../validate.js';

/**
 * The saved-context routes: `POST /v1/browser/contexts` (no body or `{}`; 200 with
 * `{id, created_at, ...}`), `GET /v1/browser/contexts` (`{contexts}`, the caller's own, newest
 * first), `GET` and `DELETE /v1/browser/contexts/{id}` (204; 409 while a running session holds
 * it). Another user's context reads as 404, the same answer as an unknown id, so ids leak nothing.
 *
 * Decisions: a context is the browser's profile storage (cookies, localStorage, IndexedDB),
 * restored by filling the new session's profile before its browser starts and by
 * `Storage.setCookies`, and saved after a clean `Browser.close` so Chromium has flushed it; state
 * is sealed at rest with AES-256-GCM under the data dir's `context.key` (0600).
 */
export function registerBrowserContextRoutes(app: Hono<AppEnv>, contexts: BrowserContexts): void {
  app.post('/v1/browser/contexts', async (c) => {
    // No body at all means `{}`, as on session create; anything sent is checked strictly.
    if ((await c.req.text()).length > 0) await readBody(c, BrowserContextCreateRequestSchema);
    return c.json(contexts.create(c.get('principal').userId), 200);
  });

  app.get('/v1/browser/contexts', (c) =>
    c.json({ contexts: contexts.list(c.get('principal').userId) }),
  );

  app.get('/v1/browser/contexts/:id', (c) =>
    c.json(contexts.get(c.get('principal').userId, c.req.param('id'))),
  );

  app.delete('/v1/browser/contexts/:id', async (c) => {
    await contexts.delete(c.get('principal').userId, c.req.param('id'));
    return c.body(null, 204);
  });
}
