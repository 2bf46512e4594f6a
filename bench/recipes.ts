// citeAndCapture throughput: `npx tsx bench/recipes.ts`.
// Work: an answer of BENCH_CITATIONS (default 24) sentences, each citing its own loopback page
// where the sentence sits below the fold. For every citation: load the page, find the passage,
// highlight it, screenshot the passage and the viewport. Compared, in one run:
// - naive: a sequential Playwright script, one browser, a new context + page per URL, the text
//   found with getByText, element and viewport screenshots, context closed;
// - citeAndCapture with pool sizes 1, 2 and 4 (local provider, Playwright).
// Each variant's timing includes launching its browsers (the recipe launches its pool's sessions
// on demand), so the table compares what a user waits for. Prints one table: citations verified and
// captured per second, and the ratio to naive.
// Env: BENCH_CITATIONS (24), BENCH_POOLS ("1,2,4").
import { rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import { chromium } from 'playwright-core';
import { citeAndCapture } from '../recipes/index.js';
import { table } from '../recipes/support/script.js';
import { CHROMIUM_ARGS, findChromium } from '../src/chromium.js';
import { startBenchService } from './support/service.js';

const N = Number(process.env.BENCH_CITATIONS ?? 24);
const POOLS = (process.env.BENCH_POOLS ?? '1,2,4').split(',').map(Number);

const fact = (i: number): string =>
  `The beacon on island ${i} flashes every ${i + 3} seconds from dusk until dawn`;
const filler = 'Tides, currents and the shape of the coast decide where a light is useful. '.repeat(
  12,
);
const body = (i: number): string =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Island ${i}</title>` +
  `<style>body{font:16px/1.5 sans-serif;margin:40px;max-width:70ch}.gap{height:900px}</style></head>` +
  `<body><h1>Island ${i}</h1><p>${filler}</p><div class="gap"></div><p>${filler}</p>` +
  `<p>${fact(i)}. Keepers logged every failure.</p><p>${filler}</p></body></html>`;
const site = http.createServer((req, res) => {
  res.setHeader('content-type', 'text/html; charset=utf-8');
  res.end(body(Number((req.url ?? '/0').slice(1)) || 0));
});
await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
const base = `http://127.0.0.1:${(site.address() as AddressInfo).port}/`;
const urls = Array.from({ length: N }, (_, i) => `${base}${i}`);
const answer = urls.map((_, i) => `${fact(i)} [${i + 1}].`).join(' ');

// The service only backs the embedding fallback here; the answer is given, so every variant does
// the same page work.
const { server, client, dataDir } = await startBenchService('recipes');

interface Row {
  name: string;
  pool: number | string;
  supported: number;
  ms: number;
}
const rows: Row[] = [];

async function naive(): Promise<Row> {
  const started = performance.now();
  const { path: executablePath } = await findChromium();
  const browser = await chromium.launch({ executablePath, args: [...CHROMIUM_ARGS] });
  let supported = 0;
  try {
    for (const [i, url] of urls.entries()) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
      try {
        const page = await context.newPage();
        await page.goto(url);
        const passage = page.getByText(fact(i)).first();
        if ((await passage.count()) > 0) {
          await passage.scrollIntoViewIfNeeded();
          await passage.screenshot();
          await page.screenshot();
          supported++;
        }
      } finally {
        await context.close();
      }
    }
  } finally {
    await browser.close();
  }
  return {
    name: 'naive Playwright, sequential',
    pool: '-',
    supported,
    ms: performance.now() - started,
  };
}

async function recipe(pool: number): Promise<Row> {
  const started = performance.now();
  const r = await citeAndCapture(
    { answer, citations: urls },
    { client, poolSize: pool, provider: 'local', report: false, screenshots: true },
  );
  return {
    name: 'citeAndCapture',
    pool,
    supported: r.summary.supported,
    ms: performance.now() - started,
  };
}

try {
  rows.push(await naive());
  for (const pool of POOLS) rows.push(await recipe(pool));
} finally {
  await client.close();
  await server.close();
  site.close();
  rmSync(dataDir, { recursive: true, force: true });
}

const naiveRate = N / (rows[0]!.ms / 1000);
console.log(
  `\ncitations verified and captured per second (${N} citations, ${os.cpus().length} cores)\n`,
);
console.log(
  table([
    ['runner', 'pool', 'supported', 'seconds', 'citations/s', 'vs naive'],
    ...rows.map((r) => {
      const rate = N / (r.ms / 1000);
      return [
        r.name,
        r.pool,
        `${r.supported}/${N}`,
        (r.ms / 1000).toFixed(2),
        rate.toFixed(2),
        `${(rate / naiveRate).toFixed(2)}x`,
      ];
    }),
  ]),
);
