import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MigrationError, runMigrations } from '../../../src/server/storage/index.js';
import type { Migration } from '../../../src/server/storage/index.js';
import type { TestPostgres } from '../../support/postgres.js';
import { postgres } from './cluster.js';

describe('migration runner (PostgreSQL)', () => {
  let server: TestPostgres;
  const pools: pg.Pool[] = [];
  const pool = async (): Promise<pg.Pool> => {
    const p = new pg.Pool({ connectionString: await server.createDatabase(), max: 4 });
    // The server stops after the test: its shutdown notice must not surface as an unhandled error.
    p.on('error', () => undefined);
    pools.push(p);
    return p;
  };

  beforeAll(async () => {
    server = await postgres();
  });
  afterAll(async () => {
    await Promise.all(pools.map((p) => p.end()));
    await server?.stop();
  });

  it('five runners racing on one database apply each migration exactly once', async () => {
    const db = await pool();
    // Not idempotent on purpose: a second application would fail on the existing table.
    const list: Migration[] = [
      { id: '0001_t', postgres: 'CREATE TABLE t (n INT); INSERT INTO t VALUES (1)' },
      { id: '0002_u', postgres: 'ALTER TABLE t ADD COLUMN m INT' },
    ];
    const runs = await Promise.all(
      Array.from({ length: 5 }, () => runMigrations({ dialect: 'postgres', pool: db }, list)),
    );
    expect(runs.flat().sort()).toEqual(['0001_t', '0002_u']);
    expect((await db.query('SELECT count(*)::int AS n FROM t')).rows[0]).toEqual({ n: 1 });
    expect((await db.query('SELECT id FROM svc_migrations ORDER BY id')).rows).toEqual([
      { id: '0001_t' },
      { id: '0002_u' },
    ]);
  });

  it('rolls a failing migration back whole and releases the lock for the next start', async () => {
    const db = await pool();
    const bad: Migration[] = [
      { id: '0001_ok', postgres: 'CREATE TABLE ok (n INT)' },
      { id: '0002_bad', postgres: 'CREATE TABLE half (n INT); SELECT * FROM missing' },
    ];
    const error = await runMigrations({ dialect: 'postgres', pool: db }, bad).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(MigrationError);
    expect((error as MigrationError).migrationId).toBe('0002_bad');
    const half = await db.query("SELECT to_regclass('half') AS t");
    expect(half.rows[0]).toEqual({ t: null });
    // The advisory lock was released: a fixed list migrates at once.
    const fixed = [bad[0]!, { id: '0002_bad', postgres: 'CREATE TABLE half (n INT)' }];
    expect(await runMigrations({ dialect: 'postgres', pool: db }, fixed)).toEqual(['0002_bad']);
  });
});
