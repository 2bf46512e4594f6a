import { z } from 'zod';

/** Body of `POST /revoke_auth_token`: the token to revoke. */
export const RevokeAuthTokenRequestSchema = z.object({
  auth_token: z.string().min(1, { error: 'must not be empty' }),
});

/** Response of `POST /revoke_auth_token`. Lenient. */
export const RevokeAuthTokenResponseSchema = z.looseObject({ revoked: z.boolean() });

/** Revocation body. */
export type RevokeAuthTokenRequest = z.infer<typeof RevokeAuthTokenRequestSchema>;
/** Revocation response. */
export type RevokeAuthTokenResponse = z.infer<typeof RevokeAuthTokenResponseSchema>;
