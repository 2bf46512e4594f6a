/**
 * deepResearch: an async `core-deep-research` job, polled with progress and resumable by id, then
 * citeAndCapture over the citations of its answer.
 *
 * As a script: `npx tsx recipes/deep-research.ts "question" [--effort low|medium|high]
 * [--job <id>] [--out out] [--no-screenshots]`. The job id is printed first, so an interrupted
 * run resumes with `--job`.
 */
import { connect, defineCommand, EXIT, runCommand, SvcError, UsageError } from '../src/index.js';
import type { AsyncChatJob, Client } from '../src/index.js';
import { answerFromCompletion, citeAndCapture } from './cite-and-capture.js';
import type {
  CiteAndCaptureOptions,
  CiteAndCaptureResult,
  CiteProgress,
} from './cite-and-capture.js';
import { citationTable, isMain } from './support/script.js';

/** What `onProgress` of {@link deepResearch} receives: job states, then citation checks. */
export type ResearchProgress = { type: 'job'; job: AsyncChatJob; elapsedMs: number } | CiteProgress;

/** Options of {@link deepResearch}. */
export interface DeepResearchOptions extends Omit<CiteAndCaptureOptions, 'model' | 'onProgress'> {
  /** Resume this job instead of submitting a new one (the question is then only for the report). */
  jobId?: string | undefined;
  /** How many searches the job runs. @default the service's ('medium') */
  reasoningEffort?: 'minimal' | 'low' | 'medium' | 'high' | undefined;
  /** Same key within 24 h returns the same job: a crashed caller resubmitting gets its job back. */
  idempotencyKey?: string | undefined;
  /** First wait between polls, in ms. @default 1_000 */
  pollInterval?: number | undefined;
  /** Give up polling after this many ms (resume with `jobId`); 0: never. @default 0 */
  pollTimeout?: number | undefined;
  onProgress?: ((event: ResearchProgress) => void) | undefined;
}

/** What {@link deepResearch} returns. */
export interface DeepResearchResult extends CiteAndCaptureResult {
  jobId: string;
  /** ms the job took from submission (or resumption) to completion. */
  jobMs: number;
}

/**
 * Runs a deep-research job and captures evidence for every citation of its answer.
 * @throws SvcError when the job FAILED (its `error_message`); NotFoundError for an unknown `jobId`;
 * TimeoutError when `pollTimeout` passes (the job goes on: resume with `jobId`)
 * @example
 * const r = await deepResearch('How do browsers isolate sessions?', { onProgress: (e) => e.type === 'job' && console.log(e.job.status) });
 * console.log(r.jobId, r.summary);
 */
export async function deepResearch(
  question: string,
  options: DeepResearchOptions = {},
): Promise<DeepResearchResult> {
  const started = performance.now();
  const connection = options.client ? undefined : await connect();
  const client: Client = options.client ?? connection!.client;
  try {
    const poll = {
      ...(options.pollInterval !== undefined ? { pollInterval: options.pollInterval } : {}),
      ...(options.pollTimeout !== undefined ? { pollTimeout: options.pollTimeout } : {}),
      onProgress: (job: AsyncChatJob) =>
        options.onProgress?.({
          type: 'job',
          job,
          elapsedMs: Math.round(performance.now() - started),
        }),
    };
    const completions = client.async.chat.completions;
    const job = options.jobId
      ? await completions.poll(options.jobId, poll)
      : await completions.createAndPoll(
          {
            request: {
              model: 'core-deep-research',
              messages: [{ role: 'user', content: question }],
              ...(options.reasoningEffort ? { reasoning_effort: options.reasoningEffort } : {}),
            },
            ...(options.idempotencyKey ? { idempotency_key: options.idempotencyKey } : {}),
          },
          poll,
        );
    if (job.status !== 'COMPLETED') {
      throw new SvcError(
        `Deep research job ${job.id} failed: ${job.error_message ?? 'no reason given'}`,
      );
    }
    const jobMs = Math.round(performance.now() - started);
    const result = await citeAndCapture(
      { ...answerFromCompletion(job.response), question },
      { title: 'deepResearch', ...options, client },
    );
    return { ...result, jobId: job.id, jobMs };
  } finally {
    await connection?.close();
  }
}

const command = defineCommand({
  name: 'deep-research',
  program: 'tsx recipes/deep-research.ts',
  summary: 'a deep-research job, then every citation of its answer checked and captured',
  usage: 'npx tsx recipes/deep-research.ts "question" [--effort low] [--job id]',
  positionals: true,
  options: {
    effort: { type: 'string', arg: '<e>', help: 'low, medium or high' },
    job: { type: 'string', arg: '<id>', help: 'resume this job instead of starting one' },
    out: { type: 'string', arg: '<dir>', help: 'where the report goes (default out)' },
    pool: { type: 'string', arg: '<n>', help: 'browser sessions working at once (default 2)' },
    'no-screenshots': { type: 'boolean', help: 'check the citations without screenshots' },
  },
  examples: ['npx tsx recipes/deep-research.ts "compare LFP and NMC ageing" --effort low'],
  async run({ values, positionals }) {
    const question = positionals.join(' ').trim();
    if (!question && !values.job) {
      throw new UsageError('deep-research: give a question, or --job <id> (--help)');
    }
    let announced = false;
    const r = await deepResearch(question, {
      jobId: values.job,
      reasoningEffort: values.effort as DeepResearchOptions['reasoningEffort'],
      outDir: values.out ?? 'out',
      poolSize: Number(values.pool ?? '2'),
      screenshots: !values['no-screenshots'],
      onProgress: (e) => {
        if (e.type === 'job') {
          if (!announced) console.error(`job ${e.job.id} (resume with --job ${e.job.id})`);
          announced = true;
          console.error(`  ${e.job.status} after ${e.elapsedMs} ms`);
        }
      },
    });
    console.log(`\n${r.answer}\n\n${citationTable(r.citations, r.summary)}`);
    if (r.report) console.log(`\nreport: ${r.report.html}`);
    return EXIT.ok;
  },
});

if (isMain(import.meta.url)) void runCommand(command);
