import { MockAgent, getGlobalDispatcher, setGlobalDispatcher } from 'undici';
import type { Dispatcher } from 'undici';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  RemoteEmbeddingError,
  createEmbedder,
} from '../../../src/server/engines/embedder/index.js';

// The upstream is a third-party OpenAI-compatible service, so it is simulated at the HTTP layer
// (undici MockAgent, no sockets), as unit tests require.
const BASE = 'http://upstream.test';
let agent: MockAgent;
let previous: Dispatcher;
let bodies: { input: string[]; model: string; encoding_format: string }[];
let auth: (string | undefined)[];

function vectorFor(text: string, dims: number): number[] {
  // Deterministic toy vectors: dimension i holds (char code of text[i % len]) - 100.
  return Array.from({ length: dims }, (_, i) => text.charCodeAt(i % text.length) - 100);
}

function serve(dims: number, status = 200): void {
  agent
    .get(BASE)
    .intercept({ path: '/v1/embeddings', method: 'POST' })
    .reply(status, (opts) => {
      const body = JSON.parse(String(opts.body)) as (typeof bodies)[number];
      bodies.push(body);
      const headers = opts.headers as Record<string, string> | undefined;
      auth.push(headers?.authorization);
      if (status !== 200) return { error: { message: 'upstream down' } };
      // Out of order on purpose: the adapter must follow `index`.
      return {
        data: body.input
          .map((t, index) => ({ object: 'embedding', index, embedding: vectorFor(t, dims) }))
          .reverse(),
      };
    })
    .persist();
}

beforeEach(() => {
  previous = getGlobalDispatcher();
  agent = new MockAgent();
  agent.disableNetConnect();
  setGlobalDispatcher(agent);
  bodies = [];
  auth = [];
});

afterEach(async () => {
  setGlobalDispatcher(previous);
  await agent.close();
});

function norm(v: Float32Array): number {
  let s = 0;
  for (const x of v) s += x * x;
  return Math.sqrt(s);
}

describe('remote embedder (SVC_EMBED_BASE_URL)', () => {
  it('batches texts, follows upstream indices, truncates and normalises', async () => {
    serve(1536);
    const e = createEmbedder({
      baseUrl: `${BASE}/v1/`,
      apiKey: 'sk-test',
      model: 'nomic',
      batchSize: 2,
    });
    expect(e.kind).toBe('remote');
    const texts = ['alpha', 'beta', 'gamma'];
    const out = await e.embedTexts(texts, 'svc-embed-v1-0.6b', 256);
    expect(bodies.map((b) => b.input)).toEqual([['alpha', 'beta'], ['gamma']]);
    expect(bodies[0]).toMatchObject({ model: 'nomic', encoding_format: 'float' });
    expect(auth[0]).toBe('Bearer sk-test');
    out.forEach((v, i) => {
      expect(v.length).toBe(256);
      expect(norm(v)).toBeCloseTo(1, 5);
      const raw = vectorFor(texts[i]!, 256);
      const n = Math.sqrt(raw.reduce((s, x) => s + x * x, 0));
      expect(v[3]).toBeCloseTo(raw[3]! / n, 5);
    });
  });

  it('zero-pads an upstream vector shorter than the spec dimension', async () => {
    serve(768);
    const [v] = await createEmbedder({ baseUrl: `${BASE}/v1` }).embedTexts(
      ['x'],
      'svc-embed-v1-4b',
    );
    expect(v!.length).toBe(2560);
    expect(v!.subarray(768).every((x) => x === 0)).toBe(true);
    expect(norm(v!)).toBeCloseTo(1, 5);
    expect(bodies[0]!.model).toBe('svc-embed-v1-4b');
  });

  it('mixes contextualized chunks with their document like the local model', async () => {
    serve(1024);
    const e = createEmbedder({ baseUrl: `${BASE}/v1` });
    const [doc, single] = await e.embedDocuments(
      [['first chunk', 'second chunk'], ['only']],
      'svc-embed-context-v1-0.6b',
      128,
    );
    expect(doc).toHaveLength(2);
    expect(single![0]!.length).toBe(128);
    const [plainA, plainB] = await e.embedTexts(
      ['first chunk', 'second chunk'],
      'svc-embed-v1-0.6b',
      128,
    );
    const dot = (a: Float32Array, b: Float32Array): number =>
      a.reduce((s, x, i) => s + x * b[i]!, 0);
    expect(dot(doc![0]!, doc![1]!)).toBeGreaterThan(dot(plainA!, plainB!));
  });

  it('raises RemoteEmbeddingError with the upstream status and no API key in the message', async () => {
    serve(8, 503);
    const e = createEmbedder({ baseUrl: `${BASE}/v1`, apiKey: 'sk-secret' });
    const err = await e.embedTexts(['x'], 'svc-embed-v1-0.6b').catch((x: unknown) => x);
    expect(err).toBeInstanceOf(RemoteEmbeddingError);
    expect((err as RemoteEmbeddingError).status).toBe(503);
    expect((err as Error).message).toMatch(/503/);
    expect((err as Error).message).not.toContain('sk-secret');
  });

  it('rejects a base URL that is not http(s)', () => {
    expect(() => createEmbedder({ baseUrl: 'ftp://x' })).toThrow(TypeError);
  });
});
