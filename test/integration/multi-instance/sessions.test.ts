import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import puppeteer from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestPostgres } from '../../support/postgres.js';
import { tempDir } from '../../support/server.js';
import type { TestServer } from '../../support/server.js';
import { pageServer } from '../browser-sessions/helpers.js';
import {
  ALICE,
  api,
  postgres,
  processesMentioning,
  startInstances,
  via,
  waitFor,
} from './cluster.js';

const here = path.dirname(fileURLToPath(import.meta.url));

describe('several instances on one PostgreSQL', () => {
  let pg: TestPostgres;
  let databaseUrl: string;
  let a: TestServer;
  let b: TestServer;
  let page: Awaited<ReturnType<typeof pageServer>>;
  const children: ChildProcess[] = [];
  const dirs: string[] = [];

  beforeAll(async () => {
    pg = await postgres();
    databaseUrl = await pg.createDatabase();
    [a, b] = (await startInstances(databaseUrl)) as [TestServer, TestServer];
    page = await pageServer('Driven through B');
  });
  afterAll(async () => {
    for (const child of children) child.kill('SIGKILL');
    await page?.close();
    const left = [a, b].flatMap((s) => (s ? [s.dataDir] : []));
    await a?.dispose();
    await b?.dispose();
    await pg?.stop();
    for (const dir of [...left, ...dirs]) expect(processesMentioning(dir)).toEqual([]);
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('a session created through A is read, driven over CDP and deleted through B', async () => {
    const created = await api(a, ALICE, 'POST', '/v1/browser/sessions', {});
    expect(created.status).toBe(200);
    const id: string = created.json.session_id;
    expect(a.engines.browsers.runningCount).toBe(1);

    const read = await api(b, ALICE, 'GET', `/v1/browser/sessions/${id}`);
    expect(read.status).toBe(200);
    expect(read.json.status).toBe('running');
    const listed = await api(b, ALICE, 'GET', '/v1/browser/sessions');
    expect(listed.json.sessions.map((s: { session_id: string }) => s.session_id)).toContain(id);

    // Playwright through B with the connect token: B relays to A, which holds the browser.
    const viaB = via(b, created.json.cdp_url);
    const browser = await chromium.connectOverCDP(viaB);
    const tab = browser.contexts()[0]!.pages()[0] ?? (await browser.contexts()[0]!.newPage());
    await tab.goto(page.url);
    expect(await tab.title()).toBe('Driven through B');
    await browser.close();

    // Puppeteer through B with the bearer key instead of the token: the same page is there.
    const endpoint = new URL(viaB);
    endpoint.search = '';
    const pptr = await puppeteer.connect({
      browserWSEndpoint: endpoint.toString(),
      headers: { authorization: `Bearer ${ALICE}` },
    });
    const titles = await Promise.all((await pptr.pages()).map((p) => p.title()));
    expect(titles).toContain('Driven through B');
    await pptr.disconnect();
    expect(b.engines.browsers.runningCount).toBe(0);

    const deleted = await fetch(`${b.url}/v1/browser/sessions/${id}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${ALICE}` },
    });
    expect(deleted.status).toBe(204);
    expect((await api(a, ALICE, 'GET', `/v1/browser/sessions/${id}`)).json.status).toBe('stopped');
    expect(a.engines.browsers.runningCount).toBe(0);
    expect(await waitFor(() => processesMentioning(a.dataDir).length === 0, 15_000)).toBe(true);

    // Neither the connect token nor the instances' credential reached a log.
    const token = new URL(created.json.cdp_url).searchParams.get('token')!;
    const forward = a.storage.instances.forwardToken(id);
    for (const logs of [a.logs, b.logs]) {
      expect(logs.join('\n')).not.toContain(token);
      expect(logs.join('\n')).not.toContain(forward);
      expect(logs.join('\n')).not.toContain(ALICE);
    }
  });

  it('refuses a forwarded upgrade with a wrong instance credential', async () => {
    const created = await api(a, ALICE, 'POST', '/v1/browser/sessions', {});
    const id: string = created.json.session_id;
    const url = `${a.url.replace('http', 'ws')}/v1/browser/sessions/${id}/cdp`;
    const { tryUpgrade } = await import('../browser-sessions/helpers.js');
    const refused = await tryUpgrade(url, { 'x-svc-forward': 'not-the-credential' });
    expect(refused.status).toBe(401);
    expect(
      (
        await fetch(`${b.url}/v1/browser/sessions/${id}`, {
          method: 'DELETE',
          headers: { authorization: `Bearer ${ALICE}` },
        })
      ).status,
    ).toBe(204);
    expect(a.engines.browsers.runningCount).toBe(0);
  });

  it('a context saved through A is restored in a session on B', async () => {
    const context = await api(a, ALICE, 'POST', '/v1/browser/contexts', {});
    expect(context.status).toBe(200);
    const first = await api(a, ALICE, 'POST', '/v1/browser/sessions', {
      context: { id: context.json.id, persist: true },
    });
    const browser = await chromium.connectOverCDP(first.json.cdp_url);
    const tab = browser.contexts()[0]!.pages()[0]!;
    await tab.goto(page.url);
    await tab.evaluate(() => {
      document.cookie = 'kept=through-postgres; max-age=3600; path=/';
    });
    await browser.close();
    // While A's session holds the context, B refuses to start another from it or delete it.
    const busy = await api(b, ALICE, 'POST', '/v1/browser/sessions', {
      context: { id: context.json.id },
    });
    expect(busy.status).toBe(409);
    expect(busy.json.error.message).toContain(first.json.session_id);
    const undeletable = await api(b, ALICE, 'DELETE', `/v1/browser/contexts/${context.json.id}`);
    expect(undeletable.status).toBe(409);
    expect(b.engines.browsers.runningCount).toBe(0);
    expect(
      (await api(a, ALICE, 'DELETE', `/v1/browser/sessions/${first.json.session_id}`)).status,
    ).toBe(204);
    expect(
      (await api(b, ALICE, 'GET', `/v1/browser/contexts/${context.json.id}`)).json.size_bytes,
    ).toBeGreaterThan(0);

    const second = await api(b, ALICE, 'POST', '/v1/browser/sessions', {
      context: { id: context.json.id },
    });
    expect(second.status).toBe(200);
    expect(b.engines.browsers.runningCount).toBe(1);
    const again = await chromium.connectOverCDP(second.json.cdp_url);
    const cookies = await again.contexts()[0]!.cookies(page.url);
    expect(cookies.find((c) => c.name === 'kept')?.value).toBe('through-postgres');
    await again.close();
    await api(b, ALICE, 'DELETE', `/v1/browser/sessions/${second.json.session_id}`);
  });

  it('sessions of an instance that died (SIGKILL) are marked failed by the others', async () => {
    const dataDir = tempDir('svc-mi-child-');
    dirs.push(dataDir);
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', path.join(here, 'serve-child.ts'), dataDir, databaseUrl],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    children.push(child);
    const line = await new Promise<string>((resolve, reject) => {
      createInterface({ input: child.stdout! }).once('line', resolve);
      child.once('exit', (code) => reject(new Error(`serve-child exited with ${code}`)));
    });
    const c = { url: (JSON.parse(line) as { url: string }).url } as TestServer;
    const created = await api(c, ALICE, 'POST', '/v1/browser/sessions', {});
    expect(created.status).toBe(200);
    const id: string = created.json.session_id;

    child.kill('SIGKILL');
    await once(child, 'exit');
    const failed = await waitFor(
      async () =>
        (await api(a, ALICE, 'GET', `/v1/browser/sessions/${id}`)).json.status === 'failed',
      45_000,
    );
    expect(failed).toBe(true);
    const record = (await api(b, ALICE, 'GET', `/v1/browser/sessions/${id}`)).json;
    expect(record.end_reason).toMatch(/instance stopped answering/);
    // Its browser went with it: bound to the server's life.
    expect(await waitFor(() => processesMentioning(dataDir).length === 0, 15_000)).toBe(true);
  }, 90_000);
});
