// Embedding wire encodings (spec 2.8), shared by client and server. No imports on purpose: both
// sides and the benchmarks call these in hot loops.

/**
 * Encode a float vector as base64 of signed int8, one byte per dimension: `round(x * 127)` clamped
 * to [-127, 127] (NaN encodes as 0).
 * @example encodeInt8(new Float32Array([1, -1, 0])) // 'f4EA'
 */
export function encodeInt8(v: Float32Array): string {
  const out = new Int8Array(v.length);
  for (let i = 0; i < v.length; i++) {
    const q = Math.round((v[i] ?? 0) * 127);
    out[i] = q > 127 ? 127 : q < -127 ? -127 : q || 0;
  }
  return Buffer.from(out.buffer, out.byteOffset, out.byteLength).toString('base64');
}

/**
 * Decode a `base64_int8` embedding into signed 8-bit values (a view over the decoded bytes, no copy).
 */
export function decodeInt8(b64: string): Int8Array {
  const buf = Buffer.from(b64, 'base64');
  return new Int8Array(buf.buffer, buf.byteOffset, buf.byteLength);
}

/**
 * Encode a float vector as base64 of packed bits: bit = `x > 0`, most significant bit first within
 * each byte; the last byte is zero-padded when the dimension is not a multiple of 8.
 * @example encodeBinary(new Float32Array([1, -1, 1, 0, 0, 0, 0, 0])) // 'oA==' (0b10100000)
 */
export function encodeBinary(v: Float32Array): string {
  const out = new Uint8Array(Math.ceil(v.length / 8));
  for (let i = 0; i < v.length; i++) {
    if ((v[i] ?? 0) > 0) out[i >> 3]! |= 0x80 >> (i & 7);
  }
  return Buffer.from(out.buffer, out.byteOffset, out.byteLength).toString('base64');
}

/** Decode a `base64_binary` embedding into its packed bytes (a view, no copy). */
export function decodeBinary(b64: string): Uint8Array {
  const buf = Buffer.from(b64, 'base64');
  return new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
}

/**
 * Expand packed bits (MSB-first) into one 0/1 byte per dimension.
 * @throws RangeError when `packed` holds fewer than `dims` bits.
 */
export function unpackBits(packed: Uint8Array, dims: number): Uint8Array {
  if (packed.length * 8 < dims) {
    throw new RangeError(`unpackBits: ${packed.length} bytes hold fewer than ${dims} bits`);
  }
  const out = new Uint8Array(dims);
  for (let i = 0; i < dims; i++) out[i] = (packed[i >> 3]! >> (7 - (i & 7))) & 1;
  return out;
}

/**
 * Matryoshka truncation, shared by the server's embedders and the client: the first `dims` values
 * of `vec`, scaled to unit L2 norm. A prefix that is all zeros (or not finite) becomes the first
 * basis vector, so every output has norm 1 and a cosine with it is defined.
 * @returns a new `Float32Array` (int8 inputs are converted to floats)
 * @throws RangeError when `dims` is not an integer in `[1, vec.length]`
 * @example truncateNormalized(vec1024, 256).length // 256
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
