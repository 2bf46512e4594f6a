import { randomUUID } from 'node:crypto';
import type { Database, Statement } from 'better-sqlite3';
import type { AsyncChatStatus } from '../../../protocol/async-chat.js';
import { JobQueueError } from './errors.js';

/** Job states (spec 3); the protocol's `AsyncChatStatus`. */
export type JobStatus = AsyncChatStatus;

/** One row of `job_jobs`. Timestamps are integer unix seconds. */
export interface JobRow {
  /** Insertion order; the pagination tie-breaker. */
  seq: number;
  id: string;
  user_id: string;
  model: string;
  /** The request, as JSON text. */
  request: string;
  status: JobStatus;
  idempotency_key: string | null;
  created_at: number;
  started_at: number | null;
  completed_at: number | null;
  failed_at: number | null;
  /** The handler's result, as JSON text. */
  response: string | null;
  error_message: string | null;
  /** How many times a worker claimed the job (a restart mid-run counts one). */
  attempts: number;
  /** Queue instance that holds the job while IN_PROGRESS. */
  owner: string | null;
}

/** Options of {@link JobStore}. Durations in ms. */
export interface JobStoreOptions {
  /** Current time in ms. @default Date.now */
  clock?: (() => number) | undefined;
  /** How long jobs stay readable. @default 7 days */
  retention?: number | undefined;
  /** How long an idempotency key maps to its job. @default 24 hours */
  idempotencyWindow?: number | undefined;
  /** Job id generator. @default crypto.randomUUID */
  generateId?: (() => string) | undefined;
}

/** Defaults of {@link JobStore} and {@link JobStore.list}. */
export const JOB_STORE_DEFAULTS = {
  retention: 7 * 24 * 3600_000,
  idempotencyWindow: 24 * 3600_000,
  listLimit: 20,
  maxListLimit: 100,
} as const;

const SCHEMA = `
CREATE TABLE IF NOT EXISTS job_jobs (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  user_id TEXT NOT NULL,
  model TEXT NOT NULL,
  request TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('CREATED', 'IN_PROGRESS', 'COMPLETED', 'FAILED')),
  idempotency_key TEXT,
  created_at INTEGER NOT NULL,
  started_at INTEGER,
  completed_at INTEGER,
  failed_at INTEGER,
  response TEXT,
  error_message TEXT,
  attempts INTEGER NOT NULL DEFAULT 0,
  owner TEXT
);
CREATE INDEX IF NOT EXISTS job_jobs_by_user ON job_jobs (user_id, created_at DESC, seq DESC);
CREATE INDEX IF NOT EXISTS job_jobs_by_key ON job_jobs (user_id, idempotency_key)
  WHERE idempotency_key IS NOT NULL;
CREATE INDEX IF NOT EXISTS job_jobs_by_status ON job_jobs (status, seq);
CREATE TABLE IF NOT EXISTS job_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
`;

function encodeToken(row: JobRow): string {
  return Buffer.from(`${row.created_at}:${row.seq}`).toString('base64url');
}

function decodeToken(token: string): [number, number] {
  const m = /^(\d{1,15}):(\d{1,15})$/.exec(Buffer.from(token, 'base64url').toString('utf8'));
  if (!m) throw new JobQueueError('invalid_next_token', 'next_token is not one this server issued');
  return [Number(m[1]), Number(m[2])];
}

/**
 * SQLite persistence of async jobs (tables `job_*`, created if missing) on an injected
 * better-sqlite3 connection. Every state change is one atomic statement, so a crash leaves each job
 * in exactly one state. Reads hide jobs older than the retention even before {@link purge} runs.
 */
export class JobStore {
  /** The connection the store uses. */
  readonly db: Database;
  private readonly clock: () => number;
  private readonly retention: number;
  private readonly idempotencyWindow: number;
  private readonly generateId: () => string;

  /** @throws JobQueueError `invalid_option` for a non-positive retention or window. */
  constructor(db: Database, options: JobStoreOptions = {}) {
    this.db = db;
    this.clock = options.clock ?? Date.now;
    this.retention = options.retention ?? JOB_STORE_DEFAULTS.retention;
    this.idempotencyWindow = options.idempotencyWindow ?? JOB_STORE_DEFAULTS.idempotencyWindow;
    this.generateId = options.generateId ?? randomUUID;
    for (const [name, v] of [
      ['retention', this.retention],
      ['idempotencyWindow', this.idempotencyWindow],
    ] as const) {
      if (!(v > 0)) throw new JobQueueError('invalid_option', `${name} must be > 0 ms, got ${v}`);
    }
    db.exec(SCHEMA);
  }

  /** Current time in integer unix seconds. */
  nowSeconds(): number {
    return Math.floor(this.clock() / 1000);
  }

  private readonly statements = new Map<string, Statement>();

  // Prepared once per SQL text: the worker loop and the routes run the same few statements.
  private stmt(sql: string): Statement {
    let s = this.statements.get(sql);
    if (!s) {
      s = this.db.prepare(sql);
      this.statements.set(sql, s);
    }
    return s;
  }

  private cutoff(): number {
    return this.nowSeconds() - Math.floor(this.retention / 1000);
  }

  /**
   * Create a job in state CREATED, or return the existing job when the same user sent the same
   * idempotency key within the window (whatever its state).
   * @returns the row and whether it was created now.
   */
  create(
    userId: string,
    model: string,
    request: unknown,
    idempotencyKey?: string,
  ): { row: JobRow; created: boolean } {
    const now = this.nowSeconds();
    return this.db
      .transaction(() => {
        if (idempotencyKey !== undefined) {
          const since = now - Math.floor(this.idempotencyWindow / 1000);
          const existing = this.stmt(
            `SELECT * FROM job_jobs WHERE user_id = ? AND idempotency_key = ? AND created_at > ?
               AND created_at > ? ORDER BY seq DESC LIMIT 1`,
          ).get(userId, idempotencyKey, since, this.cutoff()) as JobRow | undefined;
          if (existing) return { row: existing, created: false };
        }
        const row = this.stmt(
          `INSERT INTO job_jobs (id, user_id, model, request, status, idempotency_key, created_at)
             VALUES (?, ?, ?, ?, 'CREATED', ?, ?) RETURNING *`,
        ).get(
          this.generateId(),
          userId,
          model,
          JSON.stringify(request),
          idempotencyKey ?? null,
          now,
        ) as JobRow;
        return { row, created: true };
      })
      .immediate();
  }

  /** The user's job, or `null` when it does not exist, belongs to another user, or has expired. */
  get(userId: string, id: string): JobRow | null {
    const row = this.stmt(
      'SELECT * FROM job_jobs WHERE id = ? AND user_id = ? AND created_at > ?',
    ).get(id, userId, this.cutoff()) as JobRow | undefined;
    return row ?? null;
  }

  /** A job by id regardless of user (worker side). */
  getById(id: string): JobRow | null {
    return (this.stmt('SELECT * FROM job_jobs WHERE id = ?').get(id) as JobRow) ?? null;
  }

  /**
   * One page of the user's jobs, newest first, with keyset pagination: `nextToken` is opaque and
   * `null` on the last page.
   * @param options.limit page size, 1 to 100. @default 20
   * @throws JobQueueError `invalid_next_token` for a token this store did not issue, `invalid_limit`
   *   for a limit out of range.
   */
  list(
    userId: string,
    options: { limit?: number | undefined; nextToken?: string | null | undefined } = {},
  ): { jobs: JobRow[]; nextToken: string | null } {
    const limit = options.limit ?? JOB_STORE_DEFAULTS.listLimit;
    if (!Number.isInteger(limit) || limit < 1 || limit > JOB_STORE_DEFAULTS.maxListLimit) {
      throw new JobQueueError(
        'invalid_limit',
        `limit must be an integer from 1 to 100, got ${limit}`,
      );
    }
    const [ts, seq] = options.nextToken
      ? decodeToken(options.nextToken)
      : [Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER];
    const rows = this.stmt(
      `SELECT * FROM job_jobs WHERE user_id = ? AND created_at > ?
           AND (created_at < ? OR (created_at = ? AND seq < ?))
         ORDER BY created_at DESC, seq DESC LIMIT ?`,
    ).all(userId, this.cutoff(), ts, ts, seq, limit + 1) as JobRow[];
    const more = rows.length > limit;
    if (more) rows.length = limit;
    return { jobs: rows, nextToken: more ? encodeToken(rows[rows.length - 1]!) : null };
  }

  /** Make `owner` the only queue allowed to claim jobs on this database (a fencing token). */
  takeOwnership(owner: string): void {
    this.stmt(
      `INSERT INTO job_meta (key, value) VALUES ('owner', ?)
                ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
    ).run(owner);
  }

  /**
   * Atomically move the oldest CREATED job to IN_PROGRESS for `owner` (sets `started_at` the first
   * time, counts an attempt). Returns `null` when none is waiting or `owner` lost ownership.
   */
  claimNext(owner: string): JobRow | null {
    const row = this.stmt(
      `UPDATE job_jobs SET status = 'IN_PROGRESS', started_at = COALESCE(started_at, ?),
           attempts = attempts + 1, owner = ?
         WHERE seq = (SELECT seq FROM job_jobs WHERE status = 'CREATED' ORDER BY seq LIMIT 1)
           AND EXISTS (SELECT 1 FROM job_meta WHERE key = 'owner' AND value = ?)
         RETURNING *`,
    ).get(this.nowSeconds(), owner, owner) as JobRow | undefined;
    return row ?? null;
  }

  /** Record a result; a no-op (false) unless `owner` still holds the job IN_PROGRESS. */
  complete(id: string, owner: string, response: unknown): boolean {
    return (
      this.stmt(
        `UPDATE job_jobs SET status = 'COMPLETED', completed_at = ?, response = ?, owner = NULL
           WHERE id = ? AND owner = ? AND status = 'IN_PROGRESS'`,
      ).run(this.nowSeconds(), JSON.stringify(response ?? null), id, owner).changes === 1
    );
  }

  /** Record a failure; a no-op (false) unless `owner` still holds the job IN_PROGRESS. */
  fail(id: string, owner: string, message: string): boolean {
    return (
      this.stmt(
        `UPDATE job_jobs SET status = 'FAILED', failed_at = ?, error_message = ?, owner = NULL
           WHERE id = ? AND owner = ? AND status = 'IN_PROGRESS'`,
      ).run(this.nowSeconds(), message, id, owner).changes === 1
    );
  }

  /** Put a job interrupted by a graceful stop back in the queue, without counting the attempt. */
  release(id: string, owner: string): boolean {
    return (
      this.stmt(
        `UPDATE job_jobs SET status = 'CREATED', owner = NULL, attempts = MAX(attempts - 1, 0)
           WHERE id = ? AND owner = ? AND status = 'IN_PROGRESS'`,
      ).run(id, owner).changes === 1
    );
  }

  /**
   * After a crash: jobs left IN_PROGRESS go back to CREATED, or to FAILED once they have used
   * `maxAttempts` attempts. Call only while holding ownership, before claiming.
   */
  recover(maxAttempts: number): { requeued: number; failed: number } {
    return this.db
      .transaction(() => {
        const failed = this.stmt(
          `UPDATE job_jobs SET status = 'FAILED', failed_at = ?, owner = NULL,
               error_message = 'job interrupted by a server restart ' || attempts ||
                 ' times; giving up after ' || ? || ' attempts'
             WHERE status = 'IN_PROGRESS' AND attempts >= ?`,
        ).run(this.nowSeconds(), maxAttempts, maxAttempts).changes;
        const requeued = this.stmt(
          `UPDATE job_jobs SET status = 'CREATED', owner = NULL WHERE status = 'IN_PROGRESS'`,
        ).run().changes;
        return { requeued, failed };
      })
      .immediate();
  }

  /** Number of jobs waiting in CREATED. */
  pendingCount(): number {
    return (
      this.stmt(`SELECT COUNT(*) AS n FROM job_jobs WHERE status = 'CREATED'`).get() as {
        n: number;
      }
    ).n;
  }

  /**
   * Delete jobs past the retention (spec: 7 days), whatever their state.
   * @returns how many were deleted.
   */
  purge(): number {
    return this.stmt('DELETE FROM job_jobs WHERE created_at <= ?').run(this.cutoff()).changes;
  }
}
