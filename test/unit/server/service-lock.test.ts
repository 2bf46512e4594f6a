import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  acquireServiceLock,
  DataDirBusyError,
  drainUsers,
  readServiceLock,
  useRunningService,
} from '../../../src/server/service-lock.js';

const dirs: string[] = [];
const tempDir = (): string => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'svc-lock-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** The pid of a process that has exited (so it is certainly dead). */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], {
    encoding: 'utf8',
  });
  return Number(child.stdout);
}

describe('service lock', () => {
  it('lets one holder at a time take a data dir, and names it to the next', () => {
    const dir = tempDir();
    const lock = acquireServiceLock(dir);
    lock.publish('http://127.0.0.1:4321', 'svc_key');
    let error: unknown;
    try {
      acquireServiceLock(dir);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(DataDirBusyError);
    expect((error as Error).message).toContain(`process ${process.pid} at http://127.0.0.1:4321`);
    lock.release();
    expect(readServiceLock(dir)).toBeUndefined();
    acquireServiceLock(dir).release();
  });

  it('takes over a lock whose process is dead', () => {
    const dir = tempDir();
    const pid = deadPid();
    writeFileSync(
      path.join(dir, 'service.lock'),
      JSON.stringify({ pid, startedAt: 1, url: 'http://127.0.0.1:1', apiKey: 'svc_x' }),
    );
    expect(readServiceLock(dir)).toBeUndefined();
    const lock = acquireServiceLock(dir);
    expect(JSON.parse(readFileSync(path.join(dir, 'service.lock'), 'utf8')).pid).toBe(process.pid);
    lock.release();
  });

  it('hands a user the URL and key of the live holder; none when nothing serves the data dir', async () => {
    const dir = tempDir();
    expect(await useRunningService(dir)).toBeUndefined();
    const lock = acquireServiceLock(dir);
    lock.publish('http://127.0.0.1:4321', 'svc_key');
    const lease = await useRunningService(dir);
    expect(lease).toMatchObject({
      url: 'http://127.0.0.1:4321',
      apiKey: 'svc_key',
      pid: process.pid,
    });
    lease?.release();
    lock.release();
  });

  it('on close, says which other processes it waits for, once, and returns when they are gone', async () => {
    const dir = tempDir();
    const lock = acquireServiceLock(dir);
    lock.publish('http://127.0.0.1:4321', 'svc_key');
    const user = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60_000)'], {
      stdio: 'ignore',
    });
    try {
      mkdirSync(path.join(dir, 'service.users'), { recursive: true });
      writeFileSync(path.join(dir, 'service.users', `${user.pid}-abc`), '');
      const told: number[][] = [];
      let drained = false;
      const draining = drainUsers(dir, undefined, (pids) => told.push(pids)).then(
        () => (drained = true),
      );
      await new Promise((r) => setTimeout(r, 400));
      expect(drained).toBe(false);
      expect(told).toEqual([[user.pid]]);
      user.kill('SIGKILL');
      await draining;
      expect(told).toHaveLength(1);
    } finally {
      user.kill('SIGKILL');
      lock.release();
    }
  });

  it('does not call onWait when nothing else uses the service', async () => {
    const dir = tempDir();
    const lock = acquireServiceLock(dir);
    const told: number[][] = [];
    await drainUsers(dir, undefined, (pids) => told.push(pids));
    expect(told).toEqual([]);
    lock.release();
  });
});
