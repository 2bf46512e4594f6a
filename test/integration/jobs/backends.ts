// The two job stores behind one test surface, so the same job tests run on SQLite and on a real
// PostgreSQL (test/support/postgres.ts: SVC_TEST_DATABASE_URL, else one started for this file).
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { JobQueue, PgJobStore, SqliteJobStore } from '../../../src/server/engines/jobs/index.js';
import { JOB_MIGRATIONS } from '../../../src/server/engines/jobs/index.js';
import type {
  JobHandler,
  JobStore,
  JobStoreOptions,
} from '../../../src/server/engines/jobs/index.js';
import { runMigrations } from '../../../src/server/storage/migrations.js';
import { startPostgres } from '../../support/postgres.js';
import type { TestPostgres } from '../../support/postgres.js';
import { openDb, tempDir, waitFor } from './helpers.js';

/** A store opened on a database, and how to let go of it. */
export interface OpenedStore {
  store: JobStore;
  /** Closes the connection (after the queue on it stopped). */
  close(): Promise<void>;
  /**
   * Makes the queue on this store look like its process died: SQLite needs nothing (the next queue
   * fences it off); PostgreSQL drops the connections and waits out the lease.
   */
  crash(): Promise<void>;
}

/** One database engine under test. */
export interface JobBackend {
  name: 'sqlite' | 'postgres';
  /** Lease to give queues in tests: short, so a PostgreSQL takeover happens within a test. */
  leaseMs: number;
  /** A fresh empty database, as a location {@link open} takes; removed by {@link dispose}. */
  fresh(): Promise<string>;
  /** A store on `location` (migrated). */
  open(location: string, options?: JobStoreOptions): Promise<OpenedStore>;
  /** Stops what the backend started. */
  dispose(): Promise<void>;
}

const LEASE_MS = 400;

function sqliteBackend(): JobBackend {
  const dirs: (() => void)[] = [];
  return {
    name: 'sqlite',
    leaseMs: LEASE_MS,
    fresh() {
      const t = tempDir();
      dirs.push(t.cleanup);
      return Promise.resolve(join(t.dir, 'jobs.db'));
    },
    async open(file, options) {
      const db = openDb(file);
      await runMigrations({ dialect: 'sqlite', db }, JOB_MIGRATIONS);
      return {
        store: new SqliteJobStore(db, options),
        close: () => Promise.resolve(void (db.open && db.close())),
        crash: () => Promise.resolve(),
      };
    },
    dispose: () => Promise.resolve(void dirs.splice(0).forEach((c) => c())),
  };
}

async function postgresBackend(): Promise<JobBackend> {
  const server: TestPostgres = await startPostgres();
  return {
    name: 'postgres',
    leaseMs: LEASE_MS,
    fresh: () => server.createDatabase(),
    async open(url, options) {
      const pool = new pg.Pool({ connectionString: url, max: 4 });
      // A connection dropped under a "crashed" queue must not crash the test process.
      pool.on('error', () => undefined);
      await runMigrations({ dialect: 'postgres', pool }, JOB_MIGRATIONS);
      const close = async (): Promise<void> => {
        if (!pool.ending) await pool.end();
      };
      return {
        store: new PgJobStore(pool, options),
        close,
        async crash() {
          await close();
          await new Promise((r) => setTimeout(r, LEASE_MS + 200));
        },
      };
    },
    dispose: () => server.stop(),
  };
}

/** Names of the backends every job test runs on. */
export const BACKENDS = ['sqlite', 'postgres'] as const;

/** Starts backend `name` (PostgreSQL: reuses SVC_TEST_DATABASE_URL or starts one). */
export function startBackend(name: (typeof BACKENDS)[number]): Promise<JobBackend> {
  return name === 'sqlite' ? Promise.resolve(sqliteBackend()) : postgresBackend();
}

/** A job request as the tests send it. */
export interface Req {
  model: string;
  messages: { role: string; content: string }[];
}

/** A deep-research request asking `content`. */
export const req = (content: string): Req => ({
  model: 'core-deep-research',
  messages: [{ role: 'user', content }],
});

/** Polls an async condition (the queue's reads are async on both stores). */
export async function until(
  check: () => Promise<boolean>,
  timeout = 10_000,
  what = 'condition',
): Promise<void> {
  let ok = false;
  const probe = () => void check().then((v) => (ok = v));
  probe();
  await waitFor(
    () => {
      if (!ok) probe();
      return ok;
    },
    timeout,
    what,
  );
}

/** A queue on a store of the backend under test, stopped and closed after the test. */
export interface QueueUnderTest {
  queue: JobQueue<Req>;
  store: JobStore;
  location: string;
  opened: OpenedStore;
}

/**
 * Registers the hooks of one backend in the calling `describe` (start before, stop after, close
 * every queue after each test) and returns what its tests use.
 */
export function useJobBackend(name: (typeof BACKENDS)[number]) {
  let backend: JobBackend;
  beforeAll(async () => {
    backend = await startBackend(name);
  }, 120_000);
  afterAll(() => backend?.dispose());
  const cleanups: (() => void | Promise<void>)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });
  return {
    backend: () => backend,
    /** Runs `fn` after the current test (stores opened by hand). */
    defer: (fn: () => void | Promise<void>) => void cleanups.push(fn),
    /** The status of alice's job `id`. */
    status: async (q: JobQueue<Req>, id: string) => (await q.get('alice', id))!.status,
    /** A new queue (not started) on `location`, else on a fresh database. */
    async setup(
      handler: JobHandler<Req, unknown>,
      opts: {
        clock?: () => number;
        concurrency?: number;
        location?: string;
        leaseMs?: number;
      } = {},
    ): Promise<QueueUnderTest> {
      const location = opts.location ?? (await backend.fresh());
      const opened = await backend.open(location, opts.clock ? { clock: opts.clock } : {});
      const queue = new JobQueue<Req>({
        store: opened.store,
        handler,
        leaseMs: opts.leaseMs ?? backend.leaseMs,
        pollInterval: 50,
        ...(opts.concurrency ? { concurrency: opts.concurrency } : {}),
      });
      cleanups.push(async () => {
        await queue.stop({ drainTimeout: 0 });
        await opened.close();
      });
      return { queue, store: opened.store, location, opened };
    },
  };
}
