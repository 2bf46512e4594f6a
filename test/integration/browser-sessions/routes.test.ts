import {
  BrowserSessionListResponseSchema,
  BrowserSessionSchema,
} from '../../../src/protocol/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer } from '../../support/server.js';
import type { TestServer } from '../../support/server.js';
import { ALICE, BOB, KEYS, api, liveBrowsers, waitFor } from './helpers.js';

describe('browser session routes', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ apiKeys: KEYS, maxSessions: 2 });
  });
  afterAll(async () => {
    await server?.dispose();
  });

  it('creates a running session from {} with a cdp_url that carries a connect token, not the key', async () => {
    const before = Math.floor(Date.now() / 1000);
    const res = await api(server, ALICE, 'POST', '/v1/browser/sessions', {});
    expect(res.status).toBe(200);
    const session = BrowserSessionSchema.parse(res.json);
    expect(session.status).toBe('running');
    expect(session.tags).toEqual([]);
    expect(session.created_at).toBeGreaterThanOrEqual(before);
    expect(session.expires_at).toBe(session.created_at + 3600);
    const url = new URL(session.cdp_url!);
    expect(url.protocol).toBe('ws:');
    expect(url.host).toBe(new URL(server.url).host);
    expect(url.pathname).toBe(`/v1/browser/sessions/${session.session_id}/cdp`);
    expect(url.searchParams.get('token')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(session.cdp_url).not.toContain(ALICE);
    await api(server, ALICE, 'DELETE', `/v1/browser/sessions/${session.session_id}`);
  });

  it('reads, lists newest first, and deletes with 204; the record keeps its final status and reason', async () => {
    const first = (await api(server, ALICE, 'POST', '/v1/browser/sessions', { tags: ['one'] }))
      .json;
    const second = (
      await api(server, ALICE, 'POST', '/v1/browser/sessions', {
        tags: ['two'],
        max_duration_s: 60,
      })
    ).json;
    expect(second.expires_at).toBe(second.created_at + 60);

    const got = await api(server, ALICE, 'GET', `/v1/browser/sessions/${first.session_id}`);
    expect(got.status).toBe(200);
    expect(got.json).toEqual(first);

    const list = BrowserSessionListResponseSchema.parse(
      (await api(server, ALICE, 'GET', '/v1/browser/sessions')).json,
    );
    const ids = list.sessions.map((s) => s.session_id);
    expect(ids.indexOf(second.session_id)).toBeLessThan(ids.indexOf(first.session_id));

    expect(await liveBrowsers(server, first.session_id)).toHaveLength(1);
    const del = await api(server, ALICE, 'DELETE', `/v1/browser/sessions/${first.session_id}`);
    expect(del.status).toBe(204);
    expect(
      await waitFor(async () => (await liveBrowsers(server, first.session_id)).length === 0, 5000),
    ).toBe(true);
    const ended = (await api(server, ALICE, 'GET', `/v1/browser/sessions/${first.session_id}`))
      .json;
    expect(ended).toMatchObject({
      status: 'stopped',
      end_reason: 'deleted by the client',
      tags: ['one'],
    });
    expect(ended.ended_at).toBeGreaterThanOrEqual(first.created_at);
    expect(ended.cdp_url).not.toContain('token=');
    await api(server, ALICE, 'DELETE', `/v1/browser/sessions/${second.session_id}`);
  });

  it("reads another user's session as 404 and cannot delete it", async () => {
    const mine = (await api(server, ALICE, 'POST', '/v1/browser/sessions', {})).json;
    const read = await api(server, BOB, 'GET', `/v1/browser/sessions/${mine.session_id}`);
    expect(read.status).toBe(404);
    expect(read.json.error).toMatchObject({ code: 'session_not_found' });
    expect(
      (await api(server, BOB, 'DELETE', `/v1/browser/sessions/${mine.session_id}`)).status,
    ).toBe(404);
    const bobs = (await api(server, BOB, 'GET', '/v1/browser/sessions')).json;
    expect(bobs.sessions.map((s: { session_id: string }) => s.session_id)).not.toContain(
      mine.session_id,
    );
    expect(
      (await api(server, ALICE, 'GET', `/v1/browser/sessions/${mine.session_id}`)).json.status,
    ).toBe('running');
    await api(server, ALICE, 'DELETE', `/v1/browser/sessions/${mine.session_id}`);
  });

  it('answers 404 with the error body for an unknown session id', async () => {
    const res = await api(
      server,
      ALICE,
      'GET',
      '/v1/browser/sessions/00000000-0000-4000-8000-000000000000',
    );
    expect(res.status).toBe(404);
    expect(res.json).toEqual({
      error: {
        message: expect.stringContaining('not found'),
        type: expect.any(String),
        code: 'session_not_found',
      },
    });
  });

  it('validates the create body with the shared schema (422 with loc)', async () => {
    const res = await api(server, ALICE, 'POST', '/v1/browser/sessions', { idle_timeout_s: 1 });
    expect(res.status).toBe(422);
    expect(res.json.detail[0].loc).toEqual(['body', 'idle_timeout_s']);
  });

  it('answers 429 with Retry-After past maxSessions, and accepts again once one is deleted', async () => {
    const a = (await api(server, ALICE, 'POST', '/v1/browser/sessions', {})).json;
    const b = (await api(server, BOB, 'POST', '/v1/browser/sessions', {})).json;
    const over = await api(server, ALICE, 'POST', '/v1/browser/sessions', {});
    expect(over.status).toBe(429);
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(over.json.error.code).toBe('too_many_sessions');
    await api(server, ALICE, 'DELETE', `/v1/browser/sessions/${a.session_id}`);
    const again = await api(server, ALICE, 'POST', '/v1/browser/sessions', {});
    expect(again.status).toBe(200);
    await api(server, ALICE, 'DELETE', `/v1/browser/sessions/${again.json.session_id}`);
    await api(server, BOB, 'DELETE', `/v1/browser/sessions/${b.session_id}`);
  });
});
