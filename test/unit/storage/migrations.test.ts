import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import {
  CORE_MIGRATIONS,
  MigrationError,
  MIGRATIONS,
  runMigrations,
  toPgPlaceholders,
} from '../../../src/server/storage/index.js';
import type { Migration } from '../../../src/server/storage/index.js';

const tables = (db: Database.Database): string[] =>
  (
    db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as {
      name: string;
    }[]
  ).map((r) => r.name);

describe('migration runner (SQLite)', () => {
  it('applies pending migrations in id order, records them, and applies none the second time', async () => {
    const db = new Database(':memory:');
    const order: Migration[] = [
      { id: '0002_b', sqlite: 'ALTER TABLE a ADD COLUMN y TEXT' },
      { id: '0001_a', sqlite: 'CREATE TABLE a (x TEXT)' },
      { id: '0003_pg_only', postgres: 'CREATE TABLE p (x TEXT)' },
    ];
    expect(await runMigrations({ dialect: 'sqlite', db }, order, () => 42)).toEqual([
      '0001_a',
      '0002_b',
    ]);
    expect(db.prepare('SELECT id, applied_at FROM svc_migrations ORDER BY id').all()).toEqual([
      { id: '0001_a', applied_at: 42 },
      { id: '0002_b', applied_at: 42 },
    ]);
    expect(tables(db)).not.toContain('p');
    expect(await runMigrations({ dialect: 'sqlite', db }, order)).toEqual([]);
    db.prepare('INSERT INTO a (x, y) VALUES (?, ?)').run('1', '2');
  });

  it('rolls a failing migration back whole, names it, and runs none after it', async () => {
    const db = new Database(':memory:');
    const list: Migration[] = [
      { id: '0001_ok', sqlite: 'CREATE TABLE ok (x TEXT)' },
      { id: '0002_bad', sqlite: 'CREATE TABLE half (x TEXT); INSERT INTO missing VALUES (1)' },
      { id: '0003_later', sqlite: 'CREATE TABLE later (x TEXT)' },
    ];
    const error = await runMigrations({ dialect: 'sqlite', db }, list).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MigrationError);
    expect((error as MigrationError).migrationId).toBe('0002_bad');
    expect((error as Error).message).toMatch(/^Migration 0002_bad failed: no such table: missing/);
    expect(tables(db)).toEqual(['ok', 'svc_migrations']);
    const ledger = db.prepare('SELECT id FROM svc_migrations').all();
    expect(ledger).toEqual([{ id: '0001_ok' }]);
  });

  it('refuses two migrations with one id', async () => {
    const db = new Database(':memory:');
    await expect(
      runMigrations({ dialect: 'sqlite', db }, [
        { id: '0001', sqlite: 'SELECT 1' },
        { id: '0001', sqlite: 'SELECT 2' },
      ]),
    ).rejects.toThrow(/Duplicate migration id: 0001/);
  });

  it('upgrades a data dir made before migrations without losing its rows', async () => {
    const db = new Database(':memory:');
    db.exec(`CREATE TABLE auth_keys (
      id TEXT PRIMARY KEY, user_id TEXT NOT NULL, hash BLOB NOT NULL UNIQUE, prefix TEXT NOT NULL,
      label TEXT, created_at INTEGER NOT NULL, revoked_at INTEGER)`);
    db.exec(`CREATE TABLE bs_sessions (
      id TEXT PRIMARY KEY, user_id TEXT NOT NULL, key_id TEXT NOT NULL, status TEXT NOT NULL,
      token_hash BLOB NOT NULL, created_at INTEGER NOT NULL, expires_at INTEGER, ended_at INTEGER,
      end_reason TEXT, tags TEXT NOT NULL, profile_dir TEXT NOT NULL, pid INTEGER)`);
    db.prepare(
      "INSERT INTO auth_keys VALUES ('k1', 'alice', x'00', 'svc_abcd', NULL, 1, NULL)",
    ).run();
    await runMigrations({ dialect: 'sqlite', db }, CORE_MIGRATIONS);
    expect(db.prepare('SELECT id, user_id FROM auth_keys').all()).toEqual([
      { id: 'k1', user_id: 'alice' },
    ]);
    const columns = (db.prepare('PRAGMA table_info(bs_sessions)').all() as { name: string }[]).map(
      (c) => c.name,
    );
    expect(columns).toEqual(expect.arrayContaining(['instance_id', 'instance_url', 'context_id']));
  });

  it('every migration has SQL for at least one dialect and a unique id', () => {
    for (const m of MIGRATIONS) expect(m.sqlite ?? m.postgres).toBeTruthy();
    const ids = MIGRATIONS.map((m) => m.id);
    expect(new Set(ids).size).toBe(ids.length);
  });
});

describe('toPgPlaceholders', () => {
  it('numbers each ? in order', () => {
    expect(toPgPlaceholders('UPDATE t SET a = ?, b = ? WHERE id = ?')).toBe(
      'UPDATE t SET a = $1, b = $2 WHERE id = $3',
    );
  });
});
