import { streamSSE } from 'hono/streaming';
import type { ServerContext } from '../context.js';
import { completeChat, streamChat } from '../engines/answerer/index.js';
import type { Answerer } from '../engines/answerer/index.js';
import { answerError } from '../http-error.js';
import type { HandlersOf } from '../register-routes.js';

/**
 * `POST /chat/completions` (and `/v1/chat/completions`), JSON or Server-Sent Events
 * (ARCHITECTURE.md, streaming). Retrieval happens before the response starts, so its failures
 * are ordinary HTTP errors. A failure after the stream started ends it with one last
 * `data: {"error": {message, type, code}}` event, the body an HTTP error would have had (its
 * message sanitised: an unexpected failure names only the request id), and no `[DONE]`.
 */
export function chatHandlers(
  ctx: ServerContext,
  answerer: Answerer,
): HandlersOf<'chat.completions.create'> {
  return {
    'chat.completions.create': async ({ body: request }, c) => {
      const signal = c.req.raw.signal;
      if (!request.stream) return completeChat(answerer, request, signal);
      const retrieval = await answerer.retrieve(request, signal);
      return streamSSE(c, async (stream) => {
        const abort = new AbortController();
        stream.onAbort(() => abort.abort());
        // Caught here, not by streamSSE's onError: Hono would then send the raw message too.
        try {
          for await (const event of streamChat(
            answerer,
            request,
            retrieval,
            ctx.clock,
            abort.signal,
          )) {
            await stream.writeSSE({ data: JSON.stringify(event) });
            if (stream.aborted) return;
          }
          await stream.writeSSE({ data: '[DONE]' });
        } catch (error) {
          if (stream.aborted) return;
          const answer = answerError(error, c.get('requestId'));
          ctx.logger.error('chat stream failed', {
            requestId: c.get('requestId'),
            status: answer.status,
            error: answer.unexpected ? ((error as Error).stack ?? String(error)) : String(error),
          });
          await stream.writeSSE({ data: JSON.stringify(answer.body) });
        }
      });
    },
  };
}
