// The answer-engine tools: search, ask, and research (a job started once, waited for across calls).
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { NotFoundError } from '../../errors.js';
import { ASYNC_CHAT_MODEL } from '../../protocol/index.js';
import type { AsyncChatJob, ChatCompletionResponse } from '../../protocol/index.js';
import { completionText, stripReasoning } from '../../../recipes/index.js';
import { progressOf } from './progress.js';
import type { ToolExtra } from './progress.js';
import { jsonResult, ToolInputError } from './results.js';
import type { McpRuntime } from './runtime.js';
import type { ToolArgs } from './schemas.js';

/** Polling of a research job inside one call. Durations in ms. */
export const RESEARCH_DEFAULTS = { firstPoll: 500, maxPoll: 5_000 } as const;

/** `search`: the `/search` results as they come. */
export async function searchTool(
  rt: McpRuntime,
  args: ToolArgs<'search'>,
  extra: ToolExtra,
): Promise<CallToolResult> {
  const response = await rt.client.search.create(args, { signal: extra.signal });
  return jsonResult({ id: response.id, results: response.results });
}

/** `ask`: one answer with its citations and search results. */
export async function askTool(
  rt: McpRuntime,
  args: ToolArgs<'ask'>,
  extra: ToolExtra,
): Promise<CallToolResult> {
  const { question, ...rest } = args;
  const completion = await rt.client.chat.completions.create(
    { ...rest, messages: [{ role: 'user', content: question }] },
    { signal: extra.signal },
  );
  return jsonResult({ id: completion.id, model: completion.model, ...answerOf(completion) });
}

/**
 * `research`: starts a deep-research job (or picks up `job_id`), then polls it while reporting
 * progress, up to `wait_ms`. A job still running is returned with its id, to call again with.
 */
export async function researchTool(
  rt: McpRuntime,
  args: ToolArgs<'research'>,
  extra: ToolExtra,
): Promise<CallToolResult> {
  if ((args.question === undefined) === (args.job_id === undefined)) {
    throw new ToolInputError(
      'question',
      'give question to start a job, or job_id to resume one (exactly one of them)',
    );
  }
  const jobs = rt.client.async.chat.completions;
  let job: AsyncChatJob;
  if (args.job_id !== undefined) {
    try {
      job = await jobs.get(args.job_id, { signal: extra.signal });
    } catch (error) {
      if (error instanceof NotFoundError) {
        throw new ToolInputError(
          'job_id',
          `no job ${JSON.stringify(args.job_id)} (unknown or purged)`,
        );
      }
      throw error;
    }
  } else {
    job = await jobs.create(
      {
        request: {
          model: ASYNC_CHAT_MODEL,
          messages: [{ role: 'user', content: args.question ?? '' }],
          ...(args.reasoning_effort != null && { reasoning_effort: args.reasoning_effort }),
        },
      },
      { signal: extra.signal },
    );
  }
  const report = progressOf(extra);
  const started = Date.now();
  let wait: number = RESEARCH_DEFAULTS.firstPoll;
  let step = 0;
  while (!isOver(job) && Date.now() - started < args.wait_ms && !extra.signal.aborted) {
    report(++step, undefined, `job ${job.id}: ${job.status}, ${elapsed(started)} waited`);
    await sleep(Math.min(wait, Math.max(0, args.wait_ms - (Date.now() - started))), extra.signal);
    wait = Math.min(wait * 1.5, RESEARCH_DEFAULTS.maxPoll);
    if (!extra.signal.aborted) job = await jobs.get(job.id, { signal: extra.signal });
  }
  report(++step, undefined, `job ${job.id}: ${job.status}`);
  const base = { job_id: job.id, status: job.status };
  if (job.status === 'COMPLETED' && job.response) {
    return jsonResult({ ...base, ...answerOf(job.response as ChatCompletionResponse) });
  }
  if (job.status === 'FAILED') {
    return {
      ...jsonResult({ ...base, error_message: job.error_message ?? null }),
      isError: true,
    };
  }
  return jsonResult({
    ...base,
    message: `still running: call research with {"job_id": "${job.id}"} to keep waiting`,
  });
}

/** The parts of a completion an agent uses. */
function answerOf(completion: ChatCompletionResponse): Record<string, unknown> {
  return {
    answer: stripReasoning(completionText(completion)),
    citations: completion.citations ?? [],
    search_results: completion.search_results ?? [],
  };
}

function isOver(job: AsyncChatJob): boolean {
  return job.status === 'COMPLETED' || job.status === 'FAILED';
}

function elapsed(since: number): string {
  return `${Math.round((Date.now() - since) / 1000)} s`;
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}
