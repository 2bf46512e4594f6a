// Async chat jobs over HTTP: lifecycle with timestamps, newest-first pagination, idempotency,
// per-user isolation, validation, failures recorded, and a restart that loses no job.
import fs from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo, Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, tempDir } from '../../support/server.js';
import type { TestServer } from '../../support/server.js';
import { CORPUS, corpusServer, getJson, locs, postJson } from './helpers.js';

interface Job {
  id: string;
  model: string;
  status: 'CREATED' | 'IN_PROGRESS' | 'COMPLETED' | 'FAILED';
  created_at: number;
  started_at: number | null;
  completed_at: number | null;
  failed_at: number | null;
  error_message: string | null;
  response: {
    choices: { message: { content: string } }[];
    search_results: { url: string }[];
    usage: { num_search_queries: number };
  } | null;
}

const ALICE = 'sk-alice-async-0123456789';
const BOB = 'sk-bob-async-0123456789';
const CAROL = 'sk-carol-async-0123456789';

const research = (question: string, extra: Record<string, unknown> = {}) => ({
  request: {
    model: 'core-deep-research',
    reasoning_effort: 'low',
    messages: [{ role: 'user', content: question }],
  },
  ...extra,
});

let server: TestServer;
// A stand-in for an external OpenAI-compatible model: `/slow/...` answers after 300 ms, `/fail/...`
// answers 500. It lets a job be slow or fail for real.
let model: Server;
let modelUrl: string;

beforeAll(async () => {
  server = await corpusServer({
    apiKeys: [ALICE, { key: BOB, userId: 'bob' }, { key: CAROL, userId: 'carol' }],
  });
  model = createServer((req, res) => {
    req.resume();
    if (req.url?.startsWith('/fail/')) {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end('{"error":{"message":"model overloaded"}}');
      return;
    }
    setTimeout(() => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const chunk = { choices: [{ index: 0, delta: { content: 'A slow answer [1].' } }] };
      res.end(`data: ${JSON.stringify(chunk)}\n\ndata: [DONE]\n\n`);
    }, 300);
  });
  await new Promise<void>((resolve) => model.listen(0, '127.0.0.1', resolve));
  modelUrl = `http://127.0.0.1:${(model.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await server?.dispose();
  await new Promise((resolve) => model?.close(resolve));
});

async function create(s: TestServer, body: unknown, key: string): Promise<Job> {
  const reply = await postJson<Job>(s, '/async/chat/completions', body, key);
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return reply.body;
}

// Generous: a fresh server loads the sentence encoder on its first job, tens of seconds on a
// loaded 2-core machine.
async function settle(s: TestServer, id: string, key: string, timeoutMs = 60_000): Promise<Job> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const reply = await getJson<Job>(s, `/async/chat/completions/${id}`, key);
    expect(reply.status).toBe(200);
    if (reply.body.status === 'COMPLETED' || reply.body.status === 'FAILED') return reply.body;
    if (Date.now() > deadline) throw new Error(`job ${id} still ${reply.body.status}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('async chat jobs', () => {
  it('runs a job from CREATED to COMPLETED with its timestamps and response', async () => {
    const job = await create(server, research('battery storage markets and safety'), ALICE);
    expect(job.model).toBe('core-deep-research');
    expect(['CREATED', 'IN_PROGRESS', 'COMPLETED']).toContain(job.status);
    expect(Number.isInteger(job.created_at)).toBe(true);
    const done = await settle(server, job.id, ALICE);
    expect(done.status).toBe('COMPLETED');
    expect(done.started_at).toBeGreaterThanOrEqual(done.created_at);
    expect(done.completed_at).toBeGreaterThanOrEqual(done.started_at!);
    expect(done.failed_at).toBeNull();
    expect(done.error_message).toBeNull();
    expect(done.response!.choices[0]!.message.content).toMatch(/\[\d+\]/);
    expect(done.response!.search_results.length).toBeGreaterThan(0);
    expect(done.response!.usage.num_search_queries).toBe(2);
  }, 120_000);

  it('lists the caller’s jobs newest first, page by page with limit and next_token', async () => {
    const ids: string[] = [];
    for (const q of ['coral bleaching', 'teen sleep', 'sqlite fts5', 'async runtime', 'kelp'])
      ids.push((await create(server, research(q), CAROL)).id);
    const seen: string[] = [];
    let token: string | null = null;
    let pages = 0;
    do {
      const query: string = `limit=2${token ? `&next_token=${encodeURIComponent(token)}` : ''}`;
      const reply = await getJson<{
        requests: Omit<Job, 'response'>[];
        next_token: string | null;
      }>(server, `/async/chat/completions?${query}`, CAROL);
      expect(reply.status).toBe(200);
      expect(reply.body.requests.length).toBeLessThanOrEqual(2);
      for (const r of reply.body.requests) expect(r).not.toHaveProperty('response');
      seen.push(...reply.body.requests.map((r) => r.id));
      token = reply.body.next_token;
      pages++;
    } while (token);
    expect(pages).toBe(3);
    expect(seen).toEqual([...ids].reverse());

    const bad = await getJson(server, '/async/chat/completions?limit=0', CAROL);
    expect(locs(bad)).toEqual([['query', 'limit']]);
    const forged = await getJson(server, '/async/chat/completions?next_token=forged', CAROL);
    expect(locs(forged)).toEqual([['query', 'next_token']]);
  });

  it('returns the same job for the same idempotency key', async () => {
    const body = research('grid batteries revenue', { idempotency_key: 'order-42' });
    const first = await create(server, body, ALICE);
    const again = await create(server, body, ALICE);
    expect(again.id).toBe(first.id);
    const other = await create(
      server,
      research('grid batteries revenue', { idempotency_key: 'order-43' }),
      ALICE,
    );
    expect(other.id).not.toBe(first.id);
  });

  it('hides one user’s jobs from another: 404 on read, absent from the list', async () => {
    const job = await create(server, research('recycling black mass'), ALICE);
    const asBob = await getJson(server, `/async/chat/completions/${job.id}`, BOB);
    expect(asBob.status).toBe(404);
    expect(asBob.body.error.message).not.toContain('recycling');
    const bobs = await getJson(server, '/async/chat/completions?limit=100', BOB);
    expect(bobs.body.requests.map((r: Job) => r.id)).not.toContain(job.id);
    const alices = await getJson(server, '/async/chat/completions?limit=100', ALICE);
    expect(alices.body.requests.map((r: Job) => r.id)).toContain(job.id);
    expect((await getJson(server, '/async/chat/completions/no-such-job', ALICE)).status).toBe(404);
  });

  it('accepts only the deep-research model: 422 at body.request.model', async () => {
    const reply = await postJson(
      server,
      '/async/chat/completions',
      { request: { model: 'core', messages: [{ role: 'user', content: 'x' }] } },
      ALICE,
    );
    expect(locs(reply)).toEqual([['body', 'request', 'model']]);
    const noMessages = await postJson(
      server,
      '/async/chat/completions',
      { request: { model: 'core-deep-research', messages: [] } },
      ALICE,
    );
    expect(locs(noMessages)).toEqual([['body', 'request', 'messages']]);
  });

  it('records a failing job as FAILED with failed_at and error_message', async () => {
    const failing = await startTestServer({
      apiKeys: [ALICE],
      llm: { baseUrl: `${modelUrl}/fail`, model: 'core' },
    });
    try {
      const job = await create(failing, research('anything'), ALICE);
      const done = await settle(failing, job.id, ALICE);
      expect(done.status).toBe('FAILED');
      expect(done.failed_at).toBeGreaterThanOrEqual(done.created_at);
      expect(done.completed_at).toBeNull();
      expect(done.response).toBeNull();
      expect(done.error_message).toMatch(/HTTP 500/);
    } finally {
      await failing.dispose();
    }
  });
});

describe('async jobs across a restart', () => {
  let resumed: Job[] = [];
  let secondUrl = '';

  it('a new server on the same data dir completes every job of the old one', async () => {
    const dataDir = tempDir('svc-async-restart-');
    try {
      // First life: one worker and a 300 ms answer model, so most jobs have not run at close.
      const first = await startTestServer({
        dataDir,
        apiKeys: [ALICE],
        jobConcurrency: 1,
        llm: { baseUrl: `${modelUrl}/slow`, model: 'core' },
      });
      await first.engines.index.indexPaths([`${CORPUS}/web`]);
      const questions = ['grid batteries', 'coral reefs', 'teen sleep', 'fts5', 'chromium', 'lfp'];
      const jobs = await Promise.all(questions.map((q) => create(first, research(q), ALICE)));
      const before = await Promise.all(
        jobs.map(async (j) => (await getJson<Job>(first, `/async/chat/completions/${j.id}`)).body),
      );
      expect(before.filter((j) => j.status === 'CREATED').length).toBeGreaterThanOrEqual(3);
      await first.close();

      // Second life: no answer model, so the extractive answerer finishes what is left.
      const second = await startTestServer({ dataDir, apiKeys: [ALICE] });
      secondUrl = second.url;
      try {
        const after = await Promise.all(jobs.map((j) => settle(second, j.id, ALICE)));
        for (const job of after) {
          expect(job.status).toBe('COMPLETED');
          expect(job.response!.choices[0]!.message.content.length).toBeGreaterThan(0);
        }
        // Jobs that had not run were answered by the second server, from the same index.
        resumed = after.filter((j) => !j.response!.choices[0]!.message.content.includes('slow'));
        expect(resumed.length).toBeGreaterThanOrEqual(3);
        for (const job of resumed) {
          expect(job.response!.search_results.length).toBeGreaterThan(0);
          expect(job.response!.choices[0]!.message.content).toMatch(/\[\d+\]/);
        }
        const listed = await getJson(second, '/async/chat/completions?limit=100', ALICE);
        expect(listed.body.requests.map((r: Job) => r.id).sort()).toEqual(
          jobs.map((j) => j.id).sort(),
        );
      } finally {
        await second.close();
      }
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 180_000);

  it('jobs resumed at start-up cite absolute /docs URLs (the queue starts after listen)', () => {
    expect(resumed.length).toBeGreaterThan(0);
    for (const job of resumed) {
      for (const r of job.response!.search_results)
        expect(r.url.startsWith(`${secondUrl}/docs/`)).toBe(true);
    }
  });
});
