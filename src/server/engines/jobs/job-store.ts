import type { AsyncChatStatus } from '../../../protocol/async-chat.js';
import { JobQueueError } from './errors.js';

/** Job states (spec 3); the protocol's `AsyncChatStatus`. */
export type JobStatus = AsyncChatStatus;

/** One stored job. Timestamps are integer unix seconds. */
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
  /** How many times a worker claimed the job (a takeover after a crash counts one). */
  attempts: number;
  /** Queue instance that holds the job while IN_PROGRESS. */
  owner: string | null;
}

/** The claim a worker holds on a job: results are written only while both still match. */
export interface JobClaim {
  id: string;
  /** The job's `attempts` when this worker claimed it. */
  attempt: number;
}

/** One page of a user's jobs, newest first. */
export interface JobPage {
  jobs: JobRow[];
  /** Opaque token of the next page; `null` on the last one. */
  nextToken: string | null;
}

/** Options shared by every {@link JobStore} implementation. Durations in ms. */
export interface JobStoreOptions {
  /** Current time in ms (job timestamps, retention, idempotency). @default Date.now */
  clock?: (() => number) | undefined;
  /** How long jobs stay readable. @default 7 days */
  retention?: number | undefined;
  /** How long an idempotency key maps to its job. @default 24 hours */
  idempotencyWindow?: number | undefined;
  /** Job id generator. @default crypto.randomUUID */
  generateId?: (() => string) | undefined;
}

/** Defaults of {@link JobStoreOptions} and {@link JobStore.list}. */
export const JOB_STORE_DEFAULTS = {
  retention: 7 * 24 * 3600_000,
  idempotencyWindow: 24 * 3600_000,
  listLimit: 20,
  maxListLimit: 100,
} as const;

/**
 * Persistence of async jobs. Every state change is one atomic write, so a crash leaves each job in
 * exactly one state, and every result write is fenced by the worker's {@link JobClaim}: a worker
 * that lost its job (taken over after a crash or an expired lease) cannot overwrite the new run.
 * Two implementations: `SqliteJobStore` (one queue per database file, the embedded default) and
 * `PgJobStore` (PostgreSQL, many queues in many processes, leases renewed by the holder).
 */
export interface JobStore {
  /** `'sqlite'` or `'postgres'`: which implementation this is. */
  readonly kind: 'sqlite' | 'postgres';
  /**
   * Create a job in state CREATED, or return the user's existing job for the same idempotency key
   * within the window (whatever its state).
   */
  create(
    userId: string,
    model: string,
    request: unknown,
    idempotencyKey?: string,
  ): Promise<{ row: JobRow; created: boolean }>;
  /** The user's job, or `null` when it does not exist, belongs to another user, or has expired. */
  get(userId: string, id: string): Promise<JobRow | null>;
  /** A job by id regardless of user or age (worker side and tests). */
  getById(id: string): Promise<JobRow | null>;
  /**
   * One page of the user's jobs, newest first, keyset-paginated.
   * @throws JobQueueError `invalid_limit` (not 1 to 100) or `invalid_next_token`.
   */
  list(
    userId: string,
    options?: { limit?: number | undefined; nextToken?: string | null | undefined },
  ): Promise<JobPage>;
  /** Register `owner` as a queue of this store (SQLite: fences off every earlier queue). */
  open(owner: string): Promise<void>;
  /**
   * Atomically move the oldest CREATED job to IN_PROGRESS for `owner` (sets `started_at` the first
   * time, counts an attempt, holds it for `leaseMs`). `null` when none is waiting or `owner` may no
   * longer claim.
   */
  claimNext(owner: string, leaseMs: number): Promise<JobRow | null>;
  /**
   * Extend the holder's lease on its running jobs.
   * @returns the ids among `claims` that `owner` still holds (the others were taken over).
   */
  renew(owner: string, claims: readonly JobClaim[], leaseMs: number): Promise<Set<string>>;
  /** Record a result; false (and no write) unless `owner` still holds `claim`. */
  complete(claim: JobClaim, owner: string, response: unknown): Promise<boolean>;
  /** Record a failure; false (and no write) unless `owner` still holds `claim`. */
  fail(claim: JobClaim, owner: string, message: string): Promise<boolean>;
  /** Put a job interrupted by a graceful stop back in the queue, without counting the attempt. */
  release(claim: JobClaim, owner: string): Promise<boolean>;
  /**
   * Jobs whose holder is gone go back to CREATED, or to FAILED once they used `maxAttempts`
   * attempts. "Gone" is a fenced-off queue for SQLite and an expired lease for PostgreSQL.
   */
  recover(owner: string, maxAttempts: number): Promise<{ requeued: number; failed: number }>;
  /** Number of jobs waiting in CREATED. */
  pendingCount(): Promise<number>;
  /** Delete jobs past the retention, whatever their state. @returns how many. */
  purge(): Promise<number>;
  /** False once the underlying connection is closed: the queue then stops claiming. */
  readonly isOpen: boolean;
}

/** Options after defaults, shared by both implementations. */
export interface ResolvedJobStoreOptions {
  clock: () => number;
  retention: number;
  idempotencyWindow: number;
  generateId: () => string;
}

/**
 * Apply defaults to store options.
 * @throws JobQueueError `invalid_option` for a non-positive retention or window.
 */
export function resolveJobStoreOptions(
  options: JobStoreOptions,
  generateId: () => string,
): ResolvedJobStoreOptions {
  const resolved = {
    clock: options.clock ?? Date.now,
    retention: options.retention ?? JOB_STORE_DEFAULTS.retention,
    idempotencyWindow: options.idempotencyWindow ?? JOB_STORE_DEFAULTS.idempotencyWindow,
    generateId: options.generateId ?? generateId,
  };
  for (const name of ['retention', 'idempotencyWindow'] as const) {
    const v = resolved[name];
    if (!(v > 0)) throw new JobQueueError('invalid_option', `${name} must be > 0 ms, got ${v}`);
  }
  return resolved;
}

/**
 * Validate a list request and decode its page token into the keyset position.
 * @throws JobQueueError `invalid_limit` or `invalid_next_token`.
 */
export function listPosition(options: {
  limit?: number | undefined;
  nextToken?: string | null | undefined;
}): { limit: number; createdAt: number; seq: number } {
  const limit = options.limit ?? JOB_STORE_DEFAULTS.listLimit;
  if (!Number.isInteger(limit) || limit < 1 || limit > JOB_STORE_DEFAULTS.maxListLimit) {
    throw new JobQueueError(
      'invalid_limit',
      `limit must be an integer from 1 to 100, got ${limit}`,
    );
  }
  if (!options.nextToken) {
    return { limit, createdAt: Number.MAX_SAFE_INTEGER, seq: Number.MAX_SAFE_INTEGER };
  }
  const m = /^(\d{1,15}):(\d{1,15})$/.exec(
    Buffer.from(options.nextToken, 'base64url').toString('utf8'),
  );
  if (!m) throw new JobQueueError('invalid_next_token', 'next_token is not one this server issued');
  return { limit, createdAt: Number(m[1]), seq: Number(m[2]) };
}

/** Trim a `limit + 1` row fetch to one page and its token. */
export function toPage(rows: JobRow[], limit: number): JobPage {
  const more = rows.length > limit;
  if (more) rows.length = limit;
  const last = rows[rows.length - 1];
  return {
    jobs: rows,
    nextToken:
      more && last ? Buffer.from(`${last.created_at}:${last.seq}`).toString('base64url') : null,
  };
}
