import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import puppeteer from 'puppeteer-core';
import WebSocket from 'ws';
import { afterAll, describe, expect, it } from 'vitest';
import { CHROMIUM_ARGS, findChromium } from '../../../src/chromium.js';
import { PID_FILE } from '../../../src/server/engines/browsers/index.js';
import { startTestServer, tempDir, testDatabaseUrl } from '../../support/server.js';
import type { TestServer } from '../../support/server.js';
import {
  ALICE,
  KEYS,
  ON_GRID,
  api,
  deleteOnGrid,
  liveBrowsers,
  processesMentioning,
  serveChild,
  waitFor,
} from './helpers.js';

const servers: TestServer[] = [];
const children: ChildProcess[] = [];
const dirs: string[] = [];

async function start(options: Parameters<typeof startTestServer>[0] = {}): Promise<TestServer> {
  const server = await startTestServer({ apiKeys: KEYS, ...options });
  servers.push(server);
  return server;
}

function browserPid(server: TestServer, sessionId: string): number {
  return Number(
    readFileSync(path.join(server.dataDir, 'browsers', sessionId, 'svc-browser.pid'), 'utf8'),
  );
}

/**
 * Starts a Chromium the way an older server did (no lifeline, own process group) with a profile
 * and pid file under `browsersDir`, and returns its pid once it is up (it has written its DevTools
 * port, so its helper processes are started). A Chromium that ends on its own before that is
 * started again, twice at most, and its exit is reported if none stays up.
 */
async function plantLeftover(browsersDir: string): Promise<number> {
  const ends: string[] = [];
  for (let attempt = 0; attempt < 3; attempt++) {
    const profile = path.join(browsersDir, randomUUID());
    mkdirSync(profile, { recursive: true });
    const chromium = spawn(
      (await findChromium()).path,
      [...CHROMIUM_ARGS, `--user-data-dir=${profile}`, '--remote-debugging-port=0', 'about:blank'],
      { detached: true, stdio: 'ignore' },
    );
    children.push(chromium);
    let ended: string | undefined;
    chromium.once('exit', (code, signal) => (ended = `exited with ${signal ?? code}`));
    writeFileSync(path.join(profile, PID_FILE), String(chromium.pid));
    await waitFor(
      () => ended !== undefined || existsSync(path.join(profile, 'DevToolsActivePort')),
      20_000,
      'the planted Chromium to start',
    );
    if (ended === undefined && processesMentioning(profile).length > 1) return chromium.pid!;
    ends.push(ended ?? 'gone after start');
    chromium.kill('SIGKILL');
  }
  throw new Error(`no planted Chromium stayed up: ${ends.join('; ')}`);
}

afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  await Promise.all(servers.map((s) => s.dispose()));
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('browser session lifecycle', () => {
  it("turns a session failed when its Chromium is killed, and cuts the client's connection", async () => {
    const server = await start();
    const session = (await api(server, ALICE, 'POST', '/v1/browser/sessions', {})).json;
    const browser = await puppeteer.connect({ browserWSEndpoint: session.cdp_url });
    const disconnected = new Promise<void>((resolve) =>
      browser.once('disconnected', () => resolve()),
    );
    // On a Grid the browser is ended on the Grid, behind the server's back (a lost node).
    if (ON_GRID) await deleteOnGrid(server, session.session_id);
    else process.kill(browserPid(server, session.session_id), 'SIGKILL');
    await disconnected;
    const failed = await waitFor(
      async () =>
        (await api(server, ALICE, 'GET', `/v1/browser/sessions/${session.session_id}`)).json
          .status === 'failed',
      5000,
    );
    expect(failed).toBe(true);
    const record = (await api(server, ALICE, 'GET', `/v1/browser/sessions/${session.session_id}`))
      .json;
    expect(record.end_reason).toMatch(
      ON_GRID ? /its Grid session ended/ : /browser process exited unexpectedly \(signal SIGKILL\)/,
    );
    expect(
      await waitFor(
        async () => (await liveBrowsers(server, session.session_id)).length === 0,
        5000,
      ),
    ).toBe(true);
  });

  it('expires an idle session only once no CDP client is connected', async () => {
    const server = await start();
    const session = (
      await api(server, ALICE, 'POST', '/v1/browser/sessions', { idle_timeout_s: 5 })
    ).json;
    const client = new WebSocket(session.cdp_url);
    await new Promise((resolve, reject) => client.once('open', resolve).once('error', reject));
    await new Promise((r) => setTimeout(r, 6000));
    const url = `/v1/browser/sessions/${session.session_id}`;
    expect((await api(server, ALICE, 'GET', url)).json.status).toBe('running');
    const closedAt = Date.now();
    client.close();
    expect(
      await waitFor(
        async () => (await api(server, ALICE, 'GET', url)).json.status === 'expired',
        10_000,
      ),
    ).toBe(true);
    expect(Date.now() - closedAt).toBeGreaterThanOrEqual(4500);
    expect((await api(server, ALICE, 'GET', url)).json.end_reason).toMatch(/idle for 5 s/);
    expect(await waitFor(() => processesMentioning(session.session_id).length === 0, 5000)).toBe(
      true,
    );
  }, 30_000);

  it('leaves no Chromium process or profile behind after close()', async () => {
    const server = await start({ warmPoolSize: 1 });
    const a = (await api(server, ALICE, 'POST', '/v1/browser/sessions', {})).json;
    await api(server, ALICE, 'POST', '/v1/browser/sessions', {});
    const client = await puppeteer.connect({ browserWSEndpoint: a.cdp_url });
    expect((await liveBrowsers(server)).length).toBeGreaterThan(0);
    const disconnected = new Promise<void>((resolve) =>
      client.once('disconnected', () => resolve()),
    );
    await server.close();
    await disconnected;
    expect(await waitFor(async () => (await liveBrowsers(server)).length === 0, 5000)).toBe(true);
    expect(processesMentioning(server.dataDir)).toEqual([]);
    expect(readdirSync(path.join(server.dataDir, 'browsers'))).toEqual([]);
  });

  it('reaps a browser left under the data dir and fails the sessions of a SIGKILLed server at the next start', async () => {
    const dataDir = tempDir('svc-reap-');
    dirs.push(dataDir);
    // On PostgreSQL the child and the next server share the data dir's database.
    const databaseUrl = await testDatabaseUrl(dataDir);
    const { child, url } = await serveChild(
      dataDir,
      databaseUrl ? { SVC_DATABASE_URL: databaseUrl } : {},
      children,
    );
    const res = await fetch(`${url}/v1/browser/sessions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ALICE}`, 'content-type': 'application/json' },
      body: '{}',
    });
    const session = (await res.json()) as { session_id: string };
    expect(await waitFor(() => processesMentioning(dataDir).length > 0)).toBe(true);

    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
    // The lifeline takes the server's own browsers with it; a browser that escaped it (another
    // platform, a wedged shutdown) is planted by hand: this is what the next start must clean up.
    const leftover = await plantLeftover(path.join(dataDir, 'browsers'));
    expect(processesMentioning(dataDir)).toContain(leftover);

    const next = await start({ dataDir, warmPoolSize: 0 });
    expect(processesMentioning(dataDir)).toEqual([]);
    expect(readdirSync(path.join(dataDir, 'browsers'))).toEqual([]);
    const record = (await api(next, ALICE, 'GET', `/v1/browser/sessions/${session.session_id}`))
      .json;
    expect(record).toMatchObject({ status: 'failed', end_reason: 'server restarted' });
  }, 60_000);
});
