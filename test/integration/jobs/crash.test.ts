import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { JobQueue, SqliteJobStore, toJobJson } from '../../../src/server/engines/jobs/index.js';
import type { JobRow } from '../../../src/server/engines/jobs/index.js';
import { openDb, tempDir, waitFor } from './helpers.js';

const CHILD = fileURLToPath(new URL('./crash-child.ts', import.meta.url));
const JOBS = 20;

describe('JobQueue after a real process crash', () => {
  it('finishes every job after SIGKILL mid-run, none lost, none run again after completing', async () => {
    const { dir, cleanup } = tempDir();
    try {
      const dbFile = join(dir, 'jobs.db');
      const logFile = join(dir, 'starts.log');
      const child = spawn(
        process.execPath,
        ['--import', 'tsx', CHILD, dbFile, logFile, String(JOBS)],
        {
          cwd: fileURLToPath(new URL('../../../', import.meta.url)),
          stdio: ['ignore', 'pipe', 'inherit'],
        },
      );
      const exited = new Promise<NodeJS.Signals | null>((r) => child.on('exit', (_c, s) => r(s)));
      await new Promise<void>((resolve, reject) => {
        child.stdout.on('data', (d: Buffer) => d.toString().includes('ready') && resolve());
        child.on('exit', (code) => reject(new Error(`child exited early (${code})`)));
      });

      // Watch from a second connection until the child is mid-run, then kill it without warning.
      const watcher = openDb(dbFile);
      const count = (status: string): number =>
        (
          watcher.prepare('SELECT COUNT(*) AS n FROM job_jobs WHERE status = ?').get(status) as {
            n: number;
          }
        ).n;
      await waitFor(
        () => count('COMPLETED') >= 3 && count('IN_PROGRESS') >= 1,
        20_000,
        'child progress',
      );
      child.kill('SIGKILL');
      expect(await exited).toBe('SIGKILL');
      watcher.close();

      const db = openDb(dbFile);
      const before = db.prepare('SELECT * FROM job_jobs').all() as JobRow[];
      const completedByChild = new Set(
        before.filter((r) => r.status === 'COMPLETED').map((r) => r.id),
      );
      const interrupted = new Set(
        before.filter((r) => r.status === 'IN_PROGRESS').map((r) => r.id),
      );
      expect(completedByChild.size).toBeGreaterThanOrEqual(3);
      expect(completedByChild.size).toBeLessThan(JOBS);
      expect(interrupted.size).toBeGreaterThanOrEqual(1);

      const parentRuns: string[] = [];
      const queue = new JobQueue({
        store: new SqliteJobStore(db),
        concurrency: 4,
        handler: (_req, ctx) => {
          parentRuns.push(ctx.jobId);
          return Promise.resolve({ by: 'parent', id: ctx.jobId });
        },
      });
      expect(await queue.start()).toMatchObject({ requeued: interrupted.size, failed: 0 });
      await queue.onIdle();
      await queue.stop();

      const after = db.prepare('SELECT * FROM job_jobs ORDER BY seq').all() as JobRow[];
      db.close();
      expect(after).toHaveLength(JOBS);
      expect(after.every((r) => r.status === 'COMPLETED')).toBe(true);
      expect(new Set(parentRuns).size).toBe(parentRuns.length);
      for (const r of after) {
        const by = (toJobJson(r).response as { by: string }).by;
        if (completedByChild.has(r.id)) {
          expect(by).toBe('child');
          expect(parentRuns).not.toContain(r.id);
        } else {
          expect(by).toBe('parent');
          expect(parentRuns.filter((id) => id === r.id)).toHaveLength(1);
        }
        if (interrupted.has(r.id)) expect(r.attempts).toBe(2);
      }
      // Every job the child started but did not finish was one of the interrupted ones.
      const started = new Set(
        existsSync(logFile)
          ? readFileSync(logFile, 'utf8')
              .trim()
              .split('\n')
              .map((l) => l.slice(6))
          : [],
      );
      for (const id of started) expect(completedByChild.has(id) || interrupted.has(id)).toBe(true);
    } finally {
      cleanup();
    }
  });
});
