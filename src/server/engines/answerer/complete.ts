// Running a chat request to its end: the whole response (the route, async jobs) or its stream of
// chunks (the streaming route), with `max_tokens` and `stop` applied the same way.
import { randomUUID } from 'node:crypto';
import type {
  ChatCompletionChunk,
  ChatCompletionDoneEvent,
  ChatCompletionRequestParsed,
  ChatCompletionResponse,
  SearchResult,
} from '../../../protocol/index.js';
import { toSearchResults } from './answerer.js';
import type { Answerer, Retrieval } from './answerer.js';
import { OutputLimiter } from './output-limiter.js';

const stopsOf = (stop: string | string[] | null | undefined): string[] =>
  stop == null ? [] : Array.isArray(stop) ? stop : [stop];

/**
 * Runs retrieval and generation to the end, with `max_tokens` and `stop` applied: the JSON
 * answer of `POST /chat/completions`, and what an async job stores.
 * @throws the domain errors of retrieval and generation (e.g. `Upstream` when the model fails)
 */
export async function completeChat(
  answerer: Answerer,
  request: ChatCompletionRequestParsed,
  signal?: AbortSignal,
): Promise<ChatCompletionResponse> {
  const retrieval = await answerer.retrieve(request, signal);
  const limiter = new OutputLimiter(request.max_tokens, stopsOf(request.stop));
  for await (const piece of answerer.generate(request, retrieval, signal)) {
    limiter.push(piece);
    if (limiter.finished) break;
  }
  limiter.end();
  return answerer.buildResponse(request, retrieval, limiter.content, limiter.finishReason);
}

/**
 * The events of a streamed answer from a finished retrieval (ARCHITECTURE.md, streaming): a
 * role chunk, content deltas, then the last chunk (`full`: `finish_reason` and `usage`) or one
 * `chat.completion.done` event (`concise`). `full` chunks carry `search_results`/`citations` from
 * the first chunk on. Stopping the iteration stops generation.
 * @throws the domain errors of generation, mid-stream
 */
export async function* streamChat(
  answerer: Answerer,
  request: ChatCompletionRequestParsed,
  retrieval: Retrieval,
  clock: () => number,
  signal?: AbortSignal,
): AsyncGenerator<ChatCompletionChunk | ChatCompletionDoneEvent> {
  const chunks = new ChunkWriter(request, retrieval, clock);
  const limiter = new OutputLimiter(request.max_tokens, stopsOf(request.stop));
  yield chunks.delta({ role: 'assistant', content: '' });
  for await (const piece of answerer.generate(request, retrieval, signal)) {
    const text = limiter.push(piece);
    if (text) yield chunks.delta({ content: text });
    if (limiter.finished) break;
  }
  const rest = limiter.end();
  if (rest) yield chunks.delta({ content: rest });
  const final = answerer.buildResponse(
    request,
    retrieval,
    limiter.content,
    limiter.finishReason,
    chunks.id,
  );
  yield request.stream_mode === 'concise' ? chunks.done(final) : chunks.last(final);
}

/** Builds the chunks of one stream, all with the same id, model and creation time. */
class ChunkWriter {
  readonly id = `chatcmpl-${randomUUID()}`;
  private readonly created: number;
  private readonly sources: { search_results?: SearchResult[]; citations?: string[] };

  constructor(
    private readonly request: ChatCompletionRequestParsed,
    retrieval: Retrieval,
    clock: () => number,
  ) {
    this.created = Math.floor(clock() / 1000);
    this.sources =
      request.stream_mode === 'full'
        ? {
            citations: retrieval.passages.map((p) => p.url),
            search_results: toSearchResults(retrieval.passages),
          }
        : {};
  }

  delta(delta: { role?: string; content: string }): ChatCompletionChunk {
    return {
      id: this.id,
      object: 'chat.completion.chunk',
      created: this.created,
      model: this.request.model,
      choices: [{ index: 0, delta, finish_reason: null }],
      ...this.sources,
    };
  }

  last(final: ReturnType<Answerer['buildResponse']>): ChatCompletionChunk {
    return {
      ...this.delta({ content: '' }),
      choices: [
        {
          index: 0,
          delta: { content: '' },
          finish_reason: final.choices[0]?.finish_reason ?? 'stop',
        },
      ],
      usage: final.usage,
      ...(final.images && { images: final.images }),
      ...(final.related_questions && { related_questions: final.related_questions }),
    };
  }

  done(final: ReturnType<Answerer['buildResponse']>): ChatCompletionDoneEvent {
    const choice = final.choices[0];
    return {
      id: this.id,
      object: 'chat.completion.done',
      created: this.created,
      model: this.request.model,
      choices: [
        {
          index: 0,
          finish_reason: choice?.finish_reason ?? 'stop',
          message: choice?.message ?? { role: 'assistant', content: '' },
        },
      ],
      search_results: final.search_results ?? [],
      citations: final.citations ?? [],
      usage: final.usage,
      ...(final.images && { images: final.images }),
      ...(final.related_questions && { related_questions: final.related_questions }),
    };
  }
}
