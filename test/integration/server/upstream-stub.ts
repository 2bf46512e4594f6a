// Loopback stand-ins for the services the embedded server depends on: an OpenAI-compatible chat
// model and an embeddings endpoint. They fail for real (an error status, a socket cut mid-stream),
// so the server's error path meets the failures users meet.
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** How the model stub answers a request, chosen by the last user message. */
export const MODEL_SCRIPT = {
  /** Streams two deltas, then cuts the connection without `[DONE]`. */
  dies: 'please die mid-stream',
  /** Answers HTTP 500 with a body naming an internal detail that must not reach the caller. */
  fails: 'please fail',
} as const;

/** A detail only the stubs' own error bodies contain: it must never reach a caller. */
export const UPSTREAM_SECRET = 'internal-upstream-detail-7f3a';

/** A running stub. */
export interface UpstreamStub {
  /** `http://127.0.0.1:PORT/v1` */
  baseUrl: string;
  close(): Promise<void>;
}

/**
 * Starts the stubs: `POST /v1/chat/completions` streams per {@link MODEL_SCRIPT} (anything else:
 * two deltas and `[DONE]`), `POST /v1/embeddings` always answers 500.
 */
export async function startUpstreamStub(): Promise<UpstreamStub> {
  const sockets = new Set<Socket>();
  const server = http.createServer((req, res) => {
    let text = '';
    req.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    req.on('end', () => {
      if (req.url?.endsWith('/embeddings')) {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: UPSTREAM_SECRET } }));
        return;
      }
      const body = JSON.parse(text) as { messages: { role: string; content: unknown }[] };
      const last = String(body.messages.at(-1)?.content ?? '');
      if (last.includes(MODEL_SCRIPT.fails)) {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: UPSTREAM_SECRET } }));
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const delta = (content: string) =>
        res.write(`data: ${JSON.stringify({ choices: [{ delta: { content } }] })}\n\n`);
      delta('First part. ');
      delta('Second part. ');
      if (last.includes(MODEL_SCRIPT.dies)) {
        // Let the two deltas reach the server before the cut, so the failure is mid-stream.
        setTimeout(() => res.socket?.destroy(), 200);
        return;
      }
      res.end('data: [DONE]\n\n');
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}
