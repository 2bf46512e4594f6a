import type { Hono } from 'hono';
import { AsyncChatCreateRequestSchema, AsyncChatListQuerySchema } from '../../protocol/index.js';
import type { ChatCompletionRequestParsed } from '../../protocol/index.js';
import type { AppEnv } from '../context.js';
import { JobQueueError, toJobJson, toJobListJson } from '../engines/jobs/index.js';
import type { JobQueue } from '../engines/jobs/index.js';
import { HttpError, ValidationHttpError } from '../http-error.js';
import { readBody, readQuery } from '../validate.js';

/** The async chat queue: requests are parsed chat requests, responses chat completions. */
export type ChatJobQueue = JobQueue<ChatCompletionRequestParsed, unknown>;

/**
 * `POST /async/chat/completions`, `GET /async/chat/completions/{request_id}` and the list
 * (ARCHITECTURE.md, async rows): the caller's own jobs only; another user's or a purged job is 404.
 */
export function registerAsyncChatRoutes(app: Hono<AppEnv>, queue: ChatJobQueue): void {
  app.post('/async/chat/completions', async (c) => {
    const body = await readBody(c, AsyncChatCreateRequestSchema);
    const job = queue.create(c.get('principal').userId, body.request, body.idempotency_key);
    return c.json(toJobJson(job));
  });

  app.get('/async/chat/completions', (c) => {
    const query = readQuery(c, AsyncChatListQuerySchema);
    try {
      return c.json(
        toJobListJson(
          queue.list(c.get('principal').userId, {
            limit: query.limit,
            nextToken: query.next_token,
          }),
        ),
      );
    } catch (error) {
      if (error instanceof JobQueueError) {
        throw new ValidationHttpError({
          detail: [
            {
              loc: ['query', 'next_token'],
              msg: `next_token is not valid: ${error.message}`,
              type: 'value_error',
            },
          ],
        });
      }
      throw error;
    }
  });

  app.get('/async/chat/completions/:request_id', (c) => {
    const id = c.req.param('request_id');
    const job = queue.get(c.get('principal').userId, id);
    if (!job) {
      throw new HttpError(
        404,
        `Async job not found: ${id} (unknown, another user's, or purged after 7 days)`,
        {
          code: 'job_not_found',
        },
      );
    }
    return c.json(toJobJson(job));
  });
}
