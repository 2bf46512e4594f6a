// Streaming chat read as raw Server-Sent Events (what any OpenAI-compatible client does), attachments
// fetched from a real loopback server, and LLM mode: one embedded server answering through another.
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo, Server } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countTokens } from '../../../src/protocol/index.js';
import { startTestServer } from '../../support/server.js';
import type { TestServer } from '../../support/server.js';
import { CORPUS, NOW, corpusServer, postJson, postSse } from './helpers.js';

interface Chunk {
  id: string;
  object: string;
  model: string;
  choices: {
    index: number;
    delta?: { role?: string; content?: string };
    finish_reason?: string | null;
    message?: { role: string; content: string };
  }[];
  search_results?: { url: string; title: string; source: string }[];
  citations?: string[];
  usage?: Record<string, unknown> & { completion_tokens: number };
}

const QUESTION = 'How do grid-scale batteries earn revenue from frequency response?';
const ask = (extra: Record<string, unknown> = {}) => ({
  model: 'core',
  messages: [{ role: 'user', content: QUESTION }],
  ...extra,
});

let server: TestServer;
let files: Server;
let filesUrl: string;

beforeAll(async () => {
  server = await corpusServer();
  const pdf = await readFile(path.join(CORPUS, 'reports/battery-safety-report.pdf'));
  files = createServer((req, res) => {
    if (req.url === '/safety-report.pdf') {
      res.writeHead(200, { 'content-type': 'application/pdf', 'content-length': pdf.length });
      res.end(pdf);
    } else {
      res.writeHead(404).end('not found');
    }
  });
  await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', resolve));
  filesUrl = `http://127.0.0.1:${(files.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await server?.dispose();
  await new Promise((resolve) => files?.close(resolve));
});

/** Parses a stream: JSON chunks before `[DONE]`, which must be the last payload. */
function parseStream(data: string[]): Chunk[] {
  expect(data.at(-1)).toBe('[DONE]');
  expect(data.filter((d) => d === '[DONE]')).toHaveLength(1);
  return data.slice(0, -1).map((d) => JSON.parse(d) as Chunk);
}
const deltas = (chunks: Chunk[]): string =>
  chunks.map((c) => c.choices[0]?.delta?.content ?? '').join('');

describe('streaming, stream_mode full', () => {
  for (const [label, extra] of [
    ['a plain answer', {}],
    ['a max_tokens cut', { max_tokens: 15 }],
    ['a stop sequence', { stop: ' [1]' }],
    ['a reasoning answer', { model: 'core-reasoning-pro' }],
    ['a deep research answer', { model: 'core-deep-research', reasoning_effort: 'low' }],
  ] as const) {
    it(`deltas of ${label} concatenate to the non-streamed content`, async () => {
      const whole = await postJson(server, '/chat/completions', ask(extra));
      expect(whole.status).toBe(200);
      const reply = await postSse(server, ask({ ...extra, stream: true }));
      expect(reply.status).toBe(200);
      expect(reply.contentType).toMatch(/^text\/event-stream/);
      const chunks = parseStream(reply.data);
      expect(chunks.length).toBeGreaterThan(2);
      expect(deltas(chunks)).toBe(whole.body.choices[0].message.content);
      const expectedUrls = whole.body.search_results.map((r: { url: string }) => r.url);
      for (const chunk of chunks) {
        expect(chunk.object).toBe('chat.completion.chunk');
        expect(chunk.id).toBe(chunks[0]!.id);
        expect(chunk.search_results!.map((r) => r.url)).toEqual(expectedUrls);
        expect(chunk.citations).toEqual(expectedUrls);
      }
      for (const chunk of chunks.slice(0, -1)) expect(chunk.choices[0]!.finish_reason).toBeNull();
      const last = chunks.at(-1)!;
      expect(last.choices[0]!.finish_reason).toBe(whole.body.choices[0].finish_reason);
      expect(last.usage).toEqual(whole.body.usage);
      expect(last.usage!.completion_tokens).toBe(countTokens(deltas(chunks)));
    });
  }

  it('sends the sources in the very first chunk, before any answer text', async () => {
    const chunks = parseStream((await postSse(server, ask({ stream: true }))).data);
    expect(chunks[0]!.choices[0]!.delta).toEqual({ role: 'assistant', content: '' });
    expect(chunks[0]!.search_results!.length).toBeGreaterThan(0);
    expect(chunks[0]!.usage ?? null).toBeNull();
  });
});

describe('streaming, stream_mode concise', () => {
  it('sends delta chunks, then one chat.completion.done with the whole message', async () => {
    const whole = await postJson(server, '/chat/completions', ask());
    const chunks = parseStream(
      (await postSse(server, ask({ stream: true, stream_mode: 'concise' }))).data,
    );
    const done = chunks.at(-1)!;
    const body = chunks.slice(0, -1);
    expect(body.length).toBeGreaterThan(1);
    for (const chunk of body) {
      expect(chunk.object).toBe('chat.completion.chunk');
      expect(chunk.search_results).toBeUndefined();
      expect(chunk.usage).toBeUndefined();
    }
    expect(done.object).toBe('chat.completion.done');
    expect(chunks.filter((c) => c.object === 'chat.completion.done')).toHaveLength(1);
    expect(done.choices[0]!.message!.content).toBe(deltas(body));
    expect(done.choices[0]!.message!.content).toBe(whole.body.choices[0].message.content);
    expect(done.choices[0]!.finish_reason).toBe('stop');
    expect(done.search_results!.map((r) => r.url)).toEqual(
      whole.body.search_results.map((r: { url: string }) => r.url),
    );
    expect(done.citations).toEqual(whole.body.citations);
    expect(done.usage).toEqual(whole.body.usage);
  });
});

describe('attachments', () => {
  const withPdf = (url: string, extra: Record<string, unknown> = {}) => ({
    model: 'core',
    messages: [
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Did thermal runaway spread to neighbouring cells in the module?' },
          { type: 'pdf_url', pdf_url: { url } },
        ],
      },
    ],
    ...extra,
  });

  it('reads a pdf_url from a loopback server and cites it as source "attachment"', async () => {
    const url = `${filesUrl}/safety-report.pdf`;
    const reply = await postJson(
      server,
      '/chat/completions',
      withPdf(url, { disable_search: true }),
    );
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expect(reply.body.search_results).toHaveLength(1);
    expect(reply.body.search_results[0]).toMatchObject({
      url,
      source: 'attachment',
      title: 'Thermal runaway propagation in containerised battery storage',
    });
    expect(reply.body.citations).toEqual([url]);
    const text = reply.body.choices[0].message.content as string;
    expect(text).toContain('[1]');
    expect(text).toMatch(/We forced a single lithium iron phosphate cell into thermal runaway/);

    // With search on, the attachment comes first and indexed pages follow it.
    const both = await postJson(server, '/chat/completions', withPdf(url));
    expect(both.body.search_results[0].source).toBe('attachment');
    expect(both.body.search_results.length).toBeGreaterThan(1);
    for (const r of both.body.search_results.slice(1)) expect(r.source).toBe('web');
  });

  it('refuses a file:// attachment with a clear 400 and reads nothing', async () => {
    const reply = await postJson(server, '/chat/completions', withPdf('file:///etc/passwd'));
    expect(reply.status).toBe(400);
    expect(reply.body.error.message).toMatch(/file:\/\/\/etc\/passwd/);
    expect(reply.body.error.message).toMatch(/scheme file: is not allowed/);
    expect(JSON.stringify(reply.body)).not.toMatch(/root:/);
    const missing = await postJson(server, '/chat/completions', withPdf(`${filesUrl}/nope.pdf`));
    expect(missing.status).toBe(400);
    expect(missing.body.error.message).toMatch(/HTTP 404/);
  });
});

describe('LLM mode: one embedded server answering through another', () => {
  let answerModel: TestServer;
  let grounded: TestServer;

  beforeAll(async () => {
    answerModel = server;
    // B holds only two documents, neither of which mentions Hornsdale; A holds the whole corpus.
    grounded = await startTestServer({
      clock: () => NOW,
      llm: { baseUrl: answerModel.url, apiKey: answerModel.apiKey!, model: 'core' },
    });
    await grounded.engines.index.indexPaths([
      path.join(CORPUS, 'notes/reading-list.txt'),
      path.join(CORPUS, 'web/sec-10k-risk-factors.html'),
    ]);
  });
  afterAll(() => grounded?.dispose());

  it("B's answer is A's answer, while the sources are B's own", async () => {
    const fromA = await postJson(answerModel, '/chat/completions', ask());
    const fromB = await postJson(grounded, '/chat/completions', ask());
    expect(fromB.status, JSON.stringify(fromB.body)).toBe(200);
    const text = fromB.body.choices[0].message.content as string;
    expect(text).toBe(fromA.body.choices[0].message.content);
    expect(text).toMatch(/Hornsdale/);
    expect(fromB.body.search_results.length).toBeGreaterThan(0);
    for (const r of fromB.body.search_results) expect(r.url.startsWith(grounded.url)).toBe(true);
    expect(fromB.body.usage.completion_tokens).toBe(countTokens(text));
  });

  it('streams through the answer model: deltas concatenate to the JSON answer', async () => {
    const whole = await postJson(grounded, '/chat/completions', ask());
    const chunks = parseStream((await postSse(grounded, ask({ stream: true }))).data);
    expect(deltas(chunks)).toBe(whole.body.choices[0].message.content);
    expect(chunks.at(-1)!.choices[0]!.finish_reason).toBe('stop');
    for (const c of chunks) expect(c.search_results!.length).toBeGreaterThan(0);
    const cut = await postJson(grounded, '/chat/completions', ask({ max_tokens: 5 }));
    expect(cut.body.choices[0].finish_reason).toBe('length');
    expect(cut.body.usage.completion_tokens).toBe(5);
  });

  it('a failing answer model is an error, not an invented answer', async () => {
    const broken = await startTestServer({
      llm: { baseUrl: answerModel.url, apiKey: 'wrong-key', model: 'core' },
    });
    try {
      const reply = await postJson(broken, '/chat/completions', ask({ disable_search: true }));
      expect(reply.status).toBeGreaterThanOrEqual(500);
      expect(reply.body.choices).toBeUndefined();
    } finally {
      await broken.dispose();
    }
  });
});
