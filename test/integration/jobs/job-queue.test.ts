import { describe, expect, it } from 'vitest';
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
import { BACKENDS, req, until, useJobBackend } from './backends.js';
import { deferred } from './helpers.js';

describe.each(BACKENDS)('JobQueue on %s', (backendName) => {
  const { backend, setup, status } = useJobBackend(backendName);

  describe('lifecycle', () => {
    it('moves a job CREATED -> IN_PROGRESS -> COMPLETED with timestamps and the response', async () => {
      const gate = deferred();
      const { queue } = await setup(async (r, ctx) => {
        await gate.promise;
        return {
          id: ctx.jobId,
          choices: [{ message: { content: `answer to ${r.messages[0]!.content}` } }],
        };
      });
      await queue.start();
      const created = await queue.create('alice', req('why is the sky blue'));
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
      await until(async () => (await status(queue, created.id)) === 'IN_PROGRESS');
      expect((await queue.get('alice', created.id))!.started_at).toBeGreaterThanOrEqual(
        created.created_at,
      );
      gate.resolve();
      await queue.onIdle();
      const done = toJobJson((await queue.get('alice', created.id))!);
      expect(done.status).toBe('COMPLETED');
      expect(done.completed_at).toBeGreaterThanOrEqual(done.started_at!);
      expect(done.response).toEqual({
        id: created.id,
        choices: [{ message: { content: 'answer to why is the sky blue' } }],
      });
      expect(done.failed_at).toBeNull();
    });

    it('records a thrown error as FAILED with its message', async () => {
      const { queue } = await setup(() => Promise.reject(new Error('upstream exploded')));
      await queue.start();
      const job = await queue.create('alice', req('x'));
      await queue.onIdle();
      const json = toJobJson((await queue.get('alice', job.id))!);
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
      // The first jobs hold until three run at once (or 5 s pass), so the peak does not depend on
      // how fast claims are: a queue running fewer shows a peak below 3, one running more above.
      const full = deferred();
      setTimeout(() => full.resolve(), 5000).unref();
      const { queue } = await setup(
        async (_r, ctx) => {
          seen.push(ctx.jobId);
          peak = Math.max(peak, ++active);
          if (active === 3) full.resolve();
          await full.promise;
          await new Promise((r) => setTimeout(r, 20));
          active--;
          return { ok: true };
        },
        { concurrency: 3 },
      );
      const ids: string[] = [];
      for (let i = 0; i < 10; i++) ids.push((await queue.create('bob', req(`q${i}`))).id);
      await queue.start();
      await queue.onIdle();
      expect(peak).toBe(3);
      expect([...seen].sort()).toEqual([...ids].sort());
      for (const id of ids) expect((await queue.get('bob', id))!.status).toBe('COMPLETED');
    });
  });

  describe('reads', () => {
    it('returns the same job for the same user and idempotency key within 24 hours', async () => {
      let now = Date.UTC(2026, 0, 1);
      const { queue } = await setup(() => Promise.resolve({}), { clock: () => now });
      const a = await queue.create('alice', req('q'), 'key-1');
      now += 23 * 3600_000;
      expect((await queue.create('alice', req('different body'), 'key-1')).id).toBe(a.id);
      expect((await queue.create('bob', req('q'), 'key-1')).id).not.toBe(a.id);
      expect((await queue.create('alice', req('q'), 'key-2')).id).not.toBe(a.id);
      expect((await queue.create('alice', req('q'))).id).not.toBe(
        (await queue.create('alice', req('q'))).id,
      );
      now += 2 * 3600_000;
      expect((await queue.create('alice', req('q'), 'key-1')).id).not.toBe(a.id);
    });

    it('creates one job for one idempotency key sent many times at once', async () => {
      const { queue } = await setup(() => Promise.resolve({}));
      const rows = await Promise.all(
        Array.from({ length: 8 }, () => queue.create('alice', req('q'), 'burst-1')),
      );
      expect(new Set(rows.map((r) => r.id)).size).toBe(1);
      expect((await queue.list('alice')).jobs).toHaveLength(1);
    });

    it('serialises jobs and list pages that the protocol response schemas accept', async () => {
      const { queue } = await setup(() => Promise.reject(new Error('no sources found')));
      const waiting = await queue.create('alice', req('q1'));
      expect(AsyncChatJobSchema.safeParse(toJobJson(waiting)).success).toBe(true);
      await queue.start();
      await queue.onIdle();
      const failed = toJobJson((await queue.get('alice', waiting.id))!);
      expect(AsyncChatJobSchema.parse(failed)).toMatchObject({ status: 'FAILED' });
      await queue.create('alice', req('q2'));
      const body = toJobListJson(await queue.list('alice', { limit: 1 }));
      expect(AsyncChatListResponseSchema.parse(body).requests).toHaveLength(1);
      expect(typeof body.next_token).toBe('string');
    });

    it("hides another user's job", async () => {
      const { queue } = await setup(() => Promise.resolve({}));
      const a = await queue.create('alice', req('secret'));
      expect((await queue.get('alice', a.id))?.id).toBe(a.id);
      expect(await queue.get('mallory', a.id)).toBeNull();
      expect((await queue.list('mallory')).jobs).toEqual([]);
      expect(await queue.get('alice', 'no-such-id')).toBeNull();
    });

    it('pages newest first with an opaque next_token and no duplicates or gaps', async () => {
      let now = Date.UTC(2026, 0, 1);
      const { queue } = await setup(() => Promise.resolve({}), { clock: () => now });
      const ids: string[] = [];
      for (let i = 0; i < 25; i++) {
        // Several jobs share a second, so the tie-breaker matters.
        if (i % 3 === 0) now += 1000;
        ids.push((await queue.create('alice', req(`q${i}`))).id);
        await queue.create('bob', req(`b${i}`));
      }
      const pages: string[][] = [];
      let token: string | null = null;
      do {
        const page = await queue.list('alice', { limit: 10, nextToken: token });
        pages.push(page.jobs.map((j) => j.id));
        token = page.nextToken;
        const body = toJobListJson(page);
        expect(body.requests[0]).not.toHaveProperty('response');
        expect(body.next_token).toBe(token);
      } while (token);
      expect(pages.map((p) => p.length)).toEqual([10, 10, 5]);
      expect(pages.flat()).toEqual([...ids].reverse());
      await expect(queue.list('alice', { nextToken: 'garbage' })).rejects.toThrow(JobQueueError);
      await expect(queue.list('alice', { limit: 0 })).rejects.toThrow(/limit/);
    });

    it('purges jobs after 7 days: unreadable at once, deleted at the next start', async () => {
      let now = Date.UTC(2026, 0, 1);
      const { queue, store } = await setup(() => Promise.resolve({}), { clock: () => now });
      const old = await queue.create('alice', req('old'));
      now += 3 * 24 * 3600_000;
      const recent = await queue.create('alice', req('recent'));
      now += 4 * 24 * 3600_000 + 1000;
      expect(await queue.get('alice', old.id)).toBeNull();
      expect((await queue.get('alice', recent.id))?.id).toBe(recent.id);
      expect((await queue.list('alice')).jobs.map((j) => j.id)).toEqual([recent.id]);
      expect(await store.getById(old.id)).not.toBeNull();
      expect((await queue.start()).purged).toBe(1);
      expect(await store.getById(old.id)).toBeNull();
      expect(await store.getById(recent.id)).not.toBeNull();
    });
  });

  describe('stop', () => {
    it('stop() aborts jobs past the drain timeout and re-queues them for the next start', async () => {
      const location = await backend().fresh();
      let aborted = false;
      const first = await setup(
        (_r, ctx) =>
          new Promise((_res, rej) =>
            ctx.signal.addEventListener('abort', () => {
              aborted = true;
              rej(ctx.signal.reason);
            }),
          ),
        { location },
      );
      await first.queue.start();
      const job = await first.queue.create('alice', req('long'));
      await until(async () => (await status(first.queue, job.id)) === 'IN_PROGRESS');
      await first.queue.stop({ drainTimeout: 30 });
      expect(aborted).toBe(true);
      expect(await first.queue.get('alice', job.id)).toMatchObject({
        status: 'CREATED',
        attempts: 0,
      });

      const second = await setup(() => Promise.resolve({ done: true }), { location });
      await second.queue.start();
      await second.queue.onIdle();
      expect(await second.queue.get('alice', job.id)).toMatchObject({
        status: 'COMPLETED',
        attempts: 1,
      });
    });

    it('stop() waits for running jobs that finish within the drain timeout', async () => {
      const { queue } = await setup(() => new Promise((r) => setTimeout(() => r({ ok: 1 }), 50)));
      await queue.start();
      const job = await queue.create('alice', req('short'));
      await until(async () => (await status(queue, job.id)) === 'IN_PROGRESS');
      await queue.stop({ drainTimeout: 5000 });
      expect(await status(queue, job.id)).toBe('COMPLETED');
      await expect(queue.start()).rejects.toThrow(JobQueueError);
    });

    it('rejects bad options naming the option', async () => {
      const { store } = await setup(() => Promise.resolve({}));
      const handler = () => Promise.resolve({});
      expect(() => new JobQueue({ store, handler, concurrency: 0 })).toThrow(/concurrency/);
      expect(() => new JobQueue({ store, handler, leaseMs: 10 })).toThrow(/leaseMs/);
    });
  });
});
