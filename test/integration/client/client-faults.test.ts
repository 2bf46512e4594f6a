import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '../../../src/client/client.js';
import type { ClientOptions } from '../../../src/client/client.js';
import { ResponseShapeError } from '../../../src/errors.js';
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

  it('createAndPoll returns a FAILED job as is instead of throwing', async () => {
    // The real server's extractive answerer does not fail on demand; a scripted FAILED job does.
    const job = {
      id: 'j1',
      model: 'core-deep-research',
      status: 'FAILED',
      created_at: 1,
      failed_at: 2,
      error_message: 'boom',
    };
    const done = await client('poll').async.chat.completions.createAndPoll(
      { request: { model: 'core-deep-research', messages: [{ role: 'user', content: 'q' }] } },
      reply(job),
    );
    expect(done).toMatchObject({ status: 'FAILED', error_message: 'boom' });
  });

  it('createAndPoll throws ResponseShapeError for a COMPLETED job without a response', async () => {
    const job = { id: 'j2', model: 'core-deep-research', status: 'COMPLETED', created_at: 1 };
    const err = await client('poll-shape')
      .async.chat.completions.createAndPoll(
        { request: { model: 'core-deep-research', messages: [{ role: 'user', content: 'q' }] } },
        reply(job),
      )
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ResponseShapeError);
  });
});
