import type { ChatCompletionRequestParsed, ChatCompletionResponse } from '../../protocol/index.js';
import { toJobJson, toJobListJson } from '../engines/jobs/index.js';
import type { JobJson, JobQueue } from '../engines/jobs/index.js';
import { NotFound } from '../errors.js';
import type { HandlersOf } from '../register-routes.js';

/** The async chat queue: requests are parsed chat requests, responses chat completions. */
export type ChatJobQueue = JobQueue<ChatCompletionRequestParsed, unknown>;

// The queue stores what its handler returned: `completeChat`'s chat completion.
const jobJson = (...args: Parameters<typeof toJobJson>) =>
  toJobJson(...args) as JobJson & { response: ChatCompletionResponse | null };

/**
 * `POST /async/chat/completions`, `GET /async/chat/completions/{request_id}` and the list
 * (ARCHITECTURE.md, async rows): the caller's own jobs only; another user's or a purged job is 404.
 * A `next_token` this server did not issue is a 422 at `["query", "next_token"]` (http-error.ts).
 */
export function asyncChatHandlers(
  queue: ChatJobQueue,
): HandlersOf<
  'async.chat.completions.create' | 'async.chat.completions.list' | 'async.chat.completions.get'
> {
  return {
    'async.chat.completions.create': async ({ body, principal }) =>
      jobJson(await queue.create(principal.userId, body.request, body.idempotency_key)),

    'async.chat.completions.list': async ({ query, principal }) =>
      toJobListJson(
        await queue.list(principal.userId, { limit: query.limit, nextToken: query.next_token }),
      ),

    'async.chat.completions.get': async ({ path, principal }) => {
      const job = await queue.get(principal.userId, path.request_id);
      if (!job) {
        throw new NotFound(
          `Async job not found: ${path.request_id} (unknown, another user's, or purged after 7 days)`,
          { code: 'job_not_found' },
        );
      }
      return jobJson(job);
    },
  };
}
