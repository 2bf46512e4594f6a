// Every fenced TypeScript block of README.md runs as written, each as its own program, against the
// embedded service that `svc serve` runs on a fresh data dir. Only two things are rewritten: the
// package name (resolved to this checkout's sources) and the addresses of the outside world
// (example.com pages are served on loopback; 127.0.0.1:8787 is the port this test's service got).
import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pageServer } from '../browser-sessions/helpers.js';
import { fixture, ROOT, runCli, spawnCli, tempDataDir } from '../cli/run-cli.js';
import type { CliProcess } from '../cli/run-cli.js';
import { localKey } from './support.js';

const README = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
const BLOCKS = [...README.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((m, i) => ({
  name: `block ${i + 1}: ${/^\/\/ (.+)$|^const .+$/m.exec(m[1]!)?.[0]?.slice(0, 60) ?? ''}`,
  code: m[1]!,
}));

const SOURCES: Record<string, string> = {
  'svc-toolkit': 'src/index.ts',
  'svc-toolkit/recipes': 'recipes/index.ts',
  'svc-toolkit/server': 'src/server/index.ts',
  'svc-toolkit/protocol': 'src/protocol/index.ts',
  'svc-toolkit/testing': 'src/testing/index.ts',
};

let dataDir: string;
let workDir: string;
let serve: CliProcess;
let serviceUrl: string;
let pages: Array<{ url: string; close(): Promise<void> }>;

beforeAll(async () => {
  dataDir = tempDataDir();
  // Inside the checkout (an ignored folder), so `openai` and the hosted SDK resolve as in a project.
  workDir = path.join(ROOT, '.scratch', `readme-${process.pid}`);
  mkdirSync(workDir, { recursive: true });
  const indexed = await runCli(
    ['index', path.join(ROOT, 'node_modules', 'undici', 'docs'), fixture('corpus', 'web')],
    dataDir,
  );
  expect(indexed.code).toBe(0);
  pages = await Promise.all([pageServer('Example Domain'), pageServer('Example Org')]);
  serve = spawnCli(['serve', '--port', '0'], dataDir);
  serviceUrl = (await serve.waitForStdout(/listening on (http:\/\/\S+)/))[1]!;
}, 180_000);

afterAll(async () => {
  serve?.child.kill('SIGINT');
  await serve?.exited;
  await Promise.all((pages ?? []).map((p) => p.close()));
  rmSync(workDir, { recursive: true, force: true });
  rmSync(dataDir, { recursive: true, force: true });
});

function rewrite(code: string): string {
  return code
    .replace(/from '(svc-toolkit(?:\/\w+)?)'/g, (whole, name: string) =>
      SOURCES[name] ? `from '${path.join(ROOT, SOURCES[name])}'` : whole,
    )
    .replaceAll('https://example.com/article', `${pages[0]!.url}article`)
    .replaceAll('https://example.com', pages[0]!.url.replace(/\/$/, ''))
    .replaceAll('https://example.org', pages[1]!.url.replace(/\/$/, ''))
    .replaceAll('http://127.0.0.1:8787', serviceUrl);
}

function run(file: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    SVC_DATA_DIR: dataDir,
    SVC_API_KEY: localKey(dataDir),
  };
  delete env.SVC_BASE_URL;
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', file],
      { cwd: workDir, env, timeout: 280_000, maxBuffer: 32 * 1024 * 1024 },
      (error, stdout, stderr) =>
        resolve({
          code: error ? (typeof error.code === 'number' ? error.code : null) : 0,
          stdout,
          stderr,
        }),
    );
  });
}

/** The curl commands of the README (continuation lines joined). */
const CURLS = [...README.matchAll(/^```sh\n([\s\S]*?)^```$/gm)]
  .flatMap((m) => m[1]!.replace(/\\\n\s*/g, ' ').split('\n'))
  .filter((line) => line.startsWith('curl '));

describe('README.md curl examples', () => {
  it('lists the models and answers a chat request', async () => {
    expect(CURLS.length).toBeGreaterThanOrEqual(2);
    for (const line of CURLS) {
      const out = await new Promise<string>((resolve, reject) =>
        execFile(
          'bash',
          ['-c', line.replaceAll('http://127.0.0.1:8787', serviceUrl)],
          { env: { ...process.env, SVC_API_KEY: localKey(dataDir) }, timeout: 60_000 },
          (error, stdout) => (error ? reject(error) : resolve(stdout)),
        ),
      );
      const body = JSON.parse(out) as { object?: string; data?: unknown[]; choices?: unknown[] };
      if (line.includes('/models')) expect(body.data).toHaveLength(4);
      else expect(body.choices).toHaveLength(1);
    }
  }, 120_000);
});

describe('README.md TypeScript snippets', () => {
  it('has the snippets this test runs', () => {
    expect(BLOCKS.length).toBeGreaterThanOrEqual(5);
  });

  it.each(BLOCKS.map((b, i) => [b.name, i] as const))(
    '%s runs as written',
    async (_name, i) => {
      const file = path.join(workDir, `snippet-${i + 1}.mts`);
      writeFileSync(file, rewrite(BLOCKS[i]!.code));
      const res = await run(file);
      expect(res.stderr).not.toMatch(/^\s+at /m); // no uncaught error
      expect(res.code).toBe(0);
      expect(res.stdout.trim().length).toBeGreaterThan(0);
    },
    300_000,
  );
});
