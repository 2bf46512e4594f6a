// POST /v1/embeddings and /v1/contextualizedembeddings over HTTP: encodings decode to the vectors
// they claim, dimensions truncate and renormalise, similar texts score higher, indices follow input
// order, contextualized chunks sit near their own document, usage and cost, and every limit as 422;
// the sentence encoder answers both routes (paraphrases close, unrelated texts apart), and the
// hashing fallback is chosen by option and named in the x-svc-embedder header and the start log.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  EMBEDDING_MODELS,
  computeEmbeddingCost,
  countTokens,
  decodeBinary,
  decodeInt8,
  unpackBits,
} from '../../../src/protocol/index.js';
import { startTestServer } from '../../support/server.js';
import type { TestServer } from '../../support/server.js';
import { locs, postJson } from './helpers.js';

interface Embedding {
  object: string;
  index: number;
  embedding: string;
}
interface EmbeddingsReply {
  object: string;
  model: string;
  data: Embedding[];
  usage: {
    prompt_tokens: number;
    total_tokens: number;
    cost: { input_cost: number; total_cost: number; currency: string };
  };
}
interface ContextReply extends Omit<EmbeddingsReply, 'data'> {
  data: { object: string; index: number; data: Embedding[] }[];
}

const STANDARD = ['svc-embed-v1-0.6b', 'svc-embed-v1-4b'] as const;
const CONTEXTUAL = ['svc-embed-context-v1-0.6b', 'svc-embed-context-v1-4b'] as const;

const SOLAR_A = 'Grid-scale batteries store cheap solar power at noon for the evening peak.';
const SOLAR_B = 'Battery storage shifts solar energy from midday to the evening demand peak.';
const SLEEP = 'Teenagers fall asleep later because melatonin is released later at night.';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.dispose());

async function embed(body: Record<string, unknown>): Promise<EmbeddingsReply> {
  const reply = await postJson<EmbeddingsReply>(server, '/v1/embeddings', body);
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return reply.body;
}
async function embedContext(body: Record<string, unknown>): Promise<ContextReply> {
  const reply = await postJson<ContextReply>(server, '/v1/contextualizedembeddings', body);
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return reply.body;
}

/** An int8 embedding as floats in [-1, 1]. */
const floats = (b64: string): number[] => [...decodeInt8(b64)].map((q) => q / 127);
const norm = (v: number[]): number => Math.sqrt(v.reduce((s, x) => s + x * x, 0));
function cosine(a: number[], b: number[]): number {
  let dot = 0;
  for (let i = 0; i < a.length; i++) dot += a[i]! * b[i]!;
  return dot / (norm(a) * norm(b));
}

describe('POST /v1/embeddings', () => {
  it('int8 and binary encodings decode to unit vectors of the model dimension', async () => {
    for (const model of STANDARD) {
      const full = EMBEDDING_MODELS[model].dimensions;
      const int8 = await embed({ model, input: SOLAR_A });
      expect(int8.model).toBe(model);
      expect(int8.data).toHaveLength(1);
      const v = floats(int8.data[0]!.embedding);
      expect(v).toHaveLength(full);
      // Unit length up to int8 rounding (half a step per dimension at most).
      expect(Math.abs(norm(v) - 1)).toBeLessThan(0.05);

      const binary = await embed({ model, input: SOLAR_A, encoding_format: 'base64_binary' });
      const packed = decodeBinary(binary.data[0]!.embedding);
      expect(packed).toHaveLength(full / 8);
      // Each bit is the sign of the same vector the int8 encoding carries.
      const bits = unpackBits(packed, full);
      for (let i = 0; i < full; i++) {
        if (v[i] !== 0) expect(bits[i]).toBe(v[i]! > 0 ? 1 : 0);
      }
      // Deterministic: the same text always embeds the same way.
      expect((await embed({ model, input: SOLAR_A })).data[0]!.embedding).toBe(
        int8.data[0]!.embedding,
      );
    }
  });

  it('dimensions truncates the full vector and renormalises it', async () => {
    for (const model of STANDARD) {
      const full = floats((await embed({ model, input: SOLAR_A })).data[0]!.embedding);
      for (const dimensions of [128, 256, 1000]) {
        const cut = floats((await embed({ model, input: SOLAR_A, dimensions })).data[0]!.embedding);
        expect(cut).toHaveLength(dimensions);
        expect(Math.abs(norm(cut) - 1)).toBeLessThan(0.05);
        expect(cosine(cut, full.slice(0, dimensions))).toBeGreaterThan(0.99);
      }
      const bits = await embed({
        model,
        input: SOLAR_A,
        dimensions: 130,
        encoding_format: 'base64_binary',
      });
      // 130 bits need 17 bytes, the last one zero-padded.
      const packed = decodeBinary(bits.data[0]!.embedding);
      expect(packed).toHaveLength(17);
      expect(packed[16]! & 0b0011_1111).toBe(0);
    }
  });

  it('scores similar texts higher than unrelated ones', async () => {
    for (const model of STANDARD) {
      const reply = await embed({ model, input: [SOLAR_A, SOLAR_B, SLEEP] });
      const [a, b, c] = reply.data.map((d) => floats(d.embedding)) as [
        number[],
        number[],
        number[],
      ];
      const similar = cosine(a, b);
      const unrelated = cosine(a, c);
      expect(similar).toBeGreaterThan(unrelated + 0.1);
    }
  });

  it('returns one embedding per text with index in input order', async () => {
    const texts = [SLEEP, SOLAR_A, 'FTS5 ranks passages with BM25.', SOLAR_B, 'Kelp forests.'];
    const batch = await embed({ model: 'svc-embed-v1-0.6b', input: texts, dimensions: 128 });
    expect(batch.data.map((d) => d.index)).toEqual([0, 1, 2, 3, 4]);
    for (const [i, text] of texts.entries()) {
      const alone = await embed({ model: 'svc-embed-v1-0.6b', input: text, dimensions: 128 });
      expect(batch.data[i]!.embedding).toBe(alone.data[0]!.embedding);
    }
  });

  it('counts usage with the project tokenizer and prices it from the model table', async () => {
    const texts = [SOLAR_A, SOLAR_B, SLEEP, 'ünïcödé and emoji 🔋 count too'];
    const tokens = texts.reduce((n, t) => n + countTokens(t), 0);
    for (const model of STANDARD) {
      const reply = await embed({ model, input: texts });
      expect(reply.usage.prompt_tokens).toBe(tokens);
      expect(reply.usage.total_tokens).toBe(tokens);
      expect(reply.usage.cost).toEqual(computeEmbeddingCost(model, tokens));
      // Costs are rounded to 1e-8 USD.
      expect(reply.usage.cost.total_cost).toBeCloseTo(
        (tokens * EMBEDDING_MODELS[model].pricePerMillionTokens) / 1e6,
        8,
      );
      expect(reply.usage.cost.currency).toBe('USD');
    }
  });

  it('enforces the request limits with 422 at the exact loc', async () => {
    const bad = (body: Record<string, unknown>) =>
      postJson(server, '/v1/embeddings', { model: 'svc-embed-v1-0.6b', ...body });
    expect(locs(await bad({ input: Array.from({ length: 513 }, (_, i) => `text ${i}`) }))).toEqual([
      ['body', 'input'],
    ]);
    expect(locs(await bad({ input: ['a', 'b', 'c', '', 'e'] }))).toEqual([['body', 'input', 3]]);
    expect(locs(await bad({ input: 'x', dimensions: 2000 }))).toEqual([['body', 'dimensions']]);
    expect(locs(await bad({ input: 'x', dimensions: 64 }))).toEqual([['body', 'dimensions']]);
    expect(locs(await bad({ input: 'x', model: 'svc-embed-v1-4b', dimensions: 2561 }))).toEqual([
      ['body', 'dimensions'],
    ]);
    expect(locs(await bad({ input: 'x', model: 'svc-embed-context-v1-0.6b' }))).toEqual([
      ['body', 'model'],
    ]);
    expect(locs(await bad({ input: 'x', encoding_format: 'float' }))).toEqual([
      ['body', 'encoding_format'],
    ]);
    // 512 texts is the limit itself, and fine.
    const max = await bad({
      input: Array.from({ length: 512 }, (_, i) => `t${i}`),
      dimensions: 128,
    });
    expect(max.status).toBe(200);
    expect(max.body.data).toHaveLength(512);
    expect(max.body.data[511].index).toBe(511);
  });
});

describe('POST /v1/contextualizedembeddings', () => {
  const battery = [
    'The Hornsdale reserve in South Australia was built with lithium-ion battery packs.',
    'It earns most of its revenue from frequency control services on the grid.',
    'The results were published this week.',
  ];
  const coral = [
    'Divers surveyed coral bleaching along the outer reef for ten years.',
    'Heat stress makes corals expel the algae that give them colour.',
    'The results were published this week.',
  ];

  it('returns documents and chunks with their indices, in input order', async () => {
    for (const model of CONTEXTUAL) {
      const reply = await embedContext({ model, input: [battery, coral, ['Only chunk.']] });
      expect(reply.model).toBe(model);
      expect(reply.data.map((d) => d.index)).toEqual([0, 1, 2]);
      expect(reply.data.map((d) => d.data.map((c) => c.index))).toEqual([
        [0, 1, 2],
        [0, 1, 2],
        [0],
      ]);
      for (const doc of reply.data) {
        for (const chunk of doc.data) {
          expect(floats(chunk.embedding)).toHaveLength(EMBEDDING_MODELS[model].dimensions);
        }
      }
    }
  });

  it('places a chunk closer to its own document than to another', async () => {
    for (const model of CONTEXTUAL) {
      const reply = await embedContext({ model, input: [battery, coral], dimensions: 512 });
      const [b, c] = reply.data.map((d) => d.data.map((x) => floats(x.embedding))) as [
        number[][],
        number[][],
      ];
      // The same words in two documents embed differently: each copy leans to its document.
      const inBattery = b[2]!;
      const inCoral = c[2]!;
      expect(cosine(inBattery, inCoral)).toBeLessThan(0.999);
      const meanSim = (v: number[], others: number[][]) =>
        others.reduce((s, o) => s + cosine(v, o), 0) / others.length;
      expect(meanSim(inBattery, b.slice(0, 2))).toBeGreaterThan(meanSim(inBattery, c.slice(0, 2)));
      expect(meanSim(inCoral, c.slice(0, 2))).toBeGreaterThan(meanSim(inCoral, b.slice(0, 2)));
    }
  });

  it('counts usage over every chunk and prices it from the model table', async () => {
    const tokens = [...battery, ...coral].reduce((n, t) => n + countTokens(t), 0);
    for (const model of CONTEXTUAL) {
      const reply = await embedContext({ model, input: [battery, coral] });
      expect(reply.usage.prompt_tokens).toBe(tokens);
      expect(reply.usage.total_tokens).toBe(tokens);
      expect(reply.usage.cost).toEqual(computeEmbeddingCost(model, tokens));
    }
    const small = await embedContext({ model: CONTEXTUAL[0], input: [battery] });
    const large = await embedContext({ model: CONTEXTUAL[1], input: [battery] });
    expect(large.usage.cost.total_cost).toBeGreaterThan(small.usage.cost.total_cost);
  });

  it('enforces the request limits with 422 at the exact loc', async () => {
    const bad = (body: Record<string, unknown>) =>
      postJson(server, '/v1/contextualizedembeddings', {
        model: 'svc-embed-context-v1-0.6b',
        ...body,
      });
    expect(locs(await bad({ input: [['a'], ['b', '']] }))).toEqual([['body', 'input', 1, 1]]);
    expect(locs(await bad({ input: [['a'], []] }))).toEqual([['body', 'input', 1]]);
    expect(locs(await bad({ input: [] }))).toEqual([['body', 'input']]);
    expect(locs(await bad({ input: Array.from({ length: 513 }, () => ['x']) }))).toEqual([
      ['body', 'input'],
    ]);
    expect(locs(await bad({ input: [['a']], dimensions: 2000 }))).toEqual([['body', 'dimensions']]);
    expect(locs(await bad({ input: [['a']], model: 'svc-embed-v1-0.6b' }))).toEqual([
      ['body', 'model'],
    ]);
  });
});

describe('the sentence encoder behind both routes', () => {
  // Paraphrases that share almost no words: only a model of meaning brings them together.
  const CLAIM = 'The request is retried up to three times.';
  const PARAPHRASE = 'A failed request is attempted again at most 3 times.';
  const UNRELATED = 'The museum opens at nine on weekdays.';

  it('standard embeddings score a paraphrase above an unrelated text, said by x-svc-embedder', async () => {
    for (const model of STANDARD) {
      const reply = await postJson<EmbeddingsReply>(server, '/v1/embeddings', {
        model,
        input: [CLAIM, PARAPHRASE, UNRELATED],
      });
      expect(reply.status).toBe(200);
      expect(reply.headers.get('x-svc-embedder')).toBe('use-lite');
      const [a, b, c] = reply.body.data.map((d) => floats(d.embedding)) as [
        number[],
        number[],
        number[],
      ];
      expect(cosine(a, b)).toBeGreaterThan(0.6);
      expect(cosine(a, b)).toBeGreaterThan(cosine(a, c) + 0.3);
    }
  });

  it('contextualized embeddings find the paraphrasing chunk for a [[query]] document', async () => {
    for (const model of CONTEXTUAL) {
      const reply = await postJson<ContextReply>(server, '/v1/contextualizedembeddings', {
        model,
        input: [[CLAIM], [UNRELATED, PARAPHRASE, 'Tickets are sold at the entrance.']],
      });
      expect(reply.status).toBe(200);
      expect(reply.headers.get('x-svc-embedder')).toBe('use-lite');
      const [claimDoc, chunks] = reply.body.data.map((d) => d.data.map((x) => floats(x.embedding)));
      const query = claimDoc![0]!;
      const scores = chunks!.map((v) => cosine(query, v));
      expect(scores[1]).toBeGreaterThan(Math.max(scores[0]!, scores[2]!) + 0.3);
    }
  });

  it('the server logs which model embeds, and the hashing fallback says so', async () => {
    expect(server.logs.some((l) => /"msg":"embedder","engine":"use-lite"/.test(l))).toBe(true);
    const hashing = await startTestServer({ localEmbedder: 'hashing' });
    try {
      expect(hashing.logs.some((l) => /"msg":"embedder","engine":"hashing"/.test(l))).toBe(true);
      const reply = await postJson<EmbeddingsReply>(hashing, '/v1/embeddings', {
        model: 'svc-embed-v1-0.6b',
        input: [CLAIM, PARAPHRASE],
      });
      expect(reply.status).toBe(200);
      expect(reply.headers.get('x-svc-embedder')).toBe('hashing');
      const semantic = await embed({ model: 'svc-embed-v1-0.6b', input: [CLAIM, PARAPHRASE] });
      expect(reply.body.data[0]!.embedding).not.toBe(semantic.data[0]!.embedding);
    } finally {
      await hashing.dispose();
    }
  });
});
