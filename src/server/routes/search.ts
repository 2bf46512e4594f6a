import { randomUUID } from 'node:crypto';
import type { HandlersOf } from '../register-routes.js';
import type { Retriever } from '../retrieval.js';

/**
 * `POST /search`: ranked results with the best-matching passage as snippet, every filter honoured;
 * an array `query` gives one result list per query.
 */
export function searchHandlers(retriever: Retriever): HandlersOf<'search.create'> {
  return {
    'search.create': async ({ body }) => {
      const queries = typeof body.query === 'string' ? [body.query] : body.query;
      const lists = await Promise.all(
        queries.map(async (query) => {
          const hits = await retriever.search(
            query,
            body,
            body.max_results,
            body.max_tokens_per_page ?? undefined,
          );
          return hits.map((hit) => ({
            title: hit.title,
            url: retriever.urlOf(hit),
            snippet: hit.snippet,
            date: hit.date ? hit.date.toISOString().slice(0, 10) : null,
            last_updated: hit.lastUpdated ? hit.lastUpdated.toISOString().slice(0, 10) : null,
          }));
        }),
      );
      return {
        id: randomUUID(),
        results: typeof body.query === 'string' ? lists[0]! : lists,
        server_time: new Date().toISOString(),
      };
    },
  };
}
