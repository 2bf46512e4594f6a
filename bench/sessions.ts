// Browser-session cycle benchmark: `npm run bench -- --only sessions` (or `npx tsx bench/sessions.ts`).
// Each cycle: get a browser -> connect -> load a loopback page and read its title -> release it.
// Compared, in one run, on the same Chromium with the product's flags:
// - ours: a session of the embedded server (create over HTTP, connect through the CDP proxy,
//   load in the page the session starts with, disconnect + delete), with Puppeteer and Playwright,
//   back to back (the next cycle starts when the previous ends) and, for Puppeteer, spaced (1 s
//   apart, as an agent asking for a browser now and then);
// - ours, recycled: the same cycles against a second server started with `recycle: true`, where
//   the deleted session's browser is wiped and handed to the same user's next session instead of
//   a freshly launched one (see src/server/engines/browsers/wipe.ts for what a wipe clears); back
//   to back, the user's two browsers alternate, one wiped while the other serves (recycle.ts);
// - ours, connect: one WebSocket upgrade to `/v1/browser/connect` (key in the Authorization
//   header) creates the session and connects to it, and disconnecting ends it: no create or
//   delete round trip of the client's own, on both servers;
// - launch: a direct Chromium launch per cycle (puppeteer.launch, same flags), the cost a session
//   server has to beat;
// - peer: Playwright's own browser server (`chromium.launchServer()`, started once), what users
//   run instead of a session service: connect, new context + page, close. (Browserless, the other
//   candidate, needs Node >= 24 and dependencies not installed here, so it cannot run offline.)
// Prints p50/p95 per step, p95/p50, and the p50 ratio to the peer and to the launch cycle.
// Where Playwright's connect goes (DEBUG=pw:protocol): `connectOverCDP` sends 18 CDP commands in 4
// serial round trips: Browser.getVersion; Target.setAutoAttach (with Browser.setDownloadBehavior);
// 14 commands initializing the page the session starts with, pipelined; Page.createIsolatedWorld
// in that page. The proxy relays frames without parsing them and adds no round trip. Measured
// through the proxy and straight to the browser on the same kind of session (recycled browsers,
// so no launch ran meanwhile; load average 29, 12 each, p50): connectOverCDP 109 vs 65 ms; the
// upgrade alone 18 vs 6 ms (key or token check, then the browser's own WebSocket handshake, in
// series: the relay now opens that handshake as the session is created, see
// src/server/engines/browsers/upstream.ts); one relayed Browser.getVersion 2.5 vs 3.3 ms. The rest of the gap is the relay sharing
// one event loop with the client in this in-process bench. What the server controls is the page
// and the CPU: a pooled or recycled browser's first page already has a live renderer, so those
// round trips are answered by a running renderer and the first load needs no new tab; and with
// `recycle` no launch competes with the connect (Playwright connect p50 134 -> 33 ms, load ~20).
// Env: BENCH_CYCLES (default 50), BENCH_SPACED (default 10), BENCH_WARM_POOL (default 2),
// BENCH_WARMUP (default 3), BENCH_CLIENTS (the clients whose name holds one of these
// comma-separated words, e.g. "recycled,peer,launch"; default all).
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import puppeteer from 'puppeteer-core';
import { CHROMIUM_ARGS, findSessionChromium } from '../src/chromium.js';
import { startServer } from '../src/server/index.js';

const CYCLES = Number(process.env.BENCH_CYCLES ?? 50);
const SPACED = Number(process.env.BENCH_SPACED ?? 10);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 3);
const WARM_POOL = Number(process.env.BENCH_WARM_POOL ?? 2);
const SPACING_MS = 1_000;
// Clients whose name holds one of these words ("recycled,peer"); all when unset.
const ONLY = (process.env.BENCH_CLIENTS ?? '').split(',').filter(Boolean);

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
// Same flags and pool; browsers of deleted sessions are wiped and reused by the same user.
const recycledDir = mkdtempSync(path.join(os.tmpdir(), 'svc-bench-recycled-'));
const recycledServer = await startServer({
  port: 0,
  dataDir: recycledDir,
  apiKeys: [key],
  warmPoolSize: WARM_POOL,
  logLevel: 'warn',
  rateLimits: { browser: 1_000_000 },
  recycle: true,
});
const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
// The binary the servers' sessions run (the packaged headless shell unless SVC_CHROME_SOURCE says
// otherwise), so the peer and the launch cycle start the same browser.
const executablePath = (await findSessionChromium()).path;
// The product's flags, less the DevTools transport: each driver picks its own.
const args = CHROMIUM_ARGS.filter((a) => !a.startsWith('--remote-debugging-'));
const peer = await chromium.launchServer({ executablePath, args });

async function createSession(base: string): Promise<{ session_id: string; cdp_url: string }> {
  const res = await fetch(`${base}/v1/browser/sessions`, {
    method: 'POST',
    headers,
    body: '{}',
  });
  if (res.status !== 200) throw new Error(`create: ${res.status} ${await res.text()}`);
  return (await res.json()) as { session_id: string; cdp_url: string };
}

async function deleteSession(base: string, id: string): Promise<void> {
  const res = await fetch(`${base}/v1/browser/sessions/${id}`, { method: 'DELETE', headers });
  if (res.status !== 204) throw new Error(`delete: ${res.status} ${await res.text()}`);
}

/** Runs `fn` and returns its duration in ms. */
async function timed(fn: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await fn();
  return performance.now() - start;
}

async function check(title: Promise<string>): Promise<void> {
  if ((await title) !== 'bench page') throw new Error('wrong page');
}

const puppeteerCycle =
  (base: string): Cycle =>
  async (url) => {
    let session!: { session_id: string; cdp_url: string };
    let browser!: Awaited<ReturnType<typeof puppeteer.connect>>;
    const create = await timed(async () => (session = await createSession(base)));
    const connect = await timed(
      async () => (browser = await puppeteer.connect({ browserWSEndpoint: session.cdp_url })),
    );
    const load = await timed(async () => {
      const tab = (await browser.pages())[0] ?? (await browser.newPage());
      await tab.goto(url);
      await check(tab.title());
    });
    const del = await timed(async () => {
      await browser.disconnect();
      await deleteSession(base, session.session_id);
    });
    return { create, connect, load, delete: del };
  };

const playwrightCycle =
  (base: string): Cycle =>
  async (url) => {
    let session!: { session_id: string; cdp_url: string };
    let browser!: Awaited<ReturnType<typeof chromium.connectOverCDP>>;
    const create = await timed(async () => (session = await createSession(base)));
    const connect = await timed(
      async () => (browser = await chromium.connectOverCDP(session.cdp_url)),
    );
    const load = await timed(async () => {
      const context = browser.contexts()[0] ?? (await browser.newContext());
      const tab = context.pages()[0] ?? (await context.newPage());
      await tab.goto(url);
      await check(tab.title());
    });
    const del = await timed(async () => {
      await browser.close();
      await deleteSession(base, session.session_id);
    });
    return { create, connect, load, delete: del };
  };

// One upgrade to /v1/browser/connect creates the session and connects to it; disconnecting ends
// it (the server deletes it as the connection closes).
const connectEndpoint = (base: string): string =>
  `${base.replace(/^http/, 'ws')}/v1/browser/connect`;

const puppeteerConnectCycle =
  (base: string): Cycle =>
  async (url) => {
    let browser!: Awaited<ReturnType<typeof puppeteer.connect>>;
    const connect = await timed(
      async () =>
        (browser = await puppeteer.connect({
          browserWSEndpoint: connectEndpoint(base),
          headers: { authorization: headers.authorization },
        })),
    );
    const load = await timed(async () => {
      const tab = (await browser.pages())[0] ?? (await browser.newPage());
      await tab.goto(url);
      await check(tab.title());
    });
    const del = await timed(() => browser.disconnect());
    return { connect, load, delete: del };
  };

const playwrightConnectCycle =
  (base: string): Cycle =>
  async (url) => {
    let browser!: Awaited<ReturnType<typeof chromium.connectOverCDP>>;
    const connect = await timed(
      async () =>
        (browser = await chromium.connectOverCDP(connectEndpoint(base), {
          headers: { authorization: headers.authorization },
        })),
    );
    const load = await timed(async () => {
      const context = browser.contexts()[0] ?? (await browser.newContext());
      const tab = context.pages()[0] ?? (await context.newPage());
      await tab.goto(url);
      await check(tab.title());
    });
    const del = await timed(() => browser.close());
    return { connect, load, delete: del };
  };

const launchCycle: Cycle = async (url) => {
  let browser!: Awaited<ReturnType<typeof puppeteer.launch>>;
  const create = await timed(
    async () => (browser = await puppeteer.launch({ executablePath, args })),
  );
  const load = await timed(async () => {
    const tab = (await browser.pages())[0] ?? (await browser.newPage());
    await tab.goto(url);
    await check(tab.title());
  });
  const del = await timed(() => browser.close());
  return { create, load, delete: del };
};

const peerCycle: Cycle = async (url) => {
  let browser!: Awaited<ReturnType<typeof chromium.connect>>;
  const connect = await timed(async () => (browser = await chromium.connect(peer.wsEndpoint())));
  const load = await timed(async () => {
    const tab = await browser.newPage();
    await tab.goto(url);
    await check(tab.title());
  });
  const del = await timed(() => browser.close());
  return { connect, load, delete: del };
};

async function run(
  name: string,
  cycle: Cycle,
  cycles: number,
  spacingMs = 0,
): Promise<Record<string, number[]>> {
  for (let i = 0; i < WARMUP; i++) await cycle(pageUrl);
  const samples: Record<string, number[]> = {};
  for (let i = 0; i < cycles; i++) {
    if (spacingMs > 0) await new Promise((resolve) => setTimeout(resolve, spacingMs));
    const steps = await cycle(pageUrl);
    const total = Object.values(steps).reduce((a, b) => a + b, 0);
    const get = (steps.create ?? 0) + (steps.connect ?? 0);
    for (const [step, ms] of Object.entries({ ...steps, 'get+connect': get, cycle: total }))
      (samples[step] ??= []).push(ms);
  }
  process.stderr.write(`${name}: ${cycles} cycles done\n`);
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
  const loadBefore = os.loadavg()[0]!.toFixed(2);
  const clients: [string, () => Promise<Record<string, number[]>>][] = [
    ['puppeteer', () => run('puppeteer', puppeteerCycle(server.url), CYCLES)],
    ['playwright', () => run('playwright', playwrightCycle(server.url), CYCLES)],
    [
      'puppeteer spaced',
      () => run('puppeteer spaced', puppeteerCycle(server.url), SPACED, SPACING_MS),
    ],
    ['puppeteer recycled', () => run('recycled', puppeteerCycle(recycledServer.url), CYCLES)],
    ['playwright recycled', () => run('recycled', playwrightCycle(recycledServer.url), CYCLES)],
    [
      'puppeteer spaced recycled',
      () => run('spaced recycled', puppeteerCycle(recycledServer.url), SPACED, SPACING_MS),
    ],
    ['puppeteer connect', () => run('connect', puppeteerConnectCycle(server.url), CYCLES)],
    ['playwright connect', () => run('connect', playwrightConnectCycle(server.url), CYCLES)],
    [
      'puppeteer connect recycled',
      () => run('connect recycled', puppeteerConnectCycle(recycledServer.url), CYCLES),
    ],
    [
      'playwright connect recycled',
      () => run('connect recycled', playwrightConnectCycle(recycledServer.url), CYCLES),
    ],
    ['peer (launchServer)', () => run('peer', peerCycle, CYCLES)],
    ['launch', () => run('launch', launchCycle, CYCLES)],
  ];
  const results: [string, Record<string, number[]>][] = [];
  for (const [client, measure] of clients) {
    if (ONLY.length === 0 || ONLY.some((word) => client.includes(word)))
      results.push([client, await measure()]);
  }
  const p50Of = (client: string, step: string): number | undefined => {
    const values = results.find(([c]) => c === client)?.[1][step];
    return values ? quantile(values, 0.5) : undefined;
  };
  const ratio = (p50: number, ref: number | undefined): string =>
    ref === undefined ? '-' : `${(p50 / ref).toFixed(2)}x`;
  const order = ['create', 'connect', 'get+connect', 'load', 'delete', 'cycle'];
  const rows = [['client', 'step', 'p50 ms', 'p95 ms', 'p95/p50', 'vs peer', 'vs launch']];
  for (const [client, samples] of results) {
    for (const step of order) {
      const values = samples[step];
      if (!values) continue;
      const p50 = quantile(values, 0.5);
      const ours = !client.startsWith('peer') && client !== 'launch';
      rows.push([
        client,
        step,
        p50.toFixed(1),
        quantile(values, 0.95).toFixed(1),
        (quantile(values, 0.95) / p50).toFixed(2),
        ours ? ratio(p50, p50Of('peer (launchServer)', step)) : '-',
        client === 'launch' ? '1.00x' : ratio(p50, p50Of('launch', step)),
      ]);
    }
  }
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  console.log(
    `browser-session cycles: ${CYCLES} back to back per client, ${SPACED} spaced ${SPACING_MS} ms apart (+${WARMUP} warm-up each), warm pool ${WARM_POOL}, ${os.cpus().length} cores, load average ${loadBefore} at start, ${os.loadavg()[0]!.toFixed(2)} at end; Chromium ${executablePath}`,
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
  await peer.close();
  await server.close();
  await recycledServer.close();
  await new Promise<void>((resolve) => page.close(() => resolve()));
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(recycledDir, { recursive: true, force: true });
}
