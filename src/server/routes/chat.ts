import { randomUUID } from 'node:crypto';
import type { Hono } from 'hono';
import { streamSSE } from 'hono/streaming';
import { ChatCompletionRequestSchema } from '../../protocol/index.js';
import type {
  ChatCompletionChunk,
  ChatCompletionDoneEvent,
  ChatCompletionRequestParsed,
  SearchResult,
} from '../../protocol/index.js';
import type { AppEnv, ServerContext } from '../context.js';
import { OutputLimiter } from '../engines/answerer/index.js';
import type { Answerer, Retrieval } from '../engines/answerer/index.js';
import { readBody } from '../validate.js';

const stopsOf = (stop: string | string[] | null | undefined): string[] =>
  stop == null ? [] : Array.isArray(stop) ? stop : [stop];

/**
 * Runs retrieval and generation to the end, with `max_tokens` and `stop` applied; shared by the
 * route, the streaming route (which emits the same pieces) and async jobs.
 */
export async function completeChat(
  answerer: Answerer,
  request: ChatCompletionRequestParsed,
  signal?: AbortSignal,
) {
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
 * `POST /chat/completions`, JSON or Server-Sent Events (ARCHITECTURE.md, streaming): the stream
 * starts as soon as retrieval is done; `full` chunks carry `search_results`/`citations` from the
 * first chunk on and `usage` on the last; `concise` sends deltas, then one `chat.completion.done`.
 */
export function registerChatRoutes(
  app: Hono<AppEnv>,
  ctx: ServerContext,
  answerer: Answerer,
): void {
  // `/v1/chat/completions` too: OpenAI-compatible SDKs append `/chat/completions` to a `.../v1` base.
  app.on('POST', ['/chat/completions', '/v1/chat/completions'], async (c) => {
    const request = await readBody(c, ChatCompletionRequestSchema);
    const signal = c.req.raw.signal;
    if (!request.stream) return c.json(await completeChat(answerer, request, signal));

    // Retrieval happens before the response starts, so its failures are ordinary HTTP errors.
    const retrieval = await answerer.retrieve(request, signal);
    return streamSSE(
      c,
      async (stream) => {
        const abort = new AbortController();
        stream.onAbort(() => abort.abort());
        const emit = (event: unknown) => stream.writeSSE({ data: JSON.stringify(event) });
        const chunks = new ChunkWriter(request, retrieval, ctx.clock);
        const limiter = new OutputLimiter(request.max_tokens, stopsOf(request.stop));
        await emit(chunks.delta({ role: 'assistant', content: '' }));
        for await (const piece of answerer.generate(request, retrieval, abort.signal)) {
          const text = limiter.push(piece);
          if (text) await emit(chunks.delta({ content: text }));
          if (limiter.finished || stream.aborted) break;
        }
        const rest = limiter.end();
        if (rest) await emit(chunks.delta({ content: rest }));
        const final = answerer.buildResponse(
          request,
          retrieval,
          limiter.content,
          limiter.finishReason,
          chunks.id,
        );
        await emit(request.stream_mode === 'concise' ? chunks.done(final) : chunks.last(final));
        await stream.writeSSE({ data: '[DONE]' });
      },
      async (error, stream) => {
        ctx.logger.error('chat stream failed', { error: String(error) });
        await stream.writeSSE({
          data: JSON.stringify({
            error: {
              message: 'Stream failed: internal error',
              type: 'api_error',
              code: 'stream_failed',
            },
          }),
        });
      },
    );
  });
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
            search_results: retrieval.passages.map((p) => ({
              title: p.title,
              url: p.url,
              date: p.date,
              last_updated: p.lastUpdated,
              snippet: p.snippet,
              source: p.source,
            })),
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
