import type { RevokeAuthTokenRequest, RevokeAuthTokenResponse } from '../../protocol/index.js';
import type { RequestOptions } from '../transport.js';
import { APIResource } from './resource.js';

/** `client.auth`. */
export class Auth extends APIResource {
  /**
   * Revoke an auth token; it stops working on the next request. Revoking the client's own key
   * makes later calls fail with `AuthenticationError` until `client.setApiKey()` swaps it.
   * @throws {ValidationError} when `auth_token` is missing or empty (nothing is sent).
   * @throws {APIError} per status.
   * @example await client.auth.revokeToken({ auth_token: oldKey });
   */
  revokeToken(
    params: RevokeAuthTokenRequest,
    options: RequestOptions = {},
  ): Promise<RevokeAuthTokenResponse> {
    return this.client.call('auth.revokeToken', { body: params }, options);
  }
}
