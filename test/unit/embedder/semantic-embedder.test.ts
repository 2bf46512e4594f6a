// The local embedder backed by the Universal Sentence Encoder lite (loaded offline from its npm
// package in a worker thread), its hashing fallback, and its vector cache.
import Database from 'better-sqlite3';
import { beforeAll, describe, expect, it } from 'vitest';
import { decodeBinary, decodeInt8, unpackBits } from '../../../src/protocol/encoding.js';
import {
  ENCODER_ID,
  EMBEDDING_MODEL_NAMES,
  SemanticEmbedder,
  VectorCache,
  createEmbedder,
  embedDocuments,
  embedTexts,
  encodeEmbedding,
  splitPieces,
} from './semantic-support.js';

function dot(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
}

// [claim, paraphrase with few shared words, unrelated]
const TRIPLES: [string, string, string][] = [
  [
    'The request is retried up to three times.',
    'A failed request is attempted again at most 3 times.',
    'The museum opens at nine on weekdays.',
  ],
  [
    'How do I reset my password?',
    'Steps to recover a forgotten login credential',
    'The weather in Paris is sunny today',
  ],
  [
    'The connection pool reuses sockets between requests.',
    'Open TCP connections are kept and used again for later calls.',
    'Sourdough needs a long, slow fermentation.',
  ],
];

const semantic = new SemanticEmbedder();

// The model loads once per process (a second or more on a busy machine) and each call runs it in
// a worker thread: generous bounds, so a loaded machine slows these tests without failing them.
const ENCODER = { timeout: 60_000 };
beforeAll(() => semantic.embedTexts(['warm up'], 'svc-embed-v1-0.6b'), 120_000);

describe('sentence encoder embedder', ENCODER, () => {
  it.each(EMBEDDING_MODEL_NAMES)(
    '%s: a paraphrase scores clearly higher than an unrelated text',
    async (model) => {
      for (const [a, b, c] of TRIPLES) {
        const [va, vb, vc] = await semantic.embedTexts([a, b, c], model);
        expect(dot(va!, vb!)).toBeGreaterThan(dot(va!, vc!) + 0.25);
      }
      expect(semantic.engine).toBe('use-lite');
    },
  );

  it('returns unit Float32Arrays of the full model dimension', async () => {
    for (const [model, dims] of [
      ['svc-embed-v1-0.6b', 1024],
      ['svc-embed-v1-4b', 2560],
    ] as const) {
      const [v] = await semantic.embedTexts(['Batteries store solar power.'], model);
      expect(v).toBeInstanceOf(Float32Array);
      expect(v).toHaveLength(dims);
      expect(Math.abs(Math.sqrt(dot(v!, v!)) - 1)).toBeLessThan(1e-5);
    }
  });

  it('the two model sizes give different vectors with the same cosines', async () => {
    const [a6, b6] = await semantic.embedTexts(TRIPLES[0]!.slice(0, 2), 'svc-embed-v1-0.6b');
    const [a4, b4] = await semantic.embedTexts(TRIPLES[0]!.slice(0, 2), 'svc-embed-v1-4b');
    expect(dot(a6!.subarray(0, 512), a4!.subarray(0, 512))).toBeLessThan(0.9);
    expect(Math.abs(dot(a6!, b6!) - dot(a4!, b4!))).toBeLessThan(1e-5);
  });

  it('is deterministic: a fresh embedder returns the same vectors', async () => {
    const texts = ['Deterministic output, please.', 'Another sentence entirely.'];
    const first = await new SemanticEmbedder().embedTexts(texts, 'svc-embed-v1-0.6b');
    const again = await new SemanticEmbedder().embedTexts(texts, 'svc-embed-v1-0.6b');
    expect(again).toEqual(first);
    // Alone or in a batch, a text gets the same vector up to float rounding.
    const [alone] = await new SemanticEmbedder().embedTexts([texts[1]!], 'svc-embed-v1-0.6b');
    expect(dot(alone!, first[1]!)).toBeGreaterThan(0.99999);
  });

  it('matryoshka truncation keeps unit norm, the prefix direction and the ranking', async () => {
    const [a, b, c] = TRIPLES[2]!;
    const full = await semantic.embedTexts([a, b, c], 'svc-embed-v1-4b');
    for (const dims of [128, 256, 512, 1000, 1024, 2048]) {
      const cut = await semantic.embedTexts([a, b, c], 'svc-embed-v1-4b', dims);
      for (const [i, v] of cut.entries()) {
        expect(v).toHaveLength(dims);
        expect(Math.abs(Math.sqrt(dot(v, v)) - 1)).toBeLessThan(1e-5);
        const prefix = full[i]!.subarray(0, dims);
        expect(dot(v, prefix) / Math.sqrt(dot(prefix, prefix))).toBeGreaterThan(0.99999);
      }
      expect(dot(cut[0]!, cut[1]!)).toBeGreaterThan(dot(cut[0]!, cut[2]!));
      if (dims % 512 === 0) {
        // A whole number of 512 blocks is an isometry: the encoder's cosine, exactly.
        expect(Math.abs(dot(cut[0]!, cut[1]!) - dot(full[0]!, full[1]!))).toBeLessThan(1e-5);
      }
    }
  });

  it('int8 and binary encodings stay valid and keep the paraphrase ranking', async () => {
    const [a, b, c] = TRIPLES[0]!;
    const vs = await semantic.embedTexts([a, b, c], 'svc-embed-v1-0.6b');
    const q = vs.map((v) => [...decodeInt8(encodeEmbedding(v, 'base64_int8'))].map((x) => x / 127));
    for (const [i, v] of vs.entries()) {
      for (let d = 0; d < v.length; d++)
        expect(Math.abs(q[i]![d]! - v[d]!)).toBeLessThan(0.5 / 127 + 1e-6);
    }
    const cos = (x: number[], y: number[]) => dot(x, y) / Math.sqrt(dot(x, x) * dot(y, y));
    expect(cos(q[0]!, q[1]!)).toBeGreaterThan(cos(q[0]!, q[2]!) + 0.2);
    const bits = unpackBits(decodeBinary(encodeEmbedding(vs[0]!, 'base64_binary')), 1024);
    for (let d = 0; d < 1024; d++) expect(bits[d]).toBe(vs[0]![d]! > 0 ? 1 : 0);
  });

  it('cuts a long text into pieces and mean-pools them', async () => {
    const sentence = 'Connection pools keep sockets open so later requests skip the handshake. ';
    const long = sentence.repeat(40);
    const pieces = splitPieces(long, 800);
    expect(pieces.length).toBeGreaterThan(3);
    for (const p of pieces) {
      expect(p.length).toBeLessThanOrEqual(800);
      expect(p.endsWith('.')).toBe(true);
    }
    // The long text's vector is the length-weighted mean of its pieces' vectors, renormalised.
    const [vLong] = await semantic.embedTexts([long], 'svc-embed-v1-0.6b');
    const vPieces = await semantic.embedTexts(pieces, 'svc-embed-v1-0.6b');
    const mean = new Float64Array(1024);
    vPieces.forEach((v, i) => v.forEach((x, d) => (mean[d]! += pieces[i]!.length * x)));
    expect(dot(vLong!, mean) / Math.sqrt(dot(mean, mean))).toBeGreaterThan(0.99999);
  });
});

describe('contextualized embeddings with the sentence encoder', ENCODER, () => {
  const battery = [
    'The Hornsdale reserve in South Australia was built with lithium-ion battery packs.',
    'It earns most of its revenue from frequency control services on the grid.',
  ];
  const coral = [
    'Divers surveyed coral bleaching along the outer reef for ten years.',
    'Heat stress makes corals expel the algae that give them colour.',
  ];

  it('a one-chunk query document equals the plain embedding of the query', async () => {
    const q = 'how do batteries earn money on the grid';
    const [[ctx]] = (await semantic.embedDocuments([[q]], 'svc-embed-context-v1-0.6b')) as [
      [Float32Array],
    ];
    const [plain] = await semantic.embedTexts([q], 'svc-embed-v1-0.6b');
    expect(ctx).toEqual(plain);
  });

  it('mixes each chunk with its document so chunks lean to their own document', async () => {
    const model = 'svc-embed-context-v1-4b';
    const [b, c] = await semantic.embedDocuments([battery, coral], model);
    const plain = await semantic.embedTexts([...battery, ...coral], 'svc-embed-v1-4b');
    // Mixing pulls the two chunks of one document together.
    expect(dot(b![0]!, b![1]!)).toBeGreaterThan(dot(plain[0]!, plain[1]!));
    expect(dot(c![0]!, c![1]!)).toBeGreaterThan(dot(plain[2]!, plain[3]!));
    // The query finds the right chunk of the right document.
    const [[q]] = (await semantic.embedDocuments(
      [['Which company makes money from grid frequency services?']],
      model,
    )) as [[Float32Array]];
    const scores = [...b!, ...c!].map((v) => dot(q, v));
    expect(scores.indexOf(Math.max(...scores))).toBe(1);
  });
});

describe('hashing fallback', ENCODER, () => {
  const texts = ['The request is retried up to three times.', 'Kelp forests grow fast.'];

  it('engine hashing answers with exactly the hashing model', async () => {
    const hashing = createEmbedder(undefined, { engine: 'hashing' });
    expect(hashing.engine).toBe('hashing');
    expect(await hashing.embedTexts(texts, 'svc-embed-v1-0.6b', 256)).toEqual(
      embedTexts(texts, 'svc-embed-v1-0.6b', 256),
    );
    expect(await hashing.embedDocuments([texts], 'svc-embed-context-v1-4b')).toEqual(
      embedDocuments([texts], 'svc-embed-context-v1-4b'),
    );
  });

  it('an encoder package that is not installed falls back to hashing, said once', async () => {
    const reasons: string[] = [];
    const missing = new SemanticEmbedder({
      encoder: { modelPackage: '@energetic-ai/model-embeddings-absent' },
      onFallback: (reason) => reasons.push(reason),
    });
    expect(missing.engine).toBe('use-lite');
    const vs = await missing.embedTexts(texts, 'svc-embed-v1-4b');
    expect(missing.engine).toBe('hashing');
    expect(vs).toEqual(embedTexts(texts, 'svc-embed-v1-4b'));
    await missing.embedDocuments([texts], 'svc-embed-context-v1-0.6b');
    expect(reasons).toHaveLength(1);
    expect(reasons[0]).toMatch(/model-embeddings-absent.*not installed/);
  });

  it('rejects unknown models and out-of-range dimensions on both engines', async () => {
    await expect(semantic.embedTexts(['x'], 'svc-embed-v9')).rejects.toThrow(RangeError);
    await expect(semantic.embedTexts(['x'], 'svc-embed-v1-0.6b', 2000)).rejects.toThrow(
      /128 to 1024/,
    );
  });
});

describe('vector cache', ENCODER, () => {
  it('persists vectors in SQLite across instances, keyed by encoder and text', () => {
    const db = new Database(':memory:');
    const v = Float32Array.from({ length: 512 }, (_, i) => Math.sin(i));
    const first = new VectorCache(ENCODER_ID, { db });
    first.store([[first.keyOf('hello'), v]]);
    const second = new VectorCache(ENCODER_ID, { db });
    expect(second.lookup(second.keyOf('hello'))).toEqual(v);
    expect(second.lookup(second.keyOf('hello!'))).toBeUndefined();
    const otherEncoder = new VectorCache('another-encoder', { db });
    expect(otherEncoder.lookup(otherEncoder.keyOf('hello'))).toBeUndefined();
    db.close();
  });

  it('keeps the most recently used entries in memory', () => {
    const cache = new VectorCache(ENCODER_ID, { memoryEntries: 2 });
    const v = (x: number) => new Float32Array(512).fill(x);
    cache.store([
      ['a', v(1)],
      ['b', v(2)],
    ]);
    cache.lookup('a');
    cache.store([['c', v(3)]]);
    expect(cache.lookup('a')).toEqual(v(1));
    expect(cache.lookup('b')).toBeUndefined();
  });

  it('an embedder with a database stores each text once', async () => {
    const db = new Database(':memory:');
    const e = new SemanticEmbedder({ db });
    await e.embedTexts(['One sentence.', 'Two sentences.', 'One sentence.'], 'svc-embed-v1-0.6b');
    await e.embedDocuments([['Two sentences.', 'Three.']], 'svc-embed-context-v1-0.6b');
    const { n } = db.prepare('SELECT count(*) AS n FROM embed_vectors').get() as { n: number };
    expect(n).toBe(3);
    db.close();
  });
});
