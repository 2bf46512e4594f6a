// Async jobs across two real server processes on one PostgreSQL database: a job taken by A is left
// alone by B while A renews its lease; A SIGKILLed (or frozen with SIGSTOP) mid-job, B takes it
// over once the lease ran out and finishes it exactly once; a frozen A that wakes up later cannot
// overwrite B's result.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ServerOptions } from '../../../src/server/index.js';
import { startLlmStub } from '../hardening/llm-stub.js';
import type { LlmStub } from '../hardening/llm-stub.js';
import { ALICE, KEYS, NO_LIMITS, call, startChildServer } from '../hardening/support.js';
import type { ChildServer, Json } from '../hardening/support.js';
import { processesMentioning } from '../../support/processes.js';
import { waitFor } from '../../support/wait.js';
import type { TestPostgres } from '../../support/postgres.js';
import { postgres } from './cluster.js';

/** Short enough for a takeover within a test, long enough that a loaded machine renews in time. */
const LEASE_MS = 2_000;

interface JobRowView {
  status: string;
  attempts: number;
  owner: string | null;
  completed_at: string | number | null;
  response: string | null;
}

let db: TestPostgres;
let stub: LlmStub;
const cleanups: (() => Promise<void> | void)[] = [];

beforeAll(async () => {
  db = await postgres();
}, 120_000);
afterAll(async () => {
  await db?.stop();
});
afterEach(async () => {
  // Every cleanup runs, even after one fails: a server process must never outlive the file.
  const errors: unknown[] = [];
  for (const c of cleanups.splice(0).reverse())
    await Promise.resolve()
      .then(c)
      .catch((e) => errors.push(e));
  if (errors.length > 0) throw errors[0];
});

/** A server process on `databaseUrl` whose jobs call the stub model, with its own data dir. */
async function instance(databaseUrl: string): Promise<ChildServer & { dataDir: string }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-mi-jobs-'));
  const options: ServerOptions = {
    apiKeys: KEYS,
    databaseUrl,
    warmPoolSize: 0,
    jobConcurrency: 1,
    jobLeaseMs: LEASE_MS,
    rateLimits: NO_LIMITS,
    llm: { baseUrl: stub.baseUrl, model: 'stub' },
  };
  const server = await startChildServer(dataDir, options);
  cleanups.push(async () => {
    await server.stop();
    expect(processesMentioning(dataDir)).toEqual([]);
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
  return Object.assign(server, { dataDir });
}

/** The job's row as the database holds it (what no API shows: attempts and holder). */
async function row(databaseUrl: string, id: string): Promise<JobRowView> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<JobRowView>(
      'SELECT status, attempts, owner, completed_at, response FROM job_jobs WHERE id = $1',
      [id],
    );
    return rows[0]!;
  } finally {
    await client.end();
  }
}

const getJob = async (server: ChildServer, id: string): Promise<Json> =>
  (await call(server.url, ALICE, 'GET', `/async/chat/completions/${id}`)).json;

/**
 * A takes a slow job (200 chunks, 500 ms apart: 100 s, so it is still running on a loaded machine
 * when B has started and A is killed), then B starts; both on one database.
 */
async function jobHeldByA(): Promise<{ url: string; a: ChildServer; b: ChildServer; id: string }> {
  stub = await startLlmStub(500, 200);
  cleanups.push(() => stub.close());
  const url = await db.createDatabase();
  const a = await instance(url);
  const created = await call(a.url, ALICE, 'POST', '/async/chat/completions', {
    request: {
      model: 'core-deep-research',
      messages: [{ role: 'user', content: 'slow question' }],
    },
  });
  expect(created.status).toBe(200);
  const id = created.json.id as string;
  expect(await waitFor(async () => stub.requests === 1, 30_000)).toBe(true);
  expect((await getJob(a, id)).status).toBe('IN_PROGRESS');
  const b = await instance(url);

  // While A lives it renews its lease: B, polling all along, leaves the job alone.
  await new Promise((r) => setTimeout(r, LEASE_MS * 2));
  expect((await getJob(b, id)).status).toBe('IN_PROGRESS');
  expect(stub.requests).toBe(1);
  expect(await row(url, id)).toMatchObject({ status: 'IN_PROGRESS', attempts: 1 });
  return { url, a, b, id };
}

describe('async jobs on two instances sharing PostgreSQL', () => {
  it('A is SIGKILLed mid-job: B takes the job over after the lease and finishes it once', async () => {
    const { url, a, b, id } = await jobHeldByA();
    const holderA = (await row(url, id)).owner;
    a.child.kill('SIGKILL');
    expect((await a.exited).signal).toBe('SIGKILL');
    stub.chunkDelayMs = 10;

    expect(await waitFor(async () => (await getJob(b, id)).status === 'COMPLETED', 45_000)).toBe(
      true,
    );
    const done = await getJob(b, id);
    // B's run is the model's second call: A's answer never landed.
    expect(done.response.choices[0].message.content).toMatch(/^answer-2 /);
    expect(stub.requests).toBe(2);
    const final = await row(url, id);
    expect(final).toMatchObject({ status: 'COMPLETED', attempts: 2, owner: null });
    expect(holderA).not.toBeNull();
    // One job, one completion: the list through B holds it once, COMPLETED.
    const list = (await call(b.url, ALICE, 'GET', '/async/chat/completions?limit=100')).json;
    expect(list.requests.map((j: Json) => [j.id, j.status])).toEqual([[id, 'COMPLETED']]);
  }, 120_000);

  it('a frozen A that wakes after B finished the job cannot overwrite B’s result', async () => {
    const { url, a, b, id } = await jobHeldByA();
    a.child.kill('SIGSTOP');
    cleanups.push(() => void a.child.kill('SIGCONT'));
    // A's stream now finishes into its socket while A is frozen: it has its whole answer at wake-up.
    stub.chunkDelayMs = 10;
    expect(await waitFor(async () => (await getJob(b, id)).status === 'COMPLETED', 45_000)).toBe(
      true,
    );
    const byB = await row(url, id);
    expect(byB).toMatchObject({ status: 'COMPLETED', attempts: 2, owner: null });
    expect(JSON.parse(byB.response!).choices[0].message.content).toMatch(/^answer-2 /);

    a.child.kill('SIGCONT');
    // Give the woken A time to finish its run and try to record it (renewal every LEASE_MS / 3).
    await new Promise((r) => setTimeout(r, LEASE_MS * 2));
    expect((await getJob(a, id)).status).toBe('COMPLETED');
    expect(await row(url, id)).toEqual(byB);
    expect(stub.requests).toBe(2);
  }, 120_000);
});
