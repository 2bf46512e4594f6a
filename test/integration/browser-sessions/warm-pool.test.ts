// The warm pool hands out a browser that is already up with its first page rendered, and refills
// in the background at low priority without leaving a session's browser niced.
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canRestorePriority } from '../../../src/chromium.js';
import { startTestServer } from '../../support/server.js';
import type { TestServer } from '../../support/server.js';
import { ALICE, KEYS, api, cdpCall, processesMentioning, waitFor } from './helpers.js';

function cmdline(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    return '';
  }
}

/** Main Chromium processes (no `--type=`) using a profile under `dir`. */
function browserMains(dir: string): number[] {
  return processesMentioning(dir).filter((pid) => !cmdline(pid).includes('--type='));
}

/** Nice values of every thread of `pid` (field 19 of `/proc/<pid>/task/<tid>/stat`). */
function niceOfThreads(pid: number): number[] {
  const values: number[] = [];
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      values.push(Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]));
    } catch {
      // thread ended while we looked
    }
  }
  return values;
}

describe('warm pool', () => {
  let server: TestServer;
  /** Two browsers ready, none launching, none left over from an ended session. */
  const settled = (): boolean => {
    const { ready, launching } = server.engines.browsers.poolStats();
    return (
      ready === 2 &&
      launching === 0 &&
      browserMains(path.join(server.dataDir, 'browsers')).length === 2
    );
  };
  beforeAll(async () => {
    server = await startTestServer({ apiKeys: KEYS, warmPoolSize: 2, maxSessions: 3 });
  });
  afterAll(async () => {
    await server?.dispose();
  });

  it('hands out the browser launched before the create, with its first page already rendered', async () => {
    const browsers = path.join(server.dataDir, 'browsers');
    expect(await waitFor(settled, 30_000)).toBe(true);
    const pooled = browserMains(browsers);
    // Its first page has a renderer before any session asked for it.
    expect(
      await waitFor(() =>
        processesMentioning(browsers).some((p) => cmdline(p).includes('--type=renderer')),
      ),
    ).toBe(true);

    const session = (await api(server, ALICE, 'POST', '/v1/browser/sessions', {})).json;
    expect(pooled).toContain(server.engines.browsers.pidOf(session.session_id));
    // At once, with no wait: the first page is there.
    const { targetInfos } = await cdpCall(session.cdp_url, 'Target.getTargets');
    const pages = (targetInfos as { type: string; url: string }[]).filter((t) => t.type === 'page');
    expect(pages).toEqual([expect.objectContaining({ type: 'page', url: 'about:blank' })]);
    await api(server, ALICE, 'DELETE', `/v1/browser/sessions/${session.session_id}`);
  }, 60_000);

  it('refills at nice 15 in the background and runs a served browser, renderers included, without it', async () => {
    const browsers = path.join(server.dataDir, 'browsers');
    expect(await waitFor(settled, 30_000)).toBe(true);
    const pooled = browserMains(browsers);
    const session = (await api(server, ALICE, 'POST', '/v1/browser/sessions', {})).json;
    const served = path.join(browsers, session.session_id);
    // Chromium gives some threads a priority of its own (-8 display-critical, 10 background).
    expect(processesMentioning(served).flatMap(niceOfThreads)).not.toContain(15);
    // The refill is a new browser, started niced while the pool still holds one (and only where
    // a served browser can be restored to 0).
    const isRefill = (pid: number): boolean => !pooled.includes(pid);
    expect(await waitFor(() => browserMains(browsers).some(isRefill), 30_000)).toBe(true);
    const refill = browserMains(browsers).find(isRefill)!;
    expect(niceOfThreads(refill).includes(15)).toBe(canRestorePriority());
    await api(server, ALICE, 'DELETE', `/v1/browser/sessions/${session.session_id}`);
  }, 60_000);
});
