import { randomUUID } from 'node:crypto';
import type { Database } from 'better-sqlite3';
import { JobQueueError } from './errors.js';
import { JobStore } from './job-store.js';
import type { JobRow, JobStoreOptions } from './job-store.js';

/** What a handler receives besides the request. */
export interface JobContext {
  /** Aborted when the queue stops before the job finishes (the job is then re-queued). */
  signal: AbortSignal;
  /** The job's id. */
  jobId: string;
  /** 1 for the first run, higher when resumed after a restart. */
  attempt: number;
}

/** Runs one job: resolves with the response to store, or throws to fail the job with its message. */
export type JobHandler<Req = unknown, Res = unknown> = (
  request: Req,
  ctx: JobContext,
) => Promise<Res>;

/** Options of {@link JobQueue}. Durations in ms. */
export interface JobQueueOptions<Req, Res> extends JobStoreOptions {
  /** The database; tables `job_*` are created if missing. One running queue per database file. */
  db: Database;
  /** Runs each job. */
  handler: JobHandler<Req, Res>;
  /** Jobs run at the same time. @default 2 */
  concurrency?: number | undefined;
  /** Claims a job may use before a restart gives up on it. @default 3 */
  maxAttempts?: number | undefined;
  /** How often to look for jobs inserted by other connections. @default 1000 */
  pollInterval?: number | undefined;
  /** How often to purge expired jobs. @default 3_600_000 */
  purgeInterval?: number | undefined;
  /** Called with errors the queue cannot hand to anyone (a failed status write). @default ignore */
  onError?: ((err: unknown) => void) | undefined;
}

/** Defaults of {@link JobQueue}. */
export const JOB_QUEUE_DEFAULTS = {
  concurrency: 2,
  maxAttempts: 3,
  pollInterval: 1000,
  purgeInterval: 3_600_000,
  drainTimeout: 10_000,
  maxErrorMessage: 2000,
} as const;

interface Running {
  readonly controller: AbortController;
  readonly done: Promise<void>;
}

function errorMessage(err: unknown): string {
  const msg = err instanceof Error ? err.message : String(err);
  return (msg || 'job failed').slice(0, JOB_QUEUE_DEFAULTS.maxErrorMessage);
}

/**
 * A persistent job queue with a worker pool. Jobs survive restarts: {@link start} re-queues jobs a
 * crash left IN_PROGRESS (failing those that already used `maxAttempts`), then runs every CREATED
 * job. A job is claimed by one atomic update, and results are written only by the queue instance
 * that holds it, so no job runs twice at once within a queue and a stale worker never overwrites a
 * newer run.
 * @example
 * const queue = new JobQueue({ db, handler: (req) => answer(req) });
 * queue.start();
 * const job = queue.create(userId, { model: 'core-deep-research', messages });
 */
export class JobQueue<Req extends { model: string } = { model: string }, Res = unknown> {
  /** The persistence layer (reads are safe to call directly). */
  readonly store: JobStore;
  private readonly owner = randomUUID();
  private readonly handler: JobHandler<Req, Res>;
  private readonly concurrency: number;
  private readonly maxAttempts: number;
  private readonly pollInterval: number;
  private readonly purgeInterval: number;
  private readonly onError: (err: unknown) => void;
  private readonly running = new Map<string, Running>();
  private state: 'idle' | 'started' | 'stopped' = 'idle';
  private timers: NodeJS.Timeout[] = [];
  private pumpScheduled = false;
  private idleWaiters: (() => void)[] = [];

  /** @throws JobQueueError `invalid_option` naming the bad option. */
  constructor(options: JobQueueOptions<Req, Res>) {
    this.store = new JobStore(options.db, options);
    this.handler = options.handler;
    this.concurrency = options.concurrency ?? JOB_QUEUE_DEFAULTS.concurrency;
    this.maxAttempts = options.maxAttempts ?? JOB_QUEUE_DEFAULTS.maxAttempts;
    this.pollInterval = options.pollInterval ?? JOB_QUEUE_DEFAULTS.pollInterval;
    this.purgeInterval = options.purgeInterval ?? JOB_QUEUE_DEFAULTS.purgeInterval;
    this.onError = options.onError ?? (() => {});
    for (const [name, v] of [
      ['concurrency', this.concurrency],
      ['maxAttempts', this.maxAttempts],
      ['pollInterval', this.pollInterval],
      ['purgeInterval', this.purgeInterval],
    ] as const) {
      if (!Number.isInteger(v) || v < 1) {
        throw new JobQueueError('invalid_option', `${name} must be an integer >= 1, got ${v}`);
      }
    }
  }

  /**
   * Queue a job, or return the user's existing job for the same idempotency key within 24 h.
   * Workers pick it up after the current tick, so the returned row is in state CREATED when new.
   * Also works before {@link start} or after {@link stop}: the job waits for a started queue.
   */
  create(userId: string, request: Req, idempotencyKey?: string): JobRow {
    const { row, created } = this.store.create(userId, request.model, request, idempotencyKey);
    if (created) this.schedulePump();
    return row;
  }

  /** The user's job, or `null` (unknown, another user's, or expired). */
  get(userId: string, id: string): JobRow | null {
    return this.store.get(userId, id);
  }

  /** The user's jobs, newest first. See {@link JobStore.list}. */
  list(
    userId: string,
    options?: { limit?: number | undefined; nextToken?: string | null | undefined },
  ): { jobs: JobRow[]; nextToken: string | null } {
    return this.store.list(userId, options);
  }

  /** Jobs running right now in this queue. */
  get activeCount(): number {
    return this.running.size;
  }

  /**
   * Take ownership of the database, purge expired jobs, recover jobs interrupted by a crash, and
   * start the workers. Idempotent while started.
   * @returns how many interrupted jobs were re-queued or failed, and how many expired jobs purged.
   * @throws JobQueueError `stopped` after {@link stop}; a better-sqlite3 error if the database
   *   cannot be written (the queue then stays unstarted).
   */
  start(): { requeued: number; failed: number; purged: number } {
    if (this.state === 'stopped') throw new JobQueueError('stopped', 'job queue was stopped');
    if (this.state === 'started') return { requeued: 0, failed: 0, purged: 0 };
    this.store.takeOwnership(this.owner);
    const purged = this.store.purge();
    const recovered = this.store.recover(this.maxAttempts);
    this.state = 'started';
    const tick = (fn: () => void, ms: number): void => {
      const t = setInterval(fn, ms);
      t.unref();
      this.timers.push(t);
    };
    tick(() => this.pump(), this.pollInterval);
    tick(() => this.guard(() => this.store.purge()), this.purgeInterval);
    this.pump();
    return { ...recovered, purged };
  }

  /**
   * Stop claiming jobs and wait up to `drainTimeout` ms for running ones. Jobs still running then
   * are aborted (their `signal` fires) and put back to CREATED, to run again at the next start.
   * @param options.drainTimeout ms to wait for running jobs. @default 10_000
   */
  async stop(options: { drainTimeout?: number } = {}): Promise<void> {
    if (this.state === 'stopped') return;
    this.state = 'stopped';
    for (const t of this.timers) clearInterval(t);
    this.timers = [];
    const drain = options.drainTimeout ?? JOB_QUEUE_DEFAULTS.drainTimeout;
    const all = Promise.all([...this.running.values()].map((r) => r.done));
    let timer: NodeJS.Timeout | undefined;
    const timedOut = await Promise.race([
      all.then(() => false),
      new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(true), drain))),
    ]);
    clearTimeout(timer);
    if (timedOut) {
      for (const [id, r] of this.running) {
        // Release first, so the handler's reaction to the abort cannot record a failure.
        this.guard(() => this.store.release(id, this.owner));
        r.controller.abort(new JobQueueError('stopped', 'job queue stopped'));
      }
    }
    this.resolveIdle();
  }

  /**
   * Resolves once no job is running in this queue and none is waiting (or the queue stopped).
   * For tests and graceful shutdown.
   */
  onIdle(): Promise<void> {
    return new Promise((resolve) => {
      this.idleWaiters.push(resolve);
      this.resolveIdle();
    });
  }

  private resolveIdle(): void {
    if (this.idleWaiters.length === 0) return;
    const idle =
      this.state === 'stopped' ||
      (this.running.size === 0 && (!this.store.db.open || this.store.pendingCount() === 0));
    if (!idle) return;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const w of waiters) w();
  }

  private guard<T>(fn: () => T): T | undefined {
    try {
      return fn();
    } catch (err) {
      this.onError(err);
      return undefined;
    }
  }

  private schedulePump(): void {
    if (this.pumpScheduled || this.state !== 'started') return;
    this.pumpScheduled = true;
    setImmediate(() => {
      this.pumpScheduled = false;
      this.pump();
    });
  }

  private pump(): void {
    while (this.state === 'started' && this.running.size < this.concurrency) {
      // A closed connection means the owner tore the database down under us: nothing to claim.
      if (!this.store.db.open) break;
      const row = this.guard(() => this.store.claimNext(this.owner));
      if (!row) break;
      this.run(row);
    }
    this.resolveIdle();
  }

  private run(row: JobRow): void {
    const controller = new AbortController();
    let settle!: () => void;
    const done = new Promise<void>((resolve) => (settle = resolve));
    // Registered before the handler starts: a handler that throws synchronously still finds it.
    this.running.set(row.id, { controller, done });
    void this.execute(row, controller.signal).finally(() => {
      this.running.delete(row.id);
      settle();
      this.pump();
    });
  }

  private async execute(row: JobRow, signal: AbortSignal): Promise<void> {
    try {
      const request = JSON.parse(row.request) as Req;
      const response = await this.handler(request, {
        signal,
        jobId: row.id,
        attempt: row.attempts,
      });
      // Inside the try: a response that cannot be serialised fails the job instead of leaving it
      // IN_PROGRESS.
      this.store.complete(row.id, this.owner, response);
    } catch (err) {
      // An abort comes from stop(), which already put the job back in the queue.
      if (!signal.aborted) this.guard(() => this.store.fail(row.id, this.owner, errorMessage(err)));
    }
  }
}
