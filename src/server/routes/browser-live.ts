import type { Context } from 'hono';
import { streamSSE } from 'hono/streaming';
import type { AppEnv } from '../context.js';
import type { LiveViewGrant, LiveViews } from '../engines/browsers/live/live-views.js';
import type { LiveFrame, LiveViewer } from '../engines/browsers/live/screencast.js';
import { renderViewerPage, VIEWER_CSP } from '../engines/browsers/live/viewer-page.js';
import { Conflict, Forbidden, NotFound } from '../errors.js';
import type { HandlersOf } from '../register-routes.js';

/** Defaults of the live view routes. */
export const DEFAULTS = {
  /** A comment line this often keeps idle proxies from cutting the frame stream. */
  keepAliveMs: 15_000,
} as const;

/**
 * The live view of a running session, for a person with the session's `live_url`:
 * - `GET /v1/browser/sessions/{id}/live`: the viewer page (static HTML; 404 once the session ended).
 * - `GET .../live/frames`: Server-Sent Events: `hello` `{mode}`, then `frame` `{data, width, height}`
 *   (base64 JPEG of the active tab, its viewport in CSS px) as the tab changes, `tab` `{url, title}`
 *   when the view follows another tab or the tab navigates, then `end` `{reason}`
 *   when the session ends. Slow viewers skip frames rather than queue them.
 * - `POST .../live/input`: `{events: [...]}` (pointer, wheel, key; positions as fractions of the
 *   frame), dispatched in order to the active tab; 204. A `read-only` view answers 403.
 *
 * Decisions: these routes take the per-session view token in the `X-Live-Token` header and never
 * the API key (a person watching must not hold the key); a missing or wrong token is 401 and a
 * session that is unknown or not running is 404. The page reads the token from the URL fragment,
 * so the token never appears in a request line or a log. SSE rather than a WebSocket keeps the view
 * on plain HTTP routes, next to the other session routes.
 */
export function browserLiveHandlers(
  views: LiveViews,
): HandlersOf<
  'browser.sessions.live.page' | 'browser.sessions.live.frames' | 'browser.sessions.live.input'
> {
  return {
    'browser.sessions.live.page': ({ path }, c) => {
      const id = path.session_id;
      if (!views.has(id)) {
        throw new NotFound(`Browser session not found or not running: ${id}`, {
          code: 'session_not_found',
        });
      }
      c.header('content-security-policy', VIEWER_CSP);
      c.header('cache-control', 'no-store');
      c.header('referrer-policy', 'no-referrer');
      c.header('x-frame-options', 'DENY');
      return renderViewerPage(id);
    },

    // The token was checked before the handler (the table's `live-token` auth): `grant` is it.
    'browser.sessions.live.frames': ({ grant }, c) => {
      c.header('cache-control', 'no-store');
      return frames(c, grant);
    },

    'browser.sessions.live.input': async ({ grant, body }) => {
      if (grant.mode === 'read-only') {
        throw new Forbidden('This live view is read-only: it does not accept input', {
          code: 'live_view_read_only',
        });
      }
      try {
        await grant.screencast.input(body.events);
      } catch (error) {
        throw new Conflict(`Input not delivered: ${(error as Error).message}`, {
          code: 'live_view_not_ready',
        });
      }
    },
  };
}

/** The frame stream of one viewer, until the session ends or the viewer leaves. */
function frames(c: Context<AppEnv>, grant: LiveViewGrant): Response {
  return streamSSE(c, async (stream) => {
    let pending: LiveFrame | undefined;
    let writing = false;
    let ended = false;
    let finish!: () => void;
    const finished = new Promise<void>((resolve) => (finish = resolve));
    const pump = async (): Promise<void> => {
      writing = true;
      while (pending && !stream.aborted && !stream.closed) {
        const frame = pending;
        pending = undefined;
        await stream.writeSSE({ event: 'frame', data: JSON.stringify(frame) });
      }
      writing = false;
    };
    const viewer: LiveViewer = {
      frame(frame) {
        pending = frame;
        if (!writing) void pump().catch(finish);
      },
      tab(tab) {
        void stream.writeSSE({ event: 'tab', data: JSON.stringify(tab) }).catch(finish);
      },
      end(reason) {
        if (ended) return;
        ended = true;
        void stream
          .writeSSE({ event: 'end', data: JSON.stringify({ reason }) })
          .catch(() => undefined)
          .finally(finish);
      },
    };
    stream.onAbort(() => {
      grant.screencast.remove(viewer);
      finish();
    });
    // A person watching keeps the session from ending idle, as a connected CDP client does.
    const release = grant.hold(() => viewer.end('the browser session has ended'));
    let keepAlive: NodeJS.Timeout | undefined;
    try {
      await stream.writeSSE({ event: 'hello', data: JSON.stringify({ mode: grant.mode }) });
      try {
        await grant.screencast.add(viewer);
      } catch (error) {
        viewer.end(`the browser could not be reached: ${(error as Error).message}`);
      }
      keepAlive = setInterval(() => {
        void stream.write(': keep-alive\n\n').catch(finish);
      }, DEFAULTS.keepAliveMs);
      await finished;
    } finally {
      clearInterval(keepAlive);
      grant.screencast.remove(viewer);
      release();
    }
  });
}
