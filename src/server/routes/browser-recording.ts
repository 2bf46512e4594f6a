import type { Hono } from 'hono';
import type { AppEnv, ServerContext } from '../context.js';
import type { Recordings } from '../engines/browsers/recording/recordings.js';
import { renderReplayPage, REPLAY_CSP } from '../engines/browsers/recording/replay-page.js';
import { HttpError } from '../http-error.js';

/** The replay page: served to its signed link or to the owner's bearer key (see below). */
export const RECORDING_PAGE_PATH = /^\/v1\/browser\/sessions\/[^/]+\/recording\.html$/;

/**
 * Recordings of sessions created with `record: true`, for their owner (bearer key):
 * - `GET /v1/browser/sessions/{id}/recording`: `{session_id, status, started_at, ended_at,
 *   truncated, pages, events}`: rrweb events ordered by time across navigations and tabs, and the
 *   page URL markers (`pages[].offset_ms` from the start).
 * - `GET .../recording.html`: a self-contained replay page (rrweb's Replayer, its CSS and the events
 *   inlined; it loads nothing). `#t=<ms>` opens it at that offset. Save it and open it anywhere.
 *   The record's `recording_url` is this page's signed link (`?sig=`), which opens it in a
 *   browser without the API key, as the signed links of local documents do; the bearer key works
 *   too. A wrong signature without a key is 401.
 * - `DELETE .../recording`: deletes the recording now (204).
 *
 * Decisions: a recording outlives its session: `DELETE /v1/browser/sessions/{id}` stops the
 * session and keeps the recording, which stays readable until the server's recording retention
 * (7 days by default) has passed since the session ended, or until it is deleted here. The session
 * record itself is forgotten sooner; the recording routes do not need it. Another user's recording,
 * and a session that was not recorded, read as 404.
 */
export function registerBrowserRecordingRoutes(
  app: Hono<AppEnv>,
  ctx: ServerContext,
  recordings: Recordings,
): void {
  app.get('/v1/browser/sessions/:id/recording', async (c) =>
    c.json(await recordings.read(c.get('principal').userId, c.req.param('id'))),
  );

  app.get('/v1/browser/sessions/:id/recording.html', async (c) => {
    const id = c.req.param('id');
    // A public path (app.ts): the signed link, else the bearer key, decides who reads.
    let userId = recordings.ownerByLink(id, c.req.query('sig'));
    if (userId === undefined) {
      const auth = ctx.auth.authenticateHeader(c.req.header('authorization'));
      if (!auth.ok) throw new HttpError(401, auth.message, { code: 'invalid_api_key' });
      userId = auth.principal.userId;
    }
    const doc = await recordings.read(userId, id);
    c.header('content-security-policy', REPLAY_CSP);
    c.header('cache-control', 'no-store');
    c.header('referrer-policy', 'no-referrer');
    return c.html(renderReplayPage(doc));
  });

  app.delete('/v1/browser/sessions/:id/recording', async (c) => {
    await recordings.remove(c.get('principal').userId, c.req.param('id'));
    return c.body(null, 204);
  });
}
