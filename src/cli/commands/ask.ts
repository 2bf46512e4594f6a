import type { Client, ChatStreamSources } from '../../client/index.js';
import { CHAT_MODELS, SEARCH_RECENCY_FILTERS } from '../../protocol/index.js';
import type { ChatCompletionRequest, ChatCompletionResponse } from '../../protocol/index.js';
import { defineCommand } from '../command.js';
import { EXIT, UsageError } from '../common.js';
import { choiceOption, messageText, printJson, printJsonLine } from '../output.js';
import { displayLocation, hintIfIndexEmpty, printSources } from '../service.js';
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

/** Options of {@link streamAnswer}. */
export interface StreamAnswerOptions {
  /** Receives each new piece of answer text. */
  onDelta?: ((delta: string) => void) | undefined;
  /**
   * Receives the sources whenever they change, before the answer is complete: the hook where
   * evidence capture starts loading cited pages while the text still arrives.
   */
  onSources?: ((sources: ChatStreamSources) => void) | undefined;
  signal?: AbortSignal | undefined;
}

/**
 * Asks with `stream: true` and returns the final completion, reporting text and sources as they
 * arrive.
 * @throws APIError, ConnectionError, TimeoutError from the client; AbortError when `signal` aborts
 */
export async function streamAnswer(
  client: Client,
  params: ChatCompletionRequest,
  options: StreamAnswerOptions = {},
): Promise<ChatCompletionResponse> {
  const stream = await client.chat.completions.create(
    { ...params, stream: true },
    { signal: options.signal },
  );
  return stream.finalCompletion({
    onDelta: options.onDelta,
    onSources: options.onSources,
  });
}

/** `svc ask <question...>`: streams the answer, then prints the numbered sources. */
export const askCommand = defineCommand({
  name: 'ask',
  summary: 'an answer with numbered citations, streamed as it is written',
  usage: [
    'svc ask <question...> [options]',
    'svc ask <question...> --capture [--out <dir>] [--pool <n>] [--driver <d>] [--json]',
  ],
  positionals: true,
  options: {
    model: { type: 'string', arg: '<m>', help: `${CHAT_MODELS.join(', ')} (default core)` },
    domain: {
      type: 'string',
      multiple: true,
      arg: '<d>',
      help: 'search only this domain; repeat for several; -d excludes one',
    },
    recency: { type: 'string', arg: '<r>', help: 'hour, day, week, month or year' },
    stream: {
      type: 'boolean',
      help: 'with --json: print every stream event as one JSON line (NDJSON)',
    },
    capture: {
      type: 'boolean',
      help: 'visit every cited page, find the passage supporting each [n], highlight\nand screenshot it; end with a verdict table and an HTML/JSON report',
    },
    out: {
      type: 'string',
      arg: '<dir>',
      help: 'with --capture: where report.html, report.json and the screenshots go\n(default out)',
    },
    ...BROWSER_FLAGS,
  },
  json: 'print the final completion as JSON instead of text (with --capture: the\nevidence result, screenshots as file paths)',
  dataDir: true,
  notes: `The answer streams to stdout as it arrives; its [n] markers refer to the numbered sources printed
after it. Without SVC_BASE_URL the embedded service answers from the local index (see svc index).

With --capture, cited pages start loading in Chromium while the answer is still arriving; each
citation ends supported, contradicted (the page states a different fact: the conflict is shown
and highlighted in red), not_found, blocked (challenge or login page) or unreachable. The exit
code is 0 whenever the run completed, whatever the verdicts: use svc verify to gate on grounding.`,
  examples: [
    'svc ask what limits the cycle life of LFP cells',
    'svc ask "how does FTS5 rank results" --model core-pro --domain sqlite.org',
    "svc ask what is new in grid storage --recency month --json | jq -r '.choices[0].message.content'",
    'svc ask how does the recycling plant recover lithium --capture --out evidence --pool 4',
    'svc ask "what limits LFP cycle life" --capture --driver puppeteer --json > evidence.json',
  ],
  async run(ctx) {
    const { values, positionals } = ctx;
    const question = positionals.join(' ').trim();
    if (question === '') throw new UsageError('ask: give a question (svc ask --help)');
    const model = choiceOption('ask', 'model', values.model, CHAT_MODELS) ?? 'core';
    const recency = choiceOption('ask', 'recency', values.recency, SEARCH_RECENCY_FILTERS);
    const browser = browserOptions('ask', values);
    if (values.capture) {
      // The recipe asks the question itself (to start loading pages mid-stream) with no filters.
      for (const flag of ['domain', 'recency', 'stream'] as const) {
        if (values[flag] !== undefined) {
          throw new UsageError(`ask: --${flag} cannot be combined with --capture`);
        }
      }
    } else {
      for (const flag of ['out', 'pool', 'driver'] as const) {
        if (values[flag] !== undefined) throw new UsageError(`ask: --${flag} needs --capture`);
      }
    }
    if (values.stream && !ctx.json) {
      process.stderr.write('svc: ask: --stream only changes --json output; text always streams\n');
    }
    const params: ChatCompletionRequest = {
      model,
      messages: [{ role: 'user', content: question }],
      ...(values.domain !== undefined && { search_domain_filter: values.domain }),
      ...(recency !== undefined && { search_recency_filter: recency }),
    };

    const service = await ctx.service();
    const signal = ctx.signal;
    hintIfIndexEmpty(service);
    if (values.capture) {
      return askWithCapture(service, signal, question, model, {
        ...browser,
        outDir: values.out,
        json: ctx.json,
      });
    }
    const { client } = service;
    if (ctx.json && values.stream) {
      const stream = await client.chat.completions.create({ ...params, stream: true }, { signal });
      for await (const event of stream) printJsonLine(event);
      return EXIT.ok;
    }
    if (ctx.json) {
      printJson(await client.chat.completions.create(params, { signal }));
      return EXIT.ok;
    }
    let shown = '';
    const completion = await streamAnswer(client, params, {
      signal,
      onDelta: (delta) => {
        process.stdout.write(delta);
        shown += delta;
      },
    });
    // An answer whose text never came as deltas (structured content) is printed whole.
    if (shown === '') {
      shown = messageText(completion.choices[0]?.message.content) || '(no answer text)';
      process.stdout.write(shown);
    }
    process.stdout.write(shown.endsWith('\n') ? '\n' : '\n\n');
    printSources(service, completion);
    return EXIT.ok;
  },
});

/** `svc ask --capture`: citeAndCapture over the service, with progress and a verdict table. */
async function askWithCapture(
  service: Service,
  signal: AbortSignal,
  question: string,
  model: ChatCompletionRequest['model'],
  flags: CaptureFlags,
): Promise<number> {
  const { citeAndCapture } = await import('../../../recipes/index.js');
  const view = {
    json: flags.json,
    streaming: true,
    locate: (url: string) => displayLocation(service, url),
  };
  const progress = new RecipeProgress('citations');
  const { outDir, poolSize, driver } = flags;
  const browser = {
    ...(poolSize !== undefined && { poolSize }),
    ...(driver !== undefined && { driver }),
  };
  try {
    const result = await untilAborted(
      citeAndCapture(question, {
        ...browser,
        client: service.client,
        model,
        ...(outDir !== undefined && { outDir }),
        onProgress: whileLive(signal, captureProgress(view, progress)),
      }),
      signal,
    );
    progress.finish();
    printCaptureResult(result, view);
    return EXIT.ok;
  } finally {
    progress.finish();
  }
}
