import type {
  BrowserDownloadListResponse,
  BrowserUpload,
  BrowserUploadRequest,
} from '../../protocol/index.js';
import type { RequestOptions } from '../transport.js';
import { APIResource } from './resource.js';

/** `client.browser.sessions.downloads`: files a session's browser downloaded. */
export class Downloads extends APIResource {
  /**
   * The session's downloads: finished ones (with `sha256`) first, then those still running.
   * @throws {NotFoundError} for an unknown session.
   */
  list(sessionId: string, options: RequestOptions = {}): Promise<BrowserDownloadListResponse> {
    return this.client.call(
      'browser.sessions.downloads.list',
      { pathParams: { session_id: sessionId } },
      options,
    );
  }

  /**
   * The bytes of finished download `name`.
   * @throws {NotFoundError} for an unknown session or download; {@link ValidationError} (422) for
   * a name that is not a plain file name.
   * @example
   * const { downloads } = await client.browser.sessions.downloads.list(id);
   * const bytes = await client.browser.sessions.downloads.get(id, downloads[0].name);
   */
  get(sessionId: string, name: string, options: RequestOptions = {}): Promise<Buffer> {
    return this.client.callBytes(
      'browser.sessions.downloads.get',
      { pathParams: { session_id: sessionId, name } },
      options,
    );
  }
}

/** `client.browser.sessions.uploads`: files put where a session's pages can pick them. */
export class Uploads extends APIResource {
  /**
   * Store a file beside the session's browser. Give the answer's `path` to
   * `DOM.setFileInputFiles` (or to `setInputFiles` / `uploadFile` when the driver runs on the
   * browser's machine).
   * @throws {ValidationError} for a bad name; {@link APIError} 409 when the session is not running, 413 past the limits.
   * @example
   * const up = await client.browser.sessions.uploads.create(id, { name: 'a.txt', data: Buffer.from('hi') });
   */
  create(
    sessionId: string,
    params: { name: string; data: Uint8Array | string },
    options: RequestOptions = {},
  ): Promise<BrowserUpload> {
    const body: BrowserUploadRequest = {
      name: params.name,
      data:
        typeof params.data === 'string'
          ? Buffer.from(params.data, 'utf8').toString('base64')
          : Buffer.from(params.data).toString('base64'),
    };
    return this.client.call(
      'browser.sessions.uploads.create',
      { pathParams: { session_id: sessionId }, body },
      options,
    );
  }
}
