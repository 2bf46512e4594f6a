// What only a Grid-backed server does (the rest of the browser-session suite runs against one in
// the `integration-grid` project): its crash recovery deletes the Grid sessions a killed server
// left open, it holds no warm Grid session, it refuses session files naming why, it fails a session
// whose browser crashed on its node, and it rejects a malformed Grid URL naming the option.
import type { ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import puppeteer from 'puppeteer-core';
import { GRID_DEFAULTS } from '../../../src/server/engines/browsers/grid-backend.js';
import { resolveServerOptions } from '../../../src/server/options.js';
import { gridSessionIds, sharedGrid } from '../../support/grid.js';
import { startTestServer, tempDir } from '../../support/server.js';
import type { TestServer } from '../../support/server.js';
import {
  ALICE,
  KEYS,
  api,
  liveBrowsers,
  processesMentioning,
  serveChild,
  waitFor,
} from './helpers.js';

const servers: TestServer[] = [];
const children: ChildProcess[] = [];
const dirs: string[] = [];
let gridUrl: string;

beforeAll(async () => {
  gridUrl = (await sharedGrid()).url;
});

afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  await Promise.all(servers.map((s) => s.dispose()));
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('a Grid-backed server', () => {
  it('deletes at its next start the Grid sessions of a server that was SIGKILLed', async () => {
    const dataDir = tempDir('svc-grid-reap-');
    dirs.push(dataDir);
    const { child, url } = await serveChild(dataDir, { SVC_GRID_URL: gridUrl }, children);
    const res = await fetch(`${url}/v1/browser/sessions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ALICE}`, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(res.status).toBe(200);
    const session = (await res.json()) as { session_id: string };
    const ledger = path.join(dataDir, 'grid-sessions');
    expect(readdirSync(ledger)).toEqual([`${session.session_id}.json`]);
    const onGrid = (
      JSON.parse(readFileSync(path.join(ledger, `${session.session_id}.json`), 'utf8')) as {
        sessionId: string;
      }
    ).sessionId;
    expect(await gridSessionIds(gridUrl)).toContain(onGrid);

    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
    // No lifeline reaches a Grid: the session outlives the server that opened it.
    expect(await gridSessionIds(gridUrl)).toContain(onGrid);
    const next = await startTestServer({ apiKeys: KEYS, dataDir, gridUrl });
    servers.push(next);
    expect(
      await waitFor(async () => !(await gridSessionIds(gridUrl)).includes(onGrid), 10_000),
    ).toBe(true);
    expect(readdirSync(ledger)).toEqual([]);
    const record = (await api(next, ALICE, 'GET', `/v1/browser/sessions/${session.session_id}`))
      .json;
    expect(record).toMatchObject({ status: 'failed', end_reason: 'server restarted' });
    expect(next.logs.some((l) => l.includes('"gridDeleted":1'))).toBe(true);
    expect(processesMentioning(dataDir)).toEqual([]);
  }, 120_000);

  it('holds no warm Grid session, refuses session files with 409 naming the Grid, and deletes its session on close', async () => {
    const server = await startTestServer({ apiKeys: KEYS, gridUrl, warmPoolSize: 2 });
    dirs.push(server.dataDir);
    expect(server.engines.browsers.poolStats()).toEqual({ ready: 0, launching: 0 });
    const before = new Set(await gridSessionIds(gridUrl));
    const session = (await api(server, ALICE, 'POST', '/v1/browser/sessions', {})).json;
    expect(session.status).toBe('running');
    const opened = (await gridSessionIds(gridUrl)).filter((id) => !before.has(id));
    expect(await liveBrowsers(server, session.session_id)).toHaveLength(1);
    expect(opened).toEqual(await liveBrowsers(server, session.session_id));

    const files = await api(
      server,
      ALICE,
      'GET',
      `/v1/browser/sessions/${session.session_id}/downloads`,
    );
    expect(files.status).toBe(409);
    expect(files.json.error.code).toBe('files_unavailable_on_grid');
    expect(files.json.error.message).toMatch(/Grid/);

    await server.close();
    expect(
      await waitFor(async () => !(await gridSessionIds(gridUrl)).includes(opened[0]!), 10_000),
    ).toBe(true);
    expect(readdirSync(path.join(server.dataDir, 'grid-sessions'))).toEqual([]);
    expect(processesMentioning(server.dataDir)).toEqual([]);
  }, 120_000);

  it('fails a session whose browser crashed on its Grid node within a heartbeat, and frees its slot', async () => {
    const server = await startTestServer({ apiKeys: KEYS, gridUrl });
    servers.push(server);
    const session = (await api(server, ALICE, 'POST', '/v1/browser/sessions', {})).json;
    const [gridSession] = await liveBrowsers(server, session.session_id);
    const browser = await puppeteer.connect({ browserWSEndpoint: session.cdp_url });
    const cdp = await browser.target().createCDPSession();
    const { processInfo } = await cdp.send('SystemInfo.getProcessInfo');
    const pid = processInfo.find((p) => p.type === 'browser')!.id;
    void browser.disconnect();
    // The node's chromedriver still answers for the session; only a command that needs the
    // browser finds it gone.
    process.kill(pid, 'SIGKILL');
    const url = `/v1/browser/sessions/${session.session_id}`;
    await waitFor(
      async () => (await api(server, ALICE, 'GET', url)).json.status === 'failed',
      GRID_DEFAULTS.heartbeatMs + 5_000,
      'the session to fail',
    );
    expect((await api(server, ALICE, 'GET', url)).json.end_reason).toMatch(
      /its Grid session ended \(.*its browser crashed/,
    );
    await waitFor(
      async () => !(await gridSessionIds(gridUrl)).includes(gridSession!),
      10_000,
      'the Grid to free the slot',
    );
  }, 60_000);

  it('rejects a Grid URL that is not http(s), naming the option and not echoing the value', () => {
    expect(() => resolveServerOptions({ gridUrl: 'ftp://user:secret@grid' }, {})).toThrow(
      /gridUrl \(SVC_GRID_URL\): expected an http\(s\) URL/,
    );
    expect(() => resolveServerOptions({}, { SVC_GRID_URL: 'not a url' })).toThrow(/gridUrl/);
    try {
      resolveServerOptions({ gridUrl: 'ftp://user:secret@grid' }, {});
    } catch (error) {
      expect((error as Error).message).not.toContain('secret');
    }
  });
});
