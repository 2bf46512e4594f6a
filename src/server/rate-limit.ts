import { RateLimited } from './errors.js';
import type { Principal } from './context.js';
import type { RateGroup } from './options.js';

/** Outcome of taking one token from a bucket. */
export type TakeResult = { ok: true } | { ok: false; retryAfterSeconds: number };

/**
 * Per-key token buckets, one per route group: capacity = the per-minute limit (a full minute's
 * burst), refilled continuously at limit/60 per second.
 */
export class RateLimiter {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(private readonly clock: () => number = Date.now) {}

  /** Takes one request from `key`'s bucket whose limit is `perMinute`. */
  take(key: string, perMinute: number): TakeResult {
    const now = this.clock();
    const perMs = perMinute / 60_000;
    const bucket = this.buckets.get(key) ?? { tokens: perMinute, at: now };
    bucket.tokens = Math.min(perMinute, bucket.tokens + (now - bucket.at) * perMs);
    bucket.at = now;
    this.buckets.set(key, bucket);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return { ok: true };
    }
    return {
      ok: false,
      retryAfterSeconds: Math.max(1, Math.ceil((1 - bucket.tokens) / perMs / 1000)),
    };
  }
}

/**
 * Charges one request of route group `group` to the key behind `principal`.
 * @throws RateLimited (with `Retry-After`) naming the group and its limit when the budget is spent
 */
export function charge(
  limiter: RateLimiter,
  principal: Principal,
  group: RateGroup,
  perMinute: number,
): void {
  const taken = limiter.take(`${principal.keyId}:${group}`, perMinute);
  if (taken.ok) return;
  throw new RateLimited(
    `Rate limit exceeded for ${group} routes: ${perMinute} requests per minute per key; retry after ${taken.retryAfterSeconds} s`,
    taken.retryAfterSeconds,
    { code: 'rate_limit_exceeded' },
  );
}
