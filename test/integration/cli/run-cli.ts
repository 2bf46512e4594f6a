// Runs the real `svc` command as a child process, the way a user does (through tsx, no build).
import { execFile, spawn } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The project root: the CLI runs from here so `tsx` and the fixtures resolve. */
export const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** What one run printed and how it ended. */
export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** A fresh data dir for the embedded service. */
export function tempDataDir(): string {
  return mkdtempSync(path.join(os.tmpdir(), 'svc-cli-test-'));
}

/**
 * Runs `svc <args>` with `SVC_DATA_DIR` = `dataDir` and no remote service configured (unless
 * `env` sets one), and resolves when it exits.
 */
export function runCli(
  args: readonly string[],
  dataDir: string,
  env: Record<string, string> = {},
  timeout = 55_000,
): Promise<CliResult> {
  const childEnv = cliEnv(dataDir, env);
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'src/cli/main.ts', ...args],
      { cwd: ROOT, env: childEnv, timeout, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : null) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

/** Absolute path of a fixture under `test/fixtures/`. */
export function fixture(...parts: string[]): string {
  return path.join(ROOT, 'test', 'fixtures', ...parts);
}

function cliEnv(dataDir: string, env: Record<string, string>): NodeJS.ProcessEnv {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, SVC_DATA_DIR: dataDir, ...env };
  if (!('SVC_BASE_URL' in env)) delete childEnv.SVC_BASE_URL;
  if (!('SVC_API_KEY' in env)) delete childEnv.SVC_API_KEY;
  delete childEnv.SVC_LOG_LEVEL;
  return childEnv;
}

/** A running `svc` process whose output the test reads as it comes (for commands that wait). */
export interface CliProcess {
  child: ChildProcessWithoutNullStreams;
  /** Everything printed so far. */
  output(): { stdout: string; stderr: string };
  /** Resolves once stdout matches `pattern`; rejects when the process exits first. */
  waitForStdout(pattern: RegExp): Promise<RegExpExecArray>;
  /** Resolves with the exit code. */
  exited: Promise<number | null>;
}

/** Starts `svc <args>` like {@link runCli}, without waiting for it to end. */
export function spawnCli(args: readonly string[], dataDir: string): CliProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', ...args], {
    cwd: ROOT,
    env: cliEnv(dataDir, {}),
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (s: string) => (stdout += s));
  child.stderr.setEncoding('utf8').on('data', (s: string) => (stderr += s));
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => resolve(code)),
  );
  return {
    child,
    output: () => ({ stdout, stderr }),
    exited,
    waitForStdout: (pattern) =>
      new Promise((resolve, reject) => {
        const check = (): void => {
          const m = pattern.exec(stdout);
          if (m) {
            child.stdout.off('data', check);
            resolve(m);
          }
        };
        child.stdout.on('data', check);
        void exited.then(() =>
          reject(new Error(`svc exited before printing ${pattern}:\n${stderr}`)),
        );
        check();
      }),
  };
}
