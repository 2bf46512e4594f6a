import type { Migration } from '../../storage/migrations.js';

/** The jobs tables on SQLite (`IF NOT EXISTS`: data dirs made before migrations hold them). */
export const JOB_SQLITE_SCHEMA = `
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
CREATE TABLE IF NOT EXISTS job_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)`;

/**
 * The jobs tables on PostgreSQL. Timestamps the API shows are unix seconds from the server's clock,
 * like SQLite's; `lease_until` is the database's own time, so instances with skewed clocks agree on
 * when a lease ran out. `job_meta` (SQLite's single-owner fence) has no use here.
 */
export const JOB_PG_SCHEMA = `
CREATE TABLE IF NOT EXISTS job_jobs (
  seq BIGSERIAL PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  user_id TEXT NOT NULL,
  model TEXT NOT NULL,
  request TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('CREATED', 'IN_PROGRESS', 'COMPLETED', 'FAILED')),
  idempotency_key TEXT,
  created_at BIGINT NOT NULL,
  started_at BIGINT,
  completed_at BIGINT,
  failed_at BIGINT,
  response TEXT,
  error_message TEXT,
  attempts INTEGER NOT NULL DEFAULT 0,
  owner TEXT,
  lease_until TIMESTAMPTZ
);
CREATE INDEX IF NOT EXISTS job_jobs_by_user ON job_jobs (user_id, created_at DESC, seq DESC);
CREATE INDEX IF NOT EXISTS job_jobs_by_key ON job_jobs (user_id, idempotency_key)
  WHERE idempotency_key IS NOT NULL;
CREATE INDEX IF NOT EXISTS job_jobs_waiting ON job_jobs (seq) WHERE status = 'CREATED';
CREATE INDEX IF NOT EXISTS job_jobs_running ON job_jobs (lease_until) WHERE status = 'IN_PROGRESS';
`;

/** The jobs' schema changes, applied by the storage layer's migration step. */
export const JOB_MIGRATIONS: readonly Migration[] = [
  { id: '0003_jobs', sqlite: JOB_SQLITE_SCHEMA, postgres: JOB_PG_SCHEMA },
];
