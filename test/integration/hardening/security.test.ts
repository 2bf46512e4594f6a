// Security promises, each proven against the real server: every route of ROUTES and the CDP proxy
// refuse missing, unknown and revoked keys; users cannot see each other's jobs and sessions; no key
// or token reaches a log line or an error body; /docs/{id} reads nothing outside the index;
// attachments are http(s) only and size-limited; the server binds beyond loopback only when asked.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTES } from '../../../src/protocol/index.js';
import type { RouteDef } from '../../../src/protocol/index.js';
import { DocLinks } from '../../../src/server/doc-links.js';
import { resolveServerOptions, startServer } from '../../../src/server/index.js';
import { startTestServer } from '../../support/server.js';
import type { TestServer } from '../../support/server.js';
import { tryUpgrade } from '../browser-sessions/helpers.js';
import { closeRawAgent, rawRequest } from './raw-http.js';
import { ALICE, BOB, call, expectErrorShape } from './support.js';
import type { Json } from './support.js';

const CAROL = 'svc_hard-carol-0123456789abcdefghijklmnopq';
const UNKNOWN = 'svc_hard-unknown-0123456789abcdefghijklmn';
const CORPUS = fileURLToPath(new URL('../../fixtures/corpus/', import.meta.url));

let server: TestServer;
/** Every error body the server sent in this file, to search for secrets at the end. */
const errorBodies: string[] = [];
let aliceJob: string;
let aliceSession: Json;

async function api(key: string | undefined, method: string, path: string, body?: unknown) {
  const res = await call(server.url, key, method, path, body);
  if (res.status >= 400) errorBodies.push(res.text);
  return res;
}

beforeAll(async () => {
  server = await startTestServer({
    apiKeys: [
      { key: ALICE, userId: 'alice' },
      { key: BOB, userId: 'bob' },
      { key: CAROL, userId: 'carol' },
    ],
  });
  await server.engines.index.indexPaths([CORPUS]);
  const job = await api(ALICE, 'POST', '/async/chat/completions', {
    request: { model: 'core-deep-research', messages: [{ role: 'user', content: 'recycling' }] },
  });
  aliceJob = job.json.id;
  aliceSession = (await api(ALICE, 'POST', '/v1/browser/sessions', { idle_timeout_s: 60 })).json;
  expect(aliceSession.session_id).toBeTypeOf('string');
  // Carol revokes her own key: from now on it is a revoked key.
  expect((await api(CAROL, 'POST', '/revoke_auth_token', { auth_token: CAROL })).status).toBe(200);
});

afterAll(async () => {
  closeRawAgent();
  await server?.dispose();
});

const concrete = (route: RouteDef): string =>
  route.path
    .replace('{request_id}', aliceJob)
    .replace('{session_id}', aliceSession.session_id as string);

describe('authentication on every route', () => {
  const refusals: [string, Record<string, string>][] = [
    ['missing', {}],
    ['empty', { authorization: '' }],
    ['unknown', { authorization: `Bearer ${UNKNOWN}` }],
    ['revoked', { authorization: `Bearer ${CAROL}` }],
    ['malformed', { authorization: `Basic ${ALICE}` }],
    ['bare', { authorization: 'Bearer' }],
  ];
  for (const route of Object.values(ROUTES) as RouteDef[]) {
    it(`${route.method} ${route.path} refuses missing, unknown, revoked and malformed keys with 401`, async () => {
      for (const [kind, headers] of refusals) {
        if (route.websocket) {
          const res = await tryUpgrade(server.url.replace('http', 'ws') + concrete(route), headers);
          expect(res.status, `${kind} key on the CDP upgrade`).toBe(401);
          errorBodies.push(res.body);
          expectErrorShape(401, JSON.parse(res.body), kind);
          continue;
        }
        const res = await rawRequest(server.url, {
          method: route.method,
          path: concrete(route),
          headers: { 'content-type': 'application/json', ...headers },
          ...(route.body ? { body: Buffer.from('{}') } : {}),
        });
        errorBodies.push(res.text);
        expect(res.status, `${kind} key: ${res.text}`).toBe(401);
        const body = JSON.parse(res.text) as Json;
        expectErrorShape(401, body, kind);
        expect(body.error.code).toBe('invalid_api_key');
      }
    });
  }

  it('refuses a CDP upgrade with a wrong connect token, or another session token', async () => {
    const ws = `${server.url.replace('http', 'ws')}/v1/browser/sessions/${aliceSession.session_id}/cdp`;
    for (const token of [
      '',
      'x',
      'A'.repeat(43),
      new URL(aliceSession.cdp_url).searchParams.get('token')!.slice(1),
    ]) {
      const res = await tryUpgrade(`${ws}?token=${encodeURIComponent(token)}`);
      errorBodies.push(res.body);
      expect(res.status).toBe(401);
    }
    // The real token opens it: the refusals above are about the credentials, not the session.
    expect((await tryUpgrade(aliceSession.cdp_url)).status).toBe(101);
  });
});

describe('isolation between users', () => {
  it("one key's jobs and sessions are invisible to another user's key", async () => {
    expect((await api(BOB, 'GET', `/async/chat/completions/${aliceJob}`)).status).toBe(404);
    const bobJobs = await api(BOB, 'GET', '/async/chat/completions');
    expect(bobJobs.json.requests.map((j: Json) => j.id)).not.toContain(aliceJob);
    const id = aliceSession.session_id as string;
    expect((await api(BOB, 'GET', `/v1/browser/sessions/${id}`)).status).toBe(404);
    expect((await api(BOB, 'DELETE', `/v1/browser/sessions/${id}`)).status).toBe(404);
    const bobSessions = await api(BOB, 'GET', '/v1/browser/sessions');
    expect(bobSessions.json.sessions.map((s: Json) => s.session_id)).not.toContain(id);
    const bobCdp = await tryUpgrade(
      `${server.url.replace('http', 'ws')}/v1/browser/sessions/${id}/cdp`,
      {
        authorization: `Bearer ${BOB}`,
      },
    );
    errorBodies.push(bobCdp.body);
    expect(bobCdp.status).toBe(404);
    // Bob cannot revoke Alice's key, and trying leaves it working.
    expect((await api(BOB, 'POST', '/revoke_auth_token', { auth_token: ALICE })).status).toBe(404);
    expect((await api(ALICE, 'GET', `/v1/browser/sessions/${id}`)).json.status).toBe('running');
    // Alice still sees her own.
    expect((await api(ALICE, 'GET', `/async/chat/completions/${aliceJob}`)).status).toBe(200);
  });
});

describe('/docs/{id} reads only indexed documents', () => {
  it('answers 404 to traversal, absolute paths, forged and swapped signatures, even when correctly signed', async () => {
    const search = await api(ALICE, 'POST', '/search', {
      query: 'recycling plant',
      max_results: 2,
    });
    const [a, b] = search.json.results as { url: string }[];
    expect((await fetch(a!.url)).status).toBe(200);
    const links = new DocLinks(server.ctx.db, () => server.url);
    const idOf = (u: string): string => decodeURIComponent(new URL(u).pathname.split('/')[2]!);
    const sigOf = (u: string): string => new URL(u).searchParams.get('sig')!;
    const forged = sigOf(a!.url).replace(/^./, (c) => (c === 'A' ? 'B' : 'A'));
    const paths = [
      `/docs/${idOf(a!.url)}?sig=${forged}`,
      `/docs/${idOf(a!.url)}`,
      `/docs/${idOf(b!.url)}?sig=${sigOf(a!.url)}`,
      '/docs/..%2F..%2Fetc%2Fpasswd?sig=x',
      '/docs/%2Fetc%2Fpasswd?sig=x',
      '/docs/../../etc/passwd',
      '/docs/..%2f..%2f..%2f..%2fetc%2fpasswd',
    ];
    // Signed with the server's own secret: the signature is valid, the id still resolves to nothing.
    for (const id of [
      '../../etc/passwd',
      '/etc/passwd',
      `file:${CORPUS}`,
      `${CORPUS}notes.md`,
      '%00',
      '',
    ]) {
      paths.push(new URL(links.url(id)).pathname + new URL(links.url(id)).search);
    }
    for (const path of paths) {
      const res = await rawRequest(server.url, { method: 'GET', path });
      // Raw `..` segments are resolved by URL parsing before routing: `/docs/../../etc/passwd` is
      // the non-public path `/etc/passwd`, so it meets authentication (401) instead of /docs (404).
      expect(res.status, path).toBe(path.startsWith('/docs/../') ? 401 : 404);
      expect(res.text).not.toMatch(/root:.*:0:0:/);
      errorBodies.push(res.text);
    }
  });
});

describe('attachment fetching', () => {
  const ask = (url: string) =>
    api(ALICE, 'POST', '/chat/completions', {
      model: 'core',
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'summarise' },
            { type: 'file_url', file_url: { url } },
          ],
        },
      ],
    });

  it('refuses file:, ftp:, data: and javascript: URLs, and redirects to them, with a clear 400', async () => {
    const redirector = http.createServer((_req, res) => {
      res.writeHead(302, { location: 'file:///etc/passwd' });
      res.end();
    });
    await new Promise<void>((r) => redirector.listen(0, '127.0.0.1', r));
    const { port } = redirector.address() as AddressInfo;
    try {
      for (const url of [
        'file:///etc/passwd',
        'ftp://127.0.0.1/x.txt',
        'data:text/plain,hello',
        'javascript:alert(1)',
        `http://127.0.0.1:${port}/x`,
      ]) {
        const res = await ask(url);
        expect(res.status, url).toBe(400);
        expect(res.json.error.code).toBe('attachment_unreadable');
        expect(res.json.error.message).toContain(url);
        expect(res.text).not.toMatch(/root:.*:0:0:/);
      }
    } finally {
      await new Promise<void>((r) => redirector.close(() => r()));
    }
  });

  it('refuses a 30 MB body, declared or streamed, with a clear 400', async () => {
    const size = 30 * 1024 * 1024;
    const chunk = Buffer.alloc(1024 * 1024, 'a');
    const big = http.createServer((req, res) => {
      const declared = req.url === '/declared.txt';
      res.writeHead(200, {
        'content-type': 'text/plain',
        ...(declared ? { 'content-length': String(size) } : {}),
      });
      let sent = 0;
      const pump = (): void => {
        while (sent < size) {
          sent += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        res.end();
      };
      res.on('close', () => (sent = size));
      pump();
    });
    await new Promise<void>((r) => big.listen(0, '127.0.0.1', r));
    const { port } = big.address() as AddressInfo;
    try {
      for (const name of ['declared.txt', 'streamed.txt']) {
        const res = await ask(`http://127.0.0.1:${port}/${name}`);
        expect(res.status, name).toBe(400);
        expect(res.json.error.message).toMatch(/larger than \d+ bytes/);
      }
    } finally {
      big.closeAllConnections();
      await new Promise<void>((r) => big.close(() => r()));
    }
  });
});

describe('secrets stay out of logs and errors', () => {
  it('no key or connect token appears in any log line or error body', async () => {
    const token = new URL(aliceSession.cdp_url).searchParams.get('token')!;
    const secrets = [ALICE, BOB, CAROL, UNKNOWN, token];
    // Ending the session and closing the server write the remaining lifecycle lines.
    await api(ALICE, 'DELETE', `/v1/browser/sessions/${aliceSession.session_id}`);
    await server.close();
    expect(errorBodies.length).toBeGreaterThan(50);
    expect(server.logs.length).toBeGreaterThan(0);
    for (const secret of secrets) {
      for (const line of [...server.logs, ...errorBodies]) expect(line).not.toContain(secret);
    }
    console.log(
      `[hardening] secrets: ${server.logs.length} log lines and ${errorBodies.length} error bodies searched for ${secrets.length} secrets: 0 found`,
    );
  });
});

describe('binding', () => {
  it('refuses to bind beyond loopback unless allowRemote is set', async () => {
    for (const host of ['0.0.0.0', '::', '192.168.1.10', 'example.com']) {
      await expect(startServer({ host, port: 0, warmPoolSize: 0 })).rejects.toThrow(/allowRemote/);
      expect(() => resolveServerOptions({}, { SVC_HOST: host })).toThrow(/not loopback/);
    }
    expect(new URL(server.url).hostname).toBe('127.0.0.1');
    expect(resolveServerOptions({ host: '0.0.0.0', allowRemote: true }).host).toBe('0.0.0.0');
  });
});
