// Helpers of the session-manager tests: loopback pages, process counting, a cuttable TCP relay.
import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
export { alive } from '../../support/processes.js';
export { waitFor } from '../../support/wait.js';

/** Two users' keys for the embedded server. */
export const KEY = 'svc_test-sessions-0123456789abcdefghijklmn';
export const KEYS = [{ key: KEY, userId: 'sessions' }];

/** A fresh temp dir whose path the test later counts processes by. */
export function tempDir(prefix: string): string {
  return mkdtempSync(path.join(os.tmpdir(), prefix));
}

/** A loopback server: `/<anything>` is a page titled `Page <anything>`; `/alert` opens an alert. */
export async function pageServer(): Promise<{
  url: string;
  hits: () => number;
  close(): Promise<void>;
}> {
  let hits = 0;
  const server = http.createServer((req, res) => {
    hits++;
    const name = decodeURIComponent((req.url ?? '/').slice(1)) || 'index';
    res.setHeader('content-type', 'text/html; charset=utf-8');
    const script = name === 'alert' ? '<script>alert("hello")</script>' : '';
    res.end(`<!doctype html><title>Page ${name}</title><h1>Hello ${name}</h1>${script}`);
  });
  server.keepAliveTimeout = 1;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    hits: () => hits,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/** Pids of live (non-zombie) processes whose command line contains `needle`. */
export function processesMentioning(needle: string): number[] {
  const pids: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    try {
      const cmdline = readFileSync(`/proc/${name}/cmdline`, 'utf8');
      const state = /^State:\s+(\w)/m.exec(readFileSync(`/proc/${name}/status`, 'utf8'))?.[1];
      if (state !== 'Z' && cmdline.includes(needle)) pids.push(Number(name));
    } catch {
      // The process ended while we looked.
    }
  }
  return pids;
}

/**
 * A TCP relay to `target` (host:port) that can drop every connection at once (a lost socket with
 * the browser still running) or stop forwarding while keeping sockets open (a hung peer).
 */
export async function tcpRelay(target: { host: string; port: number }): Promise<{
  port: number;
  cut(): void;
  stall(): void;
  close(): Promise<void>;
}> {
  const sockets = new Set<net.Socket>();
  let stalled = false;
  const server = net.createServer((client) => {
    const upstream = net.connect(target.port, target.host);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => s.destroy());
    }
    client.on('data', (d) => void (stalled || upstream.write(d)));
    upstream.on('data', (d) => void (stalled || client.write(d)));
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    port: (server.address() as AddressInfo).port,
    cut() {
      for (const s of sockets) s.destroy();
    },
    stall() {
      stalled = true;
    },
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}
