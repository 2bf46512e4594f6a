// Small dense-vector helpers for the embedding engine (server side).

// Matryoshka truncation is wire math, shared with the client: one copy, in the protocol.
export { truncateNormalized } from '../../../protocol/encoding.js';

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
