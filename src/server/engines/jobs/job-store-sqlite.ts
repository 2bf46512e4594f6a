import { randomUUID } from 'node:crypto';
import type { Database, Statement } from 'better-sqlite3';
import { JOB_SQLITE_SCHEMA } from './job-schema.js';
import { listPosition, resolveJobStoreOptions, toPage } from './job-store.js';
import type {
  JobClaim,
  JobPage,
  JobRow,
  JobStore,
  JobStoreOptions,
  ResolvedJobStoreOptions,
} from './job-store.js';

// The single-owner fence: only the queue named in job_meta may claim or recover.
const OWNS = `EXISTS (SELECT 1 FROM job_meta WHERE key = 'owner' AND value = ?)`;

/**
 * The embedded {@link JobStore}: tables `job_*` (created if missing) on an injected better-sqlite3
 * connection. One running queue per database file: {@link open} makes the newest queue the only
 * one allowed to claim (a fencing token), so jobs a crashed or abandoned queue left IN_PROGRESS are
 * recovered at once by its successor, and leases are not needed. Reads hide jobs older than the
 * retention even before {@link purge} runs.
 * @example
 * const store = new SqliteJobStore(openDatabase(dataDir));
 * const queue = new JobQueue({ store, handler });
 */
export class SqliteJobStore implements JobStore {
  readonly kind = 'sqlite';
  /** The connection the store uses. */
  readonly db: Database;
  private readonly options: ResolvedJobStoreOptions;
  private readonly statements = new Map<string, Statement>();

  /** @throws JobQueueError `invalid_option` for a non-positive retention or window. */
  constructor(db: Database, options: JobStoreOptions = {}) {
    this.options = resolveJobStoreOptions(options, randomUUID);
    this.db = db;
    // The same statements as the migration: a store opened on a bare database (tests, tools) works.
    db.exec(JOB_SQLITE_SCHEMA);
  }

  get isOpen(): boolean {
    return this.db.open;
  }

  private now(): number {
    return Math.floor(this.options.clock() / 1000);
  }

  private cutoff(): number {
    return this.now() - Math.floor(this.options.retention / 1000);
  }

  // Prepared once per SQL text: the worker loop and the routes run the same few statements.
  private stmt(sql: string): Statement {
    let s = this.statements.get(sql);
    if (!s) {
      s = this.db.prepare(sql);
      this.statements.set(sql, s);
    }
    return s;
  }

  create(
    userId: string,
    model: string,
    request: unknown,
    idempotencyKey?: string,
  ): Promise<{ row: JobRow; created: boolean }> {
    const now = this.now();
    return run(() =>
      this.db
        .transaction(() => {
          if (idempotencyKey !== undefined) {
            const since = now - Math.floor(this.options.idempotencyWindow / 1000);
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
            this.options.generateId(),
            userId,
            model,
            JSON.stringify(request),
            idempotencyKey ?? null,
            now,
          ) as JobRow;
          return { row, created: true };
        })
        .immediate(),
    );
  }

  get(userId: string, id: string): Promise<JobRow | null> {
    return run(
      () =>
        (this.stmt('SELECT * FROM job_jobs WHERE id = ? AND user_id = ? AND created_at > ?').get(
          id,
          userId,
          this.cutoff(),
        ) as JobRow | undefined) ?? null,
    );
  }

  getById(id: string): Promise<JobRow | null> {
    return run(
      () =>
        (this.stmt('SELECT * FROM job_jobs WHERE id = ?').get(id) as JobRow | undefined) ?? null,
    );
  }

  list(
    userId: string,
    options: { limit?: number | undefined; nextToken?: string | null | undefined } = {},
  ): Promise<JobPage> {
    return run(() => {
      const { limit, createdAt, seq } = listPosition(options);
      const rows = this.stmt(
        `SELECT * FROM job_jobs WHERE user_id = ? AND created_at > ?
             AND (created_at < ? OR (created_at = ? AND seq < ?))
           ORDER BY created_at DESC, seq DESC LIMIT ?`,
      ).all(userId, this.cutoff(), createdAt, createdAt, seq, limit + 1) as JobRow[];
      return toPage(rows, limit);
    });
  }

  open(owner: string): Promise<void> {
    return run(() => {
      this.stmt(
        `INSERT INTO job_meta (key, value) VALUES ('owner', ?)
           ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
      ).run(owner);
    });
  }

  claimNext(owner: string): Promise<JobRow | null> {
    return run(
      () =>
        (this.stmt(
          `UPDATE job_jobs SET status = 'IN_PROGRESS', started_at = COALESCE(started_at, ?),
               attempts = attempts + 1, owner = ?
             WHERE seq = (SELECT seq FROM job_jobs WHERE status = 'CREATED' ORDER BY seq LIMIT 1)
               AND ${OWNS}
             RETURNING *`,
        ).get(this.now(), owner, owner) as JobRow | undefined) ?? null,
    );
  }

  renew(owner: string, claims: readonly JobClaim[]): Promise<Set<string>> {
    return run(() => {
      const held = this.stmt(
        `SELECT 1 FROM job_jobs WHERE id = ? AND attempts = ? AND owner = ?
           AND status = 'IN_PROGRESS' AND ${OWNS}`,
      );
      return new Set(
        claims.filter((c) => held.get(c.id, c.attempt, owner, owner)).map((c) => c.id),
      );
    });
  }

  complete(claim: JobClaim, owner: string, response: unknown): Promise<boolean> {
    return this.finish(
      `status = 'COMPLETED', completed_at = ?, response = ?`,
      [this.now(), JSON.stringify(response ?? null)],
      claim,
      owner,
    );
  }

  fail(claim: JobClaim, owner: string, message: string): Promise<boolean> {
    return this.finish(
      `status = 'FAILED', failed_at = ?, error_message = ?`,
      [this.now(), message],
      claim,
      owner,
    );
  }

  release(claim: JobClaim, owner: string): Promise<boolean> {
    return this.finish(`status = 'CREATED', attempts = MAX(attempts - 1, 0)`, [], claim, owner);
  }

  private finish(set: string, values: unknown[], claim: JobClaim, owner: string): Promise<boolean> {
    return run(
      () =>
        this.stmt(
          `UPDATE job_jobs SET ${set}, owner = NULL
             WHERE id = ? AND attempts = ? AND owner = ? AND status = 'IN_PROGRESS'`,
        ).run(...values, claim.id, claim.attempt, owner).changes === 1,
    );
  }

  recover(owner: string, maxAttempts: number): Promise<{ requeued: number; failed: number }> {
    return run(() =>
      this.db
        .transaction(() => {
          const failed = this.stmt(
            `UPDATE job_jobs SET status = 'FAILED', failed_at = ?, owner = NULL,
                 error_message = 'job interrupted by a server restart ' || attempts ||
                   ' times; giving up after ' || ? || ' attempts'
               WHERE status = 'IN_PROGRESS' AND attempts >= ? AND owner IS NOT ? AND ${OWNS}`,
          ).run(this.now(), maxAttempts, maxAttempts, owner, owner).changes;
          const requeued = this.stmt(
            `UPDATE job_jobs SET status = 'CREATED', owner = NULL
               WHERE status = 'IN_PROGRESS' AND owner IS NOT ? AND ${OWNS}`,
          ).run(owner, owner).changes;
          return { requeued, failed };
        })
        .immediate(),
    );
  }

  pendingCount(): Promise<number> {
    return run(
      () =>
        (
          this.stmt(`SELECT COUNT(*) AS n FROM job_jobs WHERE status = 'CREATED'`).get() as {
            n: number;
          }
        ).n,
    );
  }

  purge(): Promise<number> {
    return run(
      () => this.stmt('DELETE FROM job_jobs WHERE created_at <= ?').run(this.cutoff()).changes,
    );
  }
}

// better-sqlite3 is synchronous: run the work now and hand its outcome over as a promise, so a
// thrown error becomes a rejection like it would be from PostgreSQL.
function run<T>(fn: () => T): Promise<T> {
  try {
    return Promise.resolve(fn());
  } catch (error) {
    return Promise.reject(error as Error);
  }
}
