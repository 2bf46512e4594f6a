// The one polling helper of the tests.

/** How often {@link waitFor} asks again. */
const POLL_MS = 25;

/**
 * Polls `check` until it holds, and resolves `true` then; rejects when `timeoutMs` passes first, so
 * a forgotten assertion cannot hide a timeout. `expect(await waitFor(...)).toBe(true)` reads well
 * where a test wants the expectation spelled out.
 * @param what named in the timeout error, e.g. `'the session to expire'`
 * @throws Error `timed out after <timeoutMs> ms waiting for <what>`
 * @example
 * await waitFor(() => processesMentioning(dataDir).length === 0, 5_000, 'Chromium to exit');
 */
export async function waitFor(
  check: () => boolean | Promise<boolean>,
  timeoutMs = 10_000,
  what = 'the condition',
): Promise<true> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return true;
    if (Date.now() >= end) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}
