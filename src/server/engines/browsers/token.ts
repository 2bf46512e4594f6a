import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** A new per-session connect token: 32 random bytes, base64url. */
export function newConnectToken(): string {
  return randomBytes(32).toString('base64url');
}

/** SHA-256 of a connect token; only this is stored. */
export function hashToken(token: string): Buffer {
  return createHash('sha256').update(token, 'utf8').digest();
}

/** Compares a presented token with a stored hash in constant time. */
export function tokenMatches(presented: string, storedHash: Buffer): boolean {
  const hash = hashToken(presented);
  return hash.length === storedHash.length && timingSafeEqual(hash, storedHash);
}
