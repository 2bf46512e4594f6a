import type {
  AsyncChatCreateRequest,
  AsyncChatJob,
  AsyncChatListQuery,
  AsyncChatListResponse,
} from '../../protocol/index.js';
import { TimeoutError } from '../../errors.js';
import { checkMs, sleep } from '../util.js';
import type { RequestOptions } from '../transport.js';
import { APIResource } from './resource.js';

/** Options of {@link AsyncCompletions.createAndPoll}. */
export interface PollOptions extends RequestOptions {
  /**
   * Wait between two polls, in ms.
   * @default POLL_DEFAULTS.pollInterval
   */
  pollInterval?: number | undefined;
  /**
   * Give up after this many ms in total (the job keeps running on the server); `0` waits forever.
   * @default POLL_DEFAULTS.pollTimeout
   */
  pollTimeout?: number | undefined;
}

/** Defaults of {@link AsyncCompletions.createAndPoll}, applied once with `??`. */
export const POLL_DEFAULTS = { pollInterval: 2_000, pollTimeout: 0 } as const;

const FINAL = new Set(['COMPLETED', 'FAILED']);

/** `client.async.chat.completions`: long research jobs that run on the server. */
export class AsyncCompletions extends APIResource {
  /**
   * Submit a job (model `core-deep-research`). The same `idempotency_key` within 24 h returns the same job.
   * @throws {ValidationError} when `params` break the request schema (nothing is sent).
   * @throws {APIError} per status; {@link ResponseShapeError} when a 2xx breaks the contract.
   * @example const job = await client.async.chat.completions.create({ request: { model: 'core-deep-research', messages } });
   */
  create(params: AsyncChatCreateRequest, options: RequestOptions = {}): Promise<AsyncChatJob> {
    return this.client.call<AsyncChatJob>(
      'async.chat.completions.create',
      { body: params },
      options,
    );
  }

  /**
   * Read a job by id.
   * @throws {NotFoundError} for an unknown job or one purged after 7 days.
   */
  get(requestId: string, options: RequestOptions = {}): Promise<AsyncChatJob> {
    return this.client.call<AsyncChatJob>(
      'async.chat.completions.get',
      { pathParams: { request_id: requestId } },
      options,
    );
  }

  /**
   * The caller's jobs, newest first; pass `next_token` from one page to get the next.
   * @throws {ValidationError} when `limit` is outside 1..100 (nothing is sent).
   */
  list(
    query: AsyncChatListQuery = {},
    options: RequestOptions = {},
  ): Promise<AsyncChatListResponse> {
    return this.client.call<AsyncChatListResponse>(
      'async.chat.completions.list',
      { query: { limit: query.limit as number | undefined, next_token: query.next_token } },
      options,
    );
  }

  /**
   * Submit a job and poll it until it is `COMPLETED` or `FAILED`; returns the final job (check
   * `status`: a failed job is returned, not thrown). Each poll is one request with the usual
   * retries.
   * @throws {TimeoutError} when `pollTimeout` elapses first.
   * @throws {AbortError} when `signal` aborts.
   * @example
   * const job = await client.async.chat.completions.createAndPoll({ request: { model: 'core-deep-research', messages } });
   * if (job.status === 'COMPLETED') console.log(job.response?.choices[0]?.message.content);
   */
  async createAndPoll(
    params: AsyncChatCreateRequest,
    options: PollOptions = {},
  ): Promise<AsyncChatJob> {
    const { pollInterval: pi, pollTimeout: pt, ...requestOptions } = options;
    const pollInterval = checkMs('pollInterval', pi ?? POLL_DEFAULTS.pollInterval, true);
    const pollTimeout = checkMs('pollTimeout', pt ?? POLL_DEFAULTS.pollTimeout, true);
    const deadline = pollTimeout === 0 ? Infinity : Date.now() + pollTimeout;
    let job = await this.create(params, requestOptions);
    while (!FINAL.has(job.status)) {
      if (Date.now() + pollInterval > deadline) {
        throw new TimeoutError(
          `Job not finished after ${pollTimeout} ms: GET /async/chat/completions/${job.id}: status ${job.status}`,
          { timeout: pollTimeout },
        );
      }
      await sleep(pollInterval, requestOptions.signal, `GET /async/chat/completions/${job.id}`);
      job = await this.get(job.id, requestOptions);
    }
    return job;
  }
}

/** `client.async.chat`. */
export class AsyncChat extends APIResource {
  readonly completions: AsyncCompletions = new AsyncCompletions(this.client);
}

/** `client.async`. */
export class AsyncResource extends APIResource {
  readonly chat: AsyncChat = new AsyncChat(this.client);
}
