import type {
  ChatCompletionResponse,
  AsyncChatCreateRequest,
  AsyncChatJob,
  AsyncChatListQuery,
  AsyncChatListResponse,
} from '../../protocol/index.js';
import { ResponseShapeError, SvcError, TimeoutError } from '../../errors.js';
import { checkMs, sleep } from '../util.js';
import type { RequestOptions } from '../transport.js';
import { APIResource } from './resource.js';

/** Options of {@link AsyncCompletions.createAndPoll} and {@link AsyncCompletions.poll}. */
export interface PollOptions extends RequestOptions {
  /**
   * Wait before the first re-poll, in ms; later waits grow by `backoffFactor` up to `maxPollInterval`.
   * @default POLL_DEFAULTS.pollInterval
   */
  pollInterval?: number | undefined;
  /**
   * Longest wait between two polls, in ms.
   * @default POLL_DEFAULTS.maxPollInterval
   */
  maxPollInterval?: number | undefined;
  /**
   * Each wait is the previous one times this factor (`1` polls at a fixed interval).
   * @default POLL_DEFAULTS.backoffFactor
   */
  backoffFactor?: number | undefined;
  /**
   * Give up after this many ms in total (the job keeps running on the server; resume it with
   * `poll(job.id)`); `0` waits forever.
   * @default POLL_DEFAULTS.pollTimeout
   */
  pollTimeout?: number | undefined;
  /** Called with the job on its first read and on each status change (`CREATED` -> `IN_PROGRESS` -> ...). */
  onProgress?: ((job: AsyncChatJob) => void) | undefined;
}

/** Defaults of {@link AsyncCompletions.createAndPoll}, applied once with `??`. */
export const POLL_DEFAULTS = {
  pollInterval: 1_000,
  maxPollInterval: 10_000,
  backoffFactor: 1.5,
  pollTimeout: 0,
} as const;

/** A job that finished well: `response` holds the completion. */
export type CompletedAsyncChatJob = AsyncChatJob & {
  status: 'COMPLETED';
  response: ChatCompletionResponse;
};
/** A job that failed: `error_message` says why. */
export type FailedAsyncChatJob = AsyncChatJob & { status: 'FAILED' };
/** What {@link AsyncCompletions.createAndPoll} resolves to; narrow on `status`. */
export type FinishedAsyncChatJob = CompletedAsyncChatJob | FailedAsyncChatJob;

/** `client.async.chat.completions`: long research jobs that run on the server. */
export class AsyncCompletions extends APIResource {
  /**
   * Submit a job (model `core-deep-research`). The same `idempotency_key` within 24 h returns the same job.
   * @throws {ValidationError} when `params` break the request schema (nothing is sent).
   * @throws {APIError} per status; {@link ResponseShapeError} when a 2xx breaks the contract.
   * @example const job = await client.async.chat.completions.create({ request: { model: 'core-deep-research', messages } });
   */
  create(params: AsyncChatCreateRequest, options: RequestOptions = {}): Promise<AsyncChatJob> {
    return this.client.call('async.chat.completions.create', { body: params }, options);
  }

  /**
   * Read a job by id.
   * @throws {NotFoundError} for an unknown job or one purged after 7 days.
   */
  get(requestId: string, options: RequestOptions = {}): Promise<AsyncChatJob> {
    return this.client.call(
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
    return this.client.call(
      'async.chat.completions.list',
      { query: { limit: query.limit as number | undefined, next_token: query.next_token } },
      options,
    );
  }

  /**
   * Submit a job and poll it until it is `COMPLETED` or `FAILED`; returns the final job (narrow on
   * `status`: a failed job is returned, not thrown). Waits grow from `pollInterval` by
   * `backoffFactor` up to `maxPollInterval`; each poll is one request with the usual retries.
   * @throws {ValidationError} when `params` break the request schema (nothing is sent).
   * @throws {TimeoutError} when `pollTimeout` elapses first (resume with `poll(id)`).
   * @throws {AbortError} when `signal` aborts.
   * @throws {ResponseShapeError} when a `COMPLETED` job has no `response`.
   * @example
   * const job = await client.async.chat.completions.createAndPoll(
   *   { request: { model: 'core-deep-research', messages } },
   *   { onProgress: (j) => console.log(j.status) },
   * );
   * if (job.status === 'COMPLETED') console.log(job.response.choices[0]?.message.content);
   */
  async createAndPoll(
    params: AsyncChatCreateRequest,
    options: PollOptions = {},
  ): Promise<FinishedAsyncChatJob> {
    const settings = pollSettings(options);
    const job = await this.create(params, settings.requestOptions);
    return this.#wait(job, settings);
  }

  /**
   * Poll an existing job by id until it is `COMPLETED` or `FAILED`: resumes a wait that timed out,
   * was aborted, or ran in another process. Reads the job at once, then as `createAndPoll`.
   * @throws {NotFoundError} for an unknown job.
   * @throws {TimeoutError} when `pollTimeout` elapses first.
   * @throws {AbortError} when `signal` aborts.
   * @example const job = await client.async.chat.completions.poll(savedId, { pollTimeout: 60_000 });
   */
  async poll(requestId: string, options: PollOptions = {}): Promise<FinishedAsyncChatJob> {
    const settings = pollSettings(options);
    const job = await this.get(requestId, settings.requestOptions);
    return this.#wait(job, settings);
  }

  async #wait(first: AsyncChatJob, settings: PollSettings): Promise<FinishedAsyncChatJob> {
    const { requestOptions, onProgress, pollTimeout } = settings;
    const deadline = pollTimeout === 0 ? Infinity : Date.now() + pollTimeout;
    const where = `GET /async/chat/completions/${first.id}`;
    let job = first;
    let status = job.status;
    onProgress?.(job);
    let interval = settings.pollInterval;
    while (!isFinished(job)) {
      const left = deadline - Date.now();
      if (left <= 0) {
        throw new TimeoutError(
          `Job not finished after ${pollTimeout} ms: ${where}: status ${job.status}`,
          { timeout: pollTimeout },
        );
      }
      await sleep(Math.min(interval, left), requestOptions.signal, where);
      interval = Math.min(interval * settings.backoffFactor, settings.maxPollInterval);
      job = await this.get(job.id, requestOptions);
      if (job.status !== status) {
        status = job.status;
        onProgress?.(job);
      }
    }
    if (job.status === 'COMPLETED' && job.response == null) {
      throw new ResponseShapeError(`Completed job has no response: ${where}`, { body: job });
    }
    return job;
  }
}

interface PollSettings {
  pollInterval: number;
  maxPollInterval: number;
  backoffFactor: number;
  pollTimeout: number;
  onProgress: ((job: AsyncChatJob) => void) | undefined;
  requestOptions: RequestOptions;
}

function pollSettings(options: PollOptions): PollSettings {
  const { pollInterval, maxPollInterval, backoffFactor, pollTimeout, onProgress, ...rest } =
    options;
  const factor = backoffFactor ?? POLL_DEFAULTS.backoffFactor;
  if (typeof factor !== 'number' || !Number.isFinite(factor) || factor < 1) {
    throw new SvcError(
      `Invalid option backoffFactor: expected a number >= 1, got ${String(factor)}`,
    );
  }
  if (onProgress !== undefined && typeof onProgress !== 'function') {
    throw new SvcError('Invalid option onProgress: expected a function');
  }
  const first = checkMs('pollInterval', pollInterval ?? POLL_DEFAULTS.pollInterval, true);
  return {
    pollInterval: first,
    maxPollInterval: Math.max(
      first,
      checkMs('maxPollInterval', maxPollInterval ?? POLL_DEFAULTS.maxPollInterval, true),
    ),
    backoffFactor: factor,
    pollTimeout: checkMs('pollTimeout', pollTimeout ?? POLL_DEFAULTS.pollTimeout, true),
    onProgress,
    requestOptions: rest,
  };
}

function isFinished(job: AsyncChatJob): job is FinishedAsyncChatJob {
  return job.status === 'COMPLETED' || job.status === 'FAILED';
}

/** `client.async.chat`. */
export class AsyncChat extends APIResource {
  readonly completions: AsyncCompletions = new AsyncCompletions(this.client);
}

/** `client.async`. */
export class AsyncResource extends APIResource {
  readonly chat: AsyncChat = new AsyncChat(this.client);
}
