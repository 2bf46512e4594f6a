import type { ServerContext } from '../context.js';
import type { BrowserSessions } from '../engines/browsers/index.js';
import type { HandlersOf } from '../register-routes.js';
import { browserContextHandlers } from './browser-contexts.js';
import { browserFileHandlers } from './browser-files.js';
import { browserLiveHandlers } from './browser-live.js';
import { browserRecordingHandlers } from './browser-recording.js';

/**
 * The browser-session routes: `POST /v1/browser/sessions` (200 with the record; `{}` works, and so
 * does no body at all, as the hosted service's SDK sends it; an `Idempotency-Key` header makes a
 * retry return the same session), `GET /v1/browser/capacity` (`{running, limit, queued,
 * available}`),
 * `GET /v1/browser/sessions` (`{sessions}`: the caller's own, newest first),
 * `GET /v1/browser/sessions/{id}` and `DELETE /v1/browser/sessions/{id}` (204). Another user's
 * session, and an unknown id, read as 404.
 */
export function browserSessionHandlers(ctx: ServerContext, sessions: BrowserSessions) {
  const own: HandlersOf<
    | 'browser.sessions.create'
    | 'browser.capacity'
    | 'browser.sessions.list'
    | 'browser.sessions.get'
    | 'browser.sessions.delete'
  > = {
    'browser.sessions.create': async ({ body, principal }, c) => {
      const idempotencyKey = c.req.header('idempotency-key');
      return sessions.create(principal, body, { idempotencyKey });
    },
    'browser.capacity': async () => sessions.capacity(),
    'browser.sessions.list': async ({ principal }) => ({
      sessions: await sessions.list(principal.userId),
    }),
    'browser.sessions.get': async ({ path, principal }) =>
      sessions.get(principal.userId, path.session_id),
    'browser.sessions.delete': async ({ path, principal }) => {
      await sessions.delete(principal.userId, path.session_id);
    },
  };
  return {
    ...own,
    ...browserContextHandlers(sessions.contexts),
    ...browserFileHandlers(sessions),
    ...browserLiveHandlers(sessions.liveViews),
    ...browserRecordingHandlers(ctx, sessions.recordings),
  };
}
