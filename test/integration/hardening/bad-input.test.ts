// Bad input, generated: thousands of malformed and boundary requests to every route of ROUTES (and
// the public `/docs/{id}` and the CDP upgrade) against a real server in a child process. Every
// answer is a 4xx in the documented shape (422 at the exact `loc` the shared schema names, or the
// error body), never a 5xx; the server stays up and its resident memory stays flat.
import fs from 'node:fs';
import http from 'node:http';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTES } from '../../../src/protocol/index.js';
import type { RouteDef } from '../../../src/protocol/index.js';
import { tempDir } from '../../support/server.js';
import { bodyCases, deepArray, oracle, pathCases } from './fuzz-gen.js';
import type { Case } from './fuzz-gen.js';
import { closeRawAgent, rawRequest } from './raw-http.js';
import {
  ALICE,
  KEYS,
  NO_LIMITS,
  SOAK,
  expectErrorShape,
  mb,
  rssOf,
  startChildServer,
} from './support.js';
import type { ChildServer } from './support.js';

/** Body limit of the fuzzed server: small, so oversize bodies are cheap to send. */
const MAX_BODY = 1024 * 1024;
/** Runs per route: ~13 routes x RUNS + fixed cases = the request count reported. */
const RUNS = SOAK ? 3_000 : 300;
/** Per-test time limit: the soak runs ten times the requests. */
const LIMIT = SOAK ? 900_000 : 60_000;

let server: ChildServer;
let dataDir: string;
let sent = 0;
const statuses = new Map<number, number>();

async function check(c: Case): Promise<void> {
  const res = await rawRequest(server.url, {
    ...c.request,
    headers: { authorization: `Bearer ${ALICE}`, ...c.request.headers },
  }).catch((error: Error) => {
    throw new Error(
      `${c.request.method} ${c.request.path.slice(0, 120)} (${c.request.body?.length ?? 0} B): ${error.message}`,
    );
  });
  sent++;
  statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
  const context = `${c.request.method} ${c.request.path.slice(0, 120)} -> ${res.status} ${res.text.slice(0, 300)}`;
  expect(res.status, context).toBeLessThan(500);
  if (c.expect) {
    expect(res.status, context).toBe(c.expect.status);
  }
  if (res.status < 400) return;
  let body: unknown;
  try {
    body = JSON.parse(res.text);
  } catch {
    throw new Error(`${context}: the body is not JSON`);
  }
  expectErrorShape(res.status, body, context);
  if (c.expect?.loc) {
    expect((body as { detail: { loc: unknown[] }[] }).detail[0]!.loc, context).toEqual(
      c.expect.loc,
    );
  }
}

beforeAll(async () => {
  dataDir = tempDir('svc-hard-fuzz-');
  server = await startChildServer(dataDir, {
    apiKeys: KEYS,
    warmPoolSize: 0,
    maxSessions: 2,
    maxBodyBytes: MAX_BODY,
    rateLimits: NO_LIMITS,
    jobConcurrency: 1,
  });
});

afterAll(async () => {
  closeRawAgent();
  await server?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('malformed and boundary requests', () => {
  const routes = Object.values(ROUTES) as RouteDef[];
  let rssStart = 0;

  // Setup, not a test: one pass of each kind first, so lazily loaded code (tokenizer, schemas) is
  // in the resident memory baseline the last test compares against.
  beforeAll(async () => {
    for (const route of routes.filter((r) => r.body)) {
      for (const c of fc.sample(bodyCases(route.id, MAX_BODY), 20)) {
        if (route.id !== 'browser.sessions.create' || c.expect) await check(c);
      }
    }
    rssStart = rssOf(server.pid);
  }, LIMIT);

  for (const route of routes.filter((r) => r.body)) {
    it(
      `POST ${route.path} (${route.id}) answers every generated body with 4xx in shape, or success`,
      async () => {
        await fc.assert(
          fc.asyncProperty(bodyCases(route.id, MAX_BODY), async (c) => {
            // A valid session-create body would launch Chromium: the fuzz keeps to refused ones.
            fc.pre(route.id !== 'browser.sessions.create' || c.expect !== undefined);
            await check(c);
          }),
          { numRuns: RUNS, endOnFailure: true },
        );
      },
      LIMIT,
    );
  }

  for (const route of routes.filter((r) => !r.body)) {
    it(
      `${route.method} ${route.path} (${route.id}) refuses bad ids and query strings with 4xx in shape`,
      async () => {
        await fc.assert(
          fc.asyncProperty(pathCases(route.id), async (c) => {
            await check(c);
          }),
          { numRuns: Math.ceil(RUNS / 2), endOnFailure: true },
        );
      },
      LIMIT,
    );
  }

  it('refuses deep nesting, huge, oversized and non-JSON bodies at the exact loc', async () => {
    const post = (path: string, body: Buffer, type = 'application/json'): Case => {
      const route = (Object.values(ROUTES) as RouteDef[]).find((r) => r.path === path && r.body)!;
      const expected = oracle(route.body!, body, MAX_BODY, route.id);
      return {
        route: route.id,
        request: { method: 'POST', path, headers: { 'content-type': type }, body },
        ...(expected ? { expect: expected } : {}),
      };
    };
    const cases: Case[] = [
      post('/chat/completions', Buffer.from(deepArray)),
      post('/chat/completions', Buffer.from(`{"model":"core","messages":${deepArray}}`)),
      // A schema that is JSON of any depth is accepted by the request schema: the answerer must cope.
      post(
        '/chat/completions',
        Buffer.from(
          `{"model":"core","messages":[{"role":"user","content":"x"}],"response_format":{"type":"json_schema","json_schema":{"schema":{"type":"object","properties":{"a":${'{"type":"array","items":'.repeat(2_000)}{"type":"string"}${'}'.repeat(2_000)}}}}}}`,
        ),
      ),
      post('/search', Buffer.from(`{"query":${deepArray}}`)),
      post('/v1/embeddings', Buffer.from(`{"model":"svc-embed-v1-0.6b","input":${deepArray}}`)),
      post('/search', Buffer.alloc(MAX_BODY + 1, 0x20)),
      post(
        '/v1/embeddings',
        Buffer.from(JSON.stringify({ model: 'svc-embed-v1-0.6b', input: 'a '.repeat(400_000) })),
      ),
      post('/search', Buffer.from([0xff, 0xfe, 0xfd])),
      post('/search', Buffer.from('query=x'), 'application/x-www-form-urlencoded'),
      post('/v1/browser/sessions', Buffer.from('{"viewport":{"width":1e400}}')),
      post('/revoke_auth_token', Buffer.from('')),
    ];
    for (const c of cases) await check(c);
    // No content-type header and no body at all.
    await check({
      route: 'search.create',
      request: { method: 'POST', path: '/search' },
      expect: { status: 422, loc: ['body'] },
    });
  });

  it(
    'refuses malformed CDP upgrades and bad /docs links with the error body',
    async () => {
      const upgrade = (path: string): Promise<number> =>
        new Promise((resolve, reject) => {
          const u = new URL(server.url);
          const req = http.request({
            host: u.hostname,
            port: u.port,
            path,
            headers: {
              connection: 'Upgrade',
              upgrade: 'websocket',
              'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==',
              'sec-websocket-version': '13',
              authorization: `Bearer ${ALICE}`,
            },
          });
          req.on('upgrade', (_res, socket) => {
            socket.destroy();
            resolve(101);
          });
          req.on('response', (res) => {
            let text = '';
            res.on('data', (d: Buffer) => (text += d.toString()));
            res.on('end', () => {
              expectErrorShape(res.statusCode ?? 0, JSON.parse(text), path);
              resolve(res.statusCode ?? 0);
            });
          });
          req.on('error', reject);
          req.end();
        });
      for (const id of ['%ZZ', '..', 'x'.repeat(5000), '00000000-0000-0000-0000-000000000000']) {
        for (const q of ['', '?token=', '?token=%ZZ', `?token=${'t'.repeat(3000)}`]) {
          const status = await upgrade(`/v1/browser/sessions/${id}/cdp${q}`);
          sent++;
          expect([401, 404]).toContain(status);
        }
      }
      await fc.assert(
        fc.asyncProperty(
          fc.string({ maxLength: 80 }),
          fc.string({ maxLength: 40 }),
          async (id, sig) => {
            await check({
              route: 'docs',
              request: {
                method: 'GET',
                path: `/docs/${encodeURIComponent(id || 'x')}?sig=${encodeURIComponent(sig)}`,
              },
              expect: { status: 404 },
            });
          },
        ),
        { numRuns: Math.ceil(RUNS / 2) },
      );
    },
    LIMIT,
  );

  it('is still up, and its resident memory stayed flat', async () => {
    const res = await rawRequest(server.url, {
      method: 'GET',
      path: '/v1/browser/sessions',
      headers: { authorization: `Bearer ${ALICE}` },
    });
    expect(res.status).toBe(200);
    expect(server.child.exitCode).toBeNull();
    const rssEnd = rssOf(server.pid);
    const summary = [...statuses.entries()]
      .sort()
      .map(([s, n]) => `${s}:${n}`)
      .join(' ');
    console.log(
      `[hardening] fuzz: ${sent} requests, 5xx: ${[...statuses.keys()].filter((s) => s >= 500).length}, statuses ${summary}; server rss ${mb(rssStart)} MB -> ${mb(rssEnd)} MB`,
    );
    expect([...statuses.keys()].every((s) => s < 500)).toBe(true);
    // Flat: one request's transient buffers at most, not a growth per request.
    expect(rssStart, 'the baseline was taken after the warm-up').toBeGreaterThan(0);
    expect(rssEnd - rssStart).toBeLessThan(96 * 1024 * 1024);
  });
});
