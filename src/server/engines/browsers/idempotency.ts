// Retry-safe session creation: an `Idempotency-Key` names one logical create of one user.
import { createHash } from 'node:crypto';
import { Invalid } from '../../errors.js';
import type { Sql } from '../../storage/sql.js';

/** Limits of idempotency keys. */
export const IDEMPOTENCY = {
  /** A key is remembered this long after the create it named (24 h, as Stripe does). */
  ttlMs: 24 * 60 * 60 * 1000,
  /** Longest key accepted (a UUID is 36). */
  maxKeyLength: 255,
  /** Name of the request header. */
  header: 'Idempotency-Key',
} as const;

/** A remembered create. */
export interface IdempotentCreate {
  sessionId: string;
  paramsHash: string;
}

/**
 * Checks an `Idempotency-Key` header value: 1..255 visible ASCII characters.
 * @throws Invalid (422) with `loc: ["header", "idempotency-key"]`
 */
export function checkIdempotencyKey(key: string): string {
  if (key.length === 0 || key.length > IDEMPOTENCY.maxKeyLength || !/^[\x21-\x7e]+$/.test(key)) {
    throw Invalid.at(
      ['header', 'idempotency-key'],
      `Idempotency-Key must be 1 to ${IDEMPOTENCY.maxKeyLength} visible ASCII characters (a UUID fits)`,
    );
  }
  return key;
}

/** The 422 of a key reused with other params. */
export function keyReusedError(): Invalid {
  return Invalid.at(
    ['header', 'idempotency-key'],
    'Idempotency-Key was already used with other parameters: send a new key for a different create',
  );
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
 * Keys per user in the database (`bs_idempotency`), so a retry finds its session after a server
 * restart or through another instance, plus the creates in flight in memory, so concurrent
 * duplicates reaching one instance share one create.
 */
export class IdempotencyKeys {
  private readonly inflight = new Map<string, { paramsHash: string; work: Promise<unknown> }>();

  constructor(private readonly sql: Sql) {}

  /** The create remembered under `key` for `userId`, if younger than the TTL. */
  async find(userId: string, key: string, now: number): Promise<IdempotentCreate | undefined> {
    const row = await this.sql.get<{ session_id: string; params_hash: string }>(
      `SELECT session_id, params_hash FROM bs_idempotency WHERE user_id = ? AND key = ? AND created_at >= ?`,
      [userId, key, now - IDEMPOTENCY.ttlMs],
    );
    return row && { sessionId: row.session_id, paramsHash: row.params_hash };
  }

  /** Remembers that `key` of `userId` created `sessionId`. */
  async remember(
    userId: string,
    key: string,
    paramsHash: string,
    sessionId: string,
    now: number,
  ): Promise<void> {
    await this.sql.run(
      `INSERT INTO bs_idempotency (user_id, key, params_hash, session_id, created_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (user_id, key) DO UPDATE SET params_hash = excluded.params_hash, session_id = excluded.session_id, created_at = excluded.created_at`,
      [userId, key, paramsHash, sessionId, now],
    );
  }

  /**
   * Runs `create` once per `(userId, key)` at a time: a duplicate arriving while the first is in
   * flight gets the first one's outcome.
   * @throws Invalid (422) when the duplicate carries other params than the first
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
  async purge(now: number): Promise<number> {
    return (
      await this.sql.run(`DELETE FROM bs_idempotency WHERE created_at < ?`, [
        now - IDEMPOTENCY.ttlMs,
      ])
    ).changes;
  }
}
