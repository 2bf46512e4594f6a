// A browser killed mid-recipe: citeAndCapture runs against the embedded server's browser sessions;
// while the browser is loading a cited page (the page's server sees the request), every Chromium
// process of the server is SIGKILLed. The recipe must finish, give the citation it lost the browser
// on `unreachable` with a reason, check the others, and leave no browser behind.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { citeAndCapture } from '../../../recipes/index.js';
import { RECIPE_SITES_DIR, startHardCases } from '../../recipes/support.js';
import type { HardCases } from '../../recipes/support.js';
import { processesMentioning, waitFor } from './support.js';

describe('browser killed mid-recipe', () => {
  let w: HardCases;
  const outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-hard-recipe-'));

  beforeAll(async () => {
    w = await startHardCases();
  });
  afterAll(async () => {
    await w?.close();
    fs.rmSync(outDir, { recursive: true, force: true });
  });

  it('reports the citation as unreachable and continues', async () => {
    const browsers = path.join(w.server.dataDir, 'browsers');
    let killed = 0;
    const killBrowsers = (): void => {
      for (const pid of processesMentioning(browsers)) {
        try {
          process.kill(pid, 'SIGKILL');
          killed++;
        } catch {
          // Already gone.
        }
      }
    };
    // The page's body is read when its request arrives: the browser is mid-navigation right then.
    const html = fs.readFileSync(path.join(RECIPE_SITES_DIR, 'wren-market.html'));
    w.sites.set('/wren-market.html', {
      get body() {
        if (killed === 0) killBrowsers();
        return html;
      },
    });
    const r = await citeAndCapture('What is known about the Wrenfield harbour?', {
      client: w.client,
      model: 'core-pro',
      provider: 'api',
      poolSize: 1,
      outDir,
      screenshots: false,
      report: false,
    });
    expect(killed).toBeGreaterThan(0);
    expect(r.citations.length).toBeGreaterThan(1);
    // Each cited page gets the verdict it gets without the fault (see cite-and-capture.test.ts),
    // or `unreachable` when it was loading in the browser that was killed: never another one.
    const unfaulted: Record<string, string> = {
      [w.urls.market]: 'supported',
      [w.urls.lighthouse]: 'supported',
      [w.urls.breakwater]: 'supported',
      [w.urls.customs]: 'blocked',
      [w.urls.ferry]: 'unreachable',
    };
    expect(r.citations.map((c) => c.url).sort()).toEqual(Object.keys(unfaulted).sort());
    for (const c of r.citations) expect([unfaulted[c.url!], 'unreachable']).toContain(c.verdict);
    const lost = r.citations.filter((c) => c.verdict === 'unreachable');
    const market = r.citations.find((c) => c.url === w.urls.market);
    console.log(
      `[hardening] recipe: browser SIGKILLed (${killed} processes) while loading 1 of ${r.citations.length} cited pages; verdicts ${r.citations.map((c) => c.verdict).join(', ')}; reasons of unreachable: ${lost.map((c) => c.reason.slice(0, 90)).join(' | ')}`,
    );
    expect(market?.verdict).toBe('unreachable');
    // The rest were checked on a replacement browser: the lighthouse page is cited and supported.
    expect(r.citations.some((c) => c.url !== w.urls.market && c.verdict === 'supported')).toBe(
      true,
    );
    expect(lost.every((c) => c.reason.length > 0)).toBe(true);
    expect(await waitFor(() => processesMentioning(browsers).length === 0, 15_000)).toBe(true);
  }, 120_000);
});
