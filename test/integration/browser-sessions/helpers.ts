import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';
import { GridBackend } from '../../../src/server/engines/browsers/grid-backend.js';
import { gridSessionIds } from '../../support/grid.js';
import { processesMentioning } from '../../support/processes.js';
import { TEST_BROWSER_BACKEND_ENV } from '../../support/server.js';
import type { TestServer } from '../../support/server.js';
export { processesMentioning } from '../../support/processes.js';
export { waitFor } from '../../support/wait.js';

/** True in the `integration-grid` project: test servers run their browsers on a Selenium Grid. */
export const ON_GRID = process.env[TEST_BROWSER_BACKEND_ENV] === 'grid';

/** The Grid URL of a Grid-backed server, undefined for local Chromium. */
function gridOf(server: TestServer): string | undefined {
  const { backend } = server.engines.browsers;
  return backend instanceof GridBackend ? backend.client.safeUrl : undefined;
}

/** Grid session ids ever seen in a data dir's ledger, by our session id (kept once deleted). */
const gridIdsSeen = new Map<string, Map<string, string>>();

/**
 * The browsers of `server` still running (of session `sessionId`, or all): local Chromium main
 * processes (no `--type=` helper) whose command line names the session or the data dir; on a
 * Grid, the Grid sessions the server ever recorded as its own (`<dataDir>/grid-sessions/`) that
 * the Grid itself still reports open. Either way a real check of what holds a browser, not of
 * the server's records alone.
 */
export async function liveBrowsers(server: TestServer, sessionId?: string): Promise<string[]> {
  const grid = gridOf(server);
  if (grid === undefined) {
    return processesMentioning(sessionId ?? server.dataDir)
      .filter((pid) => {
        try {
          return !readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('--type=');
        } catch {
          return false;
        }
      })
      .map(String);
  }
  let seen = gridIdsSeen.get(server.dataDir);
  if (!seen) gridIdsSeen.set(server.dataDir, (seen = new Map()));
  const dir = path.join(server.dataDir, 'grid-sessions');
  let names: string[] = [];
  try {
    names = readdirSync(dir);
  } catch {
    // No Grid session recorded (yet, or any more).
  }
  for (const name of names.filter((n) => n.endsWith('.json'))) {
    try {
      const entry = JSON.parse(readFileSync(path.join(dir, name), 'utf8')) as {
        browserId: string;
        sessionId: string;
      };
      seen.set(entry.browserId, entry.sessionId);
    } catch {
      // Removed while we read it.
    }
  }
  const open = new Set(await gridSessionIds(grid));
  return [...seen]
    .filter(([ours, grid]) => (sessionId === undefined || ours === sessionId) && open.has(grid))
    .map(([, grid]) => grid);
}

/** Two users, one key each. */
export const ALICE = 'svc_test-alice-0123456789abcdefghijklmnop';
export const BOB = 'svc_test-bob-0123456789abcdefghijklmnopqrs';
export const KEYS = [
  { key: ALICE, userId: 'alice' },
  { key: BOB, userId: 'bob' },
];

/** Parsed JSON bodies: tests check their shape with the protocol schemas or by field. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = any;

/** A JSON call to the server with a bearer key. */
export async function api(
  server: TestServer,
  key: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; headers: Headers; json: Json }> {
  const res = await fetch(server.url + path, {
    method,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, json: text ? JSON.parse(text) : undefined };
}

/** A loopback page server: `/` is an HTML page titled `title`. */
export async function pageServer(
  title = 'Loopback fixture',
): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((_req, res) => {
    res.setHeader('content-type', 'text/html; charset=utf-8');
    res.end(
      `<!doctype html><title>${title}</title><h1 style="color:#c00">Hello from loopback</h1>`,
    );
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/** Tries a WebSocket upgrade; resolves with the refusal status, or 101 when it opened. */
export function tryUpgrade(
  url: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers });
    ws.once('open', () => {
      ws.close();
      resolve({ status: 101, body: '' });
    });
    ws.once('unexpected-response', (_req, res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    ws.once('error', (error) => {
      if (!String(error.message).includes('Unexpected server response')) reject(error);
    });
  });
}

/** Sends one CDP command over a raw WebSocket and returns its result. */
export function cdpCall(url: string, method: string): Promise<Json> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url);
    ws.once('error', reject);
    ws.once('open', () => ws.send(JSON.stringify({ id: 1, method })));
    ws.on('message', (data) => {
      const msg = JSON.parse(String(data));
      if (msg.id !== 1) return;
      ws.close();
      if (msg.error) reject(new Error(msg.error.message));
      else resolve(msg.result);
    });
  });
}

/**
 * Ends session `sessionId`'s Grid session behind the server's back (WebDriver delete straight to
 * the Grid), as a lost node or a Grid operator would: the Grid-side equivalent of SIGKILLing a
 * local browser.
 */
export async function deleteOnGrid(server: TestServer, sessionId: string): Promise<void> {
  const entry = JSON.parse(
    readFileSync(path.join(server.dataDir, 'grid-sessions', `${sessionId}.json`), 'utf8'),
  ) as { sessionId: string };
  const res = await fetch(`${gridOf(server)!}/session/${entry.sessionId}`, {
    method: 'DELETE',
  });
  if (!res.ok) throw new Error(`Grid delete answered ${res.status}`);
}

/**
 * A server in its own process (serve-child.ts) on `dataDir` with `env` added, pushed on `children`
 * at once (for the caller's cleanup); resolves with the child and its URL once it prints it,
 * rejects if it exits first.
 */
export async function serveChild(
  dataDir: string,
  env: NodeJS.ProcessEnv,
  children: ChildProcess[],
): Promise<{ child: ChildProcess; url: string }> {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(here, 'serve-child.ts'), dataDir],
    { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, ...env } },
  );
  children.push(child);
  const url = new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (line) resolve((JSON.parse(line) as { url: string }).url);
    });
    child.once('exit', (code) => reject(new Error(`server child exited with ${code}`)));
  });
  return { child, url: await url };
}
