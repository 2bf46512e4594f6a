import { describe, expect, it } from 'vitest';
import {
  BASE_DIMENSIONS,
  LOCAL_MODELS,
  projectionFor,
  truncateNormalized,
} from '../../../src/server/engines/embedder/index.js';

function dot(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
}
const cosine = (a: ArrayLike<number>, b: ArrayLike<number>): number =>
  dot(a, b) / Math.sqrt(dot(a, a) * dot(b, b));

/** Seeded vectors: Gaussian-ish, some correlated pairs so cosines span -1..1. */
function vectors(count: number, seed: number): Float32Array[] {
  let a = seed >>> 0;
  const rand = (): number => {
    a = (Math.imul(a, 1664525) + 1013904223) >>> 0;
    return a / 4294967296 - 0.5;
  };
  const out: Float32Array[] = [];
  for (let i = 0; i < count; i++) {
    const v = Float32Array.from({ length: BASE_DIMENSIONS }, rand);
    // Every other vector leans on its predecessor, so high similarities are tested too.
    if (i % 2 === 1) for (let d = 0; d < v.length; d++) v[d] = out[i - 1]![d]! + 0.3 * v[d]!;
    out.push(v);
  }
  return out;
}

const SIZES = [...new Set(Object.values(LOCAL_MODELS).map((m) => `${m.dimensions}:${m.seed}`))].map(
  (k) => k.split(':').map(Number) as [number, number],
);

describe('isometric projection of the 512-dim encoder space', () => {
  it.each(SIZES)('%i dims: preserves every cosine and norm within 1e-5', (dims, seed) => {
    const p = projectionFor(dims, seed);
    const vs = vectors(24, seed);
    const out = vs.map((v) => p.apply(v));
    for (const [i, v] of vs.entries()) {
      expect(out[i]).toHaveLength(dims);
      expect(Math.abs(Math.sqrt(dot(out[i]!, out[i]!)) / Math.sqrt(dot(v, v)) - 1)).toBeLessThan(
        1e-5,
      );
      for (let j = 0; j < i; j++) {
        expect(Math.abs(cosine(out[i]!, out[j]!) - cosine(v, vs[j]!))).toBeLessThan(1e-5);
      }
    }
  });

  it.each(SIZES)('%i dims: columns are orthonormal (Q^T Q = I)', (dims, seed) => {
    const p = projectionFor(dims, seed);
    const basis = [0, 1, 7, 255, 256, 511].map((i) => {
      const e = new Float32Array(BASE_DIMENSIONS);
      e[i] = 1;
      return p.apply(e);
    });
    for (let i = 0; i < basis.length; i++) {
      for (let j = 0; j <= i; j++) {
        expect(Math.abs(dot(basis[i]!, basis[j]!) - (i === j ? 1 : 0))).toBeLessThan(1e-5);
      }
    }
  });

  it.each(SIZES)(
    '%i dims: matryoshka prefixes of whole 512 blocks keep cosines exactly, shorter ones closely',
    (dims, seed) => {
      const p = projectionFor(dims, seed);
      const vs = vectors(20, seed + 1);
      const out = vs.map((v) => p.apply(v));
      for (let k = BASE_DIMENSIONS; k <= dims; k += BASE_DIMENSIONS) {
        const cut = out.map((v) => truncateNormalized(v, k));
        for (let i = 1; i < vs.length; i++) {
          expect(Math.abs(dot(cut[i]!, cut[i - 1]!) - cosine(vs[i]!, vs[i - 1]!))).toBeLessThan(
            1e-5,
          );
        }
      }
      // Below one block the prefix is a random orthogonal projection: close, not exact.
      const cut = out.map((v) => truncateNormalized(v, 256));
      for (let i = 1; i < vs.length; i += 2) {
        expect(Math.abs(dot(cut[i]!, cut[i - 1]!) - cosine(vs[i]!, vs[i - 1]!))).toBeLessThan(0.15);
      }
    },
  );

  it('spreads every input dimension over every output dimension', () => {
    const e = new Float32Array(BASE_DIMENSIONS);
    e[3] = 1;
    const out = projectionFor(1024, LOCAL_MODELS['svc-embed-v1-0.6b'].seed).apply(e);
    expect(out.every((x) => x !== 0)).toBe(true);
  });

  it('is fixed by its seed: same seed same map, another seed another map', () => {
    const [v] = vectors(1, 3);
    const a = projectionFor(1024, 11).apply(v!);
    expect(projectionFor(1024, 11).apply(v!)).toEqual(a);
    const b = projectionFor(1024, 12).apply(v!);
    expect(cosine(a, b)).toBeLessThan(0.5);
  });

  it('rejects dimensions that are not a multiple of 512 and inputs of the wrong size', () => {
    expect(() => projectionFor(1000, 1)).toThrow(/multiple of 512/);
    expect(() => projectionFor(1024, 1).apply(new Float32Array(256))).toThrow(/512 values/);
  });
});
