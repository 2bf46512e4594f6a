// `svc serve` killed with SIGKILL while it runs 3 sessions (one with a Puppeteer client attached)
// and a warm pool: every Chromium it started must die with it, with no restart of the server.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import puppeteer from 'puppeteer-core';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../support/server.js';
import { ALICE, processesMentioning, waitFor } from './helpers.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const children: ChildProcess[] = [];
const dirs: string[] = [];

afterAll(() => {
  for (const child of children) child.kill('SIGKILL');
  // Only if the feature broke: never leave this test's browsers running.
  for (const dir of dirs) {
    for (const pid of processesMentioning(dir)) process.kill(pid, 'SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
});

/** Starts `svc serve` on a free port over `dataDir`; resolves with its base URL. */
async function serve(dataDir: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      'src/cli/main.ts',
      'serve',
      '--port',
      '0',
      '--data-dir',
      dataDir,
      '--max-sessions',
      '6',
    ],
    {
      cwd: root,
      env: { ...process.env, SVC_API_KEY: ALICE, SVC_LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  children.push(child);
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(out);
      if (match?.[1]) resolve(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`svc serve exited with ${code}: ${out}`)));
  });
  return { child, url };
}

/** Main Chromium processes (not zygotes or renderers) using a profile under `dataDir`. */
function browserMains(dataDir: string): number[] {
  return processesMentioning(dataDir).filter((pid) => {
    try {
      return !readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('--type=');
    } catch {
      return false;
    }
  });
}

describe('svc serve killed with SIGKILL', () => {
  it('leaves 0 Chromium processes 10 s later, with 3 live sessions and its warm pool, and no restart', async () => {
    const dataDir = tempDir('svc-orphan-');
    dirs.push(dataDir);
    const { child, url } = await serve(dataDir);
    const headers = { authorization: `Bearer ${ALICE}`, 'content-type': 'application/json' };
    const sessions: { session_id: string; cdp_url: string }[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await fetch(`${url}/v1/browser/sessions`, {
        method: 'POST',
        headers,
        body: '{}',
      });
      expect(res.status).toBe(200);
      sessions.push((await res.json()) as { session_id: string; cdp_url: string });
    }
    // A client attached and a page open: renderers exist, the relay holds sockets.
    const driver = await puppeteer.connect({ browserWSEndpoint: sessions[0]!.cdp_url });
    const page = await driver.newPage();
    await page.goto('data:text/html,<title>alive</title>');
    expect(await page.title()).toBe('alive');
    // 3 sessions + the warm pool (size 1 for svc serve): 4 browsers, each with its children.
    expect(await waitFor(() => browserMains(dataDir).length >= 4, 30_000)).toBe(true);
    const before = processesMentioning(dataDir).length;
    expect(before).toBeGreaterThan(4);

    const exited = new Promise<NodeJS.Signals | null>((resolve) =>
      child.once('exit', (_code, signal) => resolve(signal)),
    );
    const killedAt = Date.now();
    child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');
    void driver.disconnect().catch(() => undefined);

    const gone = await waitFor(() => processesMentioning(dataDir).length === 0, 10_000);
    const goneAfterMs = Date.now() - killedAt;
    // Still none at the 10 s mark: nothing respawned them, and nobody restarted the server.
    await new Promise((r) => setTimeout(r, Math.max(0, killedAt + 10_000 - Date.now())));
    const left = processesMentioning(dataDir);
    console.log(
      `[no-orphan] svc serve SIGKILLed with 3 sessions + warm pool: ${before} Chromium processes before, ${left.length} after (all gone ${goneAfterMs} ms after the kill; no restart)`,
    );
    expect(gone).toBe(true);
    expect(left).toEqual([]);
  }, 90_000);
});
