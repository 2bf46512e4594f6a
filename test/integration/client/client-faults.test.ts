import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '../../../src/client/client.js';
import type { ClientOptions } from '../../../src/client/client.js';
import { NotFoundError, ResponseShapeError, TimeoutError } from '../../../src/errors.js';
import { startFaultServer } from '../../support/fault-server.js';
import type { FaultServer } from '../../support/fault-server.js';

const KEY = 'sk-client-test-key-42';
let server: FaultServer;
const clients: Client[] = [];

function client(tag: string, opts: ClientOptions = {}): Client {
  const c = new Client({
    apiKey: KEY,
    baseURL: `${server.url}/reply/${tag}`,
    maxRetries: 0,
    ...opts,
  });
  clients.push(c);
  return c;
}
const reply = (body: unknown, status = 200): { headers: Record<string, string> } => ({
  headers: { 'x-reply': JSON.stringify(body), 'x-reply-status': String(status) },
});

const chunk = (content: string, extra: object = {}): string =>
  JSON.stringify({
    id: 'c1',
    model: 'core',
    created: 1,
    object: 'chat.completion.chunk',
    choices: [{ index: 0, delta: { content } }],
    ...extra,
  });
const session = {
  session_id: '5f0c2b1e-8a4d-4b7e-9c3a-1d2e3f4a5b6c',
  status: 'running',
  created_at: 1,
  expires_at: null,
  tags: [],
};

beforeAll(async () => {
  server = await startFaultServer();
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await server.close();
});

describe('Client against scripted responses', () => {
  it('sends a validated body with the bearer header to the route path', async () => {
    const c = client('send');
    const res = await c.search.create(
      { query: 'fts5', max_results: 3 },
      reply({ id: 's1', results: [{ title: 't', url: 'u' }] }),
    );
    expect(res.results).toEqual([{ title: 't', url: 'u', snippet: '' }]);
    const seen = server.requests.at(-1)!;
    expect(seen.url).toBe('/reply/send/search');
    expect(seen.headers['authorization']).toBe(`Bearer ${KEY}`);
    expect(JSON.parse(seen.body)).toEqual({ query: 'fts5', max_results: 3 });
  });

  it('keeps unknown response fields (lenient parsing)', async () => {
    const res = await client('lenient').search.create(
      { query: 'q' },
      reply({ id: 's', results: [], added_later: 7 }),
    );
    expect((res as Record<string, unknown>)['added_later']).toBe(7);
  });

  it('throws ResponseShapeError naming the field when a 2xx breaks the contract', async () => {
    const err = await client('shape')
      .browser.sessions.get(session.session_id, reply({ ...session, status: 42 }))
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ResponseShapeError);
    expect((err as Error).message).toMatch(
      /^Response breaks the contract: GET \/v1\/browser\/sessions\/[\w-]+: status: /,
    );
  });

  it('returns undefined for a 204 delete and maps a 404 to NotFoundError', async () => {
    const c = client('del');
    await expect(
      c.browser.sessions.delete('s1', { headers: { 'x-reply-status': '204' } }),
    ).resolves.toBeUndefined();
    const err = await c.browser.sessions
      .delete('s1', reply({ error: { message: 'no such session' } }, 404))
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NotFoundError);
  });

  it('passes list query parameters and drops unset ones', async () => {
    await client('list').async.chat.completions.list(
      { limit: 5 },
      reply({ requests: [], next_token: null }),
    );
    expect(server.requests.at(-1)!.url).toBe('/reply/list/async/chat/completions?limit=5');
  });

  it('streams chat chunks, keeps the concise done event and skips unknown event types', async () => {
    const done = JSON.stringify({
      id: 'c1',
      model: 'core',
      created: 1,
      object: 'chat.completion.done',
      choices: [{ index: 0, message: { role: 'assistant', content: 'ab' } }],
    });
    const stream = await client('stream').chat.completions.create(
      {
        model: 'core',
        messages: [{ role: 'user', content: 'hi' }],
        stream: true,
        stream_mode: 'concise',
      },
      {
        headers: {
          'x-reply-sse': JSON.stringify([
            chunk('a'),
            JSON.stringify({ object: 'future.event' }),
            chunk('b'),
            done,
            '[DONE]',
          ]),
        },
      },
    );
    const objects: string[] = [];
    for await (const ev of stream) objects.push(ev.object);
    expect(objects).toEqual([
      'chat.completion.chunk',
      'chat.completion.chunk',
      'chat.completion.done',
    ]);
    expect(server.requests.at(-1)!.headers['accept']).toBe('text/event-stream');
  });

  it('throws ResponseShapeError for a chunk that breaks the schema', async () => {
    const stream = await client('badchunk').chat.completions.create(
      { model: 'core', messages: [{ role: 'user', content: 'hi' }], stream: true },
      {
        headers: {
          'x-reply-sse': JSON.stringify([
            JSON.stringify({ object: 'chat.completion.chunk', choices: 'no' }),
          ]),
        },
      },
    );
    const run = async (): Promise<void> => {
      for await (const _ of stream) void _;
    };
    await expect(run()).rejects.toBeInstanceOf(ResponseShapeError);
  });

  it('createAndPoll polls a running job until pollTimeout and returns a final job as is', async () => {
    // The scripted reply is the same for create and get, so use a job that is already running
    // and a pollTimeout to prove the loop polls and gives up.
    const job = { id: 'j1', model: 'core-deep-research', status: 'IN_PROGRESS', created_at: 1 };
    const c = client('poll');
    const before = server.requests.length;
    const err = await c.async.chat.completions
      .createAndPoll(
        { request: { model: 'core-deep-research', messages: [{ role: 'user', content: 'q' }] } },
        { ...reply(job), pollInterval: 50, pollTimeout: 400 },
      )
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TimeoutError);
    const polls = server.requests
      .slice(before)
      .filter((r) => r.method === 'GET' && r.url.endsWith('/async/chat/completions/j1'));
    expect(polls.length).toBeGreaterThanOrEqual(3);
    const done = await c.async.chat.completions.createAndPoll(
      { request: { model: 'core-deep-research', messages: [{ role: 'user', content: 'q' }] } },
      reply({ ...job, status: 'FAILED', failed_at: 2, error_message: 'boom' }),
    );
    expect(done.status).toBe('FAILED');
  });
});
