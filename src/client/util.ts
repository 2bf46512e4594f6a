/** Small helpers shared by the transport, the stream and the resources. */
import { AbortError, SvcError } from '../errors.js';

/**
 * Resolve after `ms`, or reject with `AbortError` as soon as `signal` aborts.
 * @throws {AbortError} when `signal` is or becomes aborted.
 */
export function sleep(ms: number, signal: AbortSignal | undefined, where: string): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted === true) {
      reject(new AbortError(`Request aborted: ${where}`, { cause: signal.reason }));
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(new AbortError(`Request aborted: ${where}`, { cause: signal?.reason }));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** `JSON.parse`, or the text itself when it is not JSON. */
export function parseMaybeJSON(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    // Proxies answer errors with HTML or plain text; keep it as the body.
    return text;
  }
}

/** undici headers as a flat record with lower-cased keys; repeated values joined with `, `. */
export function flatHeaders(
  h: Record<string, string | string[] | undefined>,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h))
    if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

/** Lower-case header names, dropping `authorization` (ours to set). */
export function lowerKeys(h: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) {
    // The bearer header is ours: a caller must not be able to replace it by accident.
    if (k.toLowerCase() !== 'authorization') out[k.toLowerCase()] = v;
  }
  return out;
}

/** An error as `<code> <message>` for messages; undici errors carry a useful code. */
export function describe(err: unknown): string {
  if (err instanceof Error) {
    const code = (err as { code?: unknown }).code;
    return typeof code === 'string' ? `${code} ${err.message}` : err.message;
  }
  return String(err);
}

/**
 * Check a duration option.
 * @throws {SvcError} naming `name` when `value` is not a finite number >= 0 (> 0 unless `allowZero`).
 */
export function checkMs(name: string, value: unknown, allowZero = false): number {
  if (
    typeof value !== 'number' ||
    !Number.isFinite(value) ||
    value < 0 ||
    (!allowZero && value === 0)
  ) {
    throw new SvcError(
      `Invalid option ${name}: expected a ${allowZero ? 'non-negative' : 'positive'} number of milliseconds, got ${String(value)}`,
    );
  }
  return value;
}

/**
 * Check a count option.
 * @throws {SvcError} naming `name` when `value` is not an integer >= 0.
 */
export function checkCount(name: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
    throw new SvcError(`Invalid option ${name}: expected an integer >= 0, got ${String(value)}`);
  }
  return value;
}
