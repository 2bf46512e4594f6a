// Wire compatibility from the other side: the hosted service's own SDK (@perplexity-ai/perplexity_ai),
// unchanged, against the real embedded server, on every endpoint the spec defines. Each answer is
// also checked against our protocol schemas, so a field the SDK reads but we do not send (or send
// under another name) fails here.
import { fileURLToPath } from 'node:url';
import Perplexity from '@perplexity-ai/perplexity_ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AsyncChatJobSchema,
  BrowserSessionSchema,
  ChatCompletionResponseSchema,
  SearchResponseSchema,
  decodeInt8,
} from '../../../src/protocol/index.js';
import { startTestServer } from '../../support/server.js';
import type { TestServer } from '../../support/server.js';
import { waitFor } from '../../support/wait.js';

const KEY = 'svc_official-sdk-0123456789abcdefghijklmn';
const CORPUS = fileURLToPath(new URL('../../fixtures/corpus/web', import.meta.url));
const QUESTION = 'How does SQLite FTS5 rank results?';

let server: TestServer;
let sdk: Perplexity;
type EmbedParams = Parameters<Perplexity['embeddings']['create']>[0];
type ContextParams = Parameters<Perplexity['contextualizedEmbeddings']['create']>[0];

beforeAll(async () => {
  server = await startTestServer({ apiKeys: [KEY] });
  const report = await server.engines.index.indexPaths([CORPUS]);
  expect(report.failed).toEqual([]);
  sdk = new Perplexity({ apiKey: KEY, baseURL: server.url, maxRetries: 0 });
});
afterAll(async () => {
  await server?.dispose();
});

/** Cosine of two plain vectors. */
function cosine(a: readonly number[], b: readonly number[]): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  return dot / Math.sqrt(na * nb);
}

describe("the hosted service's SDK against the embedded server", () => {
  it('chat.completions.create: an answer with citations that match its search results', async () => {
    const res = await sdk.chat.completions.create({
      model: 'core',
      messages: [{ role: 'user', content: QUESTION }],
    });
    const parsed = ChatCompletionResponseSchema.parse(res);
    const content = parsed.choices[0]!.message.content;
    expect(typeof content).toBe('string');
    expect(String(content)).toMatch(/\[\d+\]/);
    expect(parsed.citations?.length ?? 0).toBeGreaterThan(0);
    expect(parsed.search_results?.map((r) => r.url)).toEqual(parsed.citations);
    expect(parsed.usage?.total_tokens ?? 0).toBeGreaterThan(0);
  });

  it('chat.completions.create with stream: chunks that add up to one answer', async () => {
    const stream = await sdk.chat.completions.create({
      model: 'core',
      messages: [{ role: 'user', content: QUESTION }],
      stream: true,
    });
    let text = '';
    let chunks = 0;
    let finish: string | null | undefined;
    for await (const chunk of stream as AsyncIterable<{
      id: string;
      choices: { delta?: { content?: string | null }; finish_reason?: string | null }[];
    }>) {
      chunks++;
      text += chunk.choices[0]?.delta?.content ?? '';
      finish = chunk.choices[0]?.finish_reason ?? finish;
    }
    expect(chunks).toBeGreaterThan(1);
    expect(text).toMatch(/\[\d+\]/);
    expect(finish).toBe('stop');
  });

  it('async.chat.completions: create, get until completed, and list', async () => {
    const job = await sdk.async.chat.completions.create({
      request: { model: 'core-deep-research', messages: [{ role: 'user', content: QUESTION }] },
    });
    expect(AsyncChatJobSchema.parse(job).status).toMatch(/^(CREATED|IN_PROGRESS|COMPLETED)$/);
    let done: Awaited<ReturnType<typeof sdk.async.chat.completions.get>> | undefined;
    await waitFor(async () => {
      done = await sdk.async.chat.completions.get(job.id);
      return done.status === 'COMPLETED' || done.status === 'FAILED';
    });
    const finished = AsyncChatJobSchema.parse(done);
    expect(finished.status).toBe('COMPLETED');
    expect(String(finished.response?.choices[0]?.message.content)).toMatch(/\[\d+\]/);
    const list = await sdk.async.chat.completions.list();
    expect(list.requests.map((r) => r.id)).toContain(job.id);
  });

  it('search.create: ranked results with title, url and snippet', async () => {
    const res = await sdk.search.create({ query: 'FTS5 bm25 ranking', max_results: 3 });
    const results = SearchResponseSchema.parse(res).results.flat();
    expect(results.length).toBeGreaterThan(0);
    expect(results.length).toBeLessThanOrEqual(3);
    for (const r of results) {
      expect(r.url).toMatch(/^https?:\/\//);
      expect(r.title.length).toBeGreaterThan(0);
    }
  });

  it('embeddings.create: base64 int8 vectors whose cosines follow meaning', async () => {
    const res = await sdk.embeddings.create({
      // The spec's model names; the SDK's types know only the hosted service's own.
      model: 'svc-embed-v1-0.6b' as EmbedParams['model'],
      input: [
        'The request is retried up to three times.',
        'A failed request is attempted again at most 3 times.',
        'Bananas are rich in potassium.',
      ],
    });
    expect(res.data).toHaveLength(3);
    const vectors = res.data!.map((d) => [...decodeInt8(String(d.embedding))]);
    expect(cosine(vectors[0]!, vectors[1]!)).toBeGreaterThan(cosine(vectors[0]!, vectors[2]!));
    expect(res.usage?.total_tokens ?? 0).toBeGreaterThan(0);
  });

  it('contextualizedEmbeddings.create: one vector per chunk, per document', async () => {
    const res = await sdk.contextualizedEmbeddings.create({
      model: 'svc-embed-context-v1-0.6b' as ContextParams['model'],
      input: [
        ['SQLite is an embedded database.', 'FTS5 ranks matches with bm25.'],
        ['Chromium is a browser.'],
      ],
    });
    expect(res.data).toHaveLength(2);
    expect(res.data![0]!.data).toHaveLength(2);
    expect(res.data![1]!.data).toHaveLength(1);
  });

  it('browser.sessions: create with and without options, then delete', async () => {
    const bare = BrowserSessionSchema.parse(await sdk.browser.sessions.create());
    expect(bare.status).toBe('running');
    await sdk.browser.sessions.delete(bare.session_id);
    const tagged = BrowserSessionSchema.parse(await sdk.browser.sessions.create({}));
    expect(tagged.session_id).not.toBe(bare.session_id);
    await sdk.browser.sessions.delete(tagged.session_id);
  });

  it('answers a bad request with an SDK error that carries the 422 and its loc', async () => {
    const err = await sdk.search
      .create({ query: 'x', max_results: 0 } as Parameters<typeof sdk.search.create>[0])
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(err).toBeInstanceOf(Perplexity.APIError);
    const apiErr = err as InstanceType<typeof Perplexity.APIError>;
    expect(apiErr.status).toBe(422);
    expect(JSON.stringify(apiErr.error)).toContain('max_results');
  });

  it('refuses a wrong key with an SDK authentication error', async () => {
    const stranger = new Perplexity({ apiKey: 'svc_nobody', baseURL: server.url, maxRetries: 0 });
    await expect(stranger.search.create({ query: 'x' })).rejects.toBeInstanceOf(
      Perplexity.AuthenticationError,
    );
  });
});
