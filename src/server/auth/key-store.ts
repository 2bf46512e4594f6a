import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import type { AuthResult } from '../context.js';
import type { Sql } from '../storage/sql.js';

/** A stored key as listed: never the key itself, only a short prefix to recognise it. */
export interface KeyInfo {
  id: string;
  user_id: string;
  prefix: string;
  label: string | null;
  created_at: number;
  revoked_at: number | null;
}

interface KeyRow extends KeyInfo {
  hash: Buffer;
}

const hashKey = (key: string): Buffer => createHash('sha256').update(key, 'utf8').digest();

/**
 * API keys, stored as SHA-256 hashes (keys are 256-bit random, so a fast hash is enough), each owned
 * by a user; a user may hold several active keys (rotation). Every check reads the database (no
 * cache), so a key created or revoked through one instance is honoured by all on the next request.
 */
export class KeyStore {
  constructor(
    private readonly sql: Sql,
    private readonly clock: () => number = Date.now,
  ) {}

  /** A new random key: `svc_` and 43 base64url characters. */
  static generate(): string {
    return `svc_${randomBytes(32).toString('base64url')}`;
  }

  /** Stores `key` for `userId` unless it is stored already; returns its id. */
  async add(key: string, userId: string, label: string | null = null): Promise<string> {
    // ON CONFLICT: instances starting together with the same configured key both succeed.
    await this.sql.run(
      'INSERT INTO auth_keys (id, user_id, hash, prefix, label, created_at) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (hash) DO NOTHING',
      [randomUUID(), userId, hashKey(key), key.slice(0, 8), label, Math.floor(this.clock() / 1000)],
    );
    const row = await this.sql.get<{ id: string }>('SELECT id FROM auth_keys WHERE hash = ?', [
      hashKey(key),
    ]);
    return row!.id;
  }

  /** Generates and stores a key for `userId`; the plaintext is returned once and never stored. */
  async create(userId: string, label: string | null = null): Promise<{ id: string; key: string }> {
    const key = KeyStore.generate();
    return { id: await this.add(key, userId, label), key };
  }

  /** Checks a presented key. Unknown and revoked keys fail with a message saying which. */
  async verify(key: string): Promise<AuthResult> {
    const presented = hashKey(key);
    const row = await this.sql.get<KeyRow>('SELECT * FROM auth_keys WHERE hash = ?', [presented]);
    // The lookup is by hash; the constant-time compare keeps the final check independent of content.
    if (!row || !timingSafeEqual(row.hash, presented)) {
      return { ok: false, message: 'Unknown API key: it was never issued by this server' };
    }
    if (row.revoked_at !== null) {
      return { ok: false, message: 'Revoked API key: it was revoked and is no longer accepted' };
    }
    return { ok: true, principal: { userId: row.user_id, keyId: row.id } };
  }

  /** Revokes `key` if it belongs to `userId`; false when unknown or another user's. */
  async revoke(userId: string, key: string): Promise<boolean> {
    const result = await this.sql.run(
      'UPDATE auth_keys SET revoked_at = ? WHERE hash = ? AND user_id = ? AND revoked_at IS NULL',
      [Math.floor(this.clock() / 1000), hashKey(key), userId],
    );
    if (result.changes > 0) return true;
    const row = await this.sql.get<{ user_id: string }>(
      'SELECT user_id FROM auth_keys WHERE hash = ?',
      [hashKey(key)],
    );
    return row?.user_id === userId; // already revoked by its owner: revoking again is a no-op success
  }

  /** Revokes by id (`svc keys revoke <id>`); false when no such active key. */
  async revokeById(id: string): Promise<boolean> {
    const result = await this.sql.run(
      'UPDATE auth_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL',
      [Math.floor(this.clock() / 1000), id],
    );
    return result.changes > 0;
  }

  /** All keys, newest first, optionally of one user. */
  async list(userId?: string): Promise<KeyInfo[]> {
    const sql =
      'SELECT id, user_id, prefix, label, created_at, revoked_at FROM auth_keys' +
      (userId === undefined ? '' : ' WHERE user_id = ?') +
      ` ORDER BY created_at DESC, ${this.sql.insertOrder} DESC`;
    return this.sql.all<KeyInfo>(sql, userId === undefined ? [] : [userId]);
  }

  /** Number of keys that are not revoked. */
  async activeCount(): Promise<number> {
    const row = await this.sql.get<{ n: number }>(
      'SELECT count(*) AS n FROM auth_keys WHERE revoked_at IS NULL',
    );
    return Number(row?.n ?? 0);
  }
}

/** Parses an `Authorization` header and verifies the key; each failure names what was wrong. */
export async function authenticateHeader(
  store: KeyStore,
  header: string | undefined,
): Promise<AuthResult> {
  if (header === undefined || header.trim() === '') {
    return { ok: false, message: 'Missing API key: send the header Authorization: Bearer <key>' };
  }
  const match = /^Bearer +(\S+)\s*$/i.exec(header);
  if (!match?.[1]) {
    return { ok: false, message: "Malformed Authorization header: expected 'Bearer <key>'" };
  }
  return store.verify(match[1]);
}
