// A loopback OpenAI-compatible chat endpoint that streams slowly: an external dependency of the
// server (its `llm` option), written here so async jobs stay in flight long enough to be killed.
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** A running stub. */
export interface LlmStub {
  /** `http://127.0.0.1:PORT/v1`, for the server's `llm.baseUrl`. */
  baseUrl: string;
  /** Requests answered or being answered, in arrival order. */
  readonly requests: number;
  /** Pause between streamed chunks; change it at any time. */
  chunkDelayMs: number;
  close(): Promise<void>;
}

/**
 * Starts the stub: `POST /v1/chat/completions` streams `chunks` deltas, `chunkDelayMs` apart, the
 * first naming the request's arrival number (`answer-7`), so a duplicated run is visible.
 */
export async function startLlmStub(chunkDelayMs: number, chunks = 5): Promise<LlmStub> {
  let requests = 0;
  const sockets = new Set<Socket>();
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const n = ++requests;
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store' });
      let sent = 0;
      const tick = (): void => {
        if (res.destroyed) return;
        if (sent === chunks) {
          res.end('data: [DONE]\n\n');
          return;
        }
        const content = sent === 0 ? `answer-${n} ` : `part ${sent}. `;
        res.write(`data: ${JSON.stringify({ choices: [{ delta: { content } }] })}\n\n`);
        sent++;
        setTimeout(tick, stub.chunkDelayMs);
      };
      tick();
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  const stub: LlmStub = {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    get requests() {
      return requests;
    },
    chunkDelayMs,
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
  return stub;
}
