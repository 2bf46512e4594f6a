import http from 'node:http';
import type { AddressInfo } from 'node:net';
import WebSocket from 'ws';
import type { TestServer } from '../../support/server.js';
export { processesMentioning, waitFor } from '../../support/processes.js';

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
