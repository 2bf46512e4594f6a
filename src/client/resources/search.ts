import type { SearchRequest, SearchResponse } from '../../protocol/index.js';
import type { RequestOptions } from '../transport.js';
import { APIResource } from './resource.js';

/** `client.search`. */
export class Search extends APIResource {
  /**
   * Ranked web results without a language model. An array `query` returns one result array per query.
   * @throws {ValidationError} when `params` break the request schema (nothing is sent).
   * @throws {APIError} per status; {@link ResponseShapeError} when a 2xx breaks the contract.
   * @example const { results } = await client.search.create({ query: 'sqlite fts5', max_results: 5 });
   */
  create(params: SearchRequest, options: RequestOptions = {}): Promise<SearchResponse> {
    return this.client.call('search.create', { body: params }, options);
  }
}
