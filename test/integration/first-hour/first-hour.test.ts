// The first hour of a newcomer, in order: the README's commands as separate processes on one fresh
// data dir. `svc serve` holds a live browser session while other commands run beside it; saved
// answers and reports keep working links after the command that made them has exited.
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import OpenAI from 'openai';
import puppeteer from 'puppeteer-core';
import type { Browser } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '../../../src/client/index.js';
import { processesMentioning } from '../../support/processes.js';
import { waitFor } from '../../support/wait.js';
import { fixture, ROOT, runCli, spawnCli, tempDataDir } from '../cli/run-cli.js';
import type { CliProcess } from '../cli/run-cli.js';
import { busyPort, localKey, openInChromium } from './support.js';

const QUESTION = 'what does the battery recycling plant recover';
let dataDir: string;

beforeAll(async () => {
  dataDir = tempDataDir();
  const indexed = await runCli(
    ['index', fixture('corpus', 'web'), fixture('corpus', 'notes')],
    dataDir,
  );
  expect(indexed.code, indexed.stderr).toBe(0);
}, 90_000);

afterAll(() => {
  rmSync(dataDir, { recursive: true, force: true });
});

describe('install check', () => {
  it('svc --version prints the package version', async () => {
    const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
      version: string;
    };
    const res = await runCli(['--version'], dataDir);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout.trim()).toBe(pkg.version);
  });
});

describe('svc serve with a live session while other commands run', () => {
  let serve: CliProcess;
  let url: string;
  let client: Client;
  let browser: Browser;
  let sessionId: string;

  beforeAll(async () => {
    serve = spawnCli(['serve', '--port', '0'], dataDir);
    url = (await serve.waitForStdout(/listening on (http:\/\/\S+)/))[1]!;
    client = new Client({ baseURL: url, apiKey: localKey(dataDir), maxRetries: 0 });
    const session = await client.browser.sessions.create({});
    sessionId = session.session_id;
    browser = await puppeteer.connect({
      browserWSEndpoint: client.browser.sessions.cdpUrl(session),
    });
  }, 60_000);

  afterAll(async () => {
    await browser?.disconnect();
    serve?.child.kill('SIGINT');
    await serve?.exited;
    await client?.close();
  });

  it('ask, search and sessions ls use the running service; the session survives and is listed', async () => {
    const [ask, search, ls] = await Promise.all([
      runCli(['ask', QUESTION], dataDir),
      runCli(['search', 'battery recycling', '--max-results', '3'], dataDir),
      runCli(['sessions', 'ls'], dataDir),
    ]);
    expect(ask.code, ask.stderr).toBe(0);
    expect(ask.stdout).toMatch(/\[\d+\]/);
    expect(search.code, search.stderr).toBe(0);
    expect(search.stdout).toMatch(/^1\s+Battery recycling plant opens/m);
    expect(ls.code, ls.stderr).toBe(0);
    expect(ls.stdout).toContain(sessionId);

    expect((await client.browser.sessions.get(sessionId)).status).toBe('running');
    const page = await browser.newPage();
    expect(await page.evaluate(() => 6 * 7)).toBe(42);
    await page.close();
  }, 120_000);

  it('keeps one local key however many commands ran', async () => {
    const keys = await runCli(['keys', 'list', '--json'], dataDir);
    const list = JSON.parse(keys.stdout) as Array<{ revoked_at: number | null }>;
    expect(list.filter((k) => k.revoked_at === null)).toHaveLength(1);
    const table = await runCli(['keys', 'list'], dataDir);
    expect(table.stdout).toMatch(/^id\s+user\s+prefix\s+state\s+created\s+label$/m);
  });

  it('a second svc serve on the same data dir exits 1 naming the running one', async () => {
    const second = await runCli(['serve', '--port', '0'], dataDir);
    expect(second.code, second.stderr).toBe(1);
    expect(second.stderr).toContain(`already served by process ${serve.child.pid}`);
    expect((await client.browser.sessions.get(sessionId)).status).toBe('running');
  });

  it('the OpenAI SDK lists the models and chats with either base URL', async () => {
    for (const baseURL of [url, `${url}/v1`]) {
      const openai = new OpenAI({ baseURL, apiKey: localKey(dataDir), maxRetries: 0 });
      const models = await openai.models.list();
      expect(models.data.map((m) => m.id).sort()).toEqual(
        ['core', 'core-deep-research', 'core-pro', 'core-reasoning-pro'].sort(),
      );
      const completion = await openai.chat.completions.create({
        model: 'core',
        messages: [{ role: 'user', content: QUESTION }],
      });
      expect(completion.choices[0]?.message.content).toMatch(/\[\d+\]/);
    }
  }, 60_000);
});

describe('answers and reports outlive the command that made them', () => {
  it('svc ask --json saved, the process gone, then svc verify --completion passes', async () => {
    const ask = await runCli(['ask', QUESTION, '--json'], dataDir);
    expect(ask.code, ask.stderr).toBe(0);
    const saved = path.join(dataDir, 'answer.json');
    writeFileSync(saved, ask.stdout);
    // Nothing serves the data dir any more: verify must bring the service back at the same address.
    expect(existsSync(path.join(dataDir, 'service.lock'))).toBe(false);
    const verify = await runCli(['verify', '--completion', saved], dataDir);
    expect(verify.stdout).toMatch(/unreachable 0 of [1-9]/);
    expect(verify.stdout).toContain('PASS');
    expect(verify.code, verify.stderr).toBe(0);
  }, 120_000);

  it("a report's links open in Chromium after svc ask --capture exited", async () => {
    const out = path.join(dataDir, 'evidence');
    const ask = await runCli(['ask', QUESTION, '--capture', '--out', out], dataDir);
    expect(ask.code, ask.stderr).toBe(0);
    const report = JSON.parse(readFileSync(path.join(out, 'report.json'), 'utf8')) as {
      citations: Array<{
        url: string;
        verdict: string;
        reason: string;
        page: { status: number | null; localSource?: string } | null;
      }>;
    };
    const local = report.citations.map((c) => c.url).filter((u) => u.includes('/docs/'));
    expect(local.length).toBeGreaterThan(0);
    // Each cited local document that loaded names the file it was indexed from, in the JSON and
    // the HTML. (A page the browser could not load on a loaded machine names nothing: its verdict
    // is unreachable and says why, which the message shows.)
    const corpus = fixture('corpus');
    const loaded = report.citations.filter(
      (c) => c.url.includes('/docs/') && c.page?.status === 200,
    );
    expect(
      loaded.length,
      JSON.stringify(report.citations.map((c) => [c.url, c.verdict, c.reason])),
    ).toBeGreaterThan(0);
    const sources = loaded.map((c) => c.page?.localSource ?? '');
    for (const [i, source] of sources.entries()) {
      expect(source.startsWith(corpus), JSON.stringify({ ...loaded[i], passage: undefined })).toBe(
        true,
      );
      expect(existsSync(source)).toBe(true);
    }
    const html = readFileSync(path.join(out, 'report.html'), 'utf8');
    expect(html).toContain(`<th>local file</th><td>${sources[0]}</td>`);

    const serve = spawnCli(['serve'], dataDir);
    try {
      const served = (await serve.waitForStdout(/listening on (http:\/\/\S+)/))[1]!;
      expect(local[0]!.startsWith(`${served}/docs/`)).toBe(true);
      const opened = await openInChromium(local[0]!);
      expect(opened.status).toBe(200);
      expect(opened.text.length).toBeGreaterThan(100);
    } finally {
      serve.child.kill('SIGINT');
      await serve.exited;
    }
  }, 180_000);
});

describe('svc serve fails fast', () => {
  it('on a busy port: exit 1 with the message at once, no browser left behind', async () => {
    const other = tempDataDir();
    const taken = await busyPort();
    try {
      const res = await runCli(['serve', '--port', String(taken.port)], other);
      expect(res.code, res.stderr).toBe(1);
      expect(res.stderr).toContain(`Port ${taken.port} on 127.0.0.1 is already in use`);
      expect(await waitFor(() => processesMentioning(other).length === 0, 5_000)).toBe(true);
    } finally {
      await taken.close();
      rmSync(other, { recursive: true, force: true });
    }
  }, 60_000);

  it('a port out of range is a usage error: exit 2', async () => {
    const res = await runCli(['serve', '--port', '99999'], dataDir);
    expect(res.code, res.stderr).toBe(2);
    expect(res.stderr).toContain('--port');
  });
});
