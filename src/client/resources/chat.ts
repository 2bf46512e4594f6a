import { ChatCompletionChunkSchema, ChatCompletionDoneEventSchema } from '../../protocol/index.js';
import type {
  ChatCompletionChunk,
  ChatCompletionDoneEvent,
  ChatCompletionRequest,
  ChatCompletionResponse,
} from '../../protocol/index.js';
import { Stream } from '../sse.js';
import { ChatCompletionStream } from '../stream-accumulator.js';
import type { RequestOptions } from '../transport.js';
import { parseResponse } from '../validate.js';
import { APIResource } from './resource.js';

/** A chat request that returns one response. */
export type ChatCompletionCreateParamsNonStreaming = ChatCompletionRequest & {
  stream?: false | null | undefined;
};
/** A chat request that returns a {@link Stream} of events. */
export type ChatCompletionCreateParamsStreaming = ChatCompletionRequest & { stream: true };
/**
 * One streamed event: delta chunks, and with `stream_mode: 'concise'` a final
 * `chat.completion.done` event carrying the whole message.
 */
export type ChatCompletionStreamEvent = ChatCompletionChunk | ChatCompletionDoneEvent;

/** `client.chat.completions`. */
export class Completions extends APIResource {
  /**
   * Create a chat completion; with `stream: true`, a {@link ChatCompletionStream} (a {@link Stream}
   * of events ending at `[DONE]`, plus `finalCompletion()` and `textDeltas()`).
   * Events with an unknown `object` type are skipped (the hosted service adds some over time).
   * @throws {ValidationError} when `params` break the request schema (nothing is sent).
   * @throws {APIError} per status; {@link ResponseShapeError} when a 2xx breaks the contract.
   * @example
   * const stream = await client.chat.completions.create({ model: 'core', messages, stream: true });
   * for await (const ev of stream) if (ev.object === 'chat.completion.chunk') process.stdout.write(String(ev.choices[0]?.delta['content'] ?? ''));
   */
  create(
    params: ChatCompletionCreateParamsNonStreaming,
    options?: RequestOptions,
  ): Promise<ChatCompletionResponse>;
  create(
    params: ChatCompletionCreateParamsStreaming,
    options?: RequestOptions,
  ): Promise<ChatCompletionStream>;
  create(
    params: ChatCompletionRequest,
    options?: RequestOptions,
  ): Promise<ChatCompletionResponse | ChatCompletionStream>;
  async create(
    params: ChatCompletionRequest,
    options: RequestOptions = {},
  ): Promise<ChatCompletionResponse | ChatCompletionStream> {
    if (params.stream !== true) {
      return this.client.call('chat.completions.create', { body: params }, options);
    }
    const res = await this.client.callStream('chat.completions.create', { body: params }, options);
    const events = Stream.fromSSE<ChatCompletionStreamEvent>(res, (json) => {
      const object = (json as { object?: unknown } | null)?.object;
      if (object === 'chat.completion.done') {
        return parseResponse(ChatCompletionDoneEventSchema, json, res.method, res.path);
      }
      if (object === undefined || object === 'chat.completion.chunk') {
        return parseResponse(ChatCompletionChunkSchema, json, res.method, res.path);
      }
      return undefined;
    });
    return new ChatCompletionStream(events);
  }
}

/** `client.chat`. */
export class Chat extends APIResource {
  readonly completions: Completions = new Completions(this.client);
}
