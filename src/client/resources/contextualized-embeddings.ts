import type {
  ContextualizedEmbeddingsRequest,
  ContextualizedEmbeddingsResponse,
} from '../../protocol/index.js';
import type { RequestOptions } from '../transport.js';
import { APIResource } from './resource.js';

/** `client.contextualizedEmbeddings`. */
export class ContextualizedEmbeddings extends APIResource {
  /**
   * Vectors for the chunks of documents, each aware of its siblings. Embed a query as `[[query]]`.
   * @throws {ValidationError} when `params` break the request schema or limits (nothing is sent).
   * @throws {APIError} per status; {@link ResponseShapeError} when a 2xx breaks the contract.
   * @example await client.contextualizedEmbeddings.create({ model: 'svc-embed-context-v1-0.6b', input: [['intro', 'body']] });
   */
  create(
    params: ContextualizedEmbeddingsRequest,
    options: RequestOptions = {},
  ): Promise<ContextualizedEmbeddingsResponse> {
    return this.client.call('contextualizedEmbeddings.create', { body: params }, options);
  }
}
