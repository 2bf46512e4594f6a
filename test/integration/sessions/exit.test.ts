import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '../../../src/client/index.js';
import { CHROMIUM_PATH } from '../../support/chromium.js';
import { gridSessionIds } from '../../support/grid.js';
import { KEY, alive, processesMentioning, waitFor } from './helpers.js';
import { NOTHING_LEFT_WITH_GRID, finish, setUp } from './support.js';
import type { World } from './support.js';

const CHILD = path.join(path.dirname(fileURLToPath(import.meta.url)), 'child.ts');

interface Started {
  child: ChildProcess;
  ready: { id: string; pid: number | null };
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>;
}

/** Spawns `node --import tsx child.ts` with `env` and waits for its session to be open. */
async function startChild(env: Record<string, string>): Promise<Started> {
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (c: string) => (stderr += c));
  const exited = new Promise<{
    code: number | null;
    signal: NodeJS.Signals | null;
    stderr: string;
  }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal, stderr })));
  const ready = await new Promise<Started['ready']>((resolve, reject) => {
    let out = '';
    child.stdout!.setEncoding('utf8').on('data', (c: string) => {
      out += c;
      const line = out.split('\n')[0];
      if (out.includes('\n') && line) resolve(JSON.parse(line));
    });
    void exited.then((e) =>
      reject(new Error(`child exited early (${e.code ?? e.signal}): ${e.stderr}`)),
    );
  });
  return { child, ready, exited };
}

describe('release when the process ends', () => {
  let world: World;
  let client: Client;

  // The first file to ask starts the shared Selenium Grid: tens of seconds on a busy machine.
  beforeAll(async () => {
    world = await setUp({ grid: true });
    client = new Client({ baseURL: world.server.url, apiKey: KEY });
  }, 180_000);
  afterAll(async () => {
    await client?.close();
    const left = await finish(world);
    expect(left).toEqual(NOTHING_LEFT_WITH_GRID);
  });

  const apiEnv = (): Record<string, string> => ({
    SVC_SESSION_PROVIDER: 'api',
    SVC_BASE_URL: world.server.url,
    SVC_API_KEY: KEY,
  });

  it('releases an api session on SIGTERM, then exits by SIGTERM', async () => {
    const { child, ready, exited } = await startChild(apiEnv());
    expect((await client.browser.sessions.get(ready.id)).status).toBe('running');
    expect(processesMentioning(ready.id).length).toBeGreaterThan(0);
    child.kill('SIGTERM');
    const end = await exited;
    expect(end.signal).toBe('SIGTERM');
    expect((await client.browser.sessions.get(ready.id)).status).toBe('stopped');
    expect(await waitFor(() => processesMentioning(ready.id).length === 0, 5_000)).toBe(true);
  });

  it('releases an api session when the process dies of an uncaught error', async () => {
    const { ready, exited } = await startChild({
      ...apiEnv(),
      CHILD_MODE: 'crash',
      CHILD_DRIVER: 'puppeteer',
    });
    const end = await exited;
    expect(end.code).toBe(1);
    expect(end.stderr).toMatch(/child crashed on purpose/);
    expect((await client.browser.sessions.get(ready.id)).status).toBe('stopped');
    expect(await waitFor(() => processesMentioning(ready.id).length === 0, 5_000)).toBe(true);
  });

  it('kills a local session browser when the process calls process.exit()', async () => {
    const { ready, exited } = await startChild({
      SVC_SESSION_PROVIDER: 'local',
      SVC_CHROME_PATH: CHROMIUM_PATH,
      TMPDIR: world.root,
      CHILD_MODE: 'exit',
    });
    const end = await exited;
    expect(end.code).toBe(0);
    expect(alive(ready.pid!)).toBe(false);
    expect(
      await waitFor(() => processesMentioning(`${world.root}/svc-session-`).length === 0, 5_000),
    ).toBe(true);
  });

  it('kills a local session browser on SIGINT, then exits by SIGINT', async () => {
    const { child, ready, exited } = await startChild({
      SVC_SESSION_PROVIDER: 'local',
      SVC_CHROME_PATH: CHROMIUM_PATH,
      TMPDIR: world.root,
    });
    expect(ready.pid).not.toBeNull();
    expect(alive(ready.pid!)).toBe(true);
    child.kill('SIGINT');
    const end = await exited;
    expect(end.signal).toBe('SIGINT');
    expect(alive(ready.pid!)).toBe(false);
    expect(
      await waitFor(() => processesMentioning(`${world.root}/svc-session-`).length === 0, 5_000),
    ).toBe(true);
  });

  const gridEnv = (): Record<string, string> => ({
    SVC_SESSION_PROVIDER: 'grid',
    SVC_GRID_URL: world.grid!.url,
    CHILD_GRID_MARK: world.gridMark,
  });
  /** True once the Grid no longer knows session `id` and none of this world's browsers runs. */
  const goneFromGrid = async (id: string): Promise<boolean> =>
    (await waitFor(async () => !(await gridSessionIds(world.grid!.url)).includes(id), 5_000)) &&
    (await waitFor(() => processesMentioning(world.gridMark).length === 0, 5_000));

  it('deletes a grid session on SIGTERM, then exits by SIGTERM', async () => {
    const { child, ready, exited } = await startChild(gridEnv());
    expect(await gridSessionIds(world.grid!.url)).toContain(ready.id);
    expect(processesMentioning(world.gridMark).length).toBeGreaterThan(0);
    child.kill('SIGTERM');
    const end = await exited;
    expect(end.signal).toBe('SIGTERM');
    expect((await fetch(`${world.grid!.url}/session/${ready.id}/url`)).status).toBe(404);
    expect(await goneFromGrid(ready.id)).toBe(true);
  });

  it('deletes a grid session from the exit handler when the process calls process.exit()', async () => {
    const { ready, exited } = await startChild({
      ...gridEnv(),
      CHILD_MODE: 'exit',
      CHILD_DRIVER: 'puppeteer',
    });
    expect((await exited).code).toBe(0);
    expect((await fetch(`${world.grid!.url}/session/${ready.id}/url`)).status).toBe(404);
    expect(await goneFromGrid(ready.id)).toBe(true);
  });

  it('deletes a grid session when the process dies of an uncaught error', async () => {
    const { ready, exited } = await startChild({ ...gridEnv(), CHILD_MODE: 'crash' });
    const end = await exited;
    expect(end.code).toBe(1);
    expect(end.stderr).toMatch(/child crashed on purpose/);
    expect(await goneFromGrid(ready.id)).toBe(true);
  });
});
