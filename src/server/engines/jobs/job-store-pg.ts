import { randomUUID } from 'node:crypto';
import type { Pool, PoolClient, QueryResultRow } from 'pg';
import { listPosition, resolveJobStoreOptions, toPage } from './job-store.js';
import type {
  JobClaim,
  JobPage,
  JobRow,
  JobStatus,
  JobStore,
  JobStoreOptions,
  ResolvedJobStoreOptions,
} from './job-store.js';

/** SQL for "now plus the lease", the lease in ms being query parameter `$n`. */
const leaseFrom = (n: number): string =>
  `clock_timestamp() + make_interval(secs => $${n}::double precision / 1000)`;

/** pg returns BIGINT as text: back to the numbers {@link JobRow} promises. */
function toRow(r: QueryResultRow): JobRow {
  const n = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));
  return {
    seq: Number(r.seq),
    id: r.id as string,
    user_id: r.user_id as string,
    model: r.model as string,
    request: r.request as string,
    status: r.status as JobStatus,
    idempotency_key: (r.idempotency_key as string | null) ?? null,
    created_at: Number(r.created_at),
    started_at: n(r.started_at),
    completed_at: n(r.completed_at),
    failed_at: n(r.failed_at),
    response: (r.response as string | null) ?? null,
    error_message: (r.error_message as string | null) ?? null,
    attempts: Number(r.attempts),
    owner: (r.owner as string | null) ?? null,
  };
}

// Every column but the lease: rows leave the store in the shape SqliteJobStore returns.
const COLUMNS = `seq, id, user_id, model, request, status, idempotency_key, created_at, started_at,
  completed_at, failed_at, response, error_message, attempts, owner`;

/**
 * The {@link JobStore} on PostgreSQL, for several `svc serve` instances on one database. A job is
 * claimed by exactly one queue with `SELECT ... FOR UPDATE SKIP LOCKED` and held under a lease its
 * queue renews while the handler runs; when a queue dies its leases run out and any other queue's
 * {@link recover} puts the job back (or fails it after `maxAttempts`). Every result write names the
 * owner and the attempt, so a queue that lost its lease cannot overwrite the run that replaced it.
 * The tables come from the `0003_jobs` migration (job-schema.ts), applied by the storage layer's migration step.
 * @example
 * const store = new PgJobStore(pool);
 * const queue = new JobQueue({ store, handler, leaseMs: 30_000 });
 */
export class PgJobStore implements JobStore {
  readonly kind = 'postgres';
  private readonly options: ResolvedJobStoreOptions;

  /**
   * @param pool a `pg` pool on a database migrated with `JOB_MIGRATIONS`; its owner ends it.
   * @throws JobQueueError `invalid_option` for a non-positive retention or window.
   */
  constructor(
    readonly pool: Pool,
    options: JobStoreOptions = {},
  ) {
    this.options = resolveJobStoreOptions(options, randomUUID);
  }

  get isOpen(): boolean {
    return !this.pool.ending;
  }

  private now(): number {
    return Math.floor(this.options.clock() / 1000);
  }

  private cutoff(): number {
    return this.now() - Math.floor(this.options.retention / 1000);
  }

  private async rows(sql: string, values: unknown[], on: Pool | PoolClient = this.pool) {
    return (await on.query(sql, values)).rows.map(toRow);
  }

  async create(
    userId: string,
    model: string,
    request: unknown,
    idempotencyKey?: string,
  ): Promise<{ row: JobRow; created: boolean }> {
    const now = this.now();
    const insert = `INSERT INTO job_jobs (id, user_id, model, request, status, idempotency_key,
        created_at) VALUES ($1, $2, $3, $4, 'CREATED', $5, $6) RETURNING ${COLUMNS}`;
    const values = [
      this.options.generateId(),
      userId,
      model,
      JSON.stringify(request),
      idempotencyKey ?? null,
      now,
    ];
    if (idempotencyKey === undefined) {
      const [row] = await this.rows(insert, values);
      return { row: row!, created: true };
    }
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      // Two instances receiving the same key at once: the lock makes the second see the first.
      await client.query('SELECT pg_advisory_xact_lock(hashtext($1), hashtext($2))', [
        userId,
        idempotencyKey,
      ]);
      const since = now - Math.floor(this.options.idempotencyWindow / 1000);
      const [existing] = await this.rows(
        `SELECT ${COLUMNS} FROM job_jobs WHERE user_id = $1 AND idempotency_key = $2
           AND created_at > $3 AND created_at > $4 ORDER BY seq DESC LIMIT 1`,
        [userId, idempotencyKey, since, this.cutoff()],
        client,
      );
      const result = existing
        ? { row: existing, created: false }
        : { row: (await this.rows(insert, values, client))[0]!, created: true };
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }

  async get(userId: string, id: string): Promise<JobRow | null> {
    const [row] = await this.rows(
      `SELECT ${COLUMNS} FROM job_jobs WHERE id = $1 AND user_id = $2 AND created_at > $3`,
      [id, userId, this.cutoff()],
    );
    return row ?? null;
  }

  async getById(id: string): Promise<JobRow | null> {
    const [row] = await this.rows(`SELECT ${COLUMNS} FROM job_jobs WHERE id = $1`, [id]);
    return row ?? null;
  }

  async list(
    userId: string,
    options: { limit?: number | undefined; nextToken?: string | null | undefined } = {},
  ): Promise<JobPage> {
    const { limit, createdAt, seq } = listPosition(options);
    const rows = await this.rows(
      `SELECT ${COLUMNS} FROM job_jobs WHERE user_id = $1 AND created_at > $2
           AND (created_at < $3 OR (created_at = $3 AND seq < $4))
         ORDER BY created_at DESC, seq DESC LIMIT $5`,
      [userId, this.cutoff(), createdAt, seq, limit + 1],
    );
    return toPage(rows, limit);
  }

  // Queues share the table: there is nothing to take over at open, leases settle who runs what.
  async open(): Promise<void> {}

  async claimNext(owner: string, leaseMs: number): Promise<JobRow | null> {
    const [row] = await this.rows(
      `UPDATE job_jobs SET status = 'IN_PROGRESS', started_at = COALESCE(started_at, $1),
           attempts = attempts + 1, owner = $2, lease_until = ${leaseFrom(3)}
         WHERE seq = (SELECT seq FROM job_jobs WHERE status = 'CREATED' ORDER BY seq LIMIT 1
                      FOR UPDATE SKIP LOCKED)
         RETURNING ${COLUMNS}`,
      [this.now(), owner, leaseMs],
    );
    return row ?? null;
  }

  async renew(owner: string, claims: readonly JobClaim[], leaseMs: number): Promise<Set<string>> {
    if (claims.length === 0) return new Set();
    const { rows } = await this.pool.query<{ id: string }>(
      `UPDATE job_jobs SET lease_until = ${leaseFrom(4)}
         WHERE owner = $1 AND status = 'IN_PROGRESS'
           AND (id, attempts) IN (SELECT * FROM unnest($2::text[], $3::int[]))
         RETURNING id`,
      [owner, claims.map((c) => c.id), claims.map((c) => c.attempt), leaseMs],
    );
    return new Set(rows.map((r) => r.id));
  }

  complete(claim: JobClaim, owner: string, response: unknown): Promise<boolean> {
    return this.finish(
      `status = 'COMPLETED', completed_at = $4, response = $5`,
      [this.now(), JSON.stringify(response ?? null)],
      claim,
      owner,
    );
  }

  fail(claim: JobClaim, owner: string, message: string): Promise<boolean> {
    return this.finish(
      `status = 'FAILED', failed_at = $4, error_message = $5`,
      [this.now(), message],
      claim,
      owner,
    );
  }

  release(claim: JobClaim, owner: string): Promise<boolean> {
    return this.finish(
      `status = 'CREATED', attempts = GREATEST(attempts - 1, 0)`,
      [],
      claim,
      owner,
    );
  }

  private async finish(
    set: string,
    values: unknown[],
    claim: JobClaim,
    owner: string,
  ): Promise<boolean> {
    const { rowCount } = await this.pool.query(
      `UPDATE job_jobs SET ${set}, owner = NULL, lease_until = NULL
         WHERE id = $1 AND attempts = $2 AND owner = $3 AND status = 'IN_PROGRESS'`,
      [claim.id, claim.attempt, owner, ...values],
    );
    return rowCount === 1;
  }

  async recover(
    _owner: string,
    maxAttempts: number,
  ): Promise<{ requeued: number; failed: number }> {
    const { rows } = await this.pool.query<{ status: JobStatus }>(
      `UPDATE job_jobs SET owner = NULL, lease_until = NULL,
           status = CASE WHEN attempts >= $2::int THEN 'FAILED' ELSE 'CREATED' END,
           failed_at = CASE WHEN attempts >= $2::int THEN $1::bigint END,
           error_message = CASE WHEN attempts >= $2::int THEN 'job interrupted by a server restart '
             || attempts || ' times; giving up after ' || $2::int || ' attempts' END
         WHERE seq IN (SELECT seq FROM job_jobs WHERE status = 'IN_PROGRESS'
                         AND lease_until < clock_timestamp() FOR UPDATE SKIP LOCKED)
         RETURNING status`,
      [this.now(), maxAttempts],
    );
    const failed = rows.filter((r) => r.status === 'FAILED').length;
    return { requeued: rows.length - failed, failed };
  }

  async pendingCount(): Promise<number> {
    const { rows } = await this.pool.query<{ n: string }>(
      `SELECT COUNT(*) AS n FROM job_jobs WHERE status = 'CREATED'`,
    );
    return Number(rows[0]?.n ?? 0);
  }

  async purge(): Promise<number> {
    const { rowCount } = await this.pool.query('DELETE FROM job_jobs WHERE created_at <= $1', [
      this.cutoff(),
    ]);
    return rowCount ?? 0;
  }
}
