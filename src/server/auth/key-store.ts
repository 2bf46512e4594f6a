import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import type Database from 'better-sqlite3';
import type { AuthResult } from '../context.js';

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
 * by a user; a user may hold several active keys (rotation).
 */
export class KeyStore {
  constructor(
    private readonly db: Database.Database,
    private readonly clock: () => number = Date.now,
  ) {
    db.exec(`CREATE TABLE IF NOT EXISTS auth_keys (
      id TEXT PRIMARY KEY, user_id TEXT NOT NULL, hash BLOB NOT NULL UNIQUE, prefix TEXT NOT NULL,
      label TEXT, created_at INTEGER NOT NULL, revoked_at INTEGER)`);
  }

  /** A new random key: `svc_` and 43 base64url characters. */
  static generate(): string {
    return `svc_${randomBytes(32).toString('base64url')}`;
  }

  /** Stores `key` for `userId` unless it is stored already; returns its id. */
  add(key: string, userId: string, label: string | null = null): string {
    const existing = this.db
      .prepare('SELECT id FROM auth_keys WHERE hash = ?')
      .get(hashKey(key)) as { id: string } | undefined;
    if (existing) return existing.id;
    const id = randomUUID();
    this.db
      .prepare(
        'INSERT INTO auth_keys (id, user_id, hash, prefix, label, created_at) VALUES (?, ?, ?, ?, ?, ?)',
      )
      .run(id, userId, hashKey(key), key.slice(0, 8), label, Math.floor(this.clock() / 1000));
    return id;
  }

  /** Generates and stores a key for `userId`; the plaintext is returned once and never stored. */
  create(userId: string, label: string | null = null): { id: string; key: string } {
    const key = KeyStore.generate();
    return { id: this.add(key, userId, label), key };
  }

  /** Checks a presented key. Unknown and revoked keys fail with a message saying which. */
  verify(key: string): AuthResult {
    const presented = hashKey(key);
    const row = this.db.prepare('SELECT * FROM auth_keys WHERE hash = ?').get(presented) as
      KeyRow | undefined;
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
  revoke(userId: string, key: string): boolean {
    const result = this.db
      .prepare(
        'UPDATE auth_keys SET revoked_at = ? WHERE hash = ? AND user_id = ? AND revoked_at IS NULL',
      )
      .run(Math.floor(this.clock() / 1000), hashKey(key), userId);
    if (result.changes > 0) return true;
    const row = this.db
      .prepare('SELECT user_id FROM auth_keys WHERE hash = ?')
      .get(hashKey(key)) as { user_id: string } | undefined;
    return row?.user_id === userId; // already revoked by its owner: revoking again is a no-op success
  }

  /** Revokes by id (`svc keys revoke <id>`); false when no such active key. */
  revokeById(id: string): boolean {
    return (
      this.db
        .prepare('UPDATE auth_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL')
        .run(Math.floor(this.clock() / 1000), id).changes > 0
    );
  }

  /** All keys, newest first, optionally of one user. */
  list(userId?: string): KeyInfo[] {
    const sql =
      'SELECT id, user_id, prefix, label, created_at, revoked_at FROM auth_keys' +
      (userId === undefined ? '' : ' WHERE user_id = ?') +
      ' ORDER BY created_at DESC, rowid DESC';
    const stmt = this.db.prepare(sql);
    return (userId === undefined ? stmt.all() : stmt.all(userId)) as KeyInfo[];
  }

  /** Number of keys that are not revoked. */
  activeCount(): number {
    return (
      this.db.prepare('SELECT count(*) AS n FROM auth_keys WHERE revoked_at IS NULL').get() as {
        n: number;
      }
    ).n;
  }
}

/** Parses an `Authorization` header and verifies the key; each failure names what was wrong. */
export function authenticateHeader(store: KeyStore, header: string | undefined): AuthResult {
  if (header === undefined || header.trim() === '') {
    return { ok: false, message: 'Missing API key: send the header Authorization: Bearer <key>' };
  }
  const match = /^Bearer +(\S+)\s*$/i.exec(header);
  if (!match?.[1]) {
    return { ok: false, message: "Malformed Authorization header: expected 'Bearer <key>'" };
  }
  return store.verify(match[1]);
}
