// Every client resource against the real embedded server (routes, engines, SQLite index, jobs,
// Chromium): nothing here is scripted or mocked.
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deadPort } from '../../support/fixture-server.js';
import { Client } from '../../../src/client/client.js';
import type { ClientOptions } from '../../../src/client/client.js';
import { cosineSimilarity, hammingSimilarity } from '../../../src/client/embedding-math.js';
import type { ChatCompletionStreamEvent } from '../../../src/client/resources/chat.js';
import { accumulateChatStream } from '../../../src/client/stream-accumulator.js';
import type { ChatStreamSources } from '../../../src/client/stream-accumulator.js';
import {
  AbortError,
  AuthenticationError,
  ConnectionError,
  NotFoundError,
  TimeoutError,
  ValidationError,
} from '../../../src/errors.js';
import { decodeBinary, decodeInt8, EMBEDDING_MODELS } from '../../../src/protocol/index.js';
import type { AsyncChatJob, ChatCompletionRequest } from '../../../src/protocol/index.js';
import { startTestServer } from '../../support/server.js';
import type { TestServer } from '../../support/server.js';

const KEY = 'svc_client-resources-0123456789abcdefghijkl';
const CORPUS = fileURLToPath(new URL('../../fixtures/corpus/web', import.meta.url));
const QUESTION = {
  model: 'core',
  messages: [{ role: 'user', content: 'How does SQLite FTS5 rank results?' }],
} satisfies ChatCompletionRequest;

let server: TestServer;
const clients: Client[] = [];

function client(options: ClientOptions = {}): Client {
  const c = new Client({ apiKey: KEY, baseURL: server.url, maxRetries: 0, ...options });
  clients.push(c);
  return c;
}

beforeAll(async () => {
  server = await startTestServer({ apiKeys: [KEY] });
  const report = await server.engines.index.indexPaths([CORPUS]);
  expect(report.failed).toEqual([]);
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await server?.dispose();
});

/** The `[n]` markers of a text, in order. */
const markers = (text: string): number[] =>
  [...text.matchAll(/\[(\d+)\]/g)].map((m) => Number(m[1]));

describe('chat.completions', () => {
  it('answers with [n] markers that index citations, and citations match search_results', async () => {
    const res = await client().chat.completions.create(QUESTION);
    const content = res.choices[0]?.message.content;
    expect(typeof content).toBe('string');
    const used = markers(content as string);
    expect(used.length).toBeGreaterThan(0);
    const citations = res.citations ?? [];
    for (const n of used) expect(n).toBeGreaterThanOrEqual(1);
    for (const n of used) expect(n).toBeLessThanOrEqual(citations.length);
    expect(res.search_results?.map((r) => r.url)).toEqual(citations);
    expect(res.search_results?.[0]?.title).toMatch(/FTS5/);
    expect(res.choices[0]?.finish_reason).toBe('stop');
    expect(res.usage?.completion_tokens).toBeGreaterThan(0);
    // Citations are signed links a browser can open without the API key.
    const page = await fetch(citations[0] as string);
    expect(page.status).toBe(200);
  });

  it('streams full chunks whose text and sources add up to the non-streamed answer', async () => {
    const c = client();
    const plain = await c.chat.completions.create(QUESTION);
    const stream = await c.chat.completions.create({ ...QUESTION, stream: true });
    const order: string[] = [];
    const final = stream.finalCompletion({
      onSources: () => order.push('sources'),
      onDelta: () => order.push('delta'),
    });
    const pieces: string[] = [];
    for await (const text of stream.textDeltas()) pieces.push(text);
    const done = await final;
    expect(pieces.join('')).toBe(plain.choices[0]?.message.content);
    expect(pieces.length).toBeGreaterThan(0);
    expect(done.choices[0]?.message.content).toBe(plain.choices[0]?.message.content);
    expect(done.citations).toEqual(plain.citations);
    expect(done.search_results).toEqual(plain.search_results);
    expect(done.choices[0]?.finish_reason).toBe('stop');
    expect(done.usage?.completion_tokens).toBe(plain.usage?.completion_tokens);
    // Sources arrive before the first piece of text, so a caller can start visiting pages.
    expect(order[0]).toBe('sources');
    expect(order.filter((o) => o === 'sources')).toHaveLength(1);
  });

  it('streams concise deltas then one done event, accumulated to the same answer', async () => {
    const c = client();
    const plain = await c.chat.completions.create(QUESTION);
    const stream = await c.chat.completions.create({
      ...QUESTION,
      stream: true,
      stream_mode: 'concise',
    });
    const events: ChatCompletionStreamEvent[] = [];
    let sources: ChatStreamSources | undefined;
    const done = await accumulateChatStream(stream, {
      onEvent: (ev) => events.push(ev),
      onSources: (s) => (sources = s),
    });
    expect(events.at(-1)?.object).toBe('chat.completion.done');
    expect(events.slice(0, -1).every((ev) => ev.object === 'chat.completion.chunk')).toBe(true);
    expect(done.choices[0]?.message.content).toBe(plain.choices[0]?.message.content);
    expect(done.citations).toEqual(plain.citations);
    expect(sources?.citations).toEqual(plain.citations);
    expect(done.usage?.total_tokens).toBe(plain.usage?.total_tokens);
    for (const n of markers(done.choices[0]?.message.content as string)) {
      expect(done.citations?.[n - 1]).toBe(done.search_results?.[n - 1]?.url);
    }
  });
});

describe('search', () => {
  it('returns ranked results for one query and one list per query for several', async () => {
    const c = client();
    const one = await c.search.create({ query: 'battery recycling plant', max_results: 3 });
    expect(Array.isArray(one.results)).toBe(true);
    const hits = one.results as { title: string; url: string }[];
    expect(hits.length).toBeGreaterThan(0);
    expect(hits.length).toBeLessThanOrEqual(3);
    expect(hits[0]?.title).toMatch(/recycling/i);
    const many = await c.search.create({ query: ['coral reef bleaching', 'sqlite fts5'] });
    const lists = many.results as { title: string }[][];
    expect(lists).toHaveLength(2);
    expect(lists[0]?.[0]?.title).toMatch(/coral/i);
    expect(lists[1]?.[0]?.title).toMatch(/FTS5/);
  });
});

describe('embeddings', () => {
  const texts = [
    'The cat sat on the warm mat by the door.',
    'A cat was sitting on the warm mat near the door.',
    'Quarterly revenue fell as interest rates rose.',
  ];

  it('decodes base64_int8 vectors where similar texts are closer than unrelated ones', async () => {
    const res = await client().embeddings.create({ model: 'svc-embed-v1-0.6b', input: texts });
    expect(res.data.map((d) => d.index)).toEqual([0, 1, 2]);
    const [a, b, z] = res.data.map((d) => decodeInt8(d.embedding));
    expect(a?.length).toBe(EMBEDDING_MODELS['svc-embed-v1-0.6b'].dimensions);
    expect(cosineSimilarity(a!, b!)).toBeGreaterThan(cosineSimilarity(a!, z!));
    expect(res.usage.total_tokens).toBeGreaterThan(0);
  });

  it('decodes base64_binary vectors and honours dimensions', async () => {
    const res = await client().embeddings.create({
      model: 'svc-embed-v1-0.6b',
      input: texts,
      dimensions: 256,
      encoding_format: 'base64_binary',
    });
    const [a, b, z] = res.data.map((d) => decodeBinary(d.embedding));
    expect(a?.length).toBe(256 / 8);
    expect(hammingSimilarity(a!, b!)).toBeGreaterThan(hammingSimilarity(a!, z!));
  });

  it('contextualized embeddings keep document and chunk order, and a query finds its document', async () => {
    const c = client();
    const docs = await c.contextualizedEmbeddings.create({
      model: 'svc-embed-context-v1-0.6b',
      input: [
        ['Coral reefs bleach when the sea warms.', 'Bleached corals lose their algae.'],
        ['SQLite FTS5 ranks with bm25.'],
      ],
    });
    expect(docs.data.map((d) => [d.index, d.data.map((x) => x.index)])).toEqual([
      [0, [0, 1]],
      [1, [0]],
    ]);
    const query = await c.contextualizedEmbeddings.create({
      model: 'svc-embed-context-v1-0.6b',
      input: [['why do corals bleach when the sea warms']],
    });
    const q = decodeInt8(query.data[0]!.data[0]!.embedding);
    const coral = decodeInt8(docs.data[0]!.data[0]!.embedding);
    const sqlite = decodeInt8(docs.data[1]!.data[0]!.embedding);
    expect(cosineSimilarity(q, coral)).toBeGreaterThan(cosineSimilarity(q, sqlite));
  });
});

describe('async.chat.completions', () => {
  const body = { request: { ...QUESTION, model: 'core-deep-research' as const } };

  it('creates, gets and lists jobs, newest first with paging', async () => {
    const jobs = client().async.chat.completions;
    const first = await jobs.create(body);
    const second = await jobs.create(body);
    expect(first.status).toBe('CREATED');
    expect((await jobs.get(first.id)).id).toBe(first.id);
    const page = await jobs.list({ limit: 1 });
    expect(page.requests.map((r) => r.id)).toEqual([second.id]);
    expect(page.next_token).not.toBeNull();
    const next = await jobs.list({ limit: 1, next_token: page.next_token! });
    expect(next.requests.map((r) => r.id)).toEqual([first.id]);
  });

  it('createAndPoll reports each status change and resolves to the completed job', async () => {
    const statuses: string[] = [];
    const job = await client().async.chat.completions.createAndPoll(body, {
      pollInterval: 20,
      onProgress: (j) => statuses.push(j.status),
    });
    expect(job.status).toBe('COMPLETED');
    if (job.status !== 'COMPLETED') return;
    expect(job.response.choices[0]?.message.content).toMatch(/\[1\]/);
    expect(statuses[0]).toBe('CREATED');
    expect(statuses.at(-1)).toBe('COMPLETED');
    expect(statuses.every((s, i) => s !== statuses[i - 1])).toBe(true);
  });

  it('is resumable by id after an abort', async () => {
    const jobs = client().async.chat.completions;
    const controller = new AbortController();
    let id = '';
    const err = await jobs
      .createAndPoll(body, {
        signal: controller.signal,
        onProgress: (j) => {
          id = j.id;
          controller.abort();
        },
      })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AbortError);
    const resumed = await jobs.poll(id, { pollInterval: 20 });
    expect(resumed).toMatchObject({ id, status: 'COMPLETED' });
  });

  it('maps an unknown job to NotFoundError carrying the request id', async () => {
    const err = await client()
      .async.chat.completions.poll('no-such-job')
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NotFoundError);
    expect((err as NotFoundError).requestId).toMatch(/\S/);
    expect((err as NotFoundError).body).toMatchObject({ error: { code: 'job_not_found' } });
  });
});

describe('createAndPoll on a queue whose workers are stopped', () => {
  let stalled: TestServer;
  beforeAll(async () => {
    stalled = await startTestServer({ apiKeys: [KEY] });
    // Jobs stay CREATED: the real queue with no worker to claim them.
    await stalled.engines.jobs.stop();
  });
  afterAll(async () => {
    await stalled?.dispose();
  });

  /** Polls made until pollTimeout, with the given backoff. */
  async function pollsUntilTimeout(backoffFactor: number): Promise<number> {
    const gets: string[] = [];
    const c = client({
      baseURL: stalled.url,
      logger: {
        debug: (msg) => void (msg.startsWith('request GET') && gets.push(msg)),
        info: () => undefined,
        warn: () => undefined,
        error: () => undefined,
      },
    });
    const err = await c.async.chat.completions
      .createAndPoll(
        { request: { ...QUESTION, model: 'core-deep-research' } },
        { pollInterval: 20, maxPollInterval: 80, backoffFactor, pollTimeout: 400 },
      )
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TimeoutError);
    return gets.length;
  }

  it('backs off between polls up to maxPollInterval, then times out', async () => {
    const fixed = await pollsUntilTimeout(1);
    const growing = await pollsUntilTimeout(2);
    // 20, 40, 80, 80, 80 ms waits fit about 6 polls in 400 ms; a fixed 20 ms fits about 20.
    expect(growing).toBeGreaterThanOrEqual(3);
    expect(growing).toBeLessThanOrEqual(8);
    expect(fixed).toBeGreaterThan(growing);
  });

  it('reports the queued job once and keeps it on the server after a timeout', async () => {
    const seen: AsyncChatJob[] = [];
    const c = client({ baseURL: stalled.url });
    const err = await c.async.chat.completions
      .createAndPoll(
        { request: { ...QUESTION, model: 'core-deep-research' } },
        { pollInterval: 20, pollTimeout: 150, onProgress: (j) => seen.push(j) },
      )
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TimeoutError);
    expect(seen.map((j) => j.status)).toEqual(['CREATED']);
    expect((await c.async.chat.completions.get(seen[0]!.id)).status).toBe('CREATED');
  });
});

describe('auth.revokeToken and key rotation', () => {
  it('revokes a key so its next call throws AuthenticationError; setApiKey recovers', async () => {
    const { key } = await server.keys.create('default', 'to revoke');
    const c = client({ apiKey: key });
    await c.search.create({ query: 'sqlite' });
    expect(await c.auth.revokeToken({ auth_token: key })).toMatchObject({ revoked: true });
    const err = await c.search.create({ query: 'sqlite' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AuthenticationError);
    expect((err as Error).message).not.toContain(key);
    c.setApiKey(KEY);
    await expect(c.search.create({ query: 'sqlite' })).resolves.toHaveProperty('results');
  });
});

describe('request validation happens before any request', () => {
  let closed: Client;
  beforeAll(async () => {
    // A port that was just free: any request sent to it fails with ConnectionError.
    const port = await deadPort();
    closed = new Client({ apiKey: KEY, baseURL: `http://127.0.0.1:${port}`, maxRetries: 0 });
    clients.push(closed);
  });

  const loc = async (call: () => Promise<unknown>): Promise<(string | number)[] | undefined> => {
    const err = await call().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ValidationError);
    expect((err as Error).message).toMatch(/^Invalid request \(not sent\)/);
    return (err as ValidationError).detail[0]?.loc;
  };

  it('a valid request to the closed port fails with ConnectionError (the control)', async () => {
    const err = await closed.search.create({ query: 'q' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConnectionError);
  });

  it('rejects bad poll options by name before creating a job', async () => {
    const body = { request: { ...QUESTION, model: 'core-deep-research' as const } };
    const jobs = closed.async.chat.completions;
    await expect(jobs.createAndPoll(body, { backoffFactor: 0.5 })).rejects.toThrow(
      /^Invalid option backoffFactor: expected a number >= 1/,
    );
    await expect(jobs.poll('j1', { pollInterval: -1 })).rejects.toThrow(
      /^Invalid option pollInterval/,
    );
  });

  it('names the offending field for every resource without sending', async () => {
    const bad = <T>(v: unknown): T => v as T;
    expect(
      await loc(() =>
        closed.chat.completions.create(
          bad({ model: 'core', messages: [{ role: 'robot', content: 'x' }] }),
        ),
      ),
    ).toEqual(['body', 'messages', 0, 'role']);
    expect(
      await loc(() =>
        closed.chat.completions.create({ ...QUESTION, stream: true, temperature: 5 }),
      ),
    ).toEqual(['body', 'temperature']);
    expect(await loc(() => closed.search.create({ query: 'q', max_results: 50 }))).toEqual([
      'body',
      'max_results',
    ]);
    expect(await loc(() => closed.embeddings.create(bad({ model: 'nope', input: ['a'] })))).toEqual(
      ['body', 'model'],
    );
    expect(
      await loc(() =>
        closed.contextualizedEmbeddings.create({ model: 'svc-embed-context-v1-0.6b', input: [[]] }),
      ),
    ).toEqual(['body', 'input', 0]);
    expect(
      await loc(() => closed.async.chat.completions.create(bad({ request: QUESTION }))),
    ).toEqual(['body', 'request', 'model']);
    expect(await loc(() => closed.async.chat.completions.list({ limit: 500 }))).toEqual([
      'query',
      'limit',
    ]);
    expect(await loc(() => closed.auth.revokeToken({ auth_token: '' }))).toEqual([
      'body',
      'auth_token',
    ]);
    expect(await loc(() => closed.browser.sessions.create({ idle_timeout_s: 1 }))).toEqual([
      'body',
      'idle_timeout_s',
    ]);
  });
});

describe('browser.sessions', () => {
  it('creates, gets, lists and deletes a session whose CDP URL a browser client can attach to', async () => {
    const sessions = client().browser.sessions;
    const s = await sessions.create({ tags: ['client-test'], idle_timeout_s: 60 });
    try {
      expect(s.status).toBe('running');
      expect(s.tags).toEqual(['client-test']);
      expect(await sessions.get(s.session_id)).toMatchObject({
        session_id: s.session_id,
        status: 'running',
      });
      const list = await sessions.list();
      expect(list.sessions.map((x) => x.session_id)).toContain(s.session_id);
      const cdp = sessions.cdpUrl(s);
      expect(cdp).toBe(s.cdp_url);
      expect(cdp).not.toContain(KEY);
      const browser = await chromium.connectOverCDP(cdp);
      try {
        expect(browser.version()).toMatch(/\d+\./);
      } finally {
        await browser.close();
      }
    } finally {
      // 204: nothing to parse, so delete resolves to undefined.
      expect(await sessions.delete(s.session_id)).toBeUndefined();
    }
    expect((await sessions.get(s.session_id)).status).toBe('stopped');
  });

  it('maps an unknown session to NotFoundError', async () => {
    const err = await client()
      .browser.sessions.get('00000000-0000-4000-8000-000000000000')
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NotFoundError);
    // The session route answered, not the router's fallback for an unknown path.
    expect((err as NotFoundError).body).toMatchObject({ error: { code: 'session_not_found' } });
  });
});
