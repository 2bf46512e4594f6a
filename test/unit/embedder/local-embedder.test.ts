import { describe, expect, it } from 'vitest';
import { decodeBinary, decodeInt8, unpackBits } from '../../../src/protocol/encoding.js';
import {
  embedDocuments,
  embedTexts,
  encodeEmbedding,
  readEmbedderEnv,
} from '../../../src/server/engines/embedder/index.js';
import { stem } from '../../../src/server/engines/embedder/features.js';

const STANDARD = ['svc-embed-v1-0.6b', 'svc-embed-v1-4b'] as const;
const CONTEXT = ['svc-embed-context-v1-0.6b', 'svc-embed-context-v1-4b'] as const;

function dot(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
}

function norm(a: ArrayLike<number>): number {
  return Math.sqrt(dot(a, a));
}

// [anchor, paraphrase, unrelated]
const TRIPLES: [string, string, string][] = [
  [
    'How do I reset my password?',
    'Steps to reset a forgotten password',
    'The weather in Paris is sunny today',
  ],
  ['The cat sat on the mat', 'A cat was sitting on a mat', 'Quarterly revenue grew by ten percent'],
  [
    'Install the package with npm',
    'Use npm install to add the package',
    'The Roman empire fell in 476',
  ],
  [
    'embedding models for semantic search',
    'semantic search with an embedding model',
    'baking sourdough bread at home',
  ],
  ['recieve the packege tomorrow', 'receive the package tomorrow', 'stock markets closed lower'],
  [
    'Chromium browser sessions over CDP',
    'attach Playwright to a Chromium session via CDP',
    'a recipe for lemon cake',
  ],
];

describe('local embedder', () => {
  for (const model of STANDARD) {
    it(`${model}: paraphrases score clearly higher than unrelated texts`, () => {
      for (const [a, b, c] of TRIPLES) {
        const [va, vb, vc] = embedTexts([a, b, c], model);
        const related = dot(va!, vb!);
        const unrelated = dot(va!, vc!);
        expect(related, `${a} ~ ${b}`).toBeGreaterThan(0.25);
        expect(related - unrelated, `${a}: ${b} vs ${c}`).toBeGreaterThan(0.2);
      }
    });

    it(`${model}: is deterministic and returns unit Float32Arrays of the full dimension`, () => {
      const texts = TRIPLES.flat();
      const first = embedTexts(texts, model);
      const second = embedTexts([...texts].reverse(), model).reverse();
      const full = model.endsWith('4b') ? 2560 : 1024;
      first.forEach((v, i) => {
        expect(v).toBeInstanceOf(Float32Array);
        expect(v.length).toBe(full);
        expect(norm(v)).toBeCloseTo(1, 5);
        expect(Array.from(v)).toEqual(Array.from(second[i]!));
      });
    });

    it(`${model}: matryoshka truncation keeps unit norm and the similarity ranking`, () => {
      const anchors = TRIPLES.map((t) => t[0]);
      const pool = TRIPLES.flatMap((t) => [t[1], t[2]]);
      const rank = (dims?: number): number[] => {
        const a = embedTexts(anchors, model, dims);
        const p = embedTexts(pool, model, dims);
        return a.map((va) => {
          let best = -1;
          let bestScore = -Infinity;
          p.forEach((vp, j) => {
            const s = dot(va, vp);
            if (s > bestScore) [best, bestScore] = [j, s];
          });
          return best;
        });
      };
      // Each anchor's nearest pool text is its paraphrase (index 2i), at every prefix length.
      const expected = anchors.map((_, i) => 2 * i);
      for (const dims of [undefined, 128, 256, 512]) {
        expect(rank(dims), `dims=${dims}`).toEqual(expected);
        for (const v of embedTexts(anchors, model, dims)) {
          expect(v.length).toBe(dims ?? (model.endsWith('4b') ? 2560 : 1024));
          expect(norm(v)).toBeCloseTo(1, 5);
        }
      }
    });

    it(`${model}: the leading dimensions carry more of the signal than a trailing block`, () => {
      const full = model.endsWith('4b') ? 2560 : 1024;
      const vs = embedTexts(TRIPLES.flat(), model);
      for (const v of vs) {
        const head = norm(v.subarray(0, 128));
        const tail = norm(v.subarray(full - 128));
        expect(head).toBeGreaterThan(2 * tail);
      }
      // A 128-d prefix agrees with the full vector about which pairs are similar.
      for (const [a, b, c] of TRIPLES) {
        const [pa, pb, pc] = embedTexts([a, b, c], model, 128);
        expect(dot(pa!, pb!)).toBeGreaterThan(dot(pa!, pc!) + 0.15);
      }
    });
  }

  it('the 0.6b and 4b models produce different vectors', () => {
    for (const dims of [128, 512]) {
      const [small] = embedTexts(['same text for both models'], 'svc-embed-v1-0.6b', dims);
      const [large] = embedTexts(['same text for both models'], 'svc-embed-v1-4b', dims);
      expect(Math.abs(dot(small!, large!))).toBeLessThan(0.5);
    }
  });

  it('stems plurals and verb forms to a shared unigram', () => {
    expect(stem('studies')).toBe(stem('study'));
    expect(stem('running')).toBe(stem('runs'));
    expect(stem('passwords')).toBe('password');
  });

  it('gives punctuation-only and non-Latin texts stable unit vectors', () => {
    const [a, b, c, d] = embedTexts(
      ['?!...', '東京の天気', '東京の天気は晴れ', '株価が下がった'],
      'svc-embed-v1-0.6b',
    );
    expect(norm(a!)).toBeCloseTo(1, 5);
    expect(dot(b!, c!)).toBeGreaterThan(dot(b!, d!) + 0.2);
  });

  it('rejects unknown models and out-of-range dimensions', () => {
    expect(() => embedTexts(['x'], 'text-embedding-3-small')).toThrow(RangeError);
    expect(() => embedTexts(['x'], 'svc-embed-v1-0.6b', 127)).toThrow(/128 to 1024/);
    expect(() => embedTexts(['x'], 'svc-embed-v1-0.6b', 2560)).toThrow(RangeError);
    expect(embedTexts(['x'], 'svc-embed-v1-4b', 2560)[0]!.length).toBe(2560);
  });
});

describe('quantised encodings', () => {
  it('int8 round-trips through the protocol decoder within quantisation error', () => {
    const [v] = embedTexts(['int8 round trip of an embedding'], 'svc-embed-v1-0.6b', 256);
    const q = decodeInt8(encodeEmbedding(v!, 'base64_int8'));
    expect(q.length).toBe(256);
    for (let i = 0; i < 256; i++)
      expect(Math.abs(q[i]! / 127 - v![i]!)).toBeLessThanOrEqual(0.5 / 127 + 1e-6);
  });

  it('binary encodes the sign of every dimension, MSB first', () => {
    const [v] = embedTexts(['binary round trip'], 'svc-embed-v1-4b', 200);
    const packed = decodeBinary(encodeEmbedding(v!, 'base64_binary'));
    expect(packed.length).toBe(25);
    const bits = unpackBits(packed, 200);
    for (let i = 0; i < 200; i++) expect(bits[i]).toBe(v![i]! > 0 ? 1 : 0);
  });

  it('int8 vectors keep the float ranking of paraphrases over unrelated texts', () => {
    for (const [a, b, c] of TRIPLES) {
      const [qa, qb, qc] = embedTexts([a, b, c], 'svc-embed-v1-0.6b').map((v) =>
        decodeInt8(encodeEmbedding(v)),
      );
      expect(dot(qa!, qb!)).toBeGreaterThan(dot(qa!, qc!));
    }
  });
});

describe('contextualized embeddings', () => {
  const docs = [
    [
      'SQLite stores the whole database in a single file.',
      'Its write-ahead log lets readers proceed while a writer commits.',
      'The FTS5 extension adds full-text search with BM25 ranking.',
    ],
    [
      'Sourdough needs a lively starter fed the night before.',
      'Shape the loaf gently and let it proof in a cool place.',
      'Bake in a preheated oven until the crust is deep brown.',
    ],
  ];

  for (const model of CONTEXT) {
    it(`${model}: chunks sit closer to their own document than to another`, () => {
      const mixed = embedDocuments(docs, model);
      const plain = embedDocuments(docs, model.replace('context-', ''));
      const meanSim = (vs: Float32Array[][], d: number, i: number, other: number): number => {
        const own = vs[other]!.filter((_, j) => other !== d || j !== i);
        return own.reduce((s, v) => s + dot(vs[d]![i]!, v), 0) / own.length;
      };
      for (let d = 0; d < 2; d++) {
        for (let i = 0; i < 3; i++) {
          const own = meanSim(mixed, d, i, d);
          const other = meanSim(mixed, d, i, 1 - d);
          expect(own - other).toBeGreaterThan(0.2);
          // The mixing is what pulls them together: plain vectors of the same chunks are further.
          expect(own).toBeGreaterThan(meanSim(plain, d, i, d) + 0.1);
          expect(norm(mixed[d]![i]!)).toBeCloseTo(1, 5);
        }
      }
    });

    it(`${model}: a one-chunk query document equals the plain embedding of the query`, () => {
      const [[q]] = embedDocuments([['how does sqlite full text search rank']], model, 256) as [
        [Float32Array],
      ];
      const [plain] = embedTexts(['how does sqlite full text search rank'], model, 256);
      expect(dot(q, plain!)).toBeCloseTo(1, 5);
    });
  }

  it('keeps document and chunk order', () => {
    const out = embedDocuments([['a b'], ['c d', 'e f', 'g h']], 'svc-embed-context-v1-0.6b', 128);
    expect(out.map((d) => d.length)).toEqual([1, 3]);
    expect(out[1]![2]!.length).toBe(128);
  });
});

describe('readEmbedderEnv', () => {
  it('selects the upstream only when SVC_EMBED_BASE_URL is set', () => {
    expect(readEmbedderEnv({})).toBeUndefined();
    expect(
      readEmbedderEnv({ SVC_EMBED_BASE_URL: 'http://127.0.0.1:9/v1', SVC_EMBED_MODEL: 'm' }),
    ).toEqual({ baseUrl: 'http://127.0.0.1:9/v1', apiKey: undefined, model: 'm' });
  });
});
