// Browser-session cycle benchmark: `npx tsx bench/sessions.ts`.
// Each cycle: create a session -> connect over CDP -> load a loopback page -> delete. Measured for
// Puppeteer and Playwright against the embedded server, next to a baseline that launches Chromium
// directly each cycle (puppeteer-core launch). Prints one table: p50/p95 per step, and the ratio of
// each p50 to the baseline's.
// Env: BENCH_CYCLES (default 50), BENCH_WARM_POOL (default 2), BENCH_WARMUP (default 3).
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import puppeteer from 'puppeteer-core';
import { findChromium } from '../src/chromium.js';
import { startServer } from '../src/server/index.js';

const CYCLES = Number(process.env.BENCH_CYCLES ?? 50);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 3);
const WARM_POOL = Number(process.env.BENCH_WARM_POOL ?? 2);

type Steps = Record<string, number>;
type Cycle = (pageUrl: string) => Promise<Steps>;

const page = http.createServer((_req, res) => {
  res.setHeader('content-type', 'text/html; charset=utf-8');
  res.end('<!doctype html><title>bench page</title><h1>Hello from loopback</h1>');
});
await new Promise<void>((resolve) => page.listen(0, '127.0.0.1', resolve));
const pageUrl = `http://127.0.0.1:${(page.address() as AddressInfo).port}/`;

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'svc-bench-sessions-'));
const key = 'svc_bench-0123456789abcdefghijklmnopqrstuvw';
const server = await startServer({
  port: 0,
  dataDir,
  apiKeys: [key],
  warmPoolSize: WARM_POOL,
  logLevel: 'warn',
  rateLimits: { browser: 1_000_000 },
});
const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };

async function createSession(): Promise<{ session_id: string; cdp_url: string }> {
  const res = await fetch(`${server.url}/v1/browser/sessions`, {
    method: 'POST',
    headers,
    body: '{}',
  });
  if (res.status !== 200) throw new Error(`create: ${res.status} ${await res.text()}`);
  return (await res.json()) as { session_id: string; cdp_url: string };
}

async function deleteSession(id: string): Promise<void> {
  const res = await fetch(`${server.url}/v1/browser/sessions/${id}`, { method: 'DELETE', headers });
  if (res.status !== 204) throw new Error(`delete: ${res.status} ${await res.text()}`);
}

/** Runs `fn` and returns its duration in ms. */
async function timed(fn: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await fn();
  return performance.now() - start;
}

const puppeteerCycle: Cycle = async (url) => {
  let session!: { session_id: string; cdp_url: string };
  let browser!: Awaited<ReturnType<typeof puppeteer.connect>>;
  const create = await timed(async () => (session = await createSession()));
  const connect = await timed(
    async () => (browser = await puppeteer.connect({ browserWSEndpoint: session.cdp_url })),
  );
  const load = await timed(async () => {
    const tab = await browser.newPage();
    await tab.goto(url);
    if ((await tab.title()) !== 'bench page') throw new Error('wrong page');
  });
  const del = await timed(async () => {
    await browser.disconnect();
    await deleteSession(session.session_id);
  });
  return { create, connect, load, delete: del };
};

const playwrightCycle: Cycle = async (url) => {
  let session!: { session_id: string; cdp_url: string };
  let browser!: Awaited<ReturnType<typeof chromium.connectOverCDP>>;
  const create = await timed(async () => (session = await createSession()));
  const connect = await timed(
    async () => (browser = await chromium.connectOverCDP(session.cdp_url)),
  );
  const load = await timed(async () => {
    const context = browser.contexts()[0] ?? (await browser.newContext());
    const tab = await context.newPage();
    await tab.goto(url);
    if ((await tab.title()) !== 'bench page') throw new Error('wrong page');
  });
  const del = await timed(async () => {
    await browser.close();
    await deleteSession(session.session_id);
  });
  return { create, connect, load, delete: del };
};

const executablePath = (await findChromium()).path;
const baselineCycle: Cycle = async (url) => {
  let browser!: Awaited<ReturnType<typeof puppeteer.launch>>;
  const launch = await timed(
    async () =>
      (browser = await puppeteer.launch({
        executablePath,
        args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
      })),
  );
  const load = await timed(async () => {
    const tab = await browser.newPage();
    await tab.goto(url);
    if ((await tab.title()) !== 'bench page') throw new Error('wrong page');
  });
  const close = await timed(() => browser.close());
  return { launch, load, close };
};

async function run(name: string, cycle: Cycle): Promise<Record<string, number[]>> {
  for (let i = 0; i < WARMUP; i++) await cycle(pageUrl);
  const samples: Record<string, number[]> = {};
  for (let i = 0; i < CYCLES; i++) {
    const steps = await cycle(pageUrl);
    const total = Object.values(steps).reduce((a, b) => a + b, 0);
    for (const [step, ms] of Object.entries({ ...steps, cycle: total }))
      (samples[step] ??= []).push(ms);
  }
  process.stderr.write(`${name}: ${CYCLES} cycles done\n`);
  // Let the warm pool refill so the next client starts from the same state.
  await new Promise((resolve) => setTimeout(resolve, 3000));
  return samples;
}

function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (sorted.length - 1) * q;
  const lo = Math.floor(at);
  const hi = Math.ceil(at);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (at - lo);
}

try {
  const results: [string, Record<string, number[]>][] = [
    ['puppeteer', await run('puppeteer', puppeteerCycle)],
    ['playwright', await run('playwright', playwrightCycle)],
    ['baseline (launch)', await run('baseline', baselineCycle)],
  ];
  const base = results[2]![1];
  const baseP50 = (step: string): number | undefined =>
    base[step] ? quantile(base[step], 0.5) : undefined;
  // Steps of a session cycle and the baseline step they replace.
  const counterpart: Record<string, string> = {
    create: 'launch',
    load: 'load',
    delete: 'close',
    cycle: 'cycle',
  };
  const rows = [['client', 'step', 'p50 ms', 'p95 ms', 'p50 / baseline']];
  for (const [client, samples] of results) {
    for (const [step, values] of Object.entries(samples)) {
      const p50 = quantile(values, 0.5);
      const ref = client.startsWith('baseline') ? undefined : baseP50(counterpart[step] ?? '');
      rows.push([
        client,
        step,
        p50.toFixed(1),
        quantile(values, 0.95).toFixed(1),
        ref
          ? `${(p50 / ref).toFixed(2)}x (vs ${counterpart[step]})`
          : client.startsWith('baseline')
            ? '1.00x'
            : '-',
      ]);
    }
  }
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  console.log(
    `browser-session cycles: ${CYCLES} per client (+${WARMUP} warm-up), warm pool ${WARM_POOL}, ${os.cpus().length} cores, Chromium ${executablePath}`,
  );
  for (const [i, row] of rows.entries()) {
    console.log(
      row
        .map((cell, c) => (c >= 2 ? cell.padStart(widths[c]!) : cell.padEnd(widths[c]!)))
        .join('  '),
    );
    if (i === 0) console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  }
} finally {
  await server.close();
  await new Promise<void>((resolve) => page.close(() => resolve()));
  rmSync(dataDir, { recursive: true, force: true });
}
