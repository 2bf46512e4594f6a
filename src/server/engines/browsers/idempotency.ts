// Retry-safe session creation: an `Idempotency-Key` names one logical create of one user.
import { createHash } from 'node:crypto';
import type Database from 'better-sqlite3';
import { ValidationHttpError } from '../../http-error.js';

/** Limits of idempotency keys. */
export const IDEMPOTENCY = {
  /** A key is remembered this long after the create it named (24 h, as Stripe does). */
  ttlMs: 24 * 60 * 60 * 1000,
  /** Longest key accepted (a UUID is 36). */
  maxKeyLength: 255,
  /** Name of the request header. */
  header: 'Idempotency-Key',
} as const;

const SCHEMA = `
CREATE TABLE IF NOT EXISTS bs_idempotency (
  user_id     TEXT NOT NULL,
  key         TEXT NOT NULL,
  params_hash TEXT NOT NULL,
  session_id  TEXT NOT NULL,
  created_at  INTEGER NOT NULL,
  PRIMARY KEY (user_id, key)
);
`;

/** A remembered create. */
export interface IdempotentCreate {
  sessionId: string;
  paramsHash: string;
}

/**
 * Checks an `Idempotency-Key` header value: 1..255 visible ASCII characters.
 * @throws ValidationHttpError 422 with `loc: ["header", "idempotency-key"]`
 */
export function checkIdempotencyKey(key: string): string {
  if (key.length === 0 || key.length > IDEMPOTENCY.maxKeyLength || !/^[\x21-\x7e]+$/.test(key)) {
    throw new ValidationHttpError({
      detail: [
        {
          loc: ['header', 'idempotency-key'],
          msg: `Idempotency-Key must be 1 to ${IDEMPOTENCY.maxKeyLength} visible ASCII characters (a UUID fits)`,
          type: 'value_error',
        },
      ],
    });
  }
  return key;
}

/** The 422 of a key reused with other params. */
export function keyReusedError(): ValidationHttpError {
  return new ValidationHttpError({
    detail: [
      {
        loc: ['header', 'idempotency-key'],
        msg: 'Idempotency-Key was already used with other parameters: send a new key for a different create',
        type: 'value_error',
      },
    ],
  });
}

/** A stable digest of the create params, so a key reused with another body is refused. */
export function hashParams(params: unknown): string {
  return createHash('sha256').update(stableJson(params)).digest('hex');
}

function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * Keys per user in SQLite (`bs_idempotency`), so a retry finds its session after a server restart
 * too, plus the creates in flight in memory, so concurrent duplicates share one create.
 */
export class IdempotencyKeys {
  private readonly inflight = new Map<string, { paramsHash: string; work: Promise<unknown> }>();

  /** Creates the table when missing. */
  constructor(private readonly db: Database.Database) {
    db.exec(SCHEMA);
  }

  /** The create remembered under `key` for `userId`, if younger than the TTL. */
  find(userId: string, key: string, now: number): IdempotentCreate | undefined {
    const row = this.db
      .prepare(
        `SELECT session_id, params_hash FROM bs_idempotency WHERE user_id = ? AND key = ? AND created_at >= ?`,
      )
      .get(userId, key, now - IDEMPOTENCY.ttlMs) as
      { session_id: string; params_hash: string } | undefined;
    return row && { sessionId: row.session_id, paramsHash: row.params_hash };
  }

  /** Remembers that `key` of `userId` created `sessionId`. */
  remember(userId: string, key: string, paramsHash: string, sessionId: string, now: number): void {
    this.db
      .prepare(
        `INSERT OR REPLACE INTO bs_idempotency (user_id, key, params_hash, session_id, created_at) VALUES (?, ?, ?, ?, ?)`,
      )
      .run(userId, key, paramsHash, sessionId, now);
  }

  /**
   * Runs `create` once per `(userId, key)` at a time: a duplicate arriving while the first is in
   * flight gets the first one's outcome.
   * @throws ValidationHttpError 422 when the duplicate carries other params than the first
   */
  once<T>(userId: string, key: string, paramsHash: string, create: () => Promise<T>): Promise<T> {
    const slot = `${userId}\0${key}`;
    const running = this.inflight.get(slot);
    if (running) {
      if (running.paramsHash !== paramsHash) return Promise.reject(keyReusedError());
      return running.work as Promise<T>;
    }
    const work = create().finally(() => this.inflight.delete(slot));
    this.inflight.set(slot, { paramsHash, work });
    return work;
  }

  /** Forgets keys older than the TTL. */
  purge(now: number): number {
    return this.db
      .prepare(`DELETE FROM bs_idempotency WHERE created_at < ?`)
      .run(now - IDEMPOTENCY.ttlMs).changes;
  }
}
