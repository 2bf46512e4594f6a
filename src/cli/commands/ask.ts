import { parseArgs } from 'node:util';
import type { Client, ChatStreamSources } from '../../client/index.js';
import { CHAT_MODELS, SEARCH_RECENCY_FILTERS } from '../../protocol/index.js';
import type { ChatCompletionRequest, ChatCompletionResponse } from '../../protocol/index.js';
import { EXIT, parseOrUsage, UsageError } from '../common.js';
import { choiceOption, formatSources, messageText, printJson, printJsonLine } from '../output.js';
import { displayLocation, withService } from '../service.js';

const HELP = `svc ask: an answer with numbered citations, streamed as it is written

Usage: svc ask <question...> [options]

Options:
  --model <m>         ${CHAT_MODELS.join(', ')} (default core)
  --domain <d>        search only this domain; repeat for several; -d excludes one
  --recency <r>       hour, day, week, month or year
  --stream            with --json: print every stream event as one JSON line (NDJSON)
  --json              print the final completion as JSON instead of text
  --data-dir <dir>    data dir of the embedded service (default SVC_DATA_DIR or ~/.svc-toolkit)
  -h, --help          this help

The answer streams to stdout as it arrives; its [n] markers refer to the numbered sources printed
after it. Without SVC_BASE_URL the embedded service answers from the local index (see svc index).

Examples:
  svc ask what limits the cycle life of LFP cells
  svc ask "how does FTS5 rank results" --model core-pro --domain sqlite.org
  svc ask what is new in grid storage --recency month --json | jq -r '.choices[0].message.content'
`;

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
export async function runAsk(argv: string[]): Promise<number> {
  const { values, positionals } = parseOrUsage('ask', () =>
    parseArgs({
      args: argv,
      strict: true,
      allowPositionals: true,
      options: {
        model: { type: 'string' },
        domain: { type: 'string', multiple: true },
        recency: { type: 'string' },
        stream: { type: 'boolean' },
        json: { type: 'boolean' },
        'data-dir': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }),
  );
  if (values.help) {
    process.stdout.write(HELP);
    return EXIT.ok;
  }
  const question = positionals.join(' ').trim();
  if (question === '') throw new UsageError('ask: give a question (svc ask --help)');
  const model = choiceOption('ask', 'model', values.model, CHAT_MODELS) ?? 'core';
  const recency = choiceOption('ask', 'recency', values.recency, SEARCH_RECENCY_FILTERS);
  if (values.stream && !values.json) {
    process.stderr.write('svc: ask: --stream only changes --json output; text always streams\n');
  }
  const params: ChatCompletionRequest = {
    model,
    messages: [{ role: 'user', content: question }],
    ...(values.domain !== undefined && { search_domain_filter: values.domain }),
    ...(recency !== undefined && { search_recency_filter: recency }),
  };

  return withService({ dataDir: values['data-dir'] }, async (service, signal) => {
    const { client } = service;
    if (values.json && values.stream) {
      const stream = await client.chat.completions.create({ ...params, stream: true }, { signal });
      for await (const event of stream) printJsonLine(event);
      return EXIT.ok;
    }
    if (values.json) {
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
    process.stdout.write(
      formatSources(completion.citations ?? [], completion.search_results ?? [], (url) =>
        displayLocation(service, url),
      ),
    );
    return EXIT.ok;
  });
}
