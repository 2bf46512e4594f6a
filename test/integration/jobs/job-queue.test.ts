import { join } from 'node:path';
import type Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import {
  AsyncChatJobSchema,
  AsyncChatListResponseSchema,
} from '../../../src/protocol/async-chat.js';
import {
  JobQueue,
  JobQueueError,
  toJobJson,
  toJobListJson,
} from '../../../src/server/engines/jobs/index.js';
import type { JobHandler } from '../../../src/server/engines/jobs/index.js';
import { deferred, openDb, tempDir, waitFor } from './helpers.js';

interface Req {
  model: string;
  messages: { role: string; content: string }[];
}

const req = (content: string): Req => ({
  model: 'core-deep-research',
  messages: [{ role: 'user', content }],
});

const cleanups: (() => void | Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function setup(
  handler: JobHandler<Req, unknown>,
  opts: { clock?: () => number; concurrency?: number; file?: string } = {},
): { queue: JobQueue<Req>; db: Database.Database; file: string } {
  let file = opts.file;
  if (!file) {
    const t = tempDir();
    cleanups.push(t.cleanup);
    file = join(t.dir, 'jobs.db');
  }
  const db = openDb(file);
  const queue = new JobQueue<Req>({
    db,
    handler,
    ...(opts.clock ? { clock: opts.clock } : {}),
    ...(opts.concurrency ? { concurrency: opts.concurrency } : {}),
  });
  cleanups.push(async () => {
    await queue.stop({ drainTimeout: 0 });
    db.close();
  });
  return { queue, db, file };
}

describe('JobQueue lifecycle', () => {
  it('moves a job CREATED -> IN_PROGRESS -> COMPLETED with timestamps and the response', async () => {
    const gate = deferred();
    const { queue } = setup(async (r, ctx) => {
      await gate.promise;
      return {
        id: ctx.jobId,
        choices: [{ message: { content: `answer to ${r.messages[0]!.content}` } }],
      };
    });
    queue.start();
    const created = queue.create('alice', req('why is the sky blue'));
    expect(toJobJson(created)).toMatchObject({
      id: created.id,
      model: 'core-deep-research',
      status: 'CREATED',
      started_at: null,
      completed_at: null,
      response: null,
      failed_at: null,
      error_message: null,
    });
    expect(Number.isInteger(created.created_at)).toBe(true);
    await waitFor(() => queue.get('alice', created.id)!.status === 'IN_PROGRESS');
    expect(queue.get('alice', created.id)!.started_at).toBeGreaterThanOrEqual(created.created_at);
    gate.resolve();
    await queue.onIdle();
    const done = toJobJson(queue.get('alice', created.id)!);
    expect(done.status).toBe('COMPLETED');
    expect(done.completed_at).toBeGreaterThanOrEqual(done.started_at!);
    expect(done.response).toEqual({
      id: created.id,
      choices: [{ message: { content: 'answer to why is the sky blue' } }],
    });
    expect(done.failed_at).toBeNull();
  });

  it('records a thrown error as FAILED with its message', async () => {
    const { queue } = setup(() => Promise.reject(new Error('upstream exploded')));
    queue.start();
    const job = queue.create('alice', req('x'));
    await queue.onIdle();
    const json = toJobJson(queue.get('alice', job.id)!);
    expect(json).toMatchObject({
      status: 'FAILED',
      error_message: 'upstream exploded',
      response: null,
    });
    expect(json.failed_at).toBeGreaterThanOrEqual(json.created_at);
    expect(json.completed_at).toBeNull();
  });

  it('runs at most `concurrency` jobs at once and runs every job once', async () => {
    let active = 0;
    let peak = 0;
    const seen: string[] = [];
    const { queue } = setup(
      async (_r, ctx) => {
        seen.push(ctx.jobId);
        peak = Math.max(peak, ++active);
        await new Promise((r) => setTimeout(r, 20));
        active--;
        return { ok: true };
      },
      { concurrency: 3 },
    );
    queue.start();
    const ids = Array.from({ length: 10 }, (_, i) => queue.create('bob', req(`q${i}`)).id);
    await queue.onIdle();
    expect(peak).toBe(3);
    expect([...seen].sort()).toEqual([...ids].sort());
    for (const id of ids) expect(queue.get('bob', id)!.status).toBe('COMPLETED');
  });
});

describe('JobQueue reads', () => {
  it('returns the same job for the same user and idempotency key within 24 hours', () => {
    let now = Date.UTC(2026, 0, 1);
    const { queue } = setup(() => Promise.resolve({}), { clock: () => now });
    const a = queue.create('alice', req('q'), 'key-1');
    now += 23 * 3600_000;
    expect(queue.create('alice', req('different body'), 'key-1').id).toBe(a.id);
    expect(queue.create('bob', req('q'), 'key-1').id).not.toBe(a.id);
    expect(queue.create('alice', req('q'), 'key-2').id).not.toBe(a.id);
    expect(queue.create('alice', req('q')).id).not.toBe(queue.create('alice', req('q')).id);
    now += 2 * 3600_000;
    expect(queue.create('alice', req('q'), 'key-1').id).not.toBe(a.id);
  });

  it('serialises jobs and list pages that the protocol response schemas accept', async () => {
    const { queue } = setup(() => Promise.reject(new Error('no sources found')));
    const waiting = queue.create('alice', req('q1'));
    expect(AsyncChatJobSchema.safeParse(toJobJson(waiting)).success).toBe(true);
    queue.start();
    await queue.onIdle();
    const failed = toJobJson(queue.get('alice', waiting.id)!);
    expect(AsyncChatJobSchema.parse(failed)).toMatchObject({ status: 'FAILED' });
    queue.create('alice', req('q2'));
    const body = toJobListJson(queue.list('alice', { limit: 1 }));
    expect(AsyncChatListResponseSchema.parse(body).requests).toHaveLength(1);
    expect(typeof body.next_token).toBe('string');
  });

  it("hides another user's job", () => {
    const { queue } = setup(() => Promise.resolve({}));
    const a = queue.create('alice', req('secret'));
    expect(queue.get('alice', a.id)?.id).toBe(a.id);
    expect(queue.get('mallory', a.id)).toBeNull();
    expect(queue.list('mallory').jobs).toEqual([]);
    expect(queue.get('alice', 'no-such-id')).toBeNull();
  });

  it('pages newest first with an opaque next_token and no duplicates or gaps', () => {
    let now = Date.UTC(2026, 0, 1);
    const { queue } = setup(() => Promise.resolve({}), { clock: () => now });
    const ids: string[] = [];
    for (let i = 0; i < 25; i++) {
      // Several jobs share a second, so the tie-breaker matters.
      if (i % 3 === 0) now += 1000;
      ids.push(queue.create('alice', req(`q${i}`)).id);
      queue.create('bob', req(`b${i}`));
    }
    const pages: string[][] = [];
    let token: string | null = null;
    do {
      const page = queue.list('alice', { limit: 10, nextToken: token });
      pages.push(page.jobs.map((j) => j.id));
      token = page.nextToken;
      const body = toJobListJson(page);
      expect(body.requests[0]).not.toHaveProperty('response');
      expect(body.next_token).toBe(token);
    } while (token);
    expect(pages.map((p) => p.length)).toEqual([10, 10, 5]);
    expect(pages.flat()).toEqual([...ids].reverse());
    expect(() => queue.list('alice', { nextToken: 'garbage' })).toThrow(JobQueueError);
    expect(() => queue.list('alice', { limit: 0 })).toThrow(/limit/);
  });

  it('purges jobs after 7 days: unreadable at once, deleted at the next start', () => {
    let now = Date.UTC(2026, 0, 1);
    const { queue, db } = setup(() => Promise.resolve({}), { clock: () => now });
    const old = queue.create('alice', req('old'));
    now += 3 * 24 * 3600_000;
    const recent = queue.create('alice', req('recent'));
    now += 4 * 24 * 3600_000 + 1000;
    expect(queue.get('alice', old.id)).toBeNull();
    expect(queue.get('alice', recent.id)?.id).toBe(recent.id);
    expect(queue.list('alice').jobs.map((j) => j.id)).toEqual([recent.id]);
    expect(queue.start().purged).toBe(1);
    const count = db.prepare('SELECT COUNT(*) AS n FROM job_jobs').get() as { n: number };
    expect(count.n).toBe(1);
  });
});

describe('JobQueue restarts', () => {
  it('resumes jobs left IN_PROGRESS by a dropped queue and completes each exactly once', async () => {
    const hang = deferred<unknown>();
    const first = setup(() => hang.promise, { concurrency: 3 });
    first.queue.start();
    const ids = [1, 2, 3].map((i) => first.queue.create('alice', req(`q${i}`)).id);
    await waitFor(() => ids.every((id) => first.queue.get('alice', id)!.status === 'IN_PROGRESS'));

    // "Crash": the first queue is simply abandoned; a new queue opens the same file.
    const calls: string[] = [];
    const second = setup(
      (_r, ctx) => {
        calls.push(ctx.jobId);
        return Promise.resolve({ by: 'second', attempt: ctx.attempt });
      },
      { file: first.file },
    );
    expect(second.queue.start()).toMatchObject({ requeued: 3, failed: 0 });
    await second.queue.onIdle();
    expect([...calls].sort()).toEqual([...ids].sort());
    for (const id of ids) {
      const row = second.queue.get('alice', id)!;
      expect(row.status).toBe('COMPLETED');
      expect(row.attempts).toBe(2);
      expect(toJobJson(row).response).toEqual({ by: 'second', attempt: 2 });
    }

    // The abandoned workers finish late: their results are not recorded, and the old queue can no
    // longer claim new jobs.
    hang.resolve({ by: 'first' });
    await new Promise((r) => setTimeout(r, 20));
    const extra = first.queue.create('alice', req('after restart'));
    await waitFor(() => second.queue.get('alice', extra.id)!.status === 'COMPLETED', 5000);
    for (const id of ids) {
      expect(toJobJson(second.queue.get('alice', id)!).response).toEqual({
        by: 'second',
        attempt: 2,
      });
    }
    expect(calls.filter((c) => c === extra.id)).toHaveLength(1);
  });

  it('fails a job that was interrupted three times, with a clear message', async () => {
    const t = tempDir();
    cleanups.push(t.cleanup);
    const file = join(t.dir, 'jobs.db');
    let id = '';
    for (let crash = 0; crash < 3; crash++) {
      const { queue } = setup(() => new Promise(() => {}), { file });
      queue.start();
      if (crash === 0) id = queue.create('alice', req('poison')).id;
      await waitFor(() => queue.get('alice', id)!.status === 'IN_PROGRESS');
    }
    const last = setup(() => Promise.resolve({ ok: true }), { file });
    expect(last.queue.start()).toMatchObject({ requeued: 0, failed: 1 });
    const json = toJobJson(last.queue.get('alice', id)!);
    expect(json.status).toBe('FAILED');
    expect(json.error_message).toMatch(/interrupted by a server restart 3 times/);
  });

  it('stop() aborts jobs past the drain timeout and re-queues them for the next start', async () => {
    const t = tempDir();
    cleanups.push(t.cleanup);
    const file = join(t.dir, 'jobs.db');
    let aborted = false;
    const first = setup(
      (_r, ctx) =>
        new Promise((_res, rej) =>
          ctx.signal.addEventListener('abort', () => {
            aborted = true;
            rej(ctx.signal.reason);
          }),
        ),
      { file },
    );
    first.queue.start();
    const job = first.queue.create('alice', req('long'));
    await waitFor(() => first.queue.get('alice', job.id)!.status === 'IN_PROGRESS');
    await first.queue.stop({ drainTimeout: 30 });
    expect(aborted).toBe(true);
    expect(first.queue.get('alice', job.id)).toMatchObject({ status: 'CREATED', attempts: 0 });

    const second = setup(() => Promise.resolve({ done: true }), { file });
    second.queue.start();
    await second.queue.onIdle();
    expect(second.queue.get('alice', job.id)).toMatchObject({ status: 'COMPLETED', attempts: 1 });
  });

  it('stop() waits for running jobs that finish within the drain timeout', async () => {
    const { queue } = setup(() => new Promise((r) => setTimeout(() => r({ ok: 1 }), 50)));
    queue.start();
    const job = queue.create('alice', req('short'));
    await waitFor(() => queue.get('alice', job.id)!.status === 'IN_PROGRESS');
    await queue.stop({ drainTimeout: 5000 });
    expect(queue.get('alice', job.id)!.status).toBe('COMPLETED');
    expect(() => queue.start()).toThrow(JobQueueError);
  });

  it('rejects bad options naming the option', () => {
    const { db } = setup(() => Promise.resolve({}));
    expect(() => new JobQueue({ db, handler: () => Promise.resolve({}), concurrency: 0 })).toThrow(
      /concurrency/,
    );
  });
});
