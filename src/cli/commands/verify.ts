import { readFile } from 'node:fs/promises';
import { CHAT_MODELS } from '../../protocol/index.js';
import type { ChatCompletionResponse } from '../../protocol/index.js';
import type { AnswerInput, CitationCheck } from '../../../recipes/index.js';
import { defineCommand } from '../command.js';
import { EXIT, UsageError } from '../common.js';
import { choiceOption } from '../output.js';
import { displayLocation } from '../service.js';
import {
  BROWSER_FLAGS,
  browserOptions,
  evidenceJson,
  formatSummary,
  printCitations,
  RecipeProgress,
  untilAborted,
  whileLive,
} from './capture.js';

/** `svc verify <question...> | --completion <file>`: per-claim verdicts and a score; exit 1 below `--min-score`. */
export const verifyCommand = defineCommand({
  name: 'verify',
  summary: "checks an answer's grounding, citation by citation, on the cited pages",
  usage: [
    'svc verify <question...> [options]          ask the question, then verify the answer',
    'svc verify --completion <file|-> [options]  verify an answer you already have',
  ],
  positionals: true,
  options: {
    completion: {
      type: 'string',
      arg: '<f>',
      help: 'a chat completion as JSON (the output of svc ask --json), or\n{"answer": "... [1].", "citations": ["https://..."]}; - reads stdin',
    },
    'min-score': {
      type: 'string',
      arg: '<s>',
      help: 'share of citations that must be supported, 0..1 (default 1: all of them)',
    },
    'allow-contradicted': {
      type: 'boolean',
      help: 'pass although a page contradicts a claim (default: any contradicted\nclaim fails the run, whatever the score)',
    },
    model: {
      type: 'string',
      arg: '<m>',
      help: `model asked for a question: ${CHAT_MODELS.join(', ')} (default core)`,
    },
    screenshots: {
      type: 'boolean',
      help: 'also shoot each passage (written with the report, see --out)',
    },
    out: {
      type: 'string',
      arg: '<dir>',
      help: 'write report.html and report.json (and screenshots) into <dir>',
    },
    ...BROWSER_FLAGS,
  },
  json: 'print the result as JSON (verdicts, quotes, summary, passed)',
  dataDir: true,
  notes: `Each [n] marker of each sentence is checked on its page: candidate passages are located
(exactly, fuzzily, or by embeddings), then verified against the claim (numbers and units, dates,
versions, negation, comparatives, key terms). Verdicts: supported (a passage states the claim),
contradicted (a passage about the same thing states a different fact: the conflict is shown),
not_found, blocked (a challenge or login page; never counted as support) or unreachable. The
score is supported / total; an answer without citations scores 0.

Exit: 0 score >= --min-score and nothing contradicted, 1 score below it or a claim contradicted
(or the work failed), 2 bad usage, 3 service unreachable, 130 interrupted. That makes it a CI gate:

  svc ask "$QUESTION" --json > answer.json && svc verify --completion answer.json --min-score 0.8`,
  examples: [
    'svc verify what does the battery recycling plant recover',
    'svc verify --completion answer.json --min-score 0.8',
    'svc ask how do grid batteries affect prices --json | svc verify --completion - --json',
    'svc verify --completion answer.json --out evidence --screenshots',
  ],
  async run(ctx) {
    const { values, positionals } = ctx;
    const question = positionals.join(' ').trim();
    if (values.completion !== undefined && question !== '') {
      throw new UsageError('verify: give a question or --completion, not both');
    }
    if (values.completion === undefined && question === '') {
      throw new UsageError('verify: give a question, or --completion <file> (svc verify --help)');
    }
    const minScore = scoreOption(values['min-score']);
    const model = choiceOption('verify', 'model', values.model, CHAT_MODELS);
    if (model !== undefined && values.completion !== undefined) {
      throw new UsageError('verify: --model applies to a question, not to --completion');
    }
    const browser = browserOptions('verify', values);
    // Read before the service starts: a bad file is a usage error, not a service failure.
    const given = values.completion !== undefined ? await readAnswer(values.completion) : undefined;

    const service = await ctx.service();
    const { client } = service;
    const signal = ctx.signal;
    const { answerFromCompletion, verifyAnswer } = await import('../../../recipes/index.js');
    let input = given;
    if (input === undefined) {
      process.stderr.write('svc: asking...\n');
      const completion = await client.chat.completions.create(
        { model: model ?? 'core', messages: [{ role: 'user', content: question }] },
        { signal },
      );
      input = { ...answerFromCompletion(completion), question };
    }
    const locate = (url: string): string => displayLocation(service, url);
    const progress = new RecipeProgress('verifying');
    let result;
    try {
      result = await untilAborted(
        verifyAnswer(input, {
          ...browser,
          client,
          ...(minScore !== undefined && { minScore }),
          ...(values['allow-contradicted'] && { allowContradicted: true }),
          ...(values.screenshots && { screenshots: true }),
          ...(values.out !== undefined && { report: true, outDir: values.out }),
          onProgress: whileLive(signal, (event) => {
            if (event.type === 'answer') progress.start();
            if (event.type !== 'citation') return;
            const url = event.check.url === null ? '' : locate(event.check.url);
            progress.update(event.done, event.total, `${event.check.verdict} ${url}`);
          }),
        }),
        signal,
      );
    } finally {
      progress.finish();
    }
    const code = result.passed ? EXIT.ok : EXIT.failure;
    if (ctx.json) {
      process.stdout.write(evidenceJson(result));
      return code;
    }
    printClaims(result.citations);
    printCitations(result.citations, locate);
    const s = result.summary;
    process.stdout.write(`\n${formatSummary(s)}\n`);
    if (result.report) process.stdout.write(`Report: ${result.report.html}\n`);
    process.stdout.write(
      result.passed
        ? `PASS: score ${s.score} >= ${result.minScore}${s.contradicted > 0 ? ` (${s.contradicted} contradicted, allowed)` : ''}\n`
        : s.score < result.minScore
          ? `FAIL: score ${s.score} < ${result.minScore}\n`
          : `FAIL: ${s.contradicted} claim(s) contradicted by their page (--allow-contradicted to pass)\n`,
    );
    return code;
  },
});

/**
 * The claims, one per line, with their verdict: what was checked, before the evidence table; a
 * contradicted claim gets a line per conflict under it.
 */
function printClaims(checks: readonly CitationCheck[]): void {
  if (checks.length === 0) return;
  process.stdout.write('Claims:\n');
  for (const c of checks) {
    process.stdout.write(`  [${c.n}] ${c.verdict.padEnd(12)} ${c.claim.replace(/\s+/g, ' ')}\n`);
    for (const x of c.verdict === 'contradicted' ? c.conflicts : []) {
      process.stdout.write(`       ${x.kind}: the claim says "${x.claim}", the page "${x.page}"\n`);
    }
  }
  process.stdout.write('\n');
}

/**
 * Parses `--min-score` as a number within 0..1.
 * @throws UsageError for anything else
 */
function scoreOption(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n < 0 || n > 1) {
    throw new UsageError(`verify: --min-score: expected a number from 0 to 1; got '${value}'`);
  }
  return n;
}

/**
 * Reads a completion (or `{answer, citations}`) from a file, or stdin for `-`.
 * @throws UsageError when the file cannot be read, is not JSON, or has neither shape
 */
async function readAnswer(file: string): Promise<ChatCompletionResponse | AnswerInput> {
  let text = '';
  try {
    if (file === '-') for await (const chunk of process.stdin) text += String(chunk);
    else text = await readFile(file, 'utf8');
  } catch (error) {
    throw new UsageError(`verify: --completion: cannot read ${file}: ${(error as Error).message}`);
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`verify: --completion: ${file} is not JSON: ${(error as Error).message}`);
  }
  const b = body as { choices?: unknown; answer?: unknown; citations?: unknown } | null;
  const isCompletion = b !== null && typeof b === 'object' && Array.isArray(b.choices);
  const isAnswer =
    b !== null &&
    typeof b === 'object' &&
    typeof b.answer === 'string' &&
    Array.isArray(b.citations) &&
    b.citations.every((c) => typeof c === 'string');
  if (!isCompletion && !isAnswer) {
    throw new UsageError(
      `verify: --completion: ${file} is neither a chat completion nor {"answer", "citations"}`,
    );
  }
  return body as ChatCompletionResponse | AnswerInput;
}
