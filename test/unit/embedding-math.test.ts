import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  cosineSimilarity,
  decodeEmbedding,
  hammingSimilarity,
  topK,
  truncateEmbedding,
} from '../../src/client/embedding-math.js';
import { encodeBinary, encodeInt8 } from '../../src/protocol/encoding.js';

function naiveHamming(a: Uint8Array, b: Uint8Array): number {
  let d = 0;
  for (let i = 0; i < a.length; i++) {
    for (let x = a[i]! ^ b[i]!; x; x >>= 1) d += x & 1;
  }
  return d;
}

function randomUnit(n: number, seed: number): Float32Array {
  const v = new Float32Array(n);
  let s = seed;
  let sum = 0;
  for (let i = 0; i < n; i++) {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    v[i] = s / 2 ** 32 - 0.5;
    sum += v[i]! * v[i]!;
  }
  for (let i = 0; i < n; i++) v[i]! /= Math.sqrt(sum);
  return v;
}

describe('decodeEmbedding', () => {
  it('decodes base64_int8 into an Int8Array view over the decoded bytes', () => {
    const v = decodeEmbedding(encodeInt8(new Float32Array([1, -1, 0.5, 0])), 'base64_int8', 4);
    expect(v).toBeInstanceOf(Int8Array);
    expect(Array.from(v)).toEqual([127, -127, 64, 0]);
    // A view, not a copy: it shares the decoded buffer.
    expect(v.buffer.byteLength).toBeGreaterThanOrEqual(v.byteLength);
  });

  it('decodes base64_binary into the packed bytes and checks the bit count', () => {
    const packed = decodeEmbedding(
      encodeBinary(new Float32Array([1, -1, 1, 0, 0, 0, 0, 0, 1])),
      'base64_binary',
      9,
    );
    expect(Array.from(packed)).toEqual([0b10100000, 0b10000000]);
    expect(() => decodeEmbedding('oA==', 'base64_binary', 9)).toThrow(RangeError);
  });

  it('rejects a length that does not match dims', () => {
    expect(() => decodeEmbedding(encodeInt8(new Float32Array(8)), 'base64_int8', 16)).toThrow(
      /expected 16/,
    );
  });
});

describe('cosineSimilarity', () => {
  it('computes cosine for floats and int8, and agrees across quantisation', () => {
    expect(cosineSimilarity(new Float32Array([1, 0]), new Float32Array([1, 1]))).toBeCloseTo(
      Math.SQRT1_2,
      6,
    );
    expect(cosineSimilarity(new Float32Array([1, 2]), new Float32Array([-1, -2]))).toBeCloseTo(
      -1,
      6,
    );
    const a = randomUnit(512, 1);
    const b = new Float32Array(a.map((x, i) => x + (i % 3 === 0 ? 0.05 : 0)));
    const exact = cosineSimilarity(a, b);
    const q = cosineSimilarity(
      decodeEmbedding(encodeInt8(a), 'base64_int8'),
      decodeEmbedding(encodeInt8(b), 'base64_int8'),
    );
    expect(Math.abs(exact - q)).toBeLessThan(0.01);
  });

  it('returns 0 for a zero vector and throws on a length mismatch', () => {
    expect(cosineSimilarity(new Int8Array(3), new Int8Array([1, 2, 3]))).toBe(0);
    expect(() => cosineSimilarity(new Float32Array(2), new Float32Array(3))).toThrow(RangeError);
  });
});

describe('hammingSimilarity', () => {
  it('matches a naive bit count on aligned and unaligned buffers', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 1, maxLength: 70 }),
        fc.integer({ min: 0, max: 3 }),
        (a, shift) => {
          const b = a.map((x, i) => (i % 2 ? x ^ 0x5a : x));
          // Copy b into a buffer at an odd offset so the word path cannot be used for it.
          const host = new Uint8Array(b.length + shift);
          host.set(b, shift);
          const unaligned = host.subarray(shift);
          const expected = 1 - naiveHamming(a, b) / (a.length * 8);
          expect(hammingSimilarity(a, b)).toBeCloseTo(expected, 12);
          expect(hammingSimilarity(a, unaligned)).toBeCloseTo(expected, 12);
        },
      ),
    );
  });

  it('counts only meaningful bits when dims is given', () => {
    const a = decodeEmbedding(
      encodeBinary(new Float32Array([1, 1, 1, 1, 1, 1, 1, 1, 1, -1])),
      'base64_binary',
    );
    const b = decodeEmbedding(
      encodeBinary(new Float32Array([1, 1, 1, 1, 1, 1, 1, 1, -1, -1])),
      'base64_binary',
    );
    expect(hammingSimilarity(a, b, 10)).toBeCloseTo(0.9, 12);
    expect(() => hammingSimilarity(a, new Uint8Array(3))).toThrow(RangeError);
  });
});

describe('topK', () => {
  const rows = Array.from({ length: 50 }, (_, i) => randomUnit(64, i + 10));
  const query = rows[17]!.map((x, i) => x + (i === 0 ? 0.01 : 0));

  it('returns the k best rows, best first, equal to a full sort', () => {
    const full = rows
      .map((r, index) => ({ index, score: cosineSimilarity(query, r) }))
      .sort((a, b) => b.score - a.score)
      .slice(0, 5);
    const got = topK(query, rows, 5);
    expect(got).toEqual(full);
    expect(got[0]!.index).toBe(17);
  });

  it('works on a flat int8 matrix and on packed binary rows', () => {
    const flat = new Int8Array(50 * 64);
    rows.forEach((r, i) => flat.set(decodeEmbedding(encodeInt8(r), 'base64_int8'), i * 64));
    const q8 = decodeEmbedding(encodeInt8(query), 'base64_int8');
    expect(topK(q8, { data: flat, dims: 64 }, 3)[0]!.index).toBe(17);
    const packed = rows.map((r) => decodeEmbedding(encodeBinary(r), 'base64_binary'));
    const qb = decodeEmbedding(encodeBinary(query), 'base64_binary');
    const best = topK(qb, packed, 2);
    expect(best[0]).toEqual({ index: 17, score: hammingSimilarity(qb, packed[17]!) });
    expect(best[0]!.score).toBeGreaterThan(best[1]!.score);
  });

  it('handles k larger than the matrix, k = 0, and breaks ties by index', () => {
    const same = [new Float32Array([1, 0]), new Float32Array([1, 0]), new Float32Array([0, 1])];
    expect(topK(new Float32Array([1, 0]), same, 10).map((s) => s.index)).toEqual([0, 1, 2]);
    expect(topK(new Float32Array([1, 0]), same, 0)).toEqual([]);
    expect(() => topK(new Float32Array(3), same, 1)).toThrow(RangeError);
  });
});

describe('truncateEmbedding', () => {
  it('keeps the prefix direction and renormalises to unit length', () => {
    const v = randomUnit(256, 3);
    const t = truncateEmbedding(v, 64);
    expect(t.length).toBe(64);
    let n = 0;
    for (const x of t) n += x * x;
    expect(n).toBeCloseTo(1, 5);
    expect(cosineSimilarity(t, v.subarray(0, 64))).toBeCloseTo(1, 6);
    expect(truncateEmbedding(new Int8Array([3, 4, 100]), 2)).toEqual(new Float32Array([0.6, 0.8]));
    expect(() => truncateEmbedding(v, 0)).toThrow(RangeError);
    expect(() => truncateEmbedding(v, 257)).toThrow(RangeError);
  });
});
