/**
 * verifyAnswer: the grounding check of an answer, for CI. Every `[n]` gets a verdict on its page;
 * no screenshots unless asked; a summary score.
 *
 * As a script: `npx tsx recipes/verify-answer.ts completion.json [--min-score 0.8] [--json]
 * [--screenshots] [--out out] [--allow-contradicted]` (`-` reads the completion from stdin). Exits 1
 * when the score is below `--min-score` or a claim is contradicted, 2 on bad usage.
 */
import { readFile } from 'node:fs/promises';
import { defineCommand, EXIT, runCommand, SvcError, UsageError } from '../src/index.js';
import type { ChatCompletionResponse } from '../src/index.js';
import { citeAndCapture } from './cite-and-capture.js';
import type {
  AnswerInput,
  CiteAndCaptureOptions,
  CiteAndCaptureResult,
} from './cite-and-capture.js';
import { citationTable, isMain } from './support/script.js';

/** Options of {@link verifyAnswer}: those of citeAndCapture, with other defaults. */
export interface VerifyAnswerOptions extends CiteAndCaptureOptions {
  /** Score under which `passed` is false. @default 1 */
  minScore?: number | undefined;
  /**
   * Let an answer pass although a page contradicts one of its claims (the score still counts the
   * claim as unsupported). @default false
   */
  allowContradicted?: boolean | undefined;
}

/** What {@link verifyAnswer} returns. */
export interface VerifyAnswerResult extends CiteAndCaptureResult {
  /** `summary.score >= minScore`, and no claim `contradicted` unless `allowContradicted`. */
  passed: boolean;
  minScore: number;
}

/** Defaults of {@link verifyAnswer}. */
export const VERIFY_DEFAULTS = {
  minScore: 1,
  screenshots: false,
  report: false,
  allowContradicted: false,
} as const;

/**
 * Checks each citation of a completion (or of an answer with its citations) on its page and scores
 * the answer's grounding: `supported / total`. Blocked pages never count as support; a claim its
 * page contradicts fails the answer whatever the score, unless `allowContradicted`.
 * @throws SvcError when `minScore` is not within 0..1; what citeAndCapture throws
 * @example
 * const { passed, summary } = await verifyAnswer(completion, { minScore: 0.8 });
 * if (!passed) throw new Error(`grounding ${summary.score}`);
 */
export async function verifyAnswer(
  completion: ChatCompletionResponse | AnswerInput,
  options: VerifyAnswerOptions = {},
): Promise<VerifyAnswerResult> {
  const minScore = options.minScore ?? VERIFY_DEFAULTS.minScore;
  if (!(minScore >= 0 && minScore <= 1)) {
    throw new SvcError(`Invalid option minScore: expected a number in 0..1, got ${minScore}`);
  }
  const result = await citeAndCapture(completion, {
    title: 'verifyAnswer',
    ...options,
    screenshots: options.screenshots ?? VERIFY_DEFAULTS.screenshots,
    report: options.report ?? VERIFY_DEFAULTS.report,
  });
  const contradicted =
    result.summary.contradicted > 0 &&
    !(options.allowContradicted ?? VERIFY_DEFAULTS.allowContradicted);
  return { ...result, passed: result.summary.score >= minScore && !contradicted, minScore };
}

async function readInput(file: string): Promise<ChatCompletionResponse | AnswerInput> {
  let text = '';
  if (file === '-') for await (const chunk of process.stdin) text += String(chunk);
  else text = await readFile(file, 'utf8');
  return JSON.parse(text) as ChatCompletionResponse | AnswerInput;
}

const command = defineCommand({
  name: 'verify-answer',
  program: 'tsx recipes/verify-answer.ts',
  summary: "checks an answer's citations on their pages and scores it",
  usage: 'npx tsx recipes/verify-answer.ts completion.json [--min-score 0.8] [--json]',
  positionals: true,
  options: {
    'min-score': {
      type: 'string',
      arg: '<s>',
      help: 'share of citations that must be supported (default 1)',
    },
    'allow-contradicted': {
      type: 'boolean',
      help: 'only the score decides (default: a contradicted claim fails)',
    },
    screenshots: { type: 'boolean', help: 'also shoot each passage' },
    out: { type: 'string', arg: '<dir>', help: 'write report.html and report.json here' },
    pool: { type: 'string', arg: '<n>', help: 'browser sessions working at once (default 2)' },
  },
  json: 'print the result as JSON',
  notes: `completion.json: a chat completion, or {"answer": "...[1].", "citations": ["https://..."]}.
Exits 1 when the score is below --min-score or a page contradicts a claim.`,
  examples: ['npx tsx recipes/verify-answer.ts answer.json --min-score 0.8'],
  async run({ values, positionals, json }) {
    const file = positionals[0];
    if (!file) throw new UsageError('verify-answer: give a completion file (--help)');
    const result = await verifyAnswer(await readInput(file), {
      minScore: Number(values['min-score'] ?? '1'),
      allowContradicted: values['allow-contradicted'] === true,
      screenshots: values.screenshots === true,
      report: values.out !== undefined,
      outDir: values.out,
      poolSize: Number(values.pool ?? '2'),
    });
    if (json) {
      const { citations, ...rest } = result;
      const slim = citations.map(({ screenshots: _s, ...c }) => c);
      console.log(JSON.stringify({ ...rest, citations: slim }, null, 2));
    } else {
      console.log(citationTable(result.citations, result.summary));
      const s = result.summary;
      console.log(
        result.passed
          ? 'PASS'
          : s.score < result.minScore
            ? `FAIL: score ${s.score} < ${result.minScore}`
            : `FAIL: ${s.contradicted} claim(s) contradicted by their page`,
      );
    }
    return result.passed ? EXIT.ok : EXIT.failure;
  },
});

if (isMain(import.meta.url)) void runCommand(command);
