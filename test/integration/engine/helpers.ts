// Shared set-up for the engine integration tests: a real embedded server over the fixture corpus,
// plain `fetch` calls with the bearer key, and a raw SSE reader (what a generic OpenAI-compatible
// client does), so these tests depend on nothing but HTTP.
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { startTestServer } from '../../support/server.js';
import type { TestServer } from '../../support/server.js';
import type { ServerOptions } from '../../../src/server/index.js';

/** The fixture corpus directory (12 web pages, notes, a report, two broken files). */
export const CORPUS = fileURLToPath(new URL('../../fixtures/corpus/', import.meta.url));

/** The clock of corpus tests: the recycling-plant article was published this morning (06:30 UTC). */
export const NOW = Date.parse('2025-06-15T12:00:00Z');

/** A started server with the whole fixture corpus indexed. */
export async function corpusServer(options: ServerOptions = {}): Promise<TestServer> {
  const server = await startTestServer({ clock: () => NOW, ...options });
  const report = await server.engines.index.indexPaths([CORPUS]);
  // The two broken files fail on their own; everything else must be searchable.
  expect(report.failed).toHaveLength(2);
  return server;
}

/** Parsed JSON a test inspects field by field; the assertions are its type check. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = any;

/** A JSON response: status and parsed body. */
export interface JsonReply<T = Json> {
  status: number;
  body: T;
  headers: Headers;
}

/** POSTs `body` as JSON with the server's bearer key (or `key`). */
export async function postJson<T = Json>(
  server: { url: string; apiKey: string | undefined },
  path: string,
  body: unknown,
  key = server.apiKey,
): Promise<JsonReply<T>> {
  const res = await fetch(server.url + path, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as T, headers: res.headers };
}

/** GETs `path` with the server's bearer key (or `key`) and parses JSON. */
export async function getJson<T = Json>(
  server: { url: string; apiKey: string | undefined },
  path: string,
  key = server.apiKey,
): Promise<JsonReply<T>> {
  const res = await fetch(server.url + path, { headers: { authorization: `Bearer ${key}` } });
  return { status: res.status, body: (await res.json()) as T, headers: res.headers };
}

/** The `loc` of every 422 issue. */
export function locs(reply: JsonReply): unknown[][] {
  expect(reply.status).toBe(422);
  return (reply.body as { detail: { loc: unknown[] }[] }).detail.map((d) => d.loc);
}

/** A raw SSE stream: every `data:` payload in order, and the content type. */
export interface SseReply {
  status: number;
  contentType: string;
  /** `data:` payloads, `[DONE]` included, unparsed. */
  data: string[];
  /** Milliseconds from sending the request to the first byte of the body. */
  firstByteMs: number;
}

/** POSTs a streaming chat request and reads the whole event stream by hand. */
export async function postSse(
  server: { url: string; apiKey: string | undefined },
  body: unknown,
): Promise<SseReply> {
  const started = performance.now();
  const res = await fetch(`${server.url}/chat/completions`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${server.apiKey}`,
      'content-type': 'application/json',
      accept: 'text/event-stream',
    },
    body: JSON.stringify(body),
  });
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  let firstByteMs = -1;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (firstByteMs < 0) firstByteMs = performance.now() - started;
    text += decoder.decode(value, { stream: true });
  }
  const data: string[] = [];
  for (const event of text.split(/\r?\n\r?\n/)) {
    const lines = event.split(/\r?\n/).filter((l) => l.startsWith('data:'));
    if (lines.length > 0) data.push(lines.map((l) => l.slice(5).replace(/^ /, '')).join('\n'));
  }
  return {
    status: res.status,
    contentType: res.headers.get('content-type') ?? '',
    data,
    firstByteMs,
  };
}

/** Text of an HTML page without tags, entities decoded, whitespace collapsed. */
export function pageText(html: string): string {
  return html
    .replace(/<script[\s\S]*?<\/script>|<style[\s\S]*?<\/style>/gi, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#x([0-9a-f]+);/gi, (_, h: string) => String.fromCodePoint(parseInt(h, 16)))
    .replace(/&#(\d+);/g, (_, d: string) => String.fromCodePoint(Number(d)))
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&nbsp;/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Whitespace collapsed, for comparing passages with page text. */
export const squash = (s: string): string => s.replace(/\s+/g, ' ').trim();

/** GETs a `/docs/...` (or any) URL without credentials, as a browser would. */
export async function openUrl(
  url: string,
): Promise<{ status: number; type: string; html: string }> {
  const res = await fetch(url);
  return {
    status: res.status,
    type: res.headers.get('content-type') ?? '',
    html: await res.text(),
  };
}
