import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTES } from '../../../src/protocol/index.js';
import { KeyStore } from '../../../src/server/index.js';
import { startTestServer } from '../../support/server.js';
import type { TestServer } from '../../support/server.js';

/** Concrete paths for a route template: every `{param}` gets a placeholder id. */
const concrete = (path: string) =>
  path.replace(/\{[^}]+\}/g, '00000000-0000-4000-8000-000000000000');

describe('auth', () => {
  let server: TestServer;
  let alice: string;
  let bob: string;

  beforeAll(async () => {
    server = await startTestServer({
      apiKeys: [
        'svc_test_primary_key_aaaaaaaaaaaaaaaa',
        { key: 'svc_test_bob_key_bbbbbbbbbbbbbbbbbb', userId: 'bob' },
      ],
    });
    alice = server.apiKey!;
    bob = 'svc_test_bob_key_bbbbbbbbbbbbbbbbbb';
  });
  afterAll(() => server.dispose());

  const call = (path: string, init: RequestInit & { key?: string | null } = {}) => {
    const headers = new Headers(init.headers);
    if (init.key !== null) headers.set('authorization', `Bearer ${init.key ?? alice}`);
    return fetch(server.url + path, { ...init, headers });
  };

  it('refuses every route in the route table without a key, with the error body', async () => {
    const routes = Object.values(ROUTES).filter((r) => !('websocket' in r && r.websocket));
    expect(routes.length).toBeGreaterThanOrEqual(12);
    for (const route of routes) {
      const res = await call(concrete(route.path), { method: route.method, key: null });
      expect(res.status, `${route.method} ${route.path}`).toBe(401);
      const body = (await res.json()) as { error: { message: string; type: string; code: string } };
      expect(body.error.type).toBe('authentication_error');
      expect(body.error.message).toMatch(/^Missing API key/);
    }
  });

  it('says which: malformed, unknown and revoked keys each get their own 401 message', async () => {
    const malformed = await call('/v1/browser/sessions', {
      headers: { authorization: 'Token abc' },
      key: null,
    });
    expect(malformed.status).toBe(401);
    expect(((await malformed.json()) as { error: { message: string } }).error.message).toMatch(
      /^Malformed/,
    );

    const unknown = await call('/v1/browser/sessions', {
      key: 'svc_never_issued_key_cccccccccccccc',
    });
    expect(unknown.status).toBe(401);
    expect(((await unknown.json()) as { error: { message: string } }).error.message).toMatch(
      /^Unknown API key/,
    );
  });

  it('accepts two keys of one user at once, and a revoked key is refused on the very next request', async () => {
    const second = (await server.keys.create('default', 'rotation')).key;
    expect((await call('/v1/browser/sessions', { key: alice })).status).toBe(200);
    expect((await call('/v1/browser/sessions', { key: second })).status).toBe(200);

    const revoke = await call('/revoke_auth_token', {
      method: 'POST',
      key: alice,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ auth_token: second }),
    });
    expect(revoke.status).toBe(200);
    expect(await revoke.json()).toEqual({ revoked: true });

    const after = await call('/v1/browser/sessions', { key: second });
    expect(after.status).toBe(401);
    expect(((await after.json()) as { error: { message: string } }).error.message).toMatch(
      /^Revoked API key/,
    );
    expect((await call('/v1/browser/sessions', { key: alice })).status).toBe(200);
  });

  it("cannot revoke another user's key: 404 and the key keeps working", async () => {
    const res = await call('/revoke_auth_token', {
      method: 'POST',
      key: alice,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ auth_token: bob }),
    });
    expect(res.status).toBe(404);
    expect((await call('/v1/browser/sessions', { key: bob })).status).toBe(200);
  });

  it('answers a body that is not JSON with a 422 in the spec shape', async () => {
    const res = await call('/revoke_auth_token', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"auth_token": ',
    });
    expect(res.status).toBe(422);
    const body = (await res.json()) as { detail: { loc: unknown[]; type: string }[] };
    expect(body.detail[0]).toMatchObject({ loc: ['body'], type: 'json_invalid' });
  });

  it('names the missing field with an exact loc', async () => {
    const res = await call('/revoke_auth_token', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(res.status).toBe(422);
    const body = (await res.json()) as { detail: { loc: unknown[] }[] };
    expect(body.detail[0]!.loc).toEqual(['body', 'auth_token']);
  });

  it('answers unknown paths with a 404 error body, after auth', async () => {
    const res = await call('/nope');
    expect(res.status).toBe(404);
    expect(((await res.json()) as { error: { type: string } }).error.type).toBe('not_found_error');
    expect((await call('/nope', { key: null })).status).toBe(401);
  });

  it('refuses an oversized body with 413', async () => {
    const res = await call('/revoke_auth_token', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ auth_token: 'x'.repeat(11 * 1024 * 1024) }),
    });
    expect(res.status).toBe(413);
  });

  it('stores keys hashed and never writes a key to the log', async () => {
    const { sql } = server.storage;
    const row = (await sql.get<{ hash: Buffer; prefix: string }>(
      'SELECT hash, prefix FROM auth_keys LIMIT 1',
    ))!;
    expect(row.hash.length).toBe(32);
    expect(row.prefix.length).toBe(8);
    const dump = JSON.stringify(await sql.all('SELECT * FROM auth_keys'));
    expect(dump).not.toContain(alice);
    const logs = server.logs.join('\n');
    expect(logs).not.toContain(alice);
    expect(logs).not.toContain(bob);
  });

  it('generates one key on first start when none is configured, and accepts it', async () => {
    const fresh = await startTestServer({ apiKeys: [] });
    try {
      expect(fresh.generatedApiKey).toBe(true);
      expect(fresh.apiKey).toMatch(/^svc_[A-Za-z0-9_-]{43}$/);
      const res = await fetch(`${fresh.url}/v1/browser/sessions`, {
        headers: { authorization: `Bearer ${fresh.apiKey}` },
      });
      expect(res.status).toBe(200);
    } finally {
      await fresh.dispose();
    }
  });
});

describe('rate limits', () => {
  it('answers 429 with Retry-After and the error body once the per-key bucket is empty', async () => {
    const server = await startTestServer({ rateLimits: { auth: 3 } });
    try {
      const send = () =>
        fetch(`${server.url}/revoke_auth_token`, {
          method: 'POST',
          headers: { authorization: `Bearer ${server.apiKey}`, 'content-type': 'application/json' },
          body: '{"auth_token":"svc_unknown"}',
        });
      const statuses = [];
      for (let i = 0; i < 4; i++) statuses.push((await send()).status);
      expect(statuses).toEqual([404, 404, 404, 429]);
      const limited = await send();
      expect(limited.status).toBe(429);
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(((await limited.json()) as { error: { type: string } }).error.type).toBe(
        'rate_limit_error',
      );
    } finally {
      await server.dispose();
    }
  });
});

describe('binding', () => {
  it('refuses to bind beyond loopback unless asked explicitly', async () => {
    await expect(startTestServer({ host: '0.0.0.0' })).rejects.toThrow(/allowRemote/);
  });
});

describe('key store', () => {
  it('keeps keys of different users apart', async () => {
    const server = await startTestServer();
    try {
      const store = new KeyStore(server.storage.sql);
      const { key } = await store.create('carol');
      const result = await store.verify(key);
      expect(result.ok && result.principal.userId).toBe('carol');
      expect(await store.revoke('dave', key)).toBe(false);
      expect((await store.verify(key)).ok).toBe(true);
    } finally {
      await server.dispose();
    }
  });
});
