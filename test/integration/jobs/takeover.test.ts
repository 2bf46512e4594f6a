// Jobs whose queue died: recovered by the next queue (SQLite: at once, the dead one fenced off;
// PostgreSQL: once its lease ran out), finished exactly once, the dead worker's late writes refused.
import { describe, expect, it } from 'vitest';
import { toJobJson } from '../../../src/server/engines/jobs/index.js';
import { BACKENDS, req, until, useJobBackend } from './backends.js';
import { deferred } from './helpers.js';

describe.each(BACKENDS)('Job takeover on %s', (backendName) => {
  const { backend, defer, setup, status } = useJobBackend(backendName);

  describe('after a crash', () => {
    it('resumes jobs left IN_PROGRESS by a dead queue and completes each exactly once', async () => {
      const hang = deferred<unknown>();
      const first = await setup(() => hang.promise, { concurrency: 3 });
      await first.queue.start();
      const ids: string[] = [];
      for (const i of [1, 2, 3]) ids.push((await first.queue.create('alice', req(`q${i}`))).id);
      await until(async () =>
        (await Promise.all(ids.map((id) => status(first.queue, id)))).every(
          (s) => s === 'IN_PROGRESS',
        ),
      );

      // "Crash": the first queue is abandoned (PostgreSQL: its connections drop, its leases run out).
      await first.opened.crash();
      const calls: string[] = [];
      const second = await setup(
        (_r, ctx) => {
          calls.push(ctx.jobId);
          return Promise.resolve({ by: 'second', attempt: ctx.attempt });
        },
        { location: first.location },
      );
      expect(await second.queue.start()).toMatchObject({ requeued: 3, failed: 0 });
      await second.queue.onIdle();
      expect([...calls].sort()).toEqual([...ids].sort());
      for (const id of ids) {
        const row = (await second.queue.get('alice', id))!;
        expect(row.status).toBe('COMPLETED');
        expect(row.attempts).toBe(2);
        expect(toJobJson(row).response).toEqual({ by: 'second', attempt: 2 });
      }

      // The abandoned workers finish late: their results are not recorded.
      hang.resolve({ by: 'first' });
      await new Promise((r) => setTimeout(r, 50));
      const extra = await second.queue.create('alice', req('after restart'));
      await until(async () => (await status(second.queue, extra.id)) === 'COMPLETED', 5000);
      for (const id of ids) {
        expect(toJobJson((await second.queue.get('alice', id))!).response).toEqual({
          by: 'second',
          attempt: 2,
        });
      }
      expect(calls.filter((c) => c === extra.id)).toHaveLength(1);
    });

    it('refuses every write of a worker whose claim was taken over (the zombie guard)', async () => {
      const location = await backend().fresh();
      const a = await backend().open(location);
      const b = await backend().open(location);
      defer(a.close);
      defer(b.close);
      await a.store.open('queue-a');
      const { row } = await a.store.create('alice', 'core-deep-research', { q: 1 });
      const claimed = (await a.store.claimNext('queue-a', backend().leaseMs))!;
      expect(claimed).toMatchObject({ id: row.id, attempts: 1, owner: 'queue-a' });
      const aClaim = { id: row.id, attempt: 1 };

      // B takes over: SQLite fences A off when B opens; PostgreSQL waits for A's lease to run out.
      await b.store.open('queue-b');
      if (backendName === 'postgres') {
        expect(await b.store.recover('queue-b', 3)).toEqual({ requeued: 0, failed: 0 });
        await new Promise((r) => setTimeout(r, backend().leaseMs + 100));
      }
      expect(await b.store.recover('queue-b', 3)).toEqual({ requeued: 1, failed: 0 });
      expect(await b.store.claimNext('queue-b', 60_000)).toMatchObject({ id: row.id, attempts: 2 });

      expect(await a.store.renew('queue-a', [aClaim], backend().leaseMs)).toEqual(new Set());
      expect(await a.store.complete(aClaim, 'queue-a', { by: 'a' })).toBe(false);
      expect(await a.store.fail(aClaim, 'queue-a', 'late failure')).toBe(false);
      expect(await a.store.release(aClaim, 'queue-a')).toBe(false);
      const bClaim = { id: row.id, attempt: 2 };
      expect(await b.store.renew('queue-b', [bClaim], 60_000)).toEqual(new Set([row.id]));
      expect(await b.store.complete(bClaim, 'queue-b', { by: 'b' })).toBe(true);
      expect(await b.store.complete(bClaim, 'queue-b', { by: 'b again' })).toBe(false);
      const final = (await b.store.getById(row.id))!;
      expect(final).toMatchObject({ status: 'COMPLETED', attempts: 2, owner: null });
      expect(toJobJson(final).response).toEqual({ by: 'b' });
    });

    it('fails a job that was interrupted three times, with a clear message', async () => {
      const location = await backend().fresh();
      let id = '';
      for (let crash = 0; crash < 3; crash++) {
        const { queue, opened } = await setup(() => new Promise(() => {}), { location });
        await queue.start();
        if (crash === 0) id = (await queue.create('alice', req('poison'))).id;
        await until(async () => (await status(queue, id)) === 'IN_PROGRESS');
        await opened.crash();
      }
      const last = await setup(() => Promise.resolve({ ok: true }), { location });
      expect(await last.queue.start()).toMatchObject({ requeued: 0, failed: 1 });
      const json = toJobJson((await last.queue.get('alice', id))!);
      expect(json.status).toBe('FAILED');
      expect(json.error_message).toMatch(/interrupted by a server restart 3 times/);
    });
  });

  // Several queues on one database at the same time: PostgreSQL's case (SQLite keeps one queue per
  // file and fences the others off, tested above). Defined for PostgreSQL only, not skipped on
  // SQLite: there is no such case to test there.
  if (backendName === 'postgres')
    describe('several live queues on one database', () => {
      it('runs every job exactly once across three queues', async () => {
        const location = await backend().fresh();
        const runs: { queue: number; id: string }[] = [];
        const queues = await Promise.all(
          [0, 1, 2].map((n) =>
            setup(
              async (_r, ctx) => {
                runs.push({ queue: n, id: ctx.jobId });
                await new Promise((r) => setTimeout(r, 10));
                return { by: n };
              },
              // A lease no stall of a loaded machine outlasts: a takeover here would be a rerun.
              { location, concurrency: 2, leaseMs: 10_000 },
            ),
          ),
        );
        const ids: string[] = [];
        for (let i = 0; i < 30; i++) {
          ids.push((await queues[i % 3]!.queue.create('alice', req(`q${i}`))).id);
        }
        await Promise.all(queues.map((q) => q.queue.start()));
        await until(
          async () =>
            (await Promise.all(ids.map((id) => status(queues[0]!.queue, id)))).every(
              (s) => s === 'COMPLETED',
            ),
          30_000,
          'all jobs completed',
        );
        expect(runs.map((r) => r.id).sort()).toEqual([...ids].sort());
        expect(new Set(runs.map((r) => r.queue)).size).toBeGreaterThan(1);
        for (const id of ids) {
          const row = (await queues[0]!.store.getById(id))!;
          expect(row.attempts).toBe(1);
          expect(toJobJson(row).response).toEqual({ by: runs.find((r) => r.id === id)!.queue });
        }
      });

      it('takes a job over from a queue whose lease ran out, while both keep polling', async () => {
        const location = await backend().fresh();
        // A longer lease than the other tests: a renewal late on a loaded machine must not lose it.
        const leaseMs = 2000;
        const a = await setup(() => new Promise(() => {}), { location, leaseMs });
        const bRuns: number[] = [];
        const b = await setup(
          (_r, ctx) => {
            bRuns.push(ctx.attempt);
            return Promise.resolve({ by: 'b', attempt: ctx.attempt });
          },
          { location, leaseMs },
        );
        await a.queue.start();
        const job = await a.queue.create('alice', req('held by a'));
        await until(async () => (await status(a.queue, job.id)) === 'IN_PROGRESS');
        await b.queue.start();
        // A renews its lease: B, polling all along, does not take the job.
        await new Promise((r) => setTimeout(r, leaseMs * 2));
        expect(await status(b.queue, job.id)).toBe('IN_PROGRESS');
        expect(bRuns).toEqual([]);

        await a.opened.crash();
        await until(async () => (await status(b.queue, job.id)) === 'COMPLETED', 20_000);
        expect(bRuns).toEqual([2]);
        expect(await b.queue.get('alice', job.id)).toMatchObject({ attempts: 2, owner: null });
      });
    });
});
