// Session pool throughput benchmark: `npx tsx bench/pool.ts`.
// Work: visit BENCH_PAGES (default 60) loopback pages and screenshot each. Compared, in one run:
// - naive: one browser, a new context and page per URL (Puppeteer), closed after each;
// - raw Puppeteer: one browser, one page reused for every URL, sequential (and, for `api`, the
//   same through a session's cdp_url, to show what the CDP proxy hop costs);
// - the SessionPool (embedded server sessions, `api` provider) at sizes 1, 2, 4, both drivers,
//   plus size 1 with `reset: false` (no about:blank between tasks).
// Every variant's browsers and sessions are opened before timing (a pool is long-lived). The
// pages are measured in BENCH_ROUNDS rounds, each variant in turn, so load from elsewhere on the
// machine spreads evenly over the variants. Prints one table: pages/s and ratios to naive and to
// raw Puppeteer.
// Env: BENCH_PAGES (60), BENCH_ROUNDS (3), BENCH_PROVIDER (api | local, default api).
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import puppeteer from 'puppeteer-core';
import type { Browser } from 'puppeteer-core';
import { findSessionChromium, launchChromium } from '../src/chromium.js';
import type { LaunchedChromium } from '../src/chromium.js';
import { startServer } from '../src/server/index.js';
import { SessionManager } from '../src/sessions/index.js';
import type { DriverName } from '../src/sessions/index.js';

const PAGES = Number(process.env.BENCH_PAGES ?? 60);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const PROVIDER = process.env.BENCH_PROVIDER === 'local' ? 'local' : 'api';
const VIEWPORT = { width: 1280, height: 800 };

const body = (i: number): string =>
  `<!doctype html><title>bench ${i}</title><style>body{font:16px sans-serif;margin:40px}` +
  `p{max-width:60ch}</style><h1>Page ${i}</h1><p>` +
  'Lorem ipsum dolor sit amet, consectetur adipiscing elit. '.repeat(20) +
  '</p>';
const site = http.createServer((req, res) => {
  res.setHeader('content-type', 'text/html; charset=utf-8');
  res.end(body(Number((req.url ?? '/0').slice(1)) || 0));
});
await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
const base = `http://127.0.0.1:${(site.address() as AddressInfo).port}/`;
const urls = Array.from({ length: PAGES }, (_, i) => `${base}${i}`);
const chunks = Array.from({ length: ROUNDS }, (_, r) =>
  urls.slice(Math.floor((r * PAGES) / ROUNDS), Math.floor(((r + 1) * PAGES) / ROUNDS)),
);

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'svc-bench-pool-'));
const key = 'svc_bench-0123456789abcdefghijklmnopqrstuvw';
const server = await startServer({
  port: 0,
  dataDir,
  apiKeys: [key],
  warmPoolSize: 0,
  maxSessions: 24,
  logLevel: 'warn',
  rateLimits: { browser: 1_000_000 },
});
// The binary the sessions run, with either provider.
const executablePath = (await findSessionChromium()).path;
const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };

/** One contender: opened once, run on each round's URLs, closed at the end. */
interface Variant {
  name: string;
  browsers: number;
  run(urls: string[]): Promise<void>;
  close(): Promise<void>;
  seconds: number;
}

const launched: LaunchedChromium[] = [];
/** A Chromium with the same flags as the sessions', driven by Puppeteer directly. */
async function launchBaseline(): Promise<Browser> {
  const chromium = await launchChromium({
    executablePath,
    userDataDir: mkdtempSync(path.join(dataDir, 'baseline-')),
  });
  launched.push(chromium);
  return puppeteer.connect({ browserWSEndpoint: chromium.wsEndpoint, defaultViewport: VIEWPORT });
}

async function sequential(name: string, browser: Browser, close: () => Promise<void>) {
  const page = await browser.newPage();
  return {
    name,
    browsers: 1,
    seconds: 0,
    async run(list: string[]) {
      for (const url of list) {
        await page.goto(url);
        await page.screenshot();
      }
    },
    close,
  } satisfies Variant;
}

const variants: Variant[] = [];
{
  const browser = await launchBaseline();
  variants.push({
    name: 'naive: new context + page per URL',
    browsers: 1,
    seconds: 0,
    async run(list) {
      for (const url of list) {
        const context = await browser.createBrowserContext();
        const page = await context.newPage();
        await page.goto(url);
        await page.screenshot();
        await context.close();
      }
    },
    close: () => browser.disconnect(),
  });
}
{
  const browser = await launchBaseline();
  variants.push(
    await sequential('raw Puppeteer: reused page', browser, () => browser.disconnect()),
  );
}
if (PROVIDER === 'api') {
  const res = await fetch(`${server.url}/v1/browser/sessions`, {
    method: 'POST',
    headers,
    body: '{}',
  });
  const session = (await res.json()) as { session_id: string; cdp_url: string };
  const browser = await puppeteer.connect({
    browserWSEndpoint: session.cdp_url,
    defaultViewport: VIEWPORT,
  });
  variants.push(
    await sequential('raw Puppeteer via session cdp_url', browser, async () => {
      await browser.disconnect();
      await fetch(`${server.url}/v1/browser/sessions/${session.session_id}`, {
        method: 'DELETE',
        headers,
      });
    }),
  );
}

const manager = new SessionManager({
  provider: PROVIDER,
  clientOptions: { baseURL: server.url, apiKey: key },
  executablePath,
  profileRoot: dataDir,
});
const pools: { driver: DriverName; size: number; reset: boolean }[] = [
  ...[1, 2, 4].map((size) => ({ driver: 'puppeteer' as const, size, reset: true })),
  { driver: 'puppeteer', size: 1, reset: false },
  ...[1, 2, 4].map((size) => ({ driver: 'playwright' as const, size, reset: true })),
];
for (const { driver, size, reset } of pools) {
  const pool = manager.pool({ size, driver, viewport: VIEWPORT, reset });
  // Open the pool's sessions before timing: a pool serves many batches.
  await Promise.all(Array.from({ length: size }, () => pool.run(async () => undefined)));
  variants.push({
    name: `pool ${driver} (${PROVIDER}), size ${size}${reset ? '' : ', reset: false'}`,
    browsers: size,
    seconds: 0,
    async run(list) {
      await Promise.all(
        list.map((url) =>
          pool.run(async (page) => {
            await page.goto(url);
            await page.screenshot();
          }),
        ),
      );
    },
    close: () => pool.close(),
  });
}

for (const [round, list] of chunks.entries()) {
  for (const variant of variants) {
    const start = performance.now();
    await variant.run(list);
    variant.seconds += (performance.now() - start) / 1000;
  }
  process.stderr.write(`round ${round + 1}/${ROUNDS} done\n`);
}

for (const variant of variants) await variant.close();
await manager.close();
for (const chromium of launched) await chromium.kill();
await server.close();
site.close();
rmSync(dataDir, { recursive: true, force: true });

const rate = (v: Variant): number => PAGES / v.seconds;
const naive = rate(variants[0]!);
const raw = rate(variants[1]!);
console.log(
  `Pool throughput: ${PAGES} loopback pages visited + screenshotted (${ROUNDS} interleaved rounds), ` +
    `${os.cpus().length} cores, load average ${os.loadavg()[0]!.toFixed(1)}. ` +
    'Goal: pool >= 3x naive and >= 80% of raw Puppeteer.',
);
console.table(
  variants.map((v) => ({
    variant: v.name,
    browsers: v.browsers,
    seconds: Number(v.seconds.toFixed(2)),
    'pages/s': Number(rate(v).toFixed(1)),
    'x naive': Number((rate(v) / naive).toFixed(2)),
    '% raw Puppeteer': `${((rate(v) / raw) * 100).toFixed(0)}%`,
  })),
);
