import { randomUUID } from 'node:crypto';
import type { Hono } from 'hono';
import { SearchRequestSchema } from '../../protocol/index.js';
import type { AppEnv } from '../context.js';
import type { Retriever } from '../retrieval.js';
import { readBody } from '../validate.js';

/**
 * `POST /search`: ranked results with the best-matching passage as snippet, every filter honoured;
 * an array `query` gives one result list per query.
 */
export function registerSearchRoutes(app: Hono<AppEnv>, retriever: Retriever): void {
  app.post('/search', async (c) => {
    const body = await readBody(c, SearchRequestSchema);
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
    return c.json({
      id: randomUUID(),
      results: typeof body.query === 'string' ? lists[0] : lists,
      server_time: new Date().toISOString(),
    });
  });
}
