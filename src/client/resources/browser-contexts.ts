import type {
  BrowserContext,
  BrowserContextCreateRequest,
  BrowserContextListResponse,
} from '../../protocol/index.js';
import type { RequestOptions } from '../transport.js';
import { APIResource } from './resource.js';

/**
 * `client.browser.contexts`: saved browser state (cookies, localStorage, IndexedDB) that a session
 * starts from with `context: { id }`, and saves back into with `context: { id, persist: true }`.
 */
export class Contexts extends APIResource {
  /**
   * Create an empty context.
   * @throws {APIError} per status.
   * @example
   * const ctx = await client.browser.contexts.create();
   * const s = await client.browser.sessions.create({ context: { id: ctx.id, persist: true } });
   */
  create(
    params: BrowserContextCreateRequest = {},
    options: RequestOptions = {},
  ): Promise<BrowserContext> {
    return this.client.call('browser.contexts.create', { body: params }, options);
  }

  /**
   * Read a context.
   * @throws {NotFoundError} for an unknown context, or another user's.
   */
  get(contextId: string, options: RequestOptions = {}): Promise<BrowserContext> {
    return this.client.call(
      'browser.contexts.get',
      { pathParams: { context_id: contextId } },
      options,
    );
  }

  /** The caller's contexts, newest first. */
  list(options: RequestOptions = {}): Promise<BrowserContextListResponse> {
    return this.client.call('browser.contexts.list', {}, options);
  }

  /**
   * Delete a context and its saved state (204).
   * @throws {NotFoundError} for an unknown context; {@link APIError} 409 while a session holds it.
   */
  async delete(contextId: string, options: RequestOptions = {}): Promise<void> {
    await this.client.call(
      'browser.contexts.delete',
      { pathParams: { context_id: contextId } },
      options,
    );
  }
}
