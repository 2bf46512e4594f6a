// Shared tools of the hardening suite: a server in a child process, /proc readings (resident
// memory, open descriptors, processes), and the shape checks every error answer must pass.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import type { ServerOptions } from '../../../src/server/index.js';
export { processesMentioning } from '../../support/processes.js';
export { waitFor } from '../../support/wait.js';

/** Repository root (children run from here so `tsx` resolves). */
export const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** True when the long soak variants run (`SVC_SOAK=1`). */
export const SOAK = process.env.SVC_SOAK === '1';

/** Two users, one key each. */
export const ALICE = 'svc_hard-alice-0123456789abcdefghijklmnop';
export const BOB = 'svc_hard-bob-0123456789abcdefghijklmnopqrs';
export const KEYS = [
  { key: ALICE, userId: 'alice' },
  { key: BOB, userId: 'bob' },
];

/** Rate limits high enough that no test here meets them by accident. */
export const NO_LIMITS = {
  chat: 1e6,
  async: 1e6,
  search: 1e6,
  embeddings: 1e6,
  browser: 1e6,
  auth: 1e6,
};

/** A server running in a child process. */
export interface ChildServer {
  url: string;
  pid: number;
  child: ChildProcess;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** SIGTERM (graceful close) and wait, SIGKILL after 15 s. */
  stop(): Promise<void>;
}

/** Runs a node script (`--import tsx`) from the repo root. */
export function spawnScript(file: string, args: string[]): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', file, ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** Resolves with the first stdout line of `child` parsed as JSON. */
export function firstLine<T>(child: ChildProcess, timeoutMs = 30_000): Promise<T> {
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    const timer = setTimeout(
      () => reject(new Error(`no output in ${timeoutMs} ms: ${err}`)),
      timeoutMs,
    );
    child.stderr?.on('data', (d: Buffer) => (err += d.toString()));
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      const nl = out.indexOf('\n');
      if (nl === -1) return;
      clearTimeout(timer);
      try {
        resolve(JSON.parse(out.slice(0, nl)) as T);
      } catch (error) {
        reject(error as Error);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`child exited (${code}) before a line: ${out} ${err}`));
    });
  });
}

/** Starts `server-child.ts` on `dataDir` with `options` (JSON-serialisable ones only). */
export async function startChildServer(
  dataDir: string,
  options: ServerOptions = {},
): Promise<ChildServer> {
  const child = spawnScript(fileURLToPath(new URL('./server-child.ts', import.meta.url)), [
    dataDir,
    JSON.stringify(options),
  ]);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((r) =>
    child.once('exit', (code, signal) => r({ code, signal })),
  );
  const line = await firstLine<{ url?: string; pid?: number; error?: string }>(child);
  if (!line.url || !line.pid) throw new Error(`server child failed: ${line.error}`);
  return {
    url: line.url,
    pid: line.pid,
    child,
    exited,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** Resident memory of `pid` in bytes (VmRSS). */
export function rssOf(pid: number): number {
  const kb = /^VmRSS:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return Number(kb) * 1024;
}

/** Open file descriptors of `pid`. */
export function fdCount(pid: number): number {
  return readdirSync(`/proc/${pid}/fd`).length;
}

/** Megabytes, one decimal, for reports. */
export const mb = (bytes: number): string => (bytes / 1024 / 1024).toFixed(1);

/** Parsed JSON a test inspects field by field. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = any;

/** A JSON call with a bearer key (`undefined`: no header). */
export async function call(
  base: string,
  key: string | undefined,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; headers: Headers; json: Json; text: string }> {
  const res = await fetch(base + path, {
    method,
    headers: {
      ...(key === undefined ? {} : { authorization: `Bearer ${key}` }),
      'content-type': 'application/json',
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  let json: Json;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, json, text };
}

/**
 * Asserts `body` is one of the two documented error shapes: the 422 detail body (each `loc` rooted
 * at body, query or path) or the error body `{error: {message, type, code}}`.
 */
export function expectErrorShape(status: number, body: Json, context: string): void {
  if (status === 422) {
    expect(Array.isArray(body?.detail), `${context}: 422 detail`).toBe(true);
    expect(body.detail.length, context).toBeGreaterThan(0);
    for (const d of body.detail) {
      expect(['body', 'query', 'path'], `${context}: loc ${JSON.stringify(d.loc)}`).toContain(
        d.loc?.[0],
      );
      expect(typeof d.msg, context).toBe('string');
      expect(typeof d.type, context).toBe('string');
    }
    return;
  }
  expect(typeof body?.error?.message, `${context}: error.message`).toBe('string');
  expect(typeof body?.error?.type, `${context}: error.type`).toBe('string');
  expect(typeof body?.error?.code, `${context}: error.code`).toBe('string');
}
