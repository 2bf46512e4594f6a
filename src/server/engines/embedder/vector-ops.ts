// Small dense-vector helpers for the embedding engine (server side; the client has its own in
// src/client/embedding-math.ts because server and client never import each other).

/**
 * Copy the first `dims` values of `vec` into a new array and scale it to unit L2 norm (matryoshka
 * truncation). A zero prefix becomes the first basis vector, so every output has norm 1.
 * @throws RangeError when `dims` is not an integer in `[1, vec.length]`.
 */
export function truncateNormalized(vec: ArrayLike<number>, dims: number): Float32Array {
  if (!Number.isInteger(dims) || dims < 1 || dims > vec.length) {
    throw new RangeError(`dims must be an integer from 1 to ${vec.length}, got ${dims}`);
  }
  const out = new Float32Array(dims);
  let sum = 0;
  for (let i = 0; i < dims; i++) {
    const x = vec[i]!;
    out[i] = x;
    sum += x * x;
  }
  if (sum === 0 || !Number.isFinite(sum)) {
    out.fill(0);
    out[0] = 1;
    return out;
  }
  const inv = 1 / Math.sqrt(sum);
  for (let i = 0; i < dims; i++) out[i]! *= inv;
  return out;
}

/**
 * Mix each unit vector of one document with the document's context in place:
 * `v_i <- normalize(v_i + alpha * normalize(sum_j v_j))`. With one vector, or alpha 0, the vectors
 * are unchanged.
 */
export function mixContext(vectors: Float32Array[], alpha: number): void {
  if (alpha === 0 || vectors.length < 2) return;
  const dims = vectors[0]!.length;
  const ctx = new Float64Array(dims);
  for (const v of vectors) for (let i = 0; i < dims; i++) ctx[i]! += v[i]!;
  let sum = 0;
  for (let i = 0; i < dims; i++) sum += ctx[i]! * ctx[i]!;
  if (sum === 0) return;
  const scale = alpha / Math.sqrt(sum);
  for (const v of vectors) {
    let n = 0;
    for (let i = 0; i < dims; i++) {
      const x = v[i]! + ctx[i]! * scale;
      v[i] = x;
      n += x * x;
    }
    const inv = n > 0 ? 1 / Math.sqrt(n) : 0;
    for (let i = 0; i < dims; i++) v[i]! *= inv;
  }
}
