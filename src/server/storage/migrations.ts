// Versioned schema changes of the shared state, recorded in `svc_migrations` and applied at start.
import type Database from 'better-sqlite3';
import type pg from 'pg';
import { JOB_MIGRATIONS } from '../engines/jobs/job-schema.js';
import type { Dialect } from './sql.js';

/**
 * One schema change. `id` orders migrations (compared as strings: `0001_...`, `0002_...`) and is
 * recorded once applied, so a change runs once per database. A migration may give SQL for one
 * dialect only (a table that only one backend keeps there). Never edit an applied migration: add
 * the next one.
 */
export interface Migration {
  id: string;
  sqlite?: string;
  postgres?: string;
}

/** Session, key, context and idempotency tables, then instance ownership and liveness. */
export const CORE_MIGRATIONS: readonly Migration[] = [
  {
    id: '0001_shared_state',
    // IF NOT EXISTS: data dirs made before migrations existed already hold these tables.
    sqlite: `
      CREATE TABLE IF NOT EXISTS auth_keys (
        id TEXT PRIMARY KEY, user_id TEXT NOT NULL, hash BLOB NOT NULL UNIQUE, prefix TEXT NOT NULL,
        label TEXT, created_at INTEGER NOT NULL, revoked_at INTEGER);
      CREATE TABLE IF NOT EXISTS bs_sessions (
        id TEXT PRIMARY KEY, user_id TEXT NOT NULL, key_id TEXT NOT NULL, status TEXT NOT NULL,
        token_hash BLOB NOT NULL, created_at INTEGER NOT NULL, expires_at INTEGER, ended_at INTEGER,
        end_reason TEXT, tags TEXT NOT NULL, profile_dir TEXT NOT NULL, pid INTEGER);
      CREATE INDEX IF NOT EXISTS bs_sessions_user ON bs_sessions (user_id, created_at);
      CREATE TABLE IF NOT EXISTS bs_contexts (
        id TEXT PRIMARY KEY, user_id TEXT NOT NULL, created_at INTEGER NOT NULL,
        updated_at INTEGER, size_bytes INTEGER NOT NULL DEFAULT 0);
      CREATE INDEX IF NOT EXISTS bs_contexts_user ON bs_contexts (user_id, created_at);
      CREATE TABLE IF NOT EXISTS bs_idempotency (
        user_id TEXT NOT NULL, key TEXT NOT NULL, params_hash TEXT NOT NULL,
        session_id TEXT NOT NULL, created_at INTEGER NOT NULL, PRIMARY KEY (user_id, key));`,
    postgres: `
      CREATE TABLE auth_keys (
        seq BIGSERIAL, id TEXT PRIMARY KEY, user_id TEXT NOT NULL, hash BYTEA NOT NULL UNIQUE,
        prefix TEXT NOT NULL, label TEXT, created_at BIGINT NOT NULL, revoked_at BIGINT);
      CREATE TABLE bs_sessions (
        seq BIGSERIAL, id TEXT PRIMARY KEY, user_id TEXT NOT NULL, key_id TEXT NOT NULL,
        status TEXT NOT NULL, token_hash BYTEA NOT NULL, created_at BIGINT NOT NULL,
        expires_at BIGINT, ended_at BIGINT, end_reason TEXT, tags TEXT NOT NULL,
        profile_dir TEXT NOT NULL, pid INTEGER);
      CREATE INDEX bs_sessions_user ON bs_sessions (user_id, created_at);
      CREATE TABLE bs_contexts (
        seq BIGSERIAL, id TEXT PRIMARY KEY, user_id TEXT NOT NULL, created_at BIGINT NOT NULL,
        updated_at BIGINT, size_bytes BIGINT NOT NULL DEFAULT 0, archive BYTEA);
      CREATE INDEX bs_contexts_user ON bs_contexts (user_id, created_at);
      CREATE TABLE bs_idempotency (
        user_id TEXT NOT NULL, key TEXT NOT NULL, params_hash TEXT NOT NULL,
        session_id TEXT NOT NULL, created_at BIGINT NOT NULL, PRIMARY KEY (user_id, key));`,
  },
  {
    id: '0002_instances',
    sqlite: `
      ALTER TABLE bs_sessions ADD COLUMN instance_id TEXT;
      ALTER TABLE bs_sessions ADD COLUMN instance_url TEXT;
      CREATE TABLE svc_instances (
        id TEXT PRIMARY KEY, url TEXT NOT NULL, started_at INTEGER NOT NULL,
        heartbeat_at INTEGER NOT NULL);
      CREATE TABLE svc_cluster (name TEXT PRIMARY KEY, value BLOB NOT NULL);`,
    postgres: `
      ALTER TABLE bs_sessions ADD COLUMN instance_id TEXT, ADD COLUMN instance_url TEXT;
      CREATE INDEX bs_sessions_running ON bs_sessions (instance_id) WHERE status = 'running';
      CREATE TABLE svc_instances (
        id TEXT PRIMARY KEY, url TEXT NOT NULL, started_at BIGINT NOT NULL,
        heartbeat_at BIGINT NOT NULL);
      CREATE TABLE svc_cluster (name TEXT PRIMARY KEY, value BYTEA NOT NULL);`,
  },
  {
    // Which saved context a session runs from, so every instance sees a context in use.
    id: '0004_session_context',
    sqlite: `ALTER TABLE bs_sessions ADD COLUMN context_id TEXT;`,
    postgres: `
      ALTER TABLE bs_sessions ADD COLUMN context_id TEXT;
      CREATE INDEX bs_sessions_context ON bs_sessions (context_id) WHERE status = 'running';`,
  },
];

/**
 * Every migration the server applies, in order. A feature with its own tables appends its list
 * here (ids sort after the ones before it).
 */
export const MIGRATIONS: readonly Migration[] = [...CORE_MIGRATIONS, ...JOB_MIGRATIONS];

/** Key of the PostgreSQL advisory lock held while migrating ("svcm" as a number). */
export const MIGRATION_LOCK_KEY = 0x7376636d;

const LEDGER = 'svc_migrations';

/** Where to migrate: an open SQLite database, or a PostgreSQL pool. */
export type MigrationTarget =
  | { dialect: Extract<Dialect, 'sqlite'>; db: Database.Database }
  | { dialect: Extract<Dialect, 'postgres'>; pool: pg.Pool };

/** Raised when one migration fails; that migration is rolled back and none after it runs. */
export class MigrationError extends Error {
  constructor(
    readonly migrationId: string,
    cause: unknown,
  ) {
    super(`Migration ${migrationId} failed: ${(cause as Error).message}`, { cause });
    this.name = 'MigrationError';
  }
}

function ordered(migrations: readonly Migration[]): Migration[] {
  const seen = new Set<string>();
  for (const m of migrations) {
    if (seen.has(m.id)) throw new Error(`Duplicate migration id: ${m.id}`);
    seen.add(m.id);
  }
  return [...migrations].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/**
 * Applies the migrations `target` has not recorded yet, each in its own transaction with its
 * ledger row. On PostgreSQL it holds an advisory lock throughout, so instances starting together
 * migrate one after the other (the second finds everything applied).
 * @returns the ids applied now
 * @throws MigrationError naming the migration that failed
 */
export async function runMigrations(
  target: MigrationTarget,
  migrations: readonly Migration[] = MIGRATIONS,
  clock: () => number = Date.now,
): Promise<string[]> {
  const list = ordered(migrations);
  return target.dialect === 'sqlite'
    ? migrateSqlite(target.db, list, clock)
    : migratePostgres(target.pool, list, clock);
}

function migrateSqlite(db: Database.Database, list: Migration[], clock: () => number): string[] {
  db.exec(
    `CREATE TABLE IF NOT EXISTS ${LEDGER} (id TEXT PRIMARY KEY, applied_at INTEGER NOT NULL)`,
  );
  const applied = new Set(
    (db.prepare(`SELECT id FROM ${LEDGER}`).all() as { id: string }[]).map((r) => r.id),
  );
  const done: string[] = [];
  for (const m of list) {
    if (m.sqlite === undefined || applied.has(m.id)) continue;
    const sql = m.sqlite;
    try {
      db.transaction(() => {
        db.exec(sql);
        db.prepare(`INSERT INTO ${LEDGER} (id, applied_at) VALUES (?, ?)`).run(m.id, clock());
      }).immediate();
    } catch (error) {
      throw new MigrationError(m.id, error);
    }
    done.push(m.id);
  }
  return done;
}

async function migratePostgres(
  pool: pg.Pool,
  list: Migration[],
  clock: () => number,
): Promise<string[]> {
  const client = await pool.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    try {
      await client.query(
        `CREATE TABLE IF NOT EXISTS ${LEDGER} (id TEXT PRIMARY KEY, applied_at BIGINT NOT NULL)`,
      );
      const { rows } = await client.query<{ id: string }>(`SELECT id FROM ${LEDGER}`);
      const applied = new Set(rows.map((r) => r.id));
      const done: string[] = [];
      for (const m of list) {
        if (m.postgres === undefined || applied.has(m.id)) continue;
        try {
          await client.query('BEGIN');
          await client.query(m.postgres);
          await client.query(`INSERT INTO ${LEDGER} (id, applied_at) VALUES ($1, $2)`, [
            m.id,
            clock(),
          ]);
          await client.query('COMMIT');
        } catch (error) {
          await client.query('ROLLBACK').catch(() => undefined);
          throw new MigrationError(m.id, error);
        }
        done.push(m.id);
      }
      return done;
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
    }
  } finally {
    client.release();
  }
}
