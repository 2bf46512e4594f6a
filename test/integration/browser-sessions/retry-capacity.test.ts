// Session creation as clients really send it: no body at all (the hosted service's own SDK),
// retried with an Idempotency-Key (sequentially, concurrently, and by our client after a lost
// answer), and the capacity figures schedulers read.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Perplexity from '@perplexity-ai/perplexity_ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '../../../src/client/index.js';
import { BrowserCapacitySchema, BrowserSessionSchema } from '../../../src/protocol/index.js';
import { startTestServer } from '../../support/server.js';
import type { TestServer } from '../../support/server.js';
import { ALICE, BOB, KEYS, api, liveBrowsers, waitFor } from './helpers.js';

async function running(server: TestServer, key: string): Promise<string[]> {
  const { json } = await api(server, key, 'GET', '/v1/browser/sessions');
  return (json.sessions as { session_id: string; status: string }[])
    .filter((s) => s.status === 'running')
    .map((s) => s.session_id);
}

async function deleteAll(server: TestServer): Promise<void> {
  for (const key of [ALICE, BOB]) {
    for (const id of await running(server, key))
      await api(server, key, 'DELETE', `/v1/browser/sessions/${id}`);
  }
  await waitFor(async () => (await liveBrowsers(server)).length === 0);
}

function create(
  server: TestServer,
  key: string,
  headers: Record<string, string>,
  body?: string,
): Promise<Response> {
  return fetch(`${server.url}/v1/browser/sessions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, ...headers },
    ...(body === undefined ? {} : { body }),
  });
}

describe('session create without a body', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ apiKeys: KEYS, maxSessions: 3 });
  });
  afterAll(async () => {
    await server?.dispose();
  });

  it('treats a POST with no body and no content type as {}', async () => {
    const res = await create(server, ALICE, {});
    expect(res.status).toBe(200);
    const session = BrowserSessionSchema.parse(await res.json());
    expect(session.status).toBe('running');
    await api(server, ALICE, 'DELETE', `/v1/browser/sessions/${session.session_id}`);
  });

  it("still answers 422 with loc ['body'] to a body that is not JSON", async () => {
    const res = await create(server, ALICE, { 'content-type': 'application/json' }, '{nope');
    expect(res.status).toBe(422);
    expect(((await res.json()) as { detail: { loc: string[] }[] }).detail[0]!.loc).toEqual([
      'body',
    ]);
  });

  it("lets the hosted service's own SDK create a session with no argument and delete it", async () => {
    const sdk = new Perplexity({ apiKey: ALICE, baseURL: server.url, maxRetries: 0 });
    const created = await sdk.browser.sessions.create();
    expect(created.status).toBe('running');
    expect(created.session_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(await running(server, ALICE)).toEqual([created.session_id]);
    await sdk.browser.sessions.delete(created.session_id!);
    expect(await running(server, ALICE)).toEqual([]);
  });
});

describe('Idempotency-Key on POST /v1/browser/sessions', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ apiKeys: KEYS, maxSessions: 6 });
  });
  afterAll(async () => {
    await server?.dispose();
  });

  it('returns the same session to the same key twice, with one Chromium', async () => {
    const key = { 'idempotency-key': 'retry-twice-1', 'content-type': 'application/json' };
    const first = (await (await create(server, ALICE, key, '{"tags":["a"]}')).json()) as {
      session_id: string;
      cdp_url: string;
    };
    const again = await create(server, ALICE, key, '{"tags":["a"]}');
    expect(again.status).toBe(200);
    const second = (await again.json()) as { session_id: string; cdp_url: string };
    expect(second.session_id).toBe(first.session_id);
    expect(second.cdp_url).toBe(first.cdp_url);
    expect(await running(server, ALICE)).toEqual([first.session_id]);
    expect(await liveBrowsers(server)).toHaveLength(1);
    await deleteAll(server);
  });

  it('gives 8 concurrent duplicates one session and one Chromium', async () => {
    const key = { 'idempotency-key': 'concurrent-8' };
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => create(server, ALICE, key).then((r) => r.json())),
    );
    const ids = new Set(answers.map((a) => (a as { session_id: string }).session_id));
    expect(ids.size).toBe(1);
    expect(await running(server, ALICE)).toEqual([...ids]);
    expect(await liveBrowsers(server)).toHaveLength(1);
    await deleteAll(server);
  });

  it('returns the ended record to a retry after the session was deleted, starting nothing', async () => {
    const key = { 'idempotency-key': 'after-delete' };
    const first = (await (await create(server, ALICE, key)).json()) as { session_id: string };
    await api(server, ALICE, 'DELETE', `/v1/browser/sessions/${first.session_id}`);
    const again = (await (await create(server, ALICE, key)).json()) as {
      session_id: string;
      status: string;
    };
    expect(again).toMatchObject({ session_id: first.session_id, status: 'stopped' });
    expect(await running(server, ALICE)).toEqual([]);
  });

  it('keeps keys per user: the same key of another user starts another session', async () => {
    const key = { 'idempotency-key': 'shared-name' };
    const a = (await (await create(server, ALICE, key)).json()) as { session_id: string };
    const b = (await (await create(server, BOB, key)).json()) as { session_id: string };
    expect(b.session_id).not.toBe(a.session_id);
    await deleteAll(server);
  });

  it('refuses a key reused with other params, and a malformed key, with 422 naming the header', async () => {
    const key = { 'idempotency-key': 'params-1', 'content-type': 'application/json' };
    expect((await create(server, ALICE, key, '{"tags":["x"]}')).status).toBe(200);
    const other = await create(server, ALICE, key, '{"tags":["y"]}');
    expect(other.status).toBe(422);
    const body = (await other.json()) as { detail: { loc: string[]; msg: string }[] };
    expect(body.detail[0]!.loc).toEqual(['header', 'idempotency-key']);
    const bad = await create(server, ALICE, { 'idempotency-key': 'x'.repeat(256) });
    expect(bad.status).toBe(422);
    expect(((await bad.json()) as { detail: { loc: string[] }[] }).detail[0]!.loc).toEqual([
      'header',
      'idempotency-key',
    ]);
    await deleteAll(server);
  });

  it('lets the client retry a create whose answer was lost without starting a second browser', async () => {
    // A loopback relay that forwards every request but drops the connection instead of relaying
    // the first create's answer: the server did start that session, the client never heard.
    const seen: (string | undefined)[] = [];
    let dropped = false;
    const relay = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const isCreate = req.method === 'POST' && req.url === '/v1/browser/sessions';
        if (isCreate) seen.push(req.headers['idempotency-key'] as string | undefined);
        const upstream = http.request(
          `${server.url}${req.url}`,
          { method: req.method, headers: req.headers },
          (up) => {
            const body: Buffer[] = [];
            up.on('data', (c: Buffer) => body.push(c));
            up.on('end', () => {
              if (isCreate && !dropped) {
                dropped = true;
                req.socket.destroy();
                return;
              }
              res.writeHead(up.statusCode ?? 502, up.headers);
              res.end(Buffer.concat(body));
            });
          },
        );
        upstream.end(Buffer.concat(chunks));
      });
    });
    await new Promise<void>((r) => relay.listen(0, '127.0.0.1', r));
    const client = new Client({
      apiKey: ALICE,
      baseURL: `http://127.0.0.1:${(relay.address() as AddressInfo).port}`,
      maxRetries: 2,
    });
    try {
      const session = await client.browser.sessions.create();
      expect(dropped).toBe(true);
      expect(seen).toHaveLength(2);
      expect(seen[0]).toMatch(/^[0-9a-f-]{36}$/);
      expect(seen[1]).toBe(seen[0]);
      expect(await running(server, ALICE)).toEqual([session.session_id]);
      expect(await liveBrowsers(server)).toHaveLength(1);
      // A new logical create gets a new key.
      const next = await client.browser.sessions.create();
      expect(seen[2]).not.toBe(seen[0]);
      expect(next.session_id).not.toBe(session.session_id);
    } finally {
      await client.close();
      await new Promise<void>((r) => relay.close(() => r()));
      await deleteAll(server);
    }
  });
});

describe('GET /v1/browser/capacity', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ apiKeys: KEYS, maxSessions: 2 });
  });
  afterAll(async () => {
    await server?.dispose();
  });

  it('reports running, limit, queued and available as sessions start and stop, and 429 past it', async () => {
    const client = new Client({ apiKey: ALICE, baseURL: server.url, maxRetries: 0 });
    const read = async () => BrowserCapacitySchema.parse(await client.browser.capacity());
    expect(await read()).toEqual({ running: 0, limit: 2, queued: 0, available: 2 });
    const a = await client.browser.sessions.create();
    expect(await read()).toEqual({ running: 1, limit: 2, queued: 0, available: 1 });
    const b = await client.browser.sessions.create();
    expect(await read()).toEqual({ running: 2, limit: 2, queued: 0, available: 0 });
    const over = await create(server, BOB, {});
    expect(over.status).toBe(429);
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
    // A create in flight counts as queued until its browser is up.
    await client.browser.sessions.delete(a.session_id);
    const pending = client.browser.sessions.create();
    const full = async (): Promise<boolean> => {
      const now = await read();
      return now.running + now.queued === 2 && now.available === 0;
    };
    expect(await waitFor(full)).toBe(true);
    const c = await pending;
    expect(await read()).toEqual({ running: 2, limit: 2, queued: 0, available: 0 });
    await client.browser.sessions.delete(b.session_id);
    await client.browser.sessions.delete(c.session_id);
    expect(await read()).toEqual({ running: 0, limit: 2, queued: 0, available: 2 });
    await client.close();
  });
});
