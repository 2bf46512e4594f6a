import type { ServerContext } from '../context.js';
import type { Recordings } from '../engines/browsers/recording/recordings.js';
import { renderReplayPage, REPLAY_CSP } from '../engines/browsers/recording/replay-page.js';
import { Unauthorized } from '../errors.js';
import type { HandlersOf } from '../register-routes.js';

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
export function browserRecordingHandlers(
  ctx: ServerContext,
  recordings: Recordings,
): HandlersOf<
  | 'browser.sessions.recording.get'
  | 'browser.sessions.recording.html'
  | 'browser.sessions.recording.delete'
> {
  return {
    'browser.sessions.recording.get': async ({ path, principal }) =>
      recordings.read(principal.userId, path.session_id),

    // `bearer-or-link` in the table: the signed link, else the bearer key, decides who reads.
    'browser.sessions.recording.html': async ({ path }, c) => {
      let userId = await recordings.ownerByLink(path.session_id, c.req.query('sig'));
      if (userId === undefined) {
        const auth = await ctx.auth.authenticateHeader(c.req.header('authorization'));
        if (!auth.ok) throw new Unauthorized(auth.message, { code: 'invalid_api_key' });
        userId = auth.principal.userId;
      }
      const doc = await recordings.read(userId, path.session_id);
      c.header('content-security-policy', REPLAY_CSP);
      c.header('cache-control', 'no-store');
      c.header('referrer-policy', 'no-referrer');
      return renderReplayPage(doc);
    },

    'browser.sessions.recording.delete': async ({ path, principal }) => {
      await recordings.remove(principal.userId, path.session_id);
    },
  };
}
