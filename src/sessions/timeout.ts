// Time bounds for every browser call the manager makes, and small timing helpers.
import { TimeoutError } from '../errors.js';

/**
 * Resolves or rejects like `work`, or rejects with {@link TimeoutError} after `ms`. When the
 * timeout wins and `work` resolves later, `onLate` receives the late value, so a connection that
 * arrives after we gave up can still be closed instead of leaking.
 * @throws TimeoutError naming `what` after `ms`
 */
export function withTimeout<T>(
  work: Promise<T>,
  ms: number,
  what: string,
  onLate?: (value: T) => void,
): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  let timedOut = false;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      timedOut = true;
      reject(new TimeoutError(`${what} timed out after ${ms} ms`, { timeout: ms }));
    }, ms);
  });
  if (onLate) {
    work.then(
      (value) => {
        if (timedOut) onLate(value);
      },
      // The caller already saw the TimeoutError, or sees this rejection through the race below.
      () => undefined,
    );
  }
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/** Resolves after `ms`; `unref`'d so a pending delay never keeps the process alive. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

/**
 * Delay before reconnect attempt `attempt` (0-based): exponential from `min`, capped at `max`,
 * with full jitter so many clients dropped at once do not reconnect in lockstep.
 */
export function backoff(attempt: number, min: number, max: number): number {
  const ceiling = Math.min(max, min * 2 ** attempt);
  return Math.round(min + Math.random() * Math.max(0, ceiling - min));
}
