import type { BrowserContexts } from '../engines/browsers/contexts.js';
import type { HandlersOf } from '../register-routes.js';

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
export function browserContextHandlers(
  contexts: BrowserContexts,
): HandlersOf<
  | 'browser.contexts.create'
  | 'browser.contexts.list'
  | 'browser.contexts.get'
  | 'browser.contexts.delete'
> {
  return {
    // No body at all means `{}` (the table's `bodyOptional`); anything sent is checked strictly.
    'browser.contexts.create': async ({ principal }) => contexts.create(principal.userId),
    'browser.contexts.list': async ({ principal }) => ({
      contexts: await contexts.list(principal.userId),
    }),
    'browser.contexts.get': async ({ path, principal }) =>
      contexts.get(principal.userId, path.context_id),
    'browser.contexts.delete': async ({ path, principal }) => {
      await contexts.delete(principal.userId, path.context_id);
    },
  };
}
