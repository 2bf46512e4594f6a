import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startServer } from '../../src/server/index.js';
import type { Logger, RunningServer, ServerOptions } from '../../src/server/index.js';
import { sharedGrid } from './grid.js';
import { createDatabase, TEST_DATABASE_URL_ENV } from './postgres.js';

/** A started test server plus what the test needs to inspect it. */
export interface TestServer extends RunningServer {
  dataDir: string;
  /** Every log line the server wrote, as JSON strings. */
  logs: string[];
  /** Closes the server and removes its data dir. */
  dispose(): Promise<void>;
}

/** A fresh temporary data dir. */
export function tempDir(prefix = 'svc-test-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

/** A logger capturing lines into `lines` (so tests can assert nothing secret is logged). */
export function captureLogger(lines: string[]): Logger {
  const push = (level: string) => (msg: string, fields?: Record<string, unknown>) =>
    void lines.push(JSON.stringify({ level, msg, ...fields }));
  return { debug: push('debug'), info: push('info'), warn: push('warn'), error: push('error') };
}

/** Set to `postgres` (by the `integration-pg` project) to back test servers with PostgreSQL. */
export const TEST_STORAGE_ENV = 'SVC_TEST_STORAGE';

/** The database of each data dir, so a server restarted on a data dir finds its state again. */
const databases = new Map<string, Promise<string>>();

/**
 * The shared-state database of a test server on `dataDir`: none (SQLite in the data dir) unless
 * `SVC_TEST_STORAGE=postgres`, then a fresh database on the project's PostgreSQL.
 * @throws Error when PostgreSQL is asked for but the project started none
 */
export function testDatabaseUrl(dataDir: string): Promise<string> | undefined {
  if (process.env[TEST_STORAGE_ENV] !== 'postgres') return undefined;
  const admin = process.env[TEST_DATABASE_URL_ENV];
  if (!admin) {
    throw new Error(
      `${TEST_STORAGE_ENV}=postgres needs ${TEST_DATABASE_URL_ENV}: run the integration-pg project (its globalSetup starts PostgreSQL)`,
    );
  }
  let url = databases.get(dataDir);
  if (!url) databases.set(dataDir, (url = createDatabase(admin)));
  return url;
}

/** Set to `grid` (by the `integration-grid` project) to run test servers' browsers on a Grid. */
export const TEST_BROWSER_BACKEND_ENV = 'SVC_TEST_BROWSER_BACKEND';

/** The Grid URL test servers use: the run's shared Grid when `SVC_TEST_BROWSER_BACKEND=grid`. */
export async function testGridUrl(): Promise<string | undefined> {
  if (process.env[TEST_BROWSER_BACKEND_ENV] !== 'grid') return undefined;
  return (await sharedGrid()).url;
}

/**
 * Starts the real embedded server on 127.0.0.1:0 with a temp data dir and generous rate limits
 * (tests that exercise limits pass their own); on PostgreSQL when `SVC_TEST_STORAGE=postgres`, with
 * browsers on the run's Selenium Grid when `SVC_TEST_BROWSER_BACKEND=grid`.
 */
export async function startTestServer(options: ServerOptions = {}): Promise<TestServer> {
  const dataDir = options.dataDir ?? tempDir();
  const logs: string[] = [];
  const databaseUrl = options.databaseUrl ?? (await testDatabaseUrl(dataDir));
  const gridUrl = options.gridUrl ?? (await testGridUrl());
  const server = await startServer({
    port: 0,
    warmPoolSize: 0,
    rateLimits: {
      chat: 10_000,
      async: 10_000,
      search: 10_000,
      embeddings: 10_000,
      browser: 10_000,
      auth: 10_000,
    },
    logger: captureLogger(logs),
    ...options,
    ...(databaseUrl !== undefined && { databaseUrl }),
    ...(gridUrl !== undefined && { gridUrl }),
    dataDir,
  });
  return Object.assign(server, {
    dataDir,
    logs,
    async dispose() {
      await server.close();
      if (!options.dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
    },
  });
}
