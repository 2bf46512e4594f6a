// The warm pool's scheduling, with plain items standing for browsers: when refills start, at
// which priority, and what a waiting take() does to refills under way.
import { describe, expect, it } from 'vitest';
import { WarmPool } from '../../../src/server/engines/browsers/warm-pool.js';
import type { LaunchReason } from '../../../src/server/engines/browsers/warm-pool.js';
import type { Logger } from '../../../src/server/logger.js';

const quiet: Logger = { debug() {}, info() {}, warn() {}, error() {} };

interface Item {
  id: string;
  alive(): boolean;
}

/** A launcher whose launches finish only when the test says so. */
function launcher() {
  const launches: { reason: LaunchReason; finish(): void }[] = [];
  let n = 0;
  const launch = (reason: LaunchReason): Promise<Item> =>
    new Promise((resolve) => {
      const item = { id: `b${++n}`, alive: () => true };
      launches.push({ reason, finish: () => resolve(item) });
    });
  return { launches, launch };
}

const tick = (ms = 0): Promise<void> => new Promise((r) => setTimeout(r, ms));

describe('WarmPool', () => {
  it('fills an empty pool at full priority, and refills at low priority while it still holds one', async () => {
    const { launches, launch } = launcher();
    const pool = new WarmPool<Item>(2, launch, async () => {}, quiet, { quietMs: 0 });
    pool.fill();
    expect(launches.map((l) => l.reason)).toEqual(['demand', 'demand']);
    launches.forEach((l) => l.finish());
    await tick();
    expect(pool.readyCount).toBe(2);
    await pool.take();
    await tick(30);
    expect(launches.map((l) => l.reason)).toEqual(['demand', 'demand', 'refill']);
    launches.forEach((l) => l.finish());
    await pool.close();
  });

  it('holds a refill back while the request path is busy, and starts it once idle', async () => {
    const { launches, launch } = launcher();
    let busy = false;
    const pool = new WarmPool<Item>(2, launch, async () => {}, quiet, {
      quietMs: 0,
      maxDeferMs: 10_000,
      busy: () => busy,
    });
    pool.fill();
    launches.forEach((l) => l.finish());
    await tick();
    busy = true;
    await pool.take();
    await tick(100);
    expect(launches).toHaveLength(2);
    busy = false;
    await tick(60);
    expect(launches.map((l) => l.reason)).toEqual(['demand', 'demand', 'refill']);
    launches.forEach((l) => l.finish());
    await pool.close();
  });

  it('starts a held-back refill after maxDeferMs even if the request path never goes idle', async () => {
    const { launches, launch } = launcher();
    const pool = new WarmPool<Item>(2, launch, async () => {}, quiet, {
      quietMs: 0,
      maxDeferMs: 80,
      busy: () => true,
    });
    pool.fill(); // the initial fill is held back as well, then released
    await tick(150);
    expect(launches).toHaveLength(2);
    launches.forEach((l) => l.finish());
    await pool.close();
  });

  it('raises refills under way when a take() has to wait, and hands the first one done to it', async () => {
    const { launches, launch } = launcher();
    let boosts = 0;
    const pool = new WarmPool<Item>(2, launch, async () => {}, quiet, {
      quietMs: 0,
      boost: () => boosts++,
    });
    pool.fill();
    launches.forEach((l) => l.finish());
    await tick();
    await pool.take();
    await tick(30); // refill #3 under way, at low priority
    await pool.take(); // the pool is empty now: its refill #4 runs at full priority
    await tick(30);
    expect(launches.map((l) => l.reason)).toEqual(['demand', 'demand', 'refill', 'demand']);
    const waiting = pool.take();
    expect(boosts).toBe(1);
    // No launch of its own for the waiter (two are under way); one more refills the pool to 2.
    expect(launches).toHaveLength(5);
    launches[2]!.finish();
    expect((await waiting).id).toBe('b3');
    launches.forEach((l) => l.finish());
    await pool.close();
  });
});
