import type { FinishedAsyncChatJob, PollOptions } from '../../client/index.js';
import { AbortError } from '../../errors.js';
import type { AsyncChatJob } from '../../protocol/index.js';
import { defineCommand } from '../command.js';
import { EXIT, UsageError } from '../common.js';
import { choiceOption, formatDuration, messageText, printJson } from '../output.js';
import { displayLocation, printSources } from '../service.js';
import type { Service } from '../service.js';
import {
  BROWSER_FLAGS,
  browserOptions,
  captureProgress,
  printCaptureResult,
  RecipeProgress,
  untilAborted,
  whileLive,
} from './capture.js';
import type { CaptureFlags } from './capture.js';

const EFFORTS = ['low', 'medium', 'high'] as const;

/** Poll cadence: quick at first (embedded jobs finish in seconds), backing off for long ones. */
const POLL: PollOptions = { pollInterval: 500, maxPollInterval: 5_000, backoffFactor: 1.5 };

/** `svc research <question...> | --resume <id>`: runs or resumes a job, then prints the answer. */
export const researchCommand = defineCommand({
  name: 'research',
  summary: 'a deep-research job (core-deep-research), polled until done',
  usage: [
    'svc research <question...> [--effort low|medium|high] [--json]',
    'svc research --resume <job-id> [--json]',
    'svc research <question...> | --resume <job-id>  --capture [--out <dir>] [--pool <n>]',
  ],
  positionals: true,
  options: {
    effort: {
      type: 'string',
      arg: '<e>',
      help: 'how many sub-questions are searched: low, medium (default), high',
    },
    resume: {
      type: 'string',
      arg: '<id>',
      help: 'wait for an existing job instead of starting one',
    },
    capture: {
      type: 'boolean',
      help: 'then visit every cited page, find and screenshot the passage behind each\n[n], and write an HTML/JSON report (see svc ask --help)',
    },
    out: {
      type: 'string',
      arg: '<dir>',
      help: 'with --capture: where the report and screenshots go (default out)',
    },
    ...BROWSER_FLAGS,
  },
  json: 'print the finished job as JSON (with --capture: the evidence result)',
  dataDir: true,
  notes: `The job id is printed (stderr) as soon as the job exists. Ctrl-C stops waiting (exit 130) and
prints the command that resumes it; jobs of the embedded service are kept in the data dir and
continue on its next start.

Exit: 0 completed, 1 the job failed, 2 bad usage, 3 service unreachable, 130 interrupted.`,
  examples: [
    'svc research how do grid batteries degrade and what limits their life --effort high',
    'svc research --resume 7d2c1e0a-...',
    'svc research "FTS5 vs trigram indexes" --json > report.json',
    'svc research how do grid batteries degrade --capture --out evidence',
  ],
  async run(ctx) {
    const { values, positionals } = ctx;
    const question = positionals.join(' ').trim();
    const effort = choiceOption('research', 'effort', values.effort, EFFORTS);
    if (values.resume !== undefined) {
      if (question !== '') throw new UsageError('research: --resume takes no question');
      if (effort !== undefined) throw new UsageError('research: --effort applies to new jobs only');
      if (values.resume.trim() === '') throw new UsageError('research: --resume: give a job id');
    } else if (question === '') {
      throw new UsageError('research: give a question, or --resume <job-id> (svc research --help)');
    }
    const browser = browserOptions('research', values);
    if (!values.capture) {
      for (const flag of ['out', 'pool', 'driver'] as const) {
        if (values[flag] !== undefined) throw new UsageError(`research: --${flag} needs --capture`);
      }
    }

    const service = await ctx.service();
    const signal = ctx.signal;
    // The status line shows 8 characters of the id: --resume takes those as well as the full id.
    const resume =
      values.resume === undefined
        ? undefined
        : await resolveJobId(service.client, values.resume.trim(), signal);
    if (values.capture) {
      return researchWithCapture(service, signal, question, {
        ...browser,
        jobId: resume,
        effort,
        outDir: values.out,
        json: ctx.json,
      });
    }
    const { client } = service;
    const status = new JobStatus();
    let jobId = resume;
    const onProgress = (job: AsyncChatJob): void => {
      if (jobId === undefined) {
        jobId = job.id;
        process.stderr.write(`svc: job ${job.id}\n`);
      }
      status.update(job);
    };
    let job: FinishedAsyncChatJob;
    try {
      job =
        resume !== undefined
          ? await client.async.chat.completions.poll(resume, {
              ...POLL,
              onProgress,
              signal,
            })
          : await client.async.chat.completions.createAndPoll(
              {
                request: {
                  model: 'core-deep-research',
                  messages: [{ role: 'user', content: question }],
                  ...(effort !== undefined && { reasoning_effort: effort }),
                },
              },
              { ...POLL, onProgress, signal },
            );
    } catch (error) {
      status.stop();
      if (error instanceof AbortError && jobId !== undefined) {
        process.stderr.write(
          `svc: stopped waiting; resume with: ${resumeCommand(jobId, service)}\n`,
        );
        return EXIT.interrupted;
      }
      throw error;
    }
    status.stop();
    if (ctx.json) {
      printJson(job);
      return job.status === 'COMPLETED' ? EXIT.ok : EXIT.failure;
    }
    if (job.status === 'FAILED') {
      process.stderr.write(
        `svc: job ${job.id} failed: ${job.error_message ?? 'no reason given'}\n`,
      );
      return EXIT.failure;
    }
    const completion = job.response;
    const text = messageText(completion.choices[0]?.message.content);
    process.stdout.write(`${text.trimEnd() || '(no answer text)'}\n\n`);
    printSources(service, completion);
    return EXIT.ok;
  },
});

/** Options of {@link researchWithCapture}. */
interface ResearchCaptureFlags extends CaptureFlags {
  jobId: string | undefined;
  effort: (typeof EFFORTS)[number] | undefined;
}

/**
 * `svc research --capture`: deepResearch (the job, then citeAndCapture over its citations), with
 * the job's status, a progress bar over the citations and the verdict table.
 */
async function researchWithCapture(
  service: Service,
  signal: AbortSignal,
  question: string,
  flags: ResearchCaptureFlags,
): Promise<number> {
  const { deepResearch } = await import('../../../recipes/index.js');
  const view = { json: flags.json, locate: (url: string) => displayLocation(service, url) };
  const status = new JobStatus();
  const progress = new RecipeProgress('citations');
  const onCapture = captureProgress(view, progress);
  const { jobId: resume, effort, outDir, json: _json, ...browser } = flags;
  let jobId = resume;
  try {
    const result = await untilAborted(
      deepResearch(question, {
        ...browser,
        client: service.client,
        ...(resume !== undefined && { jobId: resume }),
        ...(effort !== undefined && { reasoningEffort: effort }),
        ...(outDir !== undefined && { outDir }),
        pollInterval: POLL.pollInterval,
        onProgress: whileLive(signal, (event) => {
          if (event.type !== 'job') return onCapture(event);
          if (jobId === undefined) {
            jobId = event.job.id;
            process.stderr.write(`svc: job ${event.job.id}\n`);
          }
          status.update(event.job);
          // The job is over once citations are being checked: its status line is complete.
          if (event.job.status === 'COMPLETED' || event.job.status === 'FAILED') status.stop();
        }),
      }),
      signal,
    );
    progress.finish();
    printCaptureResult(result, view);
    return EXIT.ok;
  } catch (error) {
    if (error instanceof AbortError && jobId !== undefined) {
      status.stop();
      progress.finish();
      process.stderr.write(
        `svc: stopped; resume with: ${resumeCommand(jobId, service, ' --capture')}\n`,
      );
      return EXIT.interrupted;
    }
    throw error;
  } finally {
    status.stop();
    progress.finish();
  }
}

/**
 * The job's state on stderr: on a TTY one line redrawn every second with the elapsed time; in
 * logs one line per status change.
 */
class JobStatus {
  readonly #tty = process.stderr.isTTY === true;
  readonly #started = Date.now();
  #line = '';
  #status = '';
  #timer: NodeJS.Timeout | undefined;

  update(job: AsyncChatJob): void {
    if (job.status === this.#status) return;
    this.#status = job.status;
    this.#line = `research ${job.id.slice(0, 8)}: ${job.status.toLowerCase().replace('_', ' ')}`;
    if (!this.#tty) {
      process.stderr.write(`${this.#line} (${formatDuration(Date.now() - this.#started)})\n`);
      return;
    }
    this.#draw();
    this.#timer ??= setInterval(() => this.#draw(), 1_000);
    // The redraw timer must never keep the process alive on its own.
    this.#timer.unref();
  }

  stop(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
    if (this.#tty && this.#line) {
      this.#draw();
      process.stderr.write('\n');
      this.#line = '';
    }
  }

  #draw(): void {
    process.stderr.write(`\r${this.#line} ${formatDuration(Date.now() - this.#started)}\x1b[K`);
  }
}

/** The command that resumes `jobId` as printed: with the data dir it lives in, quoted for a shell. */
export function resumeCommand(
  jobId: string,
  service: Pick<Service, 'dataDir'>,
  extra = '',
): string {
  const dir = service.dataDir === undefined ? '' : ` --data-dir ${shellQuote(service.dataDir)}`;
  return `svc research --resume ${jobId}${dir}${extra}`;
}

function shellQuote(value: string): string {
  return /^[\w@%+=:,./-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}

// Job ids are UUIDs; anything shorter is a prefix, as the status line shows it.
const FULL_ID_LENGTH = 36;

/**
 * The full id of the caller's job whose id starts with `idOrPrefix` (the full id is returned as is).
 * @throws Error when no job, or more than one, starts with it
 */
async function resolveJobId(
  client: Service['client'],
  idOrPrefix: string,
  signal: AbortSignal,
): Promise<string> {
  if (idOrPrefix.length >= FULL_ID_LENGTH) return idOrPrefix;
  const matches: string[] = [];
  let nextToken: string | undefined;
  do {
    const page = await client.async.chat.completions.list(
      { limit: 100, ...(nextToken !== undefined && { next_token: nextToken }) },
      { signal },
    );
    for (const job of page.requests) if (job.id.startsWith(idOrPrefix)) matches.push(job.id);
    nextToken = page.next_token ?? undefined;
  } while (nextToken !== undefined && matches.length < 2);
  if (matches.length === 1) return matches[0]!;
  throw new Error(
    matches.length === 0
      ? `research: --resume: no job of yours has an id starting with ${idOrPrefix}`
      : `research: --resume: ${idOrPrefix} matches several jobs (${matches.join(', ')}); give more of the id`,
  );
}
