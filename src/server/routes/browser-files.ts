import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import type { Hono } from 'hono';
import {
  parseRequest,
  SessionFileNameSchema,
  BrowserUploadRequestSchema,
} from '../../protocol/index.js';
import { z } from 'zod';
import type { AppEnv } from '../context.js';
import type { BrowserSessions } from '../engines/browsers/index.js';
import { HttpError, ValidationHttpError } from '../http-error.js';
import { readBody } from '../validate.js';

const NameParamSchema = z.object({ name: SessionFileNameSchema });

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
export function registerBrowserFileRoutes(app: Hono<AppEnv>, sessions: BrowserSessions): void {
  app.get('/v1/browser/sessions/:id/downloads', async (c) => {
    const { files } = sessions.filesOf(c.get('principal').userId, c.req.param('id'));
    return c.json({ downloads: await files.listDownloads() });
  });

  app.get('/v1/browser/sessions/:id/downloads/:name', async (c) => {
    const { files } = sessions.filesOf(c.get('principal').userId, c.req.param('id'));
    const parsed = parseRequest(NameParamSchema, { name: c.req.param('name') }, 'path');
    if (!parsed.ok) throw new ValidationHttpError(parsed.body);
    const { file, size } = await files.download(parsed.value.name);
    const stream = Readable.toWeb(createReadStream(file)) as ReadableStream<Uint8Array>;
    return new Response(stream, {
      status: 200,
      headers: {
        'content-type': 'application/octet-stream',
        'content-length': String(size),
        'content-disposition': `attachment; filename*=UTF-8''${encodeURIComponent(parsed.value.name)}`,
        'x-content-type-options': 'nosniff',
      },
    });
  });

  app.post('/v1/browser/sessions/:id/uploads', async (c) => {
    // The body is checked first: a malformed upload is a 422 whatever the session.
    const body = await readBody(c, BrowserUploadRequestSchema);
    const { files, running } = sessions.filesOf(c.get('principal').userId, c.req.param('id'));
    if (!running)
      throw new HttpError(
        409,
        `Browser session ${c.req.param('id')} is not running: upload to a running session`,
        {
          code: 'session_not_running',
        },
      );
    return c.json(await files.upload(body.name, Buffer.from(body.data, 'base64')), 200);
  });
}
