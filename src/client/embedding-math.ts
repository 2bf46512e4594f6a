// Client-side arithmetic on embeddings returned by the service (spec 2.8): decode, compare, rank,
// truncate. Decoding returns typed-array views over the decoded bytes, never element copies.
import { decodeBinary, decodeInt8, truncateNormalized } from '../protocol/encoding.js';

/** A dense embedding: floats, or signed int8 as sent by `base64_int8`. */
export type DenseVector = Float32Array | Int8Array | Float64Array | readonly number[];

/** Wire encodings the client can decode. */
export type EmbeddingFormat = 'base64_int8' | 'base64_binary';

/** One ranked match of {@link topK}. */
export interface ScoredIndex {
  /** Row of the matrix. */
  index: number;
  /** Cosine similarity (dense) or Hamming similarity (packed binary), higher is closer. */
  score: number;
}

/**
 * A row-major matrix of `rows` vectors of `dims` values in one typed array, e.g. many decoded
 * embeddings copied into one buffer for cache-friendly scans.
 */
export interface FlatMatrix {
  /** `rows * dims` values (floats, int8, or packed bits with `dims` counted in bytes). */
  data: Float32Array | Int8Array | Uint8Array;
  /** Values per row (bytes per row for packed binary). */
  dims: number;
}

/**
 * Decode one `embedding` string of an embeddings response.
 * `base64_int8` gives an `Int8Array` (one value per dimension); `base64_binary` gives the packed
 * `Uint8Array` (MSB-first bits, compare with {@link hammingSimilarity}). Both are views over the
 * decoded buffer.
 * @param dims expected dimension; checked when given. @default undefined (not checked)
 * @throws RangeError when the decoded length does not match `dims`, or for an unknown format.
 * @example cosineSimilarity(decodeEmbedding(a, 'base64_int8'), decodeEmbedding(b, 'base64_int8'))
 */
export function decodeEmbedding(b64: string, format: 'base64_int8', dims?: number): Int8Array;
export function decodeEmbedding(b64: string, format: 'base64_binary', dims?: number): Uint8Array;
export function decodeEmbedding(
  b64: string,
  format: EmbeddingFormat,
  dims?: number,
): Int8Array | Uint8Array;
export function decodeEmbedding(
  b64: string,
  format: EmbeddingFormat,
  dims?: number,
): Int8Array | Uint8Array {
  if (format === 'base64_int8') {
    const v = decodeInt8(b64);
    if (dims !== undefined && v.length !== dims) {
      throw new RangeError(`decodeEmbedding: expected ${dims} int8 values, got ${v.length}`);
    }
    return v;
  }
  if (format === 'base64_binary') {
    const v = decodeBinary(b64);
    if (dims !== undefined && v.length !== Math.ceil(dims / 8)) {
      throw new RangeError(
        `decodeEmbedding: expected ${Math.ceil(dims / 8)} packed bytes for ${dims} bits, got ${v.length}`,
      );
    }
    return v;
  }
  throw new RangeError(`decodeEmbedding: unknown format ${String(format)}`);
}

function dotAndNorms(a: DenseVector, b: DenseVector, offB: number, n: number): number {
  let d = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < n; i++) {
    const x = a[i]!;
    const y = b[offB + i]!;
    d += x * y;
    na += x * x;
    nb += y * y;
  }
  return na === 0 || nb === 0 ? 0 : d / Math.sqrt(na * nb);
}

/**
 * Cosine similarity of two dense vectors of equal length. Int8 vectors need no rescaling: the
 * quantisation scale cancels out. A zero vector has similarity 0 with everything.
 * @throws RangeError when the lengths differ.
 * @example cosineSimilarity(new Float32Array([1, 0]), new Float32Array([1, 1])) // ~0.7071
 */
export function cosineSimilarity(a: DenseVector, b: DenseVector): number {
  if (a.length !== b.length) {
    throw new RangeError(`cosineSimilarity: lengths differ (${a.length} vs ${b.length})`);
  }
  return dotAndNorms(a, b, 0, a.length);
}

// Population count of a byte, for unaligned buffers.
const POPCOUNT8 = Uint8Array.from({ length: 256 }, (_, i) => {
  let c = 0;
  for (let x = i; x; x &= x - 1) c++;
  return c;
});

function popcount32(x: number): number {
  let v = x - ((x >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (Math.imul((v + (v >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24) & 0xff;
}

function hammingDistance(
  a: Uint8Array,
  aOff: number,
  b: Uint8Array,
  bOff: number,
  bytes: number,
): number {
  let dist = 0;
  let i = 0;
  const sa = a.byteOffset + aOff;
  const sb = b.byteOffset + bOff;
  // Whole 32-bit words when both starts are 4-byte aligned (Buffer pool slices often are not).
  if ((sa & 3) === 0 && (sb & 3) === 0 && bytes >= 4) {
    const words = bytes >>> 2;
    const wa = new Uint32Array(a.buffer, sa, words);
    const wb = new Uint32Array(b.buffer, sb, words);
    for (let w = 0; w < words; w++) dist += popcount32(wa[w]! ^ wb[w]!);
    i = words << 2;
  }
  for (; i < bytes; i++) dist += POPCOUNT8[a[aOff + i]! ^ b[bOff + i]!]!;
  return dist;
}

/**
 * Similarity of two packed binary embeddings: `1 - hammingDistance / bits`, in [0, 1].
 * @param dims number of meaningful bits (the zero padding of the last byte never differs).
 *   @default aPacked.length * 8
 * @throws RangeError when the lengths differ.
 * @example hammingSimilarity(decodeEmbedding(a, 'base64_binary'), decodeEmbedding(b, 'base64_binary'))
 */
export function hammingSimilarity(aPacked: Uint8Array, bPacked: Uint8Array, dims?: number): number {
  if (aPacked.length !== bPacked.length) {
    throw new RangeError(
      `hammingSimilarity: lengths differ (${aPacked.length} vs ${bPacked.length} bytes)`,
    );
  }
  const bits = dims ?? aPacked.length * 8;
  if (bits === 0) return 1;
  return 1 - hammingDistance(aPacked, 0, bPacked, 0, aPacked.length) / bits;
}

// Min-heap on score (ties: the larger index is "smaller", so lower indices win).
function worse(a: ScoredIndex, b: ScoredIndex): boolean {
  return a.score < b.score || (a.score === b.score && a.index > b.index);
}

function siftDown(h: ScoredIndex[], i: number): void {
  const n = h.length;
  for (;;) {
    const l = 2 * i + 1;
    const r = l + 1;
    let m = i;
    if (l < n && worse(h[l]!, h[m]!)) m = l;
    if (r < n && worse(h[r]!, h[m]!)) m = r;
    if (m === i) return;
    [h[i], h[m]] = [h[m]!, h[i]!];
    i = m;
  }
}

function siftUp(h: ScoredIndex[], i: number): void {
  while (i > 0) {
    const p = (i - 1) >> 1;
    if (!worse(h[i]!, h[p]!)) return;
    [h[i], h[p]] = [h[p]!, h[i]!];
    i = p;
  }
}

/**
 * The `k` rows of `matrix` most similar to `query`, best first (ties: lower index first). A packed
 * binary query (`Uint8Array`) is compared by Hamming similarity, any other by cosine similarity.
 * @param matrix an array of vectors, or a {@link FlatMatrix}.
 * @throws RangeError when a row's length differs from the query's or `k` is negative.
 * @example topK(queryVec, docVecs, 5) // [{ index: 3, score: 0.82 }, ...]
 */
export function topK(
  query: DenseVector | Uint8Array,
  matrix: readonly (DenseVector | Uint8Array)[] | FlatMatrix,
  k: number,
): ScoredIndex[] {
  if (!Number.isInteger(k) || k < 0)
    throw new RangeError(`topK: k must be an integer >= 0, got ${k}`);
  const binary = query instanceof Uint8Array;
  const dims = query.length;
  const list = Array.isArray(matrix)
    ? (matrix as readonly (DenseVector | Uint8Array)[])
    : undefined;
  const flat = list ? undefined : (matrix as FlatMatrix);
  const rows = flat
    ? flat.dims === 0
      ? 0
      : Math.floor(flat.data.length / flat.dims)
    : list!.length;
  if (flat && flat.dims !== dims) {
    throw new RangeError(`topK: matrix rows have ${flat.dims} values, query has ${dims}`);
  }
  const heap: ScoredIndex[] = [];
  if (k === 0) return heap;
  for (let r = 0; r < rows; r++) {
    const row = list ? list[r]! : flat!.data;
    const off = list ? 0 : r * dims;
    if (list && row.length !== dims) {
      throw new RangeError(`topK: row ${r} has ${row.length} values, query has ${dims}`);
    }
    const score = binary
      ? 1 - hammingDistance(query, 0, row as Uint8Array, off, dims) / (dims * 8)
      : dotAndNorms(query, row as DenseVector, off, dims);
    const item = { index: r, score };
    if (heap.length < k) {
      heap.push(item);
      siftUp(heap, heap.length - 1);
    } else if (worse(heap[0]!, item)) {
      heap[0] = item;
      siftDown(heap, 0);
    }
  }
  return heap.sort((a, b) => b.score - a.score || a.index - b.index);
}

/**
 * Matryoshka truncation on the client: the first `dims` values, renormalised to unit length (the
 * protocol's `truncateNormalized`, the same math the server applies; an all-zero prefix becomes
 * the first basis vector).
 * @returns a new `Float32Array` (int8 inputs are converted to floats).
 * @throws RangeError when `dims` is not an integer in `[1, vec.length]`.
 * @example truncateEmbedding(vec1024, 256).length // 256
 */
export function truncateEmbedding(vec: DenseVector, dims: number): Float32Array {
  return truncateNormalized(vec, dims);
}
