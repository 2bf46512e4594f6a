import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import type { BrowserSessions } from '../engines/browsers/index.js';
import { Conflict } from '../errors.js';
import type { HandlersOf } from '../register-routes.js';

/**
 * The session file routes. `GET /v1/browser/sessions/{id}/downloads` lists what the session's
 * browser downloaded (`{downloads: [{name, size, sha256, finished, url}]}`: finished ones first,
 * oldest first); `GET .../downloads/{name}` returns one as `application/octet-stream`;
 * `POST .../uploads` (`{name, data}` with base64 bytes) stores a file on the browser's machine and
 * answers its `path`, the value for `DOM.setFileInputFiles` (or a driver's `setInputFiles` run on
 * that machine).
 *
 * Decisions: downloads go to a per-session folder because the server sets the browser's download
 * behaviour itself, and the CDP proxy rewrites a client's own `Browser.setDownloadBehavior` path to
 * that folder (a path on the client's machine means nothing to a remote browser). A name is one
 * plain path segment: anything with a separator, `..` or control characters is a 422 whose `loc`
 * is `["path", "name"]` or `["body", "name"]`, so no request reaches outside the folder. Files stay
 * readable after the session ends and are removed with its record (ended sessions are kept 10
 * minutes). Uploads need a running session (409 otherwise); limits answer 413.
 */
export function browserFileHandlers(
  sessions: BrowserSessions,
): HandlersOf<
  | 'browser.sessions.downloads.list'
  | 'browser.sessions.downloads.get'
  | 'browser.sessions.uploads.create'
> {
  return {
    'browser.sessions.downloads.list': async ({ path, principal }) => {
      const { files } = await sessions.filesOf(principal.userId, path.session_id);
      return { downloads: await files.listDownloads() };
    },

    // The name was checked by the table's path schema: one plain file name.
    'browser.sessions.downloads.get': async ({ path, principal }) => {
      const { files } = await sessions.filesOf(principal.userId, path.session_id);
      const { file, size } = await files.download(path.name);
      const stream = Readable.toWeb(createReadStream(file)) as ReadableStream<Uint8Array>;
      return new Response(stream, {
        status: 200,
        headers: {
          'content-type': 'application/octet-stream',
          'content-length': String(size),
          'content-disposition': `attachment; filename*=UTF-8''${encodeURIComponent(path.name)}`,
          'x-content-type-options': 'nosniff',
        },
      });
    },

    // The body is checked first (by the table's schema): a malformed upload is a 422 whatever the
    // session.
    'browser.sessions.uploads.create': async ({ path, body, principal }) => {
      const { files, running } = await sessions.filesOf(principal.userId, path.session_id);
      if (!running) {
        throw new Conflict(
          `Browser session ${path.session_id} is not running: upload to a running session`,
          { code: 'session_not_running' },
        );
      }
      return files.upload(body.name, Buffer.from(body.data, 'base64'));
    },
  };
}
