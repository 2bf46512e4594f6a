// What the commands print must be true: resume commands that work as printed, `sessions rm` that
// does not claim to stop what had already ended.
import { execFile } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '../../../src/client/index.js';
import { waitFor } from '../../support/wait.js';
import { fixture, ROOT, runCli, spawnCli, tempDataDir } from '../cli/run-cli.js';
import { localKey } from './support.js';

let dataDir: string;
let elsewhere: string;

beforeAll(async () => {
  dataDir = tempDataDir();
  elsewhere = tempDataDir();
  const indexed = await runCli(['index', fixture('corpus', 'web')], dataDir);
  expect(indexed.code).toBe(0);
}, 90_000);

afterAll(() => {
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(elsewhere, { recursive: true, force: true });
});

/** `svc a b c` as printed, split into arguments (the data dirs here hold no spaces). */
const argsOf = (printed: string): string[] => printed.trim().split(/\s+/).slice(1);

describe('svc research --resume', () => {
  it('the resume command printed on Ctrl-C works as printed, from a shell with another data dir', async () => {
    const research = spawnCli(['research', 'compare', 'LFP', 'and', 'NMC', 'ageing'], dataDir);
    expect(await waitFor(() => /svc: job \S+/.test(research.output().stderr), 30_000)).toBe(true);
    research.child.kill('SIGINT');
    expect(await research.exited).toBe(130);
    const printed = /resume with: (svc research .+)$/m.exec(research.output().stderr)?.[1];
    expect(printed).toContain(`--data-dir ${dataDir}`);

    // SVC_DATA_DIR points elsewhere: only the printed --data-dir finds the job.
    const resumed = await runCli(argsOf(printed!), elsewhere, {}, 110_000);
    expect(resumed.stderr).not.toMatch(/not found/i);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stdout).toMatch(/\[\d+\]/);
  }, 180_000);

  it('takes the short id the status line shows', async () => {
    const done = await runCli(
      ['research', 'how', 'do', 'grid', 'batteries', 'affect', 'prices'],
      dataDir,
    );
    expect(done.code).toBe(0);
    const id = /svc: job (\S+)/.exec(done.stderr)?.[1];
    expect(id).toBeDefined();
    const short = id!.slice(0, 8);
    expect(done.stderr).toContain(`research ${short}:`);
    const resumed = await runCli(['research', '--resume', short], dataDir);
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toBe(done.stdout);
  }, 120_000);
});

describe('svc sessions rm', () => {
  it('says an ended session had already ended instead of "stopped"', async () => {
    const serve = spawnCli(['serve', '--port', '0'], dataDir);
    try {
      const url = (await serve.waitForStdout(/listening on (http:\/\/\S+)/))[1]!;
      const client = new Client({ baseURL: url, apiKey: localKey(dataDir), maxRetries: 0 });
      const session = await client.browser.sessions.create({});
      await client.browser.sessions.delete(session.session_id);
      await client.close();

      const rm = await runCli(['sessions', 'rm', session.session_id], dataDir);
      expect(rm.code).toBe(0);
      expect(rm.stdout).not.toMatch(/^stopped/m);
      expect(rm.stdout).toContain(`${session.session_id} had already ended (stopped)`);
    } finally {
      serve.child.kill('SIGINT');
      await serve.exited;
    }
  }, 60_000);
});

describe('library use', () => {
  it('connect() prints no log lines on stderr unless SVC_LOG_LEVEL asks', async () => {
    const dir = path.join(ROOT, '.scratch', `quiet-${process.pid}`);
    mkdirSync(dir, { recursive: true });
    const script = path.join(dir, 'quiet.mts');
    writeFileSync(
      script,
      `import { connect } from '${path.join(ROOT, 'src', 'index.ts')}';\n` +
        `const { client, close } = await connect();\n` +
        `const found = await client.search.create({ query: 'battery recycling' });\n` +
        `console.log(found.results.length);\n` +
        `await close();\n`,
    );
    const run = (env: Record<string, string>) =>
      new Promise<{ stdout: string; stderr: string }>((resolve, reject) => {
        const childEnv: NodeJS.ProcessEnv = { ...process.env, SVC_DATA_DIR: elsewhere, ...env };
        delete childEnv.SVC_BASE_URL;
        if (!('SVC_LOG_LEVEL' in env)) delete childEnv.SVC_LOG_LEVEL;
        execFile(
          process.execPath,
          ['--import', 'tsx', script],
          { cwd: ROOT, env: childEnv, timeout: 60_000 },
          (error, stdout, stderr) => (error ? reject(error) : resolve({ stdout, stderr })),
        );
      });
    try {
      const quiet = await run({});
      expect(quiet.stdout.trim()).toMatch(/^\d+$/);
      expect(quiet.stderr).toBe('');
      const asked = await run({ SVC_LOG_LEVEL: 'info' });
      expect(asked.stderr).toContain('"msg":"server listening"');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 90_000);
});
