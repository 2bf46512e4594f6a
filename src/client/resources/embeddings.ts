import type { EmbeddingsRequest, EmbeddingsResponse } from '../../protocol/index.js';
import type { RequestOptions } from '../transport.js';
import { APIResource } from './resource.js';

/** `client.embeddings`. */
export class Embeddings extends APIResource {
  /**
   * Vectors for independent texts; each `embedding` is base64 (`decodeInt8` / `decodeBinary` from
   * the protocol module decode it).
   * @throws {ValidationError} when `params` break the request schema or limits (nothing is sent).
   * @throws {APIError} per status; {@link ResponseShapeError} when a 2xx breaks the contract.
   * @example const res = await client.embeddings.create({ model: 'svc-embed-v1-0.6b', input: ['a', 'b'] });
   */
  create(params: EmbeddingsRequest, options: RequestOptions = {}): Promise<EmbeddingsResponse> {
    return this.client.call('embeddings.create', { body: params }, options);
  }
}
