/**
 * `npm run demo`: the whole toolkit offline in under a minute. Starts the embedded service, indexes
 * the Markdown documentation shipped inside the installed dependencies, asks a question those docs
 * answer, checks every citation in a real browser (passage found, highlighted, shot) and writes
 * `out/report.html` + `out/report.json`.
 *
 * Options: `--question "..."`, `--out out`, `--pool 2`, `--temp` (fresh temporary data dir instead
 * of `.svc-demo`, which keeps the index between runs), `--provider local|api`.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client, defineCommand, EXIT, runCommand } from '../src/index.js';
import { startServer } from '../src/server/index.js';
import { citeAndCapture } from './cite-and-capture.js';
import { citationTable, isMain } from './support/script.js';

/** Defaults of the demo. */
export const DEMO_DEFAULTS = {
  question: 'How do I retry failed requests with undici?',
  outDir: 'out',
  dataDir: '.svc-demo',
  poolSize: 2,
  /** Most files indexed: enough to make retrieval real, few enough to index in seconds. */
  maxFiles: 160,
  /** READMEs shorter than this say little (badges, a link): skipped. */
  minReadmeBytes: 1_500,
} as const;

/** Packages whose docs the question is about: always in the collection when installed. */
const CORE_DOCS = [
  'playwright-core/README.md',
  'puppeteer-core/README.md',
  'chromium-bidi/README.md',
  'devtools-protocol/README.md',
  'zod/README.md',
  'hono/README.md',
  'undici/README.md',
  'ws/README.md',
];

/**
 * The document collection: the core READMEs above, every Markdown file under `undici/docs`, then
 * other packages' READMEs (largest first) up to `maxFiles`.
 */
export function collectDocs(
  root = 'node_modules',
  maxFiles: number = DEMO_DEFAULTS.maxFiles,
): string[] {
  const picked = new Set<string>();
  const add = (file: string) => {
    if (picked.size < maxFiles && existsSync(file)) picked.add(path.resolve(file));
  };
  for (const f of CORE_DOCS) add(path.join(root, f));
  const walk = (dir: string): void => {
    if (!existsSync(dir)) return;
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.md')) add(p);
    }
  };
  walk(path.join(root, 'undici', 'docs'));
  const readmes: { file: string; size: number }[] = [];
  for (const e of readdirSync(root, { withFileTypes: true })) {
    if (!e.isDirectory() || e.name.startsWith('.')) continue;
    const dirs = e.name.startsWith('@')
      ? readdirSync(path.join(root, e.name)).map((n) => path.join(root, e.name, n))
      : [path.join(root, e.name)];
    for (const d of dirs) {
      const file = path.join(d, 'README.md');
      if (!existsSync(file)) continue;
      const size = statSync(file).size;
      if (size >= DEMO_DEFAULTS.minReadmeBytes) readmes.push({ file, size });
    }
  }
  readmes.sort((a, b) => b.size - a.size);
  for (const r of readmes) add(r.file);
  return [...picked];
}

const command = defineCommand({
  name: 'demo',
  program: 'tsx recipes/demo.ts',
  summary: 'index the docs in node_modules, ask a question, and capture the evidence',
  usage: 'npm run demo -- [options]',
  options: {
    question: {
      type: 'string',
      arg: '<q>',
      help: `the question (default "${DEMO_DEFAULTS.question}")`,
    },
    out: {
      type: 'string',
      arg: '<dir>',
      help: `where the report goes (default ${DEMO_DEFAULTS.outDir})`,
    },
    pool: {
      type: 'string',
      arg: '<n>',
      help: `browser sessions working at once (default ${DEMO_DEFAULTS.poolSize})`,
    },
    temp: { type: 'boolean', help: 'use a temporary data dir, removed at the end' },
    provider: {
      type: 'string',
      arg: '<p>',
      help: 'local (default) or api: where browsers come from',
    },
  },
  examples: ['npm run demo', 'npm run demo -- --temp --pool 4'],
  async run({ values }) {
    const question = values.question ?? DEMO_DEFAULTS.question;
    const started = performance.now();
    const ms = () => Math.round(performance.now() - started);
    const dataDir = values.temp
      ? mkdtempSync(path.join(os.tmpdir(), 'svc-demo-'))
      : path.resolve(DEMO_DEFAULTS.dataDir);
    const quiet = { debug() {}, info() {}, warn() {}, error() {} };
    // The data dir's local key: reused from run to run, so keys do not pile up.
    const server = await startServer({ port: 0, dataDir, logger: quiet });
    const client = new Client({ baseURL: server.url, apiKey: server.apiKey });
    try {
      const files = collectDocs();
      console.log(`service ${server.url} (data ${dataDir}), started at ${ms()} ms`);
      const indexed = await server.engines.index.indexPaths(files);
      const stats = server.engines.index.stats();
      console.log(
        `indexed ${files.length} files from node_modules (added ${indexed.added}, updated ${indexed.updated}, unchanged ${indexed.skipped}, failed ${indexed.failed.length}): ${stats.documents} documents, ${stats.chunks} chunks, at ${ms()} ms`,
      );
      console.log(`\nQ: ${question}`);
      let lastLine = '';
      const result = await citeAndCapture(question, {
        client,
        model: 'core',
        poolSize: Number(values.pool ?? DEMO_DEFAULTS.poolSize),
        provider: values.provider === 'api' ? 'api' : 'local',
        outDir: values.out ?? DEMO_DEFAULTS.outDir,
        title: 'svc-toolkit demo',
        onProgress: (e) => {
          if (e.type === 'sources') lastLine = `sources known at ${e.atMs} ms: ${e.urls.length}`;
          if (e.type === 'citation') {
            process.stdout.write(`\r  ${e.done}/${e.total} citations checked  (${lastLine})   `);
          }
        },
      });
      console.log(`\n\nA: ${result.answer}\n`);
      console.log(citationTable(result.citations, result.summary));
      console.log(
        `\nanswer complete at ${result.timings.answerMs} ms after asking; evidence ${result.timings.evidenceMs} ms`,
      );
      console.log(`report: ${path.resolve(result.report!.html)}`);
      console.log(`json:   ${path.resolve(result.report!.json)}`);
      console.log(`demo finished in ${(ms() / 1000).toFixed(1)} s`);
      return result.citations.length > 0 ? EXIT.ok : EXIT.failure;
    } finally {
      await client.close();
      await server.close();
      if (values.temp) rmSync(dataDir, { recursive: true, force: true });
    }
  },
});

if (isMain(import.meta.url)) void runCommand(command);
