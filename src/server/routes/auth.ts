import type { Hono } from 'hono';
import { RevokeAuthTokenRequestSchema } from '../../protocol/index.js';
import type { KeyStore } from '../auth/key-store.js';
import type { AppEnv } from '../context.js';
import { HttpError } from '../http-error.js';
import { readBody } from '../validate.js';

/**
 * `POST /revoke_auth_token`: revokes a key of the caller's own user. Another user's key, or an
 * unknown one, is a 404 and nothing is revoked. The next request with the revoked key gets 401.
 */
export function registerAuthRoutes(app: Hono<AppEnv>, keys: KeyStore): void {
  app.post('/revoke_auth_token', async (c) => {
    const body = await readBody(c, RevokeAuthTokenRequestSchema);
    if (!keys.revoke(c.get('principal').userId, body.auth_token)) {
      throw new HttpError(404, 'Token not found: no key of yours matches auth_token', {
        code: 'token_not_found',
      });
    }
    return c.json({ revoked: true });
  });
}
