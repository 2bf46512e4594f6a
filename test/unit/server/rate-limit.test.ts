import { describe, expect, it } from 'vitest';
import { RateLimiter } from '../../../src/server/rate-limit.js';

describe('RateLimiter', () => {
  it('allows a full minute of burst, then refuses with the seconds until one token refills', () => {
    let now = 0;
    const limiter = new RateLimiter(() => now);
    for (let i = 0; i < 50; i++) expect(limiter.take('k:chat', 50).ok).toBe(true);
    const refused = limiter.take('k:chat', 50);
    expect(refused).toEqual({ ok: false, retryAfterSeconds: 2 }); // 60 s / 50 = 1.2 s, rounded up
    now += 1200;
    expect(limiter.take('k:chat', 50).ok).toBe(true);
    expect(limiter.take('k:chat', 50).ok).toBe(false);
  });

  it('keeps keys and groups in separate buckets', () => {
    const limiter = new RateLimiter(() => 0);
    expect(limiter.take('a:chat', 1).ok).toBe(true);
    expect(limiter.take('a:chat', 1).ok).toBe(false);
    expect(limiter.take('b:chat', 1).ok).toBe(true);
    expect(limiter.take('a:search', 1).ok).toBe(true);
  });
});
