/**
 * citeAndCapture: an answer turned into evidence. Each `[n]` of the answer is checked on its page:
 * the passage supporting the sentence is found, highlighted and shot.
 *
 * As a script: `npx tsx recipes/cite-and-capture.ts "question" [--model core] [--pool 2]
 * [--driver playwright|puppeteer] [--out out] [--no-screenshots] [--json]`.
 */
import type { ChatCompletionResponse, ChatModel, ChatStreamSources } from '../src/index.js';
import { defineCommand, EXIT, runCommand, UsageError } from '../src/index.js';
import { jsonReplacer, writeReport } from './report.js';
import type { ReportFiles } from './report.js';
import { CitationChecker, writeScreenshots } from './support/checker.js';
import { contextualEmbed, EVIDENCE_DEFAULTS } from './support/evidence.js';
import { openRuntime } from './support/runtime.js';
import type { RuntimeOptions } from './support/runtime.js';
import { citationTable, isMain } from './support/script.js';
import { stripReasoning } from './support/sentences.js';
import { summarize } from './support/types.js';
import type { CitationCheck, EvidenceSummary } from './support/types.js';

/** An answer given directly: its text and the URLs its `[n]` markers index (1-based). */
export interface AnswerInput {
  answer: string;
  citations: readonly string[];
  /** Titles per URL, shown in reports. */
  search_results?: readonly { url: string; title?: string | null }[] | undefined;
  question?: string | undefined;
}

/** A question, a chat completion (streamed or not), or an answer with its citations. */
export type CiteInput = string | ChatCompletionResponse | AnswerInput;

/** What `onProgress` receives. */
export type CiteProgress =
  | { type: 'sources'; urls: string[]; atMs: number }
  | { type: 'answer'; answer: string; atMs: number }
  | { type: 'citation'; check: CitationCheck; done: number; total: number };

/** Options of {@link citeAndCapture}. */
export interface CiteAndCaptureOptions extends RuntimeOptions {
  /** Chat model asked when the input is a question. @default 'core' */
  model?: ChatModel | undefined;
  /** Passage and viewport screenshots per citation. @default true */
  screenshots?: boolean | undefined;
  /** Write `report.html` and `report.json` into `outDir`. @default true */
  report?: boolean | undefined;
  /** Where the report and the screenshots go. @default 'out' */
  outDir?: string | undefined;
  /** Use the contextualized embeddings step when exact and fuzzy matching fail. @default true */
  embeddings?: boolean | undefined;
  /** @default 'svc-embed-context-v1-0.6b' */
  embeddingModel?: string | undefined;
  /** Navigation timeout per page, in ms. @default 20_000 */
  navigationTimeout?: number | undefined;
  /** Heading of the report. @default 'citeAndCapture' */
  title?: string | undefined;
  onProgress?: ((event: CiteProgress) => void) | undefined;
}

/** What {@link citeAndCapture} returns. */
export interface CiteAndCaptureResult {
  /** The question asked, or `null` when a completion was given. */
  question: string | null;
  /** The answer text (reasoning blocks removed). */
  answer: string;
  /** The URLs `[n]` markers index. */
  sources: string[];
  /** One entry per marker per sentence, in answer order. */
  citations: CitationCheck[];
  summary: EvidenceSummary;
  /** ms: `answer` (until complete), `firstSources` (until the cited URLs were known), `evidence` (after the answer), `total`. */
  timings: { answerMs: number; firstSourcesMs: number | null; evidenceMs: number; totalMs: number };
  /** The written report, when `report` was on. */
  report: ReportFiles | null;
}

/** Defaults of {@link citeAndCapture}. */
export const CITE_DEFAULTS = {
  model: 'core',
  screenshots: true,
  report: true,
  outDir: 'out',
  embeddings: true,
} as const;

/** The text of a completion's first choice. */
export function completionText(completion: ChatCompletionResponse): string {
  const content = completion.choices[0]?.message.content as unknown;
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content
      .map((p: { type?: string; text?: unknown }) =>
        p.type === 'text' ? String(p.text ?? '') : '',
      )
      .join('');
  }
  return '';
}

/**
 * Gets an answer (streamed: cited pages start loading as soon as the sources arrive, before the
 * text is complete) and checks every citation on its page through a session pool: visit, find the
 * passage supporting the sentence carrying `[n]` (exact, fuzzy, embeddings), highlight, capture.
 * Each citation ends `supported`, `not_found`, `blocked` or `unreachable`.
 * @throws what the client throws while getting the answer; SvcError for invalid options
 * @example
 * const r = await citeAndCapture('How do I connect to an existing browser over CDP?', { outDir: 'out' });
 * console.log(r.summary, r.report?.html);
 */
export async function citeAndCapture(
  input: CiteInput,
  options: CiteAndCaptureOptions = {},
): Promise<CiteAndCaptureResult> {
  const started = performance.now();
  const since = () => Math.round(performance.now() - started);
  const screenshots = options.screenshots ?? CITE_DEFAULTS.screenshots;
  const outDir = options.outDir ?? CITE_DEFAULTS.outDir;
  const runtime = await openRuntime(options);
  const checker = new CitationChecker(runtime.pool, {
    screenshots,
    embed:
      (options.embeddings ?? CITE_DEFAULTS.embeddings)
        ? contextualEmbed(
            runtime.client,
            options.embeddingModel ?? EVIDENCE_DEFAULTS.embeddingModel,
          )
        : undefined,
    navigationTimeout: options.navigationTimeout,
    onCheck: (check, done, total) => options.onProgress?.({ type: 'citation', check, done, total }),
  });
  try {
    let firstSourcesMs: number | null = null;
    const onSources = (s: ChatStreamSources) => {
      if (s.citations.length === 0) return;
      firstSourcesMs ??= since();
      options.onProgress?.({ type: 'sources', urls: [...s.citations], atMs: since() });
      for (const url of s.citations) checker.prefetch(url);
    };
    let question: string | null = null;
    let answer: AnswerInput;
    if (typeof input === 'string') {
      question = input;
      const stream = await runtime.client.chat.completions.create({
        model: options.model ?? CITE_DEFAULTS.model,
        messages: [{ role: 'user', content: input }],
        stream: true,
        stream_mode: 'full',
      });
      const completion = await stream.finalCompletion({ onSources });
      answer = answerFromCompletion(completion);
    } else {
      answer = 'choices' in input ? answerFromCompletion(input) : input;
      question = answer.question ?? null;
      onSources({ citations: [...answer.citations], search_results: [] });
    }
    const answerMs = since();
    const text = stripReasoning(answer.answer);
    options.onProgress?.({ type: 'answer', answer: text, atMs: answerMs });
    const titles = new Map<string, string>();
    for (const r of answer.search_results ?? []) if (r.title) titles.set(r.url, r.title);
    const citations = await checker.check(text, answer.citations, titles);
    const summary = summarize(citations);
    const result: CiteAndCaptureResult = {
      question,
      answer: text,
      sources: [...answer.citations],
      citations,
      summary,
      timings: { answerMs, firstSourcesMs, evidenceMs: since() - answerMs, totalMs: 0 },
      report: null,
    };
    if (screenshots && (options.report ?? CITE_DEFAULTS.report)) {
      await writeScreenshots(citations, outDir);
    }
    result.timings.totalMs = since();
    if (options.report ?? CITE_DEFAULTS.report) {
      result.report = await writeReport(
        {
          title: options.title ?? 'citeAndCapture',
          question,
          answer: text,
          citations,
          summary,
          timings: result.timings,
        },
        outDir,
      );
    }
    return result;
  } finally {
    checker.cancel();
    await runtime.close();
  }
}

/** The answer text, citations and titles of a completion. */
export function answerFromCompletion(completion: ChatCompletionResponse): AnswerInput {
  return {
    answer: completionText(completion),
    citations: completion.citations ?? completion.search_results?.map((r) => r.url) ?? [],
    search_results: completion.search_results ?? [],
  };
}

const command = defineCommand({
  name: 'cite-and-capture',
  program: 'tsx recipes/cite-and-capture.ts',
  summary: 'ask, then find, highlight and screenshot the passage behind every citation',
  usage: 'npx tsx recipes/cite-and-capture.ts "question" [options]',
  positionals: true,
  options: {
    model: { type: 'string', arg: '<m>', help: 'chat model (default core)' },
    pool: { type: 'string', arg: '<n>', help: 'browser sessions working at once (default 2)' },
    driver: { type: 'string', arg: '<d>', help: 'playwright (default) or puppeteer' },
    out: { type: 'string', arg: '<dir>', help: 'where the report goes (default out)' },
    'no-screenshots': { type: 'boolean', help: 'check the citations without screenshots' },
  },
  json: 'print the result as JSON',
  examples: ['npx tsx recipes/cite-and-capture.ts "how do grid batteries degrade" --pool 2'],
  async run({ values, positionals, json }) {
    const question = positionals.join(' ').trim();
    if (!question) throw new UsageError('cite-and-capture: give a question (--help)');
    const result = await citeAndCapture(question, {
      model: (values.model ?? 'core') as ChatModel,
      poolSize: Number(values.pool ?? '2'),
      driver: values.driver === 'puppeteer' ? 'puppeteer' : 'playwright',
      outDir: values.out ?? 'out',
      screenshots: !values['no-screenshots'],
      onProgress: (e) => {
        if (e.type === 'citation' && !json) {
          process.stderr.write(`\r${e.done}/${e.total} citations checked`);
        }
      },
    });
    if (json) console.log(JSON.stringify(result, jsonReplacer, 2));
    else {
      console.log(`\n${result.answer}\n\n${citationTable(result.citations, result.summary)}`);
      if (result.report) console.log(`\nreport: ${result.report.html}`);
    }
    return EXIT.ok;
  },
});

if (isMain(import.meta.url)) void runCommand(command);
