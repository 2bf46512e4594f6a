import type { EmbeddingEncoding } from '../../../protocol/embeddings.js';
import { encodeBinary, encodeInt8 } from '../../../protocol/encoding.js';

/** Wire encodings of an embedding (spec 4.8 `encoding_format`); protocol's `EmbeddingEncoding`. */
export type EmbeddingEncodingFormat = EmbeddingEncoding;

/**
 * Encode one unit vector for the wire with the protocol's encoders: `base64_int8` is
 * `round(x * 127)` per dimension, `base64_binary` packs `x > 0` bits MSB-first.
 * @default format 'base64_int8'
 * @throws RangeError for an unknown format.
 * @example encodeEmbedding(vec, 'base64_binary')
 */
export function encodeEmbedding(
  vec: Float32Array,
  format: EmbeddingEncodingFormat = 'base64_int8',
): string {
  if (format === 'base64_int8') return encodeInt8(vec);
  if (format === 'base64_binary') return encodeBinary(vec);
  throw new RangeError(`unknown encoding_format: ${String(format)}`);
}
