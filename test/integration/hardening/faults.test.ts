// Faults produced for real: the server SIGKILLed with 50 async jobs in flight and restarted on the
// same data dir; a client process SIGKILLed while it holds a CDP connection; a corrupted, missing or
// empty data dir at start.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { startServer } from '../../../src/server/index.js';
import { startTestServer, tempDir } from '../../support/server.js';
import { startLlmStub } from './llm-stub.js';
import {
  ALICE,
  KEYS,
  NO_LIMITS,
  call,
  firstLine,
  processesMentioning,
  spawnScript,
  startChildServer,
  waitFor,
} from './support.js';
import type { Json } from './support.js';

const JOBS = 50;
const CORPUS = fileURLToPath(new URL('../../fixtures/corpus/', import.meta.url));
const dirs: string[] = [];
const dir = (prefix: string): string => {
  const d = tempDir(prefix);
  dirs.push(d);
  return d;
};

afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

describe('server killed with SIGKILL during 50 in-flight async jobs', () => {
  it('restarts on the same data dir and brings every job to a terminal state, none lost or duplicated', async () => {
    // 5 chunks, 400 ms apart: each job holds a worker for 2 s, so most are queued or running at the kill.
    const stub = await startLlmStub(400);
    const dataDir = dir('svc-hard-jobs-');
    const options = {
      apiKeys: KEYS,
      warmPoolSize: 0,
      jobConcurrency: 4,
      rateLimits: NO_LIMITS,
      llm: { baseUrl: stub.baseUrl, model: 'stub' },
    };
    let server = await startChildServer(dataDir, options);
    try {
      const body = (i: number) => ({
        request: {
          model: 'core-deep-research',
          messages: [{ role: 'user', content: `question ${i}` }],
        },
        idempotency_key: `hard-${i}`,
      });
      const created = await Promise.all(
        Array.from({ length: JOBS }, (_, i) =>
          call(server.url, ALICE, 'POST', '/async/chat/completions', body(i)),
        ),
      );
      expect(created.map((r) => r.status)).toEqual(Array(JOBS).fill(200));
      const ids = created.map((r) => r.json.id as string);
      expect(new Set(ids).size).toBe(JOBS);

      const list = async (): Promise<Json[]> =>
        (await call(server.url, ALICE, 'GET', '/async/chat/completions?limit=100')).json.requests;
      const count = (jobs: Json[], status: string): number =>
        jobs.filter((j) => j.status === status).length;
      expect(
        await waitFor(async () => {
          const jobs = await list();
          return count(jobs, 'COMPLETED') >= 4 && count(jobs, 'IN_PROGRESS') >= 1;
        }, 30_000),
      ).toBe(true);
      const before = await list();
      const doneBefore = new Map<string, Json>();
      for (const j of before.filter((x) => x.status === 'COMPLETED')) {
        doneBefore.set(
          j.id,
          (await call(server.url, ALICE, 'GET', `/async/chat/completions/${j.id}`)).json,
        );
      }
      server.child.kill('SIGKILL');
      expect((await server.exited).signal).toBe('SIGKILL');
      const atKill = {
        completed: count(before, 'COMPLETED'),
        inProgress: count(before, 'IN_PROGRESS'),
        created: count(before, 'CREATED'),
      };

      stub.chunkDelayMs = 5;
      server = await startChildServer(dataDir, options);
      let jobs: Json[] = [];
      expect(
        await waitFor(async () => {
          jobs = await list();
          return (
            jobs.length === JOBS &&
            jobs.every((j) => j.status === 'COMPLETED' || j.status === 'FAILED')
          );
        }, 45_000),
      ).toBe(true);
      // None lost, none added.
      expect(new Set(jobs.map((j) => j.id))).toEqual(new Set(ids));
      const full = await Promise.all(
        ids.map(
          async (id) =>
            (await call(server.url, ALICE, 'GET', `/async/chat/completions/${id}`)).json,
        ),
      );
      const failed = full.filter((j) => j.status === 'FAILED');
      expect(failed.map((j) => j.error_message)).toEqual([]);
      // Jobs finished before the kill were not run again: same answer, same completion time.
      for (const [id, job] of doneBefore) {
        const now = full.find((j) => j.id === id);
        expect(now.completed_at).toBe(job.completed_at);
        expect(now.response.choices[0].message.content).toBe(
          job.response.choices[0].message.content,
        );
      }
      // Each job holds the answer of exactly one model call: no two jobs share one.
      const answers = full.map(
        (j) => /answer-(\d+)/.exec(j.response.choices[0].message.content)?.[1],
      );
      expect(answers.every(Boolean)).toBe(true);
      expect(new Set(answers).size).toBe(JOBS);
      // A client retrying its creates after the restart gets the same jobs back.
      const retried = await Promise.all(
        Array.from({ length: JOBS }, (_, i) =>
          call(server.url, ALICE, 'POST', '/async/chat/completions', body(i)),
        ),
      );
      expect(retried.map((r) => r.json.id)).toEqual(ids);
      expect((await list()).length).toBe(JOBS);
      console.log(
        `[hardening] jobs: ${JOBS} created; at SIGKILL ${atKill.completed} completed, ${atKill.inProgress} in progress, ${atKill.created} queued; after restart ${full.length - failed.length} completed, ${failed.length} failed, 0 lost, 0 duplicated; model calls ${stub.requests}`,
      );
    } finally {
      await server.stop();
      await stub.close();
    }
  }, 120_000);
});

describe('client process killed mid-session', () => {
  it('ends the session within its idle timeout and removes the browser', async () => {
    const server = await startTestServer({
      apiKeys: KEYS,
      warmPoolSize: 0,
      dataDir: dir('svc-hard-client-'),
    });
    try {
      const idle = 5;
      const client = spawnScript(fileURLToPath(new URL('./client-child.ts', import.meta.url)), [
        server.url,
        ALICE,
        String(idle),
      ]);
      const { session_id: id } = await firstLine<{ session_id: string }>(client);
      const profile = path.join(server.dataDir, 'browsers', id);
      expect(processesMentioning(server.dataDir).length).toBeGreaterThan(0);
      expect(fs.existsSync(profile)).toBe(true);
      // Connected: the idle clock does not run while a CDP client holds the session.
      await new Promise((r) => setTimeout(r, 1_000));
      expect((await call(server.url, ALICE, 'GET', `/v1/browser/sessions/${id}`)).json.status).toBe(
        'running',
      );

      const killedAt = Date.now();
      client.kill('SIGKILL');
      const ended = await waitFor(
        async () =>
          (await call(server.url, ALICE, 'GET', `/v1/browser/sessions/${id}`)).json.status !==
          'running',
        (idle + 5) * 1000,
      );
      const endedAfterMs = Date.now() - killedAt;
      expect(ended).toBe(true);
      const record = (await call(server.url, ALICE, 'GET', `/v1/browser/sessions/${id}`)).json;
      expect(record.status).toBe('expired');
      expect(await waitFor(() => processesMentioning(server.dataDir).length === 0, 5_000)).toBe(
        true,
      );
      expect(await waitFor(() => !fs.existsSync(profile), 5_000)).toBe(true);
      console.log(
        `[hardening] client SIGKILL: session expired ${endedAfterMs} ms after the kill (idle_timeout_s ${idle}); browser processes left 0`,
      );
      expect(endedAfterMs).toBeLessThan((idle + 3) * 1000);
    } finally {
      await server.dispose();
    }
  });
});

describe('data dir at start', () => {
  it('refuses a garbage svc.db with an error naming the file and the way out, once, without a crash loop', async () => {
    const dataDir = dir('svc-hard-corrupt-');
    fs.writeFileSync(path.join(dataDir, 'svc.db'), randomBytes(64 * 1024));
    for (let attempt = 0; attempt < 2; attempt++) {
      const error = await startChildServer(dataDir, { warmPoolSize: 0 }).then(
        async (s) => {
          await s.stop();
          return undefined;
        },
        (e: Error) => e,
      );
      expect(error?.message).toContain(path.join(dataDir, 'svc.db'));
      expect(error?.message).toMatch(/corrupt.*Move it aside/);
    }
    // The file is left for the user to inspect: nothing is overwritten behind their back.
    expect(fs.statSync(path.join(dataDir, 'svc.db')).size).toBe(64 * 1024);
  });

  it('refuses a truncated svc.db (a crash mid-copy) with the same clear error', async () => {
    const dataDir = dir('svc-hard-trunc-');
    const first = await startServer({
      port: 0,
      dataDir,
      warmPoolSize: 0,
      apiKeys: KEYS,
      logLevel: 'silent',
    });
    await first.engines.index.indexPaths([CORPUS]);
    await first.close();
    const file = path.join(dataDir, 'svc.db');
    fs.truncateSync(file, Math.floor(fs.statSync(file).size / 2));
    await expect(
      startServer({ port: 0, dataDir, warmPoolSize: 0, logLevel: 'silent' }),
    ).rejects.toThrow(
      new RegExp(`corrupt: ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}.*Move it aside`),
    );
  });

  it('starts clean on a missing dir, an empty dir and an empty svc.db', async () => {
    const root = dir('svc-hard-fresh-');
    const cases = [
      path.join(root, 'missing', 'nested'),
      dir('svc-hard-empty-'),
      dir('svc-hard-zero-'),
    ];
    fs.writeFileSync(path.join(cases[2]!, 'svc.db'), '');
    for (const dataDir of cases) {
      const server = await startServer({
        port: 0,
        dataDir,
        warmPoolSize: 0,
        apiKeys: KEYS,
        logLevel: 'silent',
      });
      try {
        const res = await call(server.url, ALICE, 'POST', '/search', { query: 'anything' });
        expect(res.status).toBe(200);
        expect(res.json.results).toEqual([]);
      } finally {
        await server.close();
      }
    }
  });

  it('refuses a data dir that is a file, naming the path', async () => {
    const file = path.join(dir('svc-hard-file-'), 'not-a-dir');
    fs.writeFileSync(file, 'x');
    await expect(
      startServer({ port: 0, dataDir: file, warmPoolSize: 0, logLevel: 'silent' }),
    ).rejects.toThrow(file);
  });
});
