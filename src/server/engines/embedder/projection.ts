// Fixed orthogonal maps from the sentence encoder's 512 dimensions to each spec model's dimension.
//
// How: a model of dimension d = m x 512 stacks m independent 512 x 512 rotations, each scaled by
// 1/sqrt(m): Q = [R_1; ...; R_m] / sqrt(m). Then Q^T Q = (R_1^T R_1 + ... + R_m^T R_m) / m = I, so Q
// is an isometric embedding of R^512 into R^d: norms, dot products and cosines are preserved exactly
// (up to float rounding). Each rotation is a randomized Hadamard transform applied three times,
// R = H D_3 H D_2 H D_1, with H the orthonormal 512-point Walsh-Hadamard matrix and D_k diagonal
// random signs drawn from a fixed seed; three rounds mix every input dimension into every output
// dimension (as in structured orthogonal random features), so no output dimension is zero or idle.
// Matryoshka truncation then keeps the first k dimensions: for k a multiple of 512 that is again an
// isometry (cosines exact); below 512 it is the first k rows of one rotation, a random orthogonal
// projection that keeps cosines approximately (error about 1/sqrt(k)).

/** Dimension of the sentence encoder's vectors. */
export const BASE_DIMENSIONS = 512;

const ROUNDS = 3;

/**
 * mulberry32: a small, fast, seedable generator of numbers in [0, 1); the same seed gives the same
 * sequence on every machine (here the same signs; in the benchmarks the same corpus).
 */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** In-place orthonormal fast Walsh-Hadamard transform of a power-of-two length array. */
function fwht(x: Float64Array): void {
  const n = x.length;
  for (let h = 1; h < n; h *= 2) {
    for (let i = 0; i < n; i += 2 * h) {
      for (let j = i; j < i + h; j++) {
        const a = x[j]!;
        const b = x[j + h]!;
        x[j] = a + b;
        x[j + h] = a - b;
      }
    }
  }
  const scale = 1 / Math.sqrt(n);
  for (let i = 0; i < n; i++) x[i]! *= scale;
}

/** A fixed isometric map from {@link BASE_DIMENSIONS} to `dimensions` (see the module comment). */
export interface Projection {
  readonly dimensions: number;
  /** Maps one 512-dim vector; the output has the same norm and pairwise dot products. */
  apply(vec: ArrayLike<number>): Float32Array;
}

const projections = new Map<string, Projection>();

/**
 * The projection for one output dimension and seed, built once per process and shared.
 * @param dimensions output size: a positive multiple of 512.
 * @param seed selects the rotations; one seed per model size keeps sizes apart.
 * @throws RangeError when `dimensions` is not a positive multiple of 512.
 * @example projectionFor(1024, 0x06b1e5ed).apply(vec512).length // 1024
 */
export function projectionFor(dimensions: number, seed: number): Projection {
  if (!Number.isInteger(dimensions) || dimensions < 1 || dimensions % BASE_DIMENSIONS !== 0) {
    throw new RangeError(
      `projection dimensions must be a positive multiple of ${BASE_DIMENSIONS}, got ${dimensions}`,
    );
  }
  const key = `${dimensions}:${seed}`;
  let p = projections.get(key);
  if (!p) {
    p = buildProjection(dimensions, seed);
    projections.set(key, p);
  }
  return p;
}

function buildProjection(dimensions: number, seed: number): Projection {
  const blocks = dimensions / BASE_DIMENSIONS;
  const next = rng(seed);
  // signs[b][r][i]: the diagonal D_{r+1} of block b.
  const signs = Array.from({ length: blocks }, () =>
    Array.from({ length: ROUNDS }, () =>
      Float64Array.from({ length: BASE_DIMENSIONS }, () => (next() < 0.5 ? -1 : 1)),
    ),
  );
  const blockScale = 1 / Math.sqrt(blocks);
  const work = new Float64Array(BASE_DIMENSIONS);
  return {
    dimensions,
    apply(vec) {
      if (vec.length !== BASE_DIMENSIONS) {
        throw new RangeError(
          `projection input must have ${BASE_DIMENSIONS} values, got ${vec.length}`,
        );
      }
      const out = new Float32Array(dimensions);
      for (let b = 0; b < blocks; b++) {
        for (let i = 0; i < BASE_DIMENSIONS; i++) work[i] = vec[i]!;
        for (const d of signs[b]!) {
          for (let i = 0; i < BASE_DIMENSIONS; i++) work[i]! *= d[i]!;
          fwht(work);
        }
        const base = b * BASE_DIMENSIONS;
        for (let i = 0; i < BASE_DIMENSIONS; i++) out[base + i] = work[i]! * blockScale;
      }
      return out;
    },
  };
}
