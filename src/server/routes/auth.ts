import type { KeyStore } from '../auth/key-store.js';
import { NotFound } from '../errors.js';
import type { HandlersOf } from '../register-routes.js';

/**
 * `POST /revoke_auth_token`: revokes a key of the caller's own user. Another user's key, or an
 * unknown one, is a 404 and nothing is revoked. The next request with the revoked key gets 401.
 */
export function authHandlers(keys: Pick<KeyStore, 'revoke'>): HandlersOf<'auth.revokeToken'> {
  return {
    'auth.revokeToken': async ({ body, principal }) => {
      if (!(await keys.revoke(principal.userId, body.auth_token))) {
        throw new NotFound('Token not found: no key of yours matches auth_token', {
          code: 'token_not_found',
        });
      }
      return { revoked: true };
    },
  };
}
