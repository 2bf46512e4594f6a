// One error path, through the real server: each kind of domain error an engine throws answers its
// status and body (http-error.ts), dependencies that fail answer 502 with a message that names
// neither their address nor their own error text, and a chat stream whose model dies mid-way ends
// with one sanitised error event.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APIError, Client } from '../../../src/index.js';
import { startTestServer } from '../../support/server.js';
import type { TestServer } from '../../support/server.js';
import { MODEL_SCRIPT, UPSTREAM_SECRET, startUpstreamStub } from './upstream-stub.js';
import type { UpstreamStub } from './upstream-stub.js';

const KEY = 'svc_errors_test_key_aaaaaaaaaaaaaaaaaa';
const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

interface Answer {
  status: number;
  headers: Headers;
  body: Record<string, unknown>;
}

async function send(
  server: TestServer,
  method: string,
  path: string,
  init: { body?: unknown; headers?: Record<string, string>; key?: string | null } = {},
): Promise<Answer> {
  const headers: Record<string, string> = { ...init.headers };
  if (init.key !== null) headers['authorization'] = `Bearer ${init.key ?? KEY}`;
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(server.url + path, {
    method,
    headers,
    ...(init.body !== undefined && {
      body: typeof init.body === 'string' ? init.body : JSON.stringify(init.body),
    }),
  });
  const text = await res.text();
  const body = (text === '' ? {} : JSON.parse(text)) as Answer['body'];
  return { status: res.status, headers: res.headers, body };
}

/** The error body of ARCHITECTURE.md, exactly: `{error: {message, type, code}}`. */
function expectError(answer: Answer, status: number, type: string, code: string | RegExp): string {
  expect(answer.status).toBe(status);
  expect(Object.keys(answer.body)).toEqual(['error']);
  const error = answer.body['error'] as Record<string, unknown>;
  expect(Object.keys(error).sort()).toEqual(['code', 'message', 'type']);
  expect(error['type']).toBe(type);
  expect(error['code']).toMatch(code);
  return error['message'] as string;
}

const chat = (content: string, stream = false) => ({
  model: 'core',
  messages: [{ role: 'user', content }],
  ...(stream && { stream: true }),
});

describe('one error path: each domain error kind answers its status and body', () => {
  let upstream: UpstreamStub;
  let server: TestServer;

  beforeAll(async () => {
    upstream = await startUpstreamStub();
    server = await startTestServer({
      apiKeys: [KEY],
      maxSessions: 1,
      llm: { baseUrl: upstream.baseUrl, model: 'stub' },
      embedRemote: { baseUrl: upstream.baseUrl },
      rateLimits: { auth: 1 },
    });
  });
  afterAll(async () => {
    await server?.dispose();
    await upstream?.close();
  });

  it('bad_request: 400 for an attachment the server cannot read', async () => {
    const answer = await send(server, 'POST', '/chat/completions', {
      body: {
        model: 'core',
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: 'read this' },
              { type: 'file_url', file_url: { url: 'ftp://127.0.0.1/a.pdf' } },
            ],
          },
        ],
      },
    });
    const message = expectError(answer, 400, 'invalid_request_error', 'attachment_unreadable');
    expect(message).toMatch(/^Attachment could not be read: ftp:/);
  });

  it('unauthorized: 401 without a key', async () => {
    const answer = await send(server, 'GET', '/v1/browser/sessions', { key: null });
    expectError(answer, 401, 'authentication_error', 'invalid_api_key');
  });

  it('not_found: 404 for an unknown job, session, document and route', async () => {
    for (const [path, code] of [
      [`/async/chat/completions/${UNKNOWN_ID}`, 'job_not_found'],
      [`/v1/browser/sessions/${UNKNOWN_ID}`, 'session_not_found'],
      [`/docs/${UNKNOWN_ID}?sig=x`, 'document_not_found'],
      ['/no/such/route', 'not_found_error'],
    ] as const) {
      expectError(await send(server, 'GET', path), 404, 'not_found_error', code);
    }
  });

  it('too_large: 413 past the body limit', async () => {
    const answer = await send(server, 'POST', '/search', {
      body: JSON.stringify({ query: 'x'.repeat(server.ctx.config.maxBodyBytes) }),
    });
    expectError(answer, 413, 'request_too_large', 'body_too_large');
  });

  it('invalid: 422 with the exact loc, for a body, a header and a page token', async () => {
    const body = await send(server, 'POST', '/search', { body: { query: 5 } });
    expect(body.status).toBe(422);
    expect((body.body['detail'] as { loc: unknown[] }[])[0]!.loc).toEqual(['body', 'query']);

    const header = await send(server, 'POST', '/v1/browser/sessions', {
      body: {},
      headers: { 'idempotency-key': ' ' },
    });
    expect(header.status).toBe(422);
    expect(header.body).toEqual({
      detail: [
        {
          loc: ['header', 'idempotency-key'],
          msg: expect.stringMatching(/^Idempotency-Key must be/) as unknown,
          type: 'value_error',
        },
      ],
    });

    // The job engine's own error, translated in the one mapping: 422 at the parameter, not a 500.
    const token = await send(server, 'GET', '/async/chat/completions?next_token=bm9wZQ');
    expect(token.status).toBe(422);
    expect(token.body).toEqual({
      detail: [
        {
          loc: ['query', 'next_token'],
          msg: 'next_token is not valid: next_token is not one this server issued',
          type: 'value_error',
        },
      ],
    });
  });

  it('capacity_exhausted 429, forbidden 403 and conflict 409, around one real browser session', async () => {
    const created = await send(server, 'POST', '/v1/browser/sessions', {
      body: { live_view: 'read-only' },
    });
    expect(created.status).toBe(200);
    const id = created.body['session_id'] as string;
    const token = new URL(created.body['live_url'] as string).hash.replace('#token=', '');
    try {
      const full = await send(server, 'POST', '/v1/browser/sessions', { body: {} });
      expectError(full, 429, 'rate_limit_error', 'too_many_sessions');
      expect(Number(full.headers.get('retry-after'))).toBeGreaterThan(0);

      const input = await send(server, 'POST', `/v1/browser/sessions/${id}/live/input`, {
        key: null,
        headers: { 'x-live-token': token },
        body: { events: [{ type: 'mouse', action: 'move', x: 0.5, y: 0.5 }] },
      });
      expectError(input, 403, 'permission_error', 'live_view_read_only');
    } finally {
      await send(server, 'DELETE', `/v1/browser/sessions/${id}`);
    }
    const upload = await send(server, 'POST', `/v1/browser/sessions/${id}/uploads`, {
      body: { name: 'a.txt', data: 'aGk=' },
    });
    expectError(upload, 409, 'conflict_error', 'session_not_running');
  });

  it('rate_limited: 429 with Retry-After', async () => {
    await send(server, 'POST', '/revoke_auth_token', { body: { auth_token: 'svc_not_a_key_x' } });
    const limited = await send(server, 'POST', '/revoke_auth_token', {
      body: { auth_token: 'svc_not_a_key_x' },
    });
    expectError(limited, 429, 'rate_limit_error', 'rate_limit_exceeded');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('upstream: 502 when the answer model or the embeddings endpoint fails, naming neither its address nor its words', async () => {
    const model = await send(server, 'POST', '/chat/completions', {
      body: chat(MODEL_SCRIPT.fails),
    });
    const modelMessage = expectError(model, 502, 'api_error', 'upstream_error');
    expect(modelMessage).toBe('Answer model failed: it answered HTTP 500');

    const embed = await send(server, 'POST', '/v1/embeddings', {
      body: { model: 'svc-embed-v1-0.6b', input: ['a'] },
    });
    const embedMessage = expectError(embed, 502, 'api_error', 'upstream_error');
    expect(embedMessage).toMatch(/^Embeddings upstream failed \(HTTP 500\)/);

    for (const message of [modelMessage, embedMessage]) {
      expect(message).not.toContain(UPSTREAM_SECRET);
      expect(message).not.toContain(upstream.baseUrl.replace('http://', ''));
    }
  });
});

describe('one error path: the service cannot start a browser', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({
      apiKeys: [KEY],
      chromePath: '/nonexistent/chromium-for-errors-test',
    });
  });
  afterAll(() => server?.dispose());

  it('unavailable: 503 naming what failed', async () => {
    const answer = await send(server, 'POST', '/v1/browser/sessions', { body: {} });
    const message = expectError(
      answer,
      503,
      'overloaded_error',
      /^(chromium_not_found|browser_launch_failed)$/,
    );
    expect(message).toMatch(/^Could not start a browser/);
  });
});

describe('a chat stream whose model dies mid-way', () => {
  let upstream: UpstreamStub;
  let server: TestServer;

  beforeAll(async () => {
    upstream = await startUpstreamStub();
    server = await startTestServer({
      apiKeys: [KEY],
      llm: { baseUrl: upstream.baseUrl, model: 'stub' },
    });
  });
  afterAll(async () => {
    await server?.dispose();
    await upstream?.close();
  });

  it('sends the deltas it had, then one final error event with the sanitised error body', async () => {
    const res = await fetch(`${server.url}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify(chat(MODEL_SCRIPT.dies, true)),
    });
    expect(res.status).toBe(200);
    const text = await res.text();
    const events = text
      .split('\n\n')
      .filter((e) => e.trim() !== '')
      .map((e) => e.trim());
    // Deltas came first: the failure really was mid-stream.
    expect(text).toContain('First part.');
    expect(text).toContain('Second part.');
    // One last event, in the body shape of every other error; no raw `event: error`, no [DONE].
    const last = events.at(-1)!;
    expect(last.startsWith('data: ')).toBe(true);
    expect(JSON.parse(last.slice('data: '.length))).toEqual({
      error: {
        message: 'Answer model failed: its stream broke off',
        type: 'api_error',
        code: 'upstream_error',
      },
    });
    expect(text).not.toMatch(/^event: error/m);
    expect(text).not.toContain('[DONE]');
    expect(text).not.toContain(upstream.baseUrl.replace('http://', ''));
    expect(text).not.toMatch(/terminated|socket|ECONNRESET|other side closed/i);
  });

  it('reaches the client as an APIError carrying that message', async () => {
    const client = new Client({ baseURL: server.url, apiKey: KEY, maxRetries: 0 });
    try {
      const stream = await client.chat.completions.create({
        model: 'core',
        messages: [{ role: 'user', content: MODEL_SCRIPT.dies }],
        stream: true,
      });
      const seen: string[] = [];
      const consume = async () => {
        for await (const event of stream) {
          if (event.object === 'chat.completion.chunk') {
            seen.push(String(event.choices[0]?.delta['content'] ?? ''));
          }
        }
      };
      const error = await consume().then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(APIError);
      expect((error as APIError).message).toMatch(/Answer model failed: its stream broke off$/);
      expect(seen.join('')).toContain('First part.');
    } finally {
      await client.close();
    }
  });

  it('still streams to the end when the model does', async () => {
    const res = await fetch(`${server.url}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify(chat('all is well', true)),
    });
    const text = await res.text();
    expect(text.trim().endsWith('data: [DONE]')).toBe(true);
    expect(text).not.toContain('"error"');
  });
});
