import { randomUUID } from 'node:crypto';
import { JobQueueError } from './errors.js';
import type { JobClaim, JobPage, JobRow, JobStore } from './job-store.js';

/** What a handler receives besides the request. */
export interface JobContext {
  /**
   * Aborted when the queue stops before the job finishes (the job is then re-queued), or when this
   * queue lost the job to another instance after its lease ran out.
   */
  signal: AbortSignal;
  /** The job's id. */
  jobId: string;
  /** 1 for the first run, higher when resumed after a restart or taken over. */
  attempt: number;
}

/** Runs one job: resolves with the response to store, or throws to fail the job with its message. */
export type JobHandler<Req = unknown, Res = unknown> = (
  request: Req,
  ctx: JobContext,
) => Promise<Res>;

/** Options of {@link JobQueue}. Durations in ms. */
export interface JobQueueOptions<Req, Res> {
  /** Where jobs live: a `SqliteJobStore` or a `PgJobStore`. */
  store: JobStore;
  /** Runs each job. */
  handler: JobHandler<Req, Res>;
  /** Jobs run at the same time. @default 2 */
  concurrency?: number | undefined;
  /** Claims a job may use before it is given up as FAILED. @default 3 */
  maxAttempts?: number | undefined;
  /** How often to look for jobs inserted elsewhere and for jobs whose holder is gone. @default 1000 */
  pollInterval?: number | undefined;
  /** How often to purge expired jobs. @default 3_600_000 */
  purgeInterval?: number | undefined;
  /**
   * How long a claimed job stays ours without renewal (renewed every third of it while it runs).
   * Another instance takes a job over once its lease ran out (PostgreSQL). @default 30_000
   */
  leaseMs?: number | undefined;
  /** Called with errors the queue cannot hand to anyone (a failed status write). @default ignore */
  onError?: ((err: unknown) => void) | undefined;
}

/** Defaults of {@link JobQueue}. */
export const JOB_QUEUE_DEFAULTS = {
  concurrency: 2,
  maxAttempts: 3,
  pollInterval: 1000,
  purgeInterval: 3_600_000,
  leaseMs: 30_000,
  drainTimeout: 10_000,
  maxErrorMessage: 2000,
} as const;

interface Running {
  readonly claim: JobClaim;
  readonly controller: AbortController;
  readonly done: Promise<void>;
}

function errorMessage(err: unknown): string {
  const msg = err instanceof Error ? err.message : String(err);
  return (msg || 'job failed').slice(0, JOB_QUEUE_DEFAULTS.maxErrorMessage);
}

/**
 * A persistent job queue with a worker pool, over a {@link JobStore}. Jobs survive crashes:
 * {@link start} and every poll put back jobs whose holder is gone (failing those that already used
 * `maxAttempts`), then run CREATED jobs. A job is claimed by one atomic update, held under a lease
 * this queue renews while it runs, and its result is written only if this queue still holds that
 * attempt, so no job runs twice at once and a stale worker never overwrites a newer run.
 * @example
 * const queue = new JobQueue({ store: new SqliteJobStore(db), handler: (req) => answer(req) });
 * await queue.start();
 * const job = await queue.create(userId, { model: 'core-deep-research', messages });
 */
export class JobQueue<Req extends { model: string } = { model: string }, Res = unknown> {
  /** The persistence layer (reads are safe to call directly). */
  readonly store: JobStore;
  /** This queue's identity in the store (the `owner` of the jobs it runs). */
  readonly owner = randomUUID();
  private readonly handler: JobHandler<Req, Res>;
  private readonly concurrency: number;
  private readonly maxAttempts: number;
  private readonly pollInterval: number;
  private readonly purgeInterval: number;
  private readonly leaseMs: number;
  private readonly onError: (err: unknown) => void;
  private readonly running = new Map<string, Running>();
  private state: 'idle' | 'started' | 'stopped' = 'idle';
  private timers: NodeJS.Timeout[] = [];
  private pumping: Promise<void> | undefined;
  private pumpAgain = false;
  private idleWaiters: (() => void)[] = [];

  /** @throws JobQueueError `invalid_option` naming the bad option. */
  constructor(options: JobQueueOptions<Req, Res>) {
    this.store = options.store;
    this.handler = options.handler;
    this.concurrency = options.concurrency ?? JOB_QUEUE_DEFAULTS.concurrency;
    this.maxAttempts = options.maxAttempts ?? JOB_QUEUE_DEFAULTS.maxAttempts;
    this.pollInterval = options.pollInterval ?? JOB_QUEUE_DEFAULTS.pollInterval;
    this.purgeInterval = options.purgeInterval ?? JOB_QUEUE_DEFAULTS.purgeInterval;
    this.leaseMs = options.leaseMs ?? JOB_QUEUE_DEFAULTS.leaseMs;
    this.onError = options.onError ?? (() => {});
    for (const [name, v, min] of [
      ['concurrency', this.concurrency, 1],
      ['maxAttempts', this.maxAttempts, 1],
      ['pollInterval', this.pollInterval, 1],
      ['purgeInterval', this.purgeInterval, 1],
      ['leaseMs', this.leaseMs, 300],
    ] as const) {
      if (!Number.isInteger(v) || v < min) {
        throw new JobQueueError('invalid_option', `${name} must be an integer >= ${min}, got ${v}`);
      }
    }
  }

  /**
   * Queue a job, or return the user's existing job for the same idempotency key within 24 h.
   * Workers pick it up after the current tick, so the returned row is in state CREATED when new.
   * Also works before {@link start} or after {@link stop}: the job waits for a started queue.
   */
  async create(userId: string, request: Req, idempotencyKey?: string): Promise<JobRow> {
    const { row, created } = await this.store.create(
      userId,
      request.model,
      request,
      idempotencyKey,
    );
    if (created) setImmediate(() => this.pump());
    return row;
  }

  /** The user's job, or `null` (unknown, another user's, or expired). */
  get(userId: string, id: string): Promise<JobRow | null> {
    return this.store.get(userId, id);
  }

  /** The user's jobs, newest first. See {@link JobStore.list}. */
  list(
    userId: string,
    options?: { limit?: number | undefined; nextToken?: string | null | undefined },
  ): Promise<JobPage> {
    return this.store.list(userId, options);
  }

  /** Jobs running right now in this queue. */
  get activeCount(): number {
    return this.running.size;
  }

  /**
   * Register with the store, purge expired jobs, recover jobs whose holder is gone, and start the
   * workers. Idempotent while started.
   * @returns how many interrupted jobs were re-queued or failed, and how many expired jobs purged.
   * @throws JobQueueError `stopped` after {@link stop}; the store's error if the database cannot be
   *   written (the queue then stays unstarted).
   */
  async start(): Promise<{ requeued: number; failed: number; purged: number }> {
    if (this.state === 'stopped') throw new JobQueueError('stopped', 'job queue was stopped');
    if (this.state === 'started') return { requeued: 0, failed: 0, purged: 0 };
    this.state = 'started';
    try {
      await this.store.open(this.owner);
      const purged = await this.store.purge();
      const recovered = await this.store.recover(this.owner, this.maxAttempts);
      if (this.state !== 'started') return { ...recovered, purged };
      const tick = (fn: () => void, ms: number): void => {
        const t = setInterval(fn, ms);
        t.unref();
        this.timers.push(t);
      };
      tick(() => void this.poll(), this.pollInterval);
      tick(() => void this.guard(() => this.store.purge()), this.purgeInterval);
      tick(() => void this.renew(), Math.floor(this.leaseMs / 3));
      void this.pump();
      return { ...recovered, purged };
    } catch (error) {
      this.state = 'idle';
      throw error;
    }
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
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<boolean>(
      (resolve) => (timer = setTimeout(() => resolve(true), drain)),
    );
    // A claim in flight either lands before the deadline (and is released: see pump) or is left to
    // recovery; a connection that never answers must not hold the stop up.
    await Promise.race([this.pumping, deadline]);
    const all = Promise.all([...this.running.values()].map((r) => r.done));
    const timedOut = await Promise.race([all.then(() => false), deadline]);
    clearTimeout(timer);
    if (timedOut) {
      await Promise.all(
        [...this.running.values()].map(async (r) => {
          // Release first, so the handler's reaction to the abort cannot record a failure.
          await this.guard(() => this.store.release(r.claim, this.owner));
          r.controller.abort(new JobQueueError('stopped', 'job queue stopped'));
        }),
      );
    }
    this.resolveIdle(true);
  }

  /**
   * Resolves once no job is running in this queue and none is waiting (or the queue stopped).
   * For tests and graceful shutdown.
   */
  onIdle(): Promise<void> {
    return new Promise((resolve) => {
      this.idleWaiters.push(resolve);
      void this.checkIdle();
    });
  }

  private async checkIdle(): Promise<void> {
    if (this.idleWaiters.length === 0) return;
    if (this.state === 'stopped') return this.resolveIdle(true);
    if (this.running.size > 0 || this.pumping) return;
    const pending = this.store.isOpen ? await this.guard(() => this.store.pendingCount()) : 0;
    if (this.running.size === 0 && !this.pumping && pending === 0) this.resolveIdle(true);
  }

  private resolveIdle(idle: boolean): void {
    if (!idle) return;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const w of waiters) w();
  }

  private async guard<T>(fn: () => Promise<T>): Promise<T | undefined> {
    try {
      return await fn();
    } catch (err) {
      this.onError(err);
      return undefined;
    }
  }

  private async poll(): Promise<void> {
    if (this.state !== 'started' || !this.store.isOpen) return;
    await this.guard(() => this.store.recover(this.owner, this.maxAttempts));
    await this.pump();
  }

  // Extend our leases; a job whose lease another queue took over is aborted here, and its late
  // result is refused by the store anyway.
  private async renew(): Promise<void> {
    if (this.running.size === 0 || !this.store.isOpen) return;
    const claims = [...this.running.values()].map((r) => r.claim);
    const held = await this.guard(() => this.store.renew(this.owner, claims, this.leaseMs));
    if (!held) return;
    for (const claim of claims) {
      const r = this.running.get(claim.id);
      if (r && r.claim.attempt === claim.attempt && !held.has(claim.id)) {
        r.controller.abort(new JobQueueError('stopped', 'job lease lost to another instance'));
      }
    }
  }

  // One claim loop at a time, so `concurrency` holds; a call during a loop makes it go round again.
  private pump(): Promise<void> {
    if (this.pumping) {
      this.pumpAgain = true;
      return this.pumping;
    }
    this.pumping = (async () => {
      do {
        this.pumpAgain = false;
        while (this.state === 'started' && this.running.size < this.concurrency) {
          // A closed connection means the owner tore the database down under us: nothing to claim.
          if (!this.store.isOpen) break;
          const row = await this.guard(() => this.store.claimNext(this.owner, this.leaseMs));
          if (!row) break;
          if (this.state !== 'started') {
            // stop() began while we claimed: hand the job back untouched.
            await this.guard(() =>
              this.store.release({ id: row.id, attempt: row.attempts }, this.owner),
            );
            break;
          }
          this.run(row);
        }
      } while (this.pumpAgain && this.state === 'started');
    })().finally(() => {
      this.pumping = undefined;
      void this.checkIdle();
    });
    return this.pumping;
  }

  private run(row: JobRow): void {
    const claim: JobClaim = { id: row.id, attempt: row.attempts };
    const controller = new AbortController();
    let settle!: () => void;
    const done = new Promise<void>((resolve) => (settle = resolve));
    // Registered before the handler starts: a handler that throws synchronously still finds it.
    this.running.set(row.id, { claim, controller, done });
    void this.execute(row, claim, controller.signal).finally(() => {
      this.running.delete(row.id);
      settle();
      void this.pump();
    });
  }

  private async execute(row: JobRow, claim: JobClaim, signal: AbortSignal): Promise<void> {
    let response: Res;
    try {
      const request = JSON.parse(row.request) as Req;
      response = await this.handler(request, { signal, jobId: row.id, attempt: claim.attempt });
    } catch (err) {
      // An abort comes from stop() (which already put the job back) or from a lost lease.
      if (!signal.aborted)
        await this.guard(() => this.store.fail(claim, this.owner, errorMessage(err)));
      return;
    }
    try {
      await this.store.complete(claim, this.owner, response);
    } catch (err) {
      // A response that cannot be serialised or stored fails the job instead of leaving it
      // IN_PROGRESS.
      await this.guard(() => this.store.fail(claim, this.owner, errorMessage(err)));
    }
  }
}
