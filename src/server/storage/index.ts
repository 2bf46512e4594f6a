// The server's shared state (keys, session records, contexts, idempotency) on SQLite or PostgreSQL.
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type Database from 'better-sqlite3';
import pg from 'pg';
import { KeyStore } from '../auth/key-store.js';
import { IdempotencyKeys } from '../engines/browsers/idempotency.js';
import { SessionStore } from '../engines/browsers/store.js';
import type { Logger } from '../logger.js';
import { ColumnContextArchives, FileContextArchives } from './context-archives.js';
import type { ContextArchives } from './context-archives.js';
import { Instances } from './instances.js';
import { MIGRATIONS, runMigrations } from './migrations.js';
import type { Migration } from './migrations.js';
import { PG_TYPES, PgSql, SqliteSql } from './sql.js';
import type { Dialect, Sql } from './sql.js';

export { ColumnContextArchives, FileContextArchives } from './context-archives.js';
export type { ContextArchives } from './context-archives.js';
export { INSTANCE_DEFAULTS, Instances } from './instances.js';
export {
  CORE_MIGRATIONS,
  MIGRATION_LOCK_KEY,
  MIGRATIONS,
  MigrationError,
  runMigrations,
} from './migrations.js';
export type { Migration, MigrationTarget } from './migrations.js';
export { PG_TYPES, PgSql, SqliteSql, toPgPlaceholders } from './sql.js';
export type { Dialect, Sql, SqlValue } from './sql.js';

/** Connection defaults of the PostgreSQL pool. */
export const STORAGE_DEFAULTS = {
  /** Pooled connections per instance. */
  poolSize: 10,
  /** How long a first connection may take before start fails. */
  connectTimeoutMs: 10_000,
} as const;

/**
 * Where the shared state lives, opened and migrated. On SQLite everything is in the data dir's
 * database (and context archives in `<dataDir>/contexts/`); on PostgreSQL keys, sessions,
 * contexts with their archives, idempotency keys and instance heartbeats are in the database, so
 * several instances act as one service. `db` is the data dir's SQLite either way: the index,
 * vector cache, doc links and recordings stay per instance.
 */
export interface Storage {
  readonly dialect: Dialect;
  /** Statements on the shared-state database. */
  readonly sql: Sql;
  /** The data dir's SQLite database (per-instance state). */
  readonly db: Database.Database;
  /** The PostgreSQL pool, when the shared state is there (a job store takes its connections here). */
  readonly pool: pg.Pool | undefined;
  readonly keys: KeyStore;
  readonly sessions: SessionStore;
  readonly idempotency: IdempotencyKeys;
  readonly contextArchives: ContextArchives;
  /**
   * The key sealing saved contexts when it is shared through the database (PostgreSQL: every
   * instance must open every archive); undefined means the data dir's `context.key`.
   */
  readonly contextKey: Buffer | undefined;
  readonly instances: Instances;
  /** Closes the pool (the SQLite `db` belongs to the caller). */
  close(): Promise<void>;
}

/** Options of {@link openStorage}. */
export interface StorageOptions {
  /** The data dir (context archives on SQLite). */
  dataDir: string;
  /** The data dir's open SQLite database. */
  db: Database.Database;
  /** `postgres://...`: keep the shared state in PostgreSQL. @default undefined (SQLite) */
  databaseUrl?: string | undefined;
  clock?: () => number;
  logger: Logger;
  /** Migrations to apply. @default MIGRATIONS */
  migrations?: readonly Migration[];
}

/** `url` without its password, for messages. */
export function redactDatabaseUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return '(unparsable URL)';
  }
}

/**
 * Opens the shared state: connects, applies pending migrations (under an advisory lock on
 * PostgreSQL, so instances starting together do not race), and builds the stores.
 * @throws Error naming `databaseUrl` (password hidden) when PostgreSQL cannot be reached
 * @throws MigrationError naming the migration that failed
 * @example
 * const storage = await openStorage({ dataDir, db, databaseUrl: 'postgres://svc@db/svc', logger });
 */
export async function openStorage(options: StorageOptions): Promise<Storage> {
  const clock = options.clock ?? Date.now;
  const migrations = options.migrations ?? MIGRATIONS;
  const { db, logger } = options;
  if (options.databaseUrl === undefined) {
    runMigrations({ dialect: 'sqlite', db }, migrations, clock);
    const sql = new SqliteSql(db);
    return build(
      sql,
      undefined,
      new FileContextArchives(sql, path.join(options.dataDir, 'contexts')),
    );
  }
  const url = options.databaseUrl;
  if (!/^postgres(ql)?:\/\//.test(url)) {
    throw new Error(
      `databaseUrl: expected a postgres:// or postgresql:// URL, got ${redactDatabaseUrl(url)}`,
    );
  }
  const pool = new pg.Pool({
    connectionString: url,
    max: STORAGE_DEFAULTS.poolSize,
    connectionTimeoutMillis: STORAGE_DEFAULTS.connectTimeoutMs,
    types: PG_TYPES,
  });
  pool.on('error', (error) =>
    logger.warn('idle PostgreSQL connection failed', { error: error.message }),
  );
  try {
    await pool.query('SELECT 1');
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw new Error(
      `databaseUrl: cannot reach PostgreSQL at ${redactDatabaseUrl(url)}: ${(error as Error).message}`,
      { cause: error },
    );
  }
  try {
    const applied = await runMigrations({ dialect: 'postgres', pool }, migrations, clock);
    if (applied.length > 0) logger.info('database migrated', { applied });
    const sql = new PgSql(pool);
    await sql.run(
      'INSERT INTO svc_cluster (name, value) VALUES (?, ?) ON CONFLICT (name) DO NOTHING',
      ['context_key', randomBytes(32)],
    );
    const key = await sql.get<{ value: Buffer }>('SELECT value FROM svc_cluster WHERE name = ?', [
      'context_key',
    ]);
    return build(sql, pool, new ColumnContextArchives(sql), key!.value);
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw error;
  }

  function build(
    sql: Sql,
    pgPool: pg.Pool | undefined,
    contextArchives: ContextArchives,
    contextKey?: Buffer,
  ): Storage {
    return {
      dialect: sql.dialect,
      sql,
      db,
      pool: pgPool,
      keys: new KeyStore(sql, clock),
      sessions: new SessionStore(sql),
      idempotency: new IdempotencyKeys(sql),
      contextArchives,
      contextKey,
      // Liveness is real time: an injected clock (expiry tests) must not make peers look dead.
      instances: new Instances(sql, { clock: Date.now, logger, pool: pgPool }),
      close: async () => {
        await pgPool?.end();
      },
    };
  }
}
