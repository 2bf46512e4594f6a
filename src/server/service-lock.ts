// One service per data dir. The process that serves a data dir holds `service.lock` there: its
// pid, its URL once it listens, and the data dir's local key, so every other process on that data
// dir talks to it instead of starting a second service (whose start-up reaping would kill the
// first one's browsers). The lock is created atomically (a hard link of a fully written file) and
// a lock whose pid is dead is stale. The data dir also keeps its port, so the signed links a
// service hands out stay valid whenever that data dir is served again.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** File names inside the data dir. */
export const SERVICE_FILES = {
  lock: 'service.lock',
  /** Taken while a stale lock is removed, so two processes never both break and re-take it. */
  breaking: 'service.lock.break',
  users: 'service.users',
  port: 'service.port',
  localKey: 'local.key',
} as const;

/** What the lock file says about the process serving a data dir. */
export interface ServiceLockInfo {
  pid: number;
  /** Milliseconds since the epoch when the lock was taken. */
  startedAt: number;
  /** Base URL, set once the service listens. */
  url?: string;
  /** The data dir's local key, accepted by the service. */
  apiKey?: string;
  /** Set while the owner shuts down: newcomers wait for it to go, then serve the data dir themselves. */
  closing?: boolean;
}

/** Another live process serves this data dir. */
export class DataDirBusyError extends Error {
  override name = 'DataDirBusyError';
  readonly code = 'data_dir_busy';

  constructor(
    readonly dataDir: string,
    readonly holder: ServiceLockInfo,
  ) {
    super(
      `Data dir ${dataDir} is already served by process ${holder.pid}` +
        (holder.url ? ` at ${holder.url}` : ' (starting)') +
        ': one service per data dir. Use that service, stop it first, or pick another --data-dir',
    );
  }
}

// Locks held by this process: a lock naming our own pid is live only if we hold it here.
const held = new Map<string, ServiceLock>();

/** True when process `pid` exists (EPERM: it exists but belongs to someone else). */
export function pidAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function lockPath(dataDir: string): string {
  return path.join(dataDir, SERVICE_FILES.lock);
}

function parse(text: string): ServiceLockInfo | undefined {
  try {
    const value = JSON.parse(text) as Partial<ServiceLockInfo>;
    return typeof value.pid === 'number' && typeof value.startedAt === 'number'
      ? (value as ServiceLockInfo)
      : undefined;
  } catch {
    return undefined;
  }
}

function readRaw(file: string): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

function isLive(info: ServiceLockInfo, file: string): boolean {
  if (info.pid === process.pid) return held.has(file);
  return pidAlive(info.pid);
}

/**
 * The lock of `dataDir` when a live process holds it; `undefined` when there is none or it is
 * stale (its process is dead).
 */
export function readServiceLock(dataDir: string): ServiceLockInfo | undefined {
  const file = lockPath(path.resolve(dataDir));
  const raw = readRaw(file);
  const info = raw === undefined ? undefined : parse(raw);
  return info && isLive(info, file) ? info : undefined;
}

/** Writes `data` to `file` through a fresh temporary file (0600), so readers never see half of it. */
function writeTemp(file: string, data: string): string {
  const tmp = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  fs.writeFileSync(tmp, data, { mode: 0o600 });
  return tmp;
}

/** A held lock on a data dir; see {@link acquireServiceLock}. */
export interface ServiceLock {
  readonly dataDir: string;
  /** Records the URL and local key once the service listens. */
  publish(url: string, apiKey: string): void;
  /** Tells newcomers this service is going away. */
  markClosing(): void;
  /** Removes the lock (idempotent). */
  release(): void;
}

/**
 * Takes the lock of `dataDir` for this process. A lock whose pid is dead is removed first.
 * @throws DataDirBusyError when a live process (this one included) serves the data dir
 * @example
 * const lock = acquireServiceLock(dataDir); // before anything touches the data dir's browsers
 * lock.publish(url, key); ... lock.release();
 */
export function acquireServiceLock(dataDir: string): ServiceLock {
  const dir = path.resolve(dataDir);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = lockPath(dir);
  let info: ServiceLockInfo = { pid: process.pid, startedAt: Date.now() };
  for (let attempt = 0; ; attempt++) {
    const tmp = writeTemp(file, JSON.stringify(info));
    try {
      fs.linkSync(tmp, file); // atomic: fails with EEXIST when a lock exists, whole or not at all
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    } finally {
      fs.rmSync(tmp, { force: true });
    }
    const raw = readRaw(file);
    const current = raw === undefined ? undefined : parse(raw);
    if (current && isLive(current, file)) throw new DataDirBusyError(dir, current);
    if (attempt >= 20) {
      throw new Error(`Data dir ${dir}: cannot take ${SERVICE_FILES.lock}; remove it by hand`);
    }
    breakStaleLock(dir, raw);
  }
  let released = false;
  const rewrite = (patch: Partial<ServiceLockInfo>): void => {
    if (released) return;
    info = { ...info, ...patch };
    fs.renameSync(writeTemp(file, JSON.stringify(info)), file);
  };
  const lock: ServiceLock = {
    dataDir: dir,
    publish: (url, apiKey) => rewrite({ url, apiKey }),
    markClosing: () => rewrite({ closing: true }),
    release: () => {
      if (released) return;
      released = true;
      held.delete(file);
      const current = parse(readRaw(file) ?? '');
      if (current?.pid === process.pid && current.startedAt === info.startedAt)
        fs.rmSync(file, { force: true });
    },
  };
  held.set(file, lock);
  return lock;
}

/**
 * Removes the lock if it still reads `staleRaw`. Done under a second lock so that two processes
 * that both saw the same stale lock cannot remove each other's fresh one.
 */
function breakStaleLock(dir: string, staleRaw: string | undefined): void {
  const breaking = path.join(dir, SERVICE_FILES.breaking);
  try {
    fs.mkdirSync(breaking);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    // A breaker that died mid-way leaves its directory: after a few seconds it is stale too.
    const age = Date.now() - (fs.statSync(breaking, { throwIfNoEntry: false })?.mtimeMs ?? 0);
    if (age > 5_000) fs.rmSync(breaking, { recursive: true, force: true });
    sleepSync(20);
    return;
  }
  try {
    const raw = readRaw(path.join(dir, SERVICE_FILES.lock));
    if (raw === staleRaw || raw === undefined) {
      fs.rmSync(path.join(dir, SERVICE_FILES.lock), { force: true });
    } else if (raw !== undefined && parse(raw) === undefined) {
      // Unparseable and not ours to judge yet: locks are written whole, so this is damage.
      fs.rmSync(path.join(dir, SERVICE_FILES.lock), { force: true });
    }
  } finally {
    fs.rmSync(breaking, { recursive: true, force: true });
  }
}

function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** A registration as a user of another process's service; the owner waits for it before closing. */
export interface ServiceLease {
  url: string;
  apiKey: string;
  pid: number;
  /** Unregisters (idempotent). */
  release(): void;
}

/** Options of {@link useRunningService}. */
export interface UseServiceOptions {
  /** How long to wait for a starting service to listen, or a closing one to go. @default 60_000 */
  timeoutMs?: number;
}

/**
 * Registers this process as a user of the service that already serves `dataDir`, waiting while
 * it starts. Returns `undefined` when no live process serves it (the caller then starts one).
 * @throws Error when the serving process neither listens nor goes away within `timeoutMs`
 */
export async function useRunningService(
  dataDir: string,
  options: UseServiceOptions = {},
): Promise<ServiceLease | undefined> {
  const dir = path.resolve(dataDir);
  const deadline = Date.now() + (options.timeoutMs ?? 60_000);
  for (;;) {
    const info = readServiceLock(dir);
    if (info === undefined) return undefined;
    if (info.url !== undefined && info.apiKey !== undefined && info.closing !== true) {
      const lease = createLease(dir, info.pid, info.url, info.apiKey);
      // The owner may have started closing between our read and the lease: look again.
      const again = readServiceLock(dir);
      if (again?.pid === info.pid && again.startedAt === info.startedAt && !again.closing) {
        return lease;
      }
      lease.release();
    }
    if (Date.now() > deadline) {
      throw new Error(
        `Data dir ${dir}: process ${info.pid} holds it but did not ${info.closing ? 'stop' : 'start listening'} within ${options.timeoutMs ?? 60_000} ms`,
      );
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

function createLease(dir: string, ownerPid: number, url: string, apiKey: string): ServiceLease {
  const users = path.join(dir, SERVICE_FILES.users);
  fs.mkdirSync(users, { recursive: true, mode: 0o700 });
  const file = path.join(users, `${process.pid}-${randomBytes(6).toString('hex')}`);
  fs.writeFileSync(file, String(ownerPid), { mode: 0o600 });
  let released = false;
  return {
    url,
    apiKey,
    pid: ownerPid,
    release: () => {
      if (released) return;
      released = true;
      fs.rmSync(file, { force: true });
    },
  };
}

/**
 * When this process serves `dataDir`: marks its lock as closing, then resolves once no other live
 * process uses the service (leases of dead processes are removed). Leases of this very process
 * are not waited for. Resolves at once when this process does not serve `dataDir`.
 * @param onWait - Called once, with the pids still using the service, when there is a wait at all
 *   (so a command that seems finished can say why it has not exited yet).
 */
export async function drainUsers(
  dataDir: string,
  signal?: AbortSignal,
  onWait?: (pids: number[]) => void,
): Promise<void> {
  const dir = path.resolve(dataDir);
  const lock = held.get(lockPath(dir));
  if (lock === undefined) return;
  lock.markClosing();
  const users = path.join(dir, SERVICE_FILES.users);
  while (!signal?.aborted) {
    let names: string[];
    try {
      names = fs.readdirSync(users);
    } catch {
      return;
    }
    const waiting = names.filter((name) => {
      const pid = Number(name.split('-')[0]);
      if (pid === process.pid) return false;
      if (pidAlive(pid)) return true;
      fs.rmSync(path.join(users, name), { force: true });
      return false;
    });
    if (waiting.length === 0) return;
    if (onWait) {
      onWait([...new Set(waiting.map((name) => Number(name.split('-')[0])))]);
      onWait = undefined;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The port the data dir's service last listened on, if recorded. */
export function readDataDirPort(dataDir: string): number | undefined {
  const raw = readRaw(path.join(path.resolve(dataDir), SERVICE_FILES.port));
  const port = Number(raw?.trim());
  return Number.isInteger(port) && port > 0 && port <= 65535 ? port : undefined;
}

/** Records the port the data dir's service listens on, so its links keep working. */
export function writeDataDirPort(dataDir: string, port: number): void {
  const file = path.join(path.resolve(dataDir), SERVICE_FILES.port);
  fs.renameSync(writeTemp(file, `${port}\n`), file);
}

/** The part of the key store {@link ensureLocalKey} needs. */
export interface LocalKeyStore {
  add(key: string, userId: string, label?: string | null): Promise<string>;
  verify(key: string): Promise<{ ok: boolean }>;
}

/**
 * The data dir's local key (`local.key`, 0600): read and reused when the store still accepts it,
 * else generated, stored hashed and written there. Local commands and `connect()` use it, so a
 * data dir has one local credential however many commands run.
 * @returns the key, and whether it was created now
 */
export async function ensureLocalKey(
  dataDir: string,
  store: LocalKeyStore,
  generate: () => string,
): Promise<{ key: string; created: boolean }> {
  const file = path.join(path.resolve(dataDir), SERVICE_FILES.localKey);
  const existing = readRaw(file)?.trim();
  if (existing) {
    if ((await store.verify(existing)).ok) return { key: existing, created: false };
    // Revoked (svc keys revoke) or from another database: replace it.
  }
  const key = generate();
  await store.add(key, 'default', 'local key of this data dir');
  fs.renameSync(writeTemp(file, `${key}\n`), file);
  return { key, created: true };
}

/** The data dir's local key when one was written, without opening the database. */
export function readLocalKey(dataDir: string): string | undefined {
  return readRaw(path.join(path.resolve(dataDir), SERVICE_FILES.localKey))?.trim() || undefined;
}
