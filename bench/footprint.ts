// Footprint benchmark: `npm run bench -- --only footprint` (or `npx tsx bench/footprint.ts`).
// The figures behind the capacity model of docs/scaling.md, measured on this machine:
// - memory per session: proportional set size (PSS, shared pages split fairly) of each session's
//   Chromium process tree with a loaded page, for 1 and for N sessions side by side;
// - CPU per page load: CPU time of a session's Chromium tree per loopback navigation, and at idle;
// - proxy throughput: CDP round trips per second (`Runtime.evaluate` of `1`) through the server's
//   CDP proxy, against the same Chromium driven directly (a browser launched by Puppeteer with the
//   same flags), measured in the same run: the ratio is what the proxy costs;
// - database work per session on PostgreSQL shared state (`--database-url`): transactions and rows
//   written per session cycle (create, connect through the proxy, load, delete), and per second by
//   an idle instance (its heartbeat), from pg_stat_database on a PostgreSQL started for the run.
// Env: BENCH_SESSIONS (default 4), BENCH_LOADS (default 20), BENCH_PROXY_MS (default 3000),
// BENCH_DB_CYCLES (default 10).
import { readFileSync, readdirSync, mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import puppeteer from 'puppeteer-core';
import type { Browser, Page } from 'puppeteer-core';
import { CHROMIUM_ARGS, findChromium } from '../src/chromium.js';
import { startServer } from '../src/server/index.js';
import { startPostgres } from '../test/support/postgres.js';

const SESSIONS = Number(process.env.BENCH_SESSIONS ?? 4);
const LOADS = Number(process.env.BENCH_LOADS ?? 20);
const PROXY_MS = Number(process.env.BENCH_PROXY_MS ?? 3_000);
const DB_CYCLES = Number(process.env.BENCH_DB_CYCLES ?? 10);
const TICK_MS = 1000 / 100; // USER_HZ on Linux

const body = Array.from(
  { length: 40 },
  (_, i) => `<p>Paragraph ${i}: a page of ordinary documentation text, long enough to lay out.</p>`,
).join('');
const site = http.createServer((_req, res) => {
  res.setHeader('content-type', 'text/html; charset=utf-8');
  res.end(`<!doctype html><title>footprint page</title><main>${body}</main>`);
});
await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
const pageUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}/`;

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'svc-bench-footprint-'));
const key = 'svc_bench-0123456789abcdefghijklmnopqrstuvw';
const serverOptions = {
  port: 0,
  apiKeys: [key],
  warmPoolSize: 0,
  logLevel: 'warn' as const,
  rateLimits: { browser: 1_000_000 },
};
let server = await startServer({ ...serverOptions, dataDir });
const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };

/** Pids whose command line mentions `needle` (a session's profile dir holds its id). */
function pidsMentioning(needle: string): number[] {
  const pids: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (readFileSync(`/proc/${name}/cmdline`, 'utf8').includes(needle)) pids.push(Number(name));
    } catch {
      // exited
    }
  }
  return pids;
}

function pssBytes(pids: number[]): number {
  let kb = 0;
  for (const pid of pids) {
    try {
      kb += Number(
        /^Pss:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'))?.[1] ?? 0,
      );
    } catch {
      // exited
    }
  }
  return kb * 1024;
}

function cpuMs(pids: number[]): number {
  let ticks = 0;
  for (const pid of pids) {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      ticks += Number(fields[11]) + Number(fields[12]); // utime, stime
    } catch {
      // exited
    }
  }
  return ticks * TICK_MS;
}

interface Open {
  id: string;
  browser: Browser;
  page: Page;
}

async function open(): Promise<Open> {
  const res = await fetch(`${server.url}/v1/browser/sessions`, {
    method: 'POST',
    headers,
    body: '{}',
  });
  if (res.status !== 200) throw new Error(`create: ${res.status} ${await res.text()}`);
  const s = (await res.json()) as { session_id: string; cdp_url: string };
  const browser = await puppeteer.connect({ browserWSEndpoint: s.cdp_url, defaultViewport: null });
  const page = (await browser.pages())[0] ?? (await browser.newPage());
  await page.goto(pageUrl);
  return { id: s.session_id, browser, page };
}

async function close(o: Open): Promise<void> {
  await o.browser.disconnect();
  await fetch(`${server.url}/v1/browser/sessions/${o.id}`, { method: 'DELETE', headers });
}

/** Evaluate round trips per second on `page` during PROXY_MS. */
async function roundTrips(page: Page): Promise<number> {
  const cdp = await page.createCDPSession();
  let n = 0;
  const end = performance.now() + PROXY_MS;
  while (performance.now() < end) {
    await cdp.send('Runtime.evaluate', { expression: '1' });
    n++;
  }
  await cdp.detach();
  return (n * 1000) / PROXY_MS;
}

/** Transactions and rows written per session cycle, and per idle second, on PostgreSQL. */
async function databaseWork(): Promise<Array<[string, string]>> {
  const postgres = await startPostgres();
  const pgDir = mkdtempSync(path.join(os.tmpdir(), 'svc-bench-footprint-pg-'));
  try {
    const databaseUrl = await postgres.createDatabase('footprint');
    server = await startServer({ ...serverOptions, dataDir: pgDir, databaseUrl });
    const stats = new pg.Client({ connectionString: databaseUrl });
    await stats.connect();
    const read = async (): Promise<{ xact: number; rows: number }> => {
      await stats.query('SELECT pg_stat_clear_snapshot()');
      const r = await stats.query(
        'SELECT xact_commit::int AS xact, (tup_inserted + tup_updated + tup_deleted)::int AS rows FROM pg_stat_database WHERE datname = current_database()',
      );
      return r.rows[0] as { xact: number; rows: number };
    };
    // Statistics reach pg_stat_database when a backend reports them (at most every second).
    const settle = (): Promise<void> => new Promise((r) => setTimeout(r, 1_500));
    // Let the start-up work (migrations, first heartbeats) reach the statistics first.
    await new Promise((r) => setTimeout(r, 6_000));
    const idle0 = await read();
    await new Promise((r) => setTimeout(r, 10_000));
    const idle1 = await read();
    const started = performance.now();
    for (let i = 0; i < DB_CYCLES; i++) await close(await open());
    await settle();
    const after = await read();
    await stats.end();
    // The cycles' window also holds the instance's idle work (heartbeats): subtract it.
    const idleXactPerMs = (idle1.xact - idle0.xact) / 10_000;
    const idleRowsPerMs = (idle1.rows - idle0.rows) / 10_000;
    const windowMs = performance.now() - started;
    const perCycle = (total: number, idlePerMs: number): string =>
      ((total - idlePerMs * windowMs) / DB_CYCLES).toFixed(1);
    return [
      ['PostgreSQL transactions per idle instance per s', (idleXactPerMs * 1000).toFixed(2)],
      ['PostgreSQL rows written per idle instance per s', (idleRowsPerMs * 1000).toFixed(2)],
      [
        'PostgreSQL transactions per session cycle',
        perCycle(after.xact - idle1.xact, idleXactPerMs),
      ],
      [
        'PostgreSQL rows written per session cycle',
        perCycle(after.rows - idle1.rows, idleRowsPerMs),
      ],
    ];
  } finally {
    await server.close();
    await postgres.stop();
    rmSync(pgDir, { recursive: true, force: true });
  }
}

const mb = (b: number): string => (b / 1024 / 1024).toFixed(0);
const rows: Array<[string, string]> = [];
try {
  const first = await open();
  rows.push(['PSS of one session with a loaded page (MB)', mb(pssBytes(pidsMentioning(first.id)))]);

  const tree = pidsMentioning(first.id);
  const idleStart = cpuMs(tree);
  await new Promise((r) => setTimeout(r, 3_000));
  rows.push(['CPU of one idle session (ms per s)', ((cpuMs(tree) - idleStart) / 3).toFixed(1)]);
  const loadStart = cpuMs(pidsMentioning(first.id));
  const started = performance.now();
  for (let i = 0; i < LOADS; i++) await first.page.goto(`${pageUrl}?n=${i}`);
  const wall = (performance.now() - started) / LOADS;
  const perLoad = (cpuMs(pidsMentioning(first.id)) - loadStart) / LOADS;
  rows.push(['Chromium CPU per page load (ms)', perLoad.toFixed(1)]);
  rows.push(['wall time per page load (ms)', wall.toFixed(1)]);

  const proxied = await roundTrips(first.page);
  const executablePath = (await findChromium()).path;
  const args = CHROMIUM_ARGS.filter((a) => !a.startsWith('--remote-debugging-'));
  const direct = await puppeteer.launch({ executablePath, args, pipe: false });
  try {
    const dpage = (await direct.pages())[0] ?? (await direct.newPage());
    await dpage.goto(pageUrl);
    const straight = await roundTrips(dpage);
    rows.push(['CDP round trips/s through the proxy', proxied.toFixed(0)]);
    rows.push(['CDP round trips/s direct to Chromium (baseline)', straight.toFixed(0)]);
    rows.push(['proxy / direct', `${((proxied / straight) * 100).toFixed(0)}%`]);
  } finally {
    await direct.close();
  }

  const more = [first];
  for (let i = 1; i < SESSIONS; i++) more.push(await open());
  const each = more.map((o) => pssBytes(pidsMentioning(o.id)));
  rows.push([
    `PSS per session with ${SESSIONS} open (MB, mean)`,
    mb(each.reduce((a, b) => a + b, 0) / each.length),
  ]);
  rows.push(['PSS of the server process (MB)', mb(pssBytes([process.pid]))]);
  for (const o of more) await close(o);
  await server.close();
  rows.push(...(await databaseWork()));
} finally {
  await server.close();
  site.close();
  rmSync(dataDir, { recursive: true, force: true });
}

console.log(`\nfootprint (load average ${os.loadavg()[0]!.toFixed(2)}, ${os.cpus().length} cores)`);
const width = Math.max(...rows.map(([k]) => k.length));
for (const [k, v] of rows) console.log(`${k.padEnd(width)}  ${v.padStart(8)}`);
