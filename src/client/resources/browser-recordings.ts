import type { BrowserRecording } from '../../protocol/index.js';
import type { RequestOptions } from '../transport.js';
import { APIResource } from './resource.js';

/**
 * `client.browser.sessions.recording`: the recording of a session created with `record: true`.
 * A recording outlives its session (the server keeps it for its retention period, 7 days by
 * default), so these work after `delete()`.
 */
export class Recording extends APIResource {
  /**
   * The rrweb events of the session, ordered by time across navigations, and its page URL markers
   * (`pages[].offset_ms`, ms from the recording's start).
   * @throws {NotFoundError} when the session was not recorded, or its recording was deleted or expired.
   * @example
   * const s = await client.browser.sessions.create({ record: true });
   * // ... drive it, then delete it ...
   * const { events, pages } = await client.browser.sessions.recording.get(s.session_id);
   */
  get(sessionId: string, options: RequestOptions = {}): Promise<BrowserRecording> {
    return this.client.call(
      'browser.sessions.recording.get',
      { pathParams: { session_id: sessionId } },
      options,
    );
  }

  /**
   * The self-contained replay page (HTML with rrweb's player and the events inlined; it loads
   * nothing). Save it and open it in any browser; `#t=<ms>` opens it at that offset.
   * @throws {NotFoundError} when there is no recording for this session.
   * @example
   * await fs.writeFile('replay.html', await client.browser.sessions.recording.html(id));
   */
  async html(sessionId: string, options: RequestOptions = {}): Promise<string> {
    const page = await this.client.callBytes(
      'browser.sessions.recording.html',
      { pathParams: { session_id: sessionId } },
      options,
    );
    return page.toString('utf8');
  }

  /**
   * Delete the recording now, before its retention period ends (204).
   * @throws {NotFoundError} when there is no recording for this session.
   */
  async delete(sessionId: string, options: RequestOptions = {}): Promise<void> {
    await this.client.call(
      'browser.sessions.recording.delete',
      { pathParams: { session_id: sessionId } },
      options,
    );
  }
}
