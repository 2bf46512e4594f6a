// Answer engine benchmark: `npx tsx bench/engine.ts`.
// Builds an index of BENCH_CHUNKS (default 10,000) chunks from generated articles whose words follow
// a Zipf distribution over a vocabulary of a few thousand real-looking words, then measures over
// loopback HTTP, with the real embedded server:
// - POST /search (BM25 + embedding rerank + snippets + signed URLs), p50/p95 over BENCH_QUERIES,
//   twice: first with cold chunk vectors (each candidate chunk is embedded at its first rerank and
//   cached), then warm (what every later search of those chunks costs);
// - POST /chat/completions, model core (retrieval + extractive answer + usage), p50/p95;
// - the sentence encoder: one short sentence at a time (ms each) and batches of 32 (sentences/s);
// - POST /v1/embeddings throughput (tokens/s) for both standard models, on texts never seen before
//   (the embedder caches vectors by text, so repeated texts would measure the cache).
// Baselines measured in the same run: the raw BM25 call `index.retrieve` (no HTTP, no rerank) for
// search and chat, and the in-process embedder for embeddings. Prints one table with the targets
// (search p50 < 10 ms warm, chat p50 < 50 ms) and the ratio of each row to its baseline.
// Env: BENCH_CHUNKS (10000), BENCH_QUERIES (100), BENCH_SEED (7), BENCH_EMBEDDER (auto|hashing).
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { countTokens } from '../src/protocol/index.js';
import type { StandardEmbeddingModel } from '../src/protocol/index.js';
import { startServer } from '../src/server/index.js';
import type { Block } from '../src/server/engines/index/index.js';
import { rng } from '../src/server/engines/embedder/projection.js';

const TARGET_CHUNKS = Number(process.env.BENCH_CHUNKS ?? 10_000);
const QUERIES = Number(process.env.BENCH_QUERIES ?? 100);
const SEED = Number(process.env.BENCH_SEED ?? 7);
const VOCABULARY = 4000;

// ---- Deterministic corpus -------------------------------------------------------------------

// The same seed gives the same corpus and queries.
const random = rng(SEED);
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;

// Words built from English-like onsets, vowels and codas ("stramen", "quoril"), plus the common
// function words at the head of the distribution, as in real text.
const ONSETS = ['b', 'br', 'c', 'cl', 'd', 'dr', 'f', 'g', 'gr', 'h', 'k', 'l', 'm', 'n', 'p'];
ONSETS.push('pl', 'qu', 'r', 's', 'sh', 'st', 'str', 't', 'th', 'tr', 'v', 'w', 'z');
const VOWELS = ['a', 'e', 'i', 'o', 'u', 'ai', 'ea', 'io', 'ou'];
const CODAS = ['', 'n', 'r', 'l', 's', 'st', 'nd', 'rk', 'm', 'x', 'th', 'ng'];
const SUFFIXES = ['', '', '', 'er', 'ing', 'ed', 'ion', 'al', 'ity', 'ous', 'ment'];
const FUNCTION_WORDS =
  'the of and to in a is that for it as with was on be by this are from at'.split(' ');

function makeVocabulary(size: number): string[] {
  const words = new Set<string>(FUNCTION_WORDS);
  while (words.size < size) {
    const syllables = 1 + Math.floor(random() * 3);
    let w = '';
    for (let i = 0; i < syllables; i++) w += pick(ONSETS) + pick(VOWELS) + pick(CODAS);
    words.add(w + pick(SUFFIXES));
  }
  return [...words];
}
const vocabulary = makeVocabulary(VOCABULARY);

// Zipf (s = 1.07) by inverse CDF over precomputed cumulative weights.
const cumulative: number[] = [];
{
  let sum = 0;
  for (let r = 1; r <= vocabulary.length; r++) cumulative.push((sum += 1 / r ** 1.07));
  for (let i = 0; i < cumulative.length; i++) cumulative[i]! /= sum;
}
function zipfWord(): string {
  const u = random();
  let lo = 0;
  let hi = cumulative.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (cumulative[mid]! < u) lo = mid + 1;
    else hi = mid;
  }
  return vocabulary[lo]!;
}
function sentence(): string {
  const n = 8 + Math.floor(random() * 16);
  const words = Array.from({ length: n }, zipfWord);
  words[0] = words[0]!.charAt(0).toUpperCase() + words[0]!.slice(1);
  return `${words.join(' ')}.`;
}
const paragraph = (): string =>
  Array.from({ length: 3 + Math.floor(random() * 4) }, sentence).join(' ');
const title = (): string =>
  Array.from({ length: 3 + Math.floor(random() * 5) }, () => pick(vocabulary.slice(50, 1500))).join(
    ' ',
  );

const DOMAINS = [
  'northwind-journal.com',
  'blog.tidewater.dev',
  'arxiv.org',
  'sec.gov',
  'lemonde-exemple.fr',
];
const LANGUAGES = ['en', 'en', 'en', 'de', 'fr'];

function article(i: number): { blocks: Block[]; url: string; language: string; date: Date } {
  const blocks: Block[] = [];
  for (let s = 0; s < 4 + Math.floor(random() * 4); s++) {
    blocks.push({ kind: 'heading', level: 2, text: title() });
    for (let p = 0; p < 2; p++) blocks.push({ kind: 'paragraph', text: paragraph() });
  }
  const domain = DOMAINS[i % DOMAINS.length]!;
  return {
    blocks,
    url: `https://${domain}/articles/${i}`,
    language: LANGUAGES[i % LANGUAGES.length]!,
    date: new Date(Date.UTC(2015 + (i % 11), i % 12, 1 + (i % 28))),
  };
}

// ---- Server and index ------------------------------------------------------------------------

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'svc-bench-engine-'));
const key = 'svc_bench-engine-0123456789abcdefghijklmnop';
const server = await startServer({
  port: 0,
  dataDir,
  apiKeys: [key],
  warmPoolSize: 0,
  logLevel: 'warn',
  localEmbedder: process.env.BENCH_EMBEDDER === 'hashing' ? 'hashing' : 'auto',
  rateLimits: { chat: 1_000_000, search: 1_000_000, embeddings: 1_000_000 },
});
const { index, embedder } = server.engines;

const indexStarted = performance.now();
let docs = 0;
while (index.stats().chunks < TARGET_CHUNKS) {
  for (let k = 0; k < 50; k++, docs++) {
    const a = article(docs);
    index.addDocument({
      source: a.url,
      url: a.url,
      title: title(),
      blocks: a.blocks,
      language: a.language,
      publishedAt: a.date,
    });
  }
}
const indexSeconds = (performance.now() - indexStarted) / 1000;
const stats = index.stats();

// Queries: 2-4 words from the middle of the distribution (rank 30-1500), like user keywords.
const makeQuery = (): string =>
  Array.from({ length: 2 + Math.floor(random() * 3) }, () => pick(vocabulary.slice(30, 1500))).join(
    ' ',
  );
// Warm-up queries are not among the measured ones: the cold pass must meet only unseen queries.
const warmupQueries = Array.from({ length: 20 }, makeQuery);
const queries = Array.from({ length: QUERIES }, makeQuery);

// ---- Measurement -----------------------------------------------------------------------------

const percentile = (xs: number[], p: number): number => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
};

async function post(route: string, body: unknown): Promise<unknown> {
  const res = await fetch(server.url + route, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${route}: HTTP ${res.status}: ${await res.text()}`);
  return res.json();
}

async function timeEach(work: (q: string) => unknown): Promise<number[]> {
  for (const q of warmupQueries) await work(q); // warm-up: JIT, statement cache, sockets
  const out: number[] = [];
  for (const q of queries) {
    const t = performance.now();
    await work(q);
    out.push(performance.now() - t);
  }
  return out;
}

// Other processes on a shared machine inflate every row alike; the load is printed with the table.
const loadAtStart = os.loadavg()[0]!;
const bm25 = await timeEach((q) => index.retrieve({ query: q, maxResults: 10 }));
let emptySearches = 0;
const searchOnce = async (q: string): Promise<void> => {
  const r = (await post('/search', { query: q, max_results: 10 })) as { results: unknown[] };
  if (r.results.length === 0) emptySearches++;
};
const searchCold = await timeEach(searchOnce);
emptySearches = 0;
const search = await timeEach(searchOnce);
const chat = await timeEach((q) =>
  post('/chat/completions', { model: 'core', messages: [{ role: 'user', content: q }] }),
);

// The encoder alone: unseen short sentences one at a time, then in batches of 32.
const shortSentences = (n: number): string[] => Array.from({ length: n }, sentence);
const singles = shortSentences(20);
let t0 = performance.now();
for (const s of singles) await embedder.embedTexts([s], 'svc-embed-v1-0.6b');
const msPerSentence = (performance.now() - t0) / singles.length;
const batched = shortSentences(4 * 32);
t0 = performance.now();
for (let i = 0; i < batched.length; i += 32) {
  await embedder.embedTexts(batched.slice(i, i + 32), 'svc-embed-v1-0.6b');
}
const sentencesPerSecond = batched.length / ((performance.now() - t0) / 1000);

// Embeddings: batches of 32 chunk-sized texts (about 150 tokens each), as an indexer sends them;
// fresh texts for every measured run.
const EMBED_BATCHES = 2;
async function throughput(run: (batch: string[]) => Promise<unknown>): Promise<number> {
  const texts = Array.from({ length: EMBED_BATCHES * 32 }, () => `${paragraph()} ${paragraph()}`);
  const tokens = texts.reduce((n, t) => n + countTokens(t), 0);
  const t = performance.now();
  for (let i = 0; i < texts.length; i += 32) await run(texts.slice(i, i + 32));
  return tokens / ((performance.now() - t) / 1000);
}
const embedRows: { model: StandardEmbeddingModel; http: number; local: number }[] = [];
for (const model of ['svc-embed-v1-0.6b', 'svc-embed-v1-4b'] as const) {
  const local = await throughput((batch) => embedder.embedTexts(batch, model));
  const http = await throughput((batch) => post('/v1/embeddings', { model, input: batch }));
  embedRows.push({ model, http, local });
}

await server.close();
rmSync(dataDir, { recursive: true, force: true });

// ---- Report ----------------------------------------------------------------------------------

const ms = (n: number): string => `${n.toFixed(2)} ms`;
const base50 = percentile(bm25, 50);
const rows: string[][] = [
  ['measure', 'p50', 'p95', 'target', 'baseline', 'ratio', 'ok'],
  ['index.retrieve BM25 (baseline)', ms(base50), ms(percentile(bm25, 95)), '', '', '1.0x', ''],
];
for (const [name, xs, target] of [
  ['POST /search, cold chunk vectors', searchCold, null],
  ['POST /search, repeated query (vectors cached)', search, 10],
  ['POST /chat/completions core', chat, 50],
] as const) {
  const p50 = percentile(xs, 50);
  rows.push([
    name,
    ms(p50),
    ms(percentile(xs, 95)),
    target === null ? '' : `p50 < ${target} ms`,
    `${ms(base50)} BM25`,
    `${(p50 / base50).toFixed(1)}x`,
    target === null ? '' : p50 < target ? 'yes' : 'NO',
  ]);
}
rows.push([
  `encoder: 1 unseen sentence (${embedder.engine})`,
  ms(msPerSentence),
  '',
  '',
  '',
  '',
  '',
]);
rows.push([
  `encoder: batches of 32 sentences (${embedder.engine})`,
  `${Math.round(sentencesPerSecond)} sentences/s`,
  '',
  '',
  '',
  '',
  '',
]);
for (const r of embedRows) {
  rows.push([
    `POST /v1/embeddings ${r.model}`,
    `${Math.round(r.http).toLocaleString('en-US')} tok/s`,
    '',
    '',
    `${Math.round(r.local).toLocaleString('en-US')} tok/s local`,
    `${(r.http / r.local).toFixed(2)}x`,
    '',
  ]);
}
const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => r[c]!.length)));
const line = (r: string[]): string => r.map((cell, c) => cell.padEnd(widths[c]!)).join(' | ');
console.log(
  `index: ${stats.documents.toLocaleString('en-US')} documents, ${stats.chunks.toLocaleString('en-US')} chunks, ` +
    `${vocabulary.length} words (Zipf), built in ${indexSeconds.toFixed(1)} s; ` +
    `${QUERIES} queries (${emptySearches} without results); embedder ${embedder.engine}; ${os.cpus().length} cores, ` +
    `load average ${os.loadavg()[0]!.toFixed(1)} at start of measuring ${loadAtStart.toFixed(1)}`,
);
console.log(line(rows[0]!));
console.log(widths.map((w) => '-'.repeat(w)).join('-|-'));
for (const r of rows.slice(1)) console.log(line(r));
