import type { ChatCompletionRequestParsed } from '../../../protocol/index.js';
import type { Passage } from './compose.js';
import { Upstream } from '../../errors.js';

/** An OpenAI-compatible chat endpoint that writes answers from the numbered sources. */
export interface LlmConfig {
  /** e.g. `http://127.0.0.1:11434/v1` (the path `/chat/completions` is appended). */
  baseUrl: string;
  apiKey?: string | undefined;
  model: string;
  /** @default 120_000 */
  timeoutMs?: number;
}

/** Reads `SVC_LLM_BASE_URL`, `SVC_LLM_API_KEY`, `SVC_LLM_MODEL` (default `core`). */
export function llmConfigFromEnv(env: NodeJS.ProcessEnv = process.env): LlmConfig | undefined {
  if (!env.SVC_LLM_BASE_URL) return undefined;
  return {
    baseUrl: env.SVC_LLM_BASE_URL,
    apiKey: env.SVC_LLM_API_KEY,
    model: env.SVC_LLM_MODEL ?? 'core',
  };
}

/** The grounded system prompt: numbered sources, cite with [n], say so when they don't answer. */
export function groundedPrompt(passages: readonly Passage[]): string {
  const sources = passages
    .map((p, i) => `[${i + 1}] ${p.title} (${p.url})\n${p.text.slice(0, 4000)}`)
    .join('\n\n');
  return (
    'Answer the user only from the numbered sources below. After each sentence, cite the source it ' +
    'comes from as [n]. If the sources do not answer the question, say so.\n\nSources:\n\n' +
    (sources || '(none)')
  );
}

/**
 * Streams the answer of the external model (`stream: true`), yielding content deltas. The server
 * never imports the client, so this reads the SSE lines itself.
 * @throws Upstream when the model endpoint fails, answers an error status or its stream breaks
 * (the message names no address; the cause has the details)
 */
export async function* streamLlmAnswer(
  config: LlmConfig,
  request: ChatCompletionRequestParsed,
  passages: readonly Passage[],
  signal?: AbortSignal,
): AsyncGenerator<string> {
  try {
    yield* readLlmStream(config, request, passages, signal);
  } catch (error) {
    // The caller hung up: not the model's failure.
    if (signal?.aborted || error instanceof Upstream) throw error;
    throw new Upstream('Answer model failed: its stream broke off', {
      code: 'upstream_error',
      cause: error,
    });
  }
}

async function* readLlmStream(
  config: LlmConfig,
  request: ChatCompletionRequestParsed,
  passages: readonly Passage[],
  signal?: AbortSignal,
): AsyncGenerator<string> {
  const url = `${config.baseUrl.replace(/\/+$/, '')}/chat/completions`;
  const timeout = AbortSignal.timeout(config.timeoutMs ?? 120_000);
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'text/event-stream',
      ...(config.apiKey && { authorization: `Bearer ${config.apiKey}` }),
    },
    body: JSON.stringify({
      model: config.model,
      stream: true,
      messages: [{ role: 'system', content: groundedPrompt(passages) }, ...request.messages],
      ...(request.temperature != null && { temperature: request.temperature }),
      ...(request.top_p != null && { top_p: request.top_p }),
    }),
    signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
  });
  if (!response.ok || !response.body) {
    // The message names no address: the endpoint is the server's business, not the caller's.
    throw new Upstream(`Answer model failed: it answered HTTP ${response.status}`, {
      code: 'upstream_error',
      cause: new Error(`POST ${url}: HTTP ${response.status}`),
    });
  }
  const decoder = new TextDecoder();
  let buffer = '';
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    buffer += decoder.decode(value, { stream: true });
    let nl: number;
    while ((nl = buffer.indexOf('\n')) !== -1) {
      const line = buffer.slice(0, nl).replace(/\r$/, '');
      buffer = buffer.slice(nl + 1);
      if (!line.startsWith('data:')) continue;
      const data = line.slice(5).trim();
      if (data === '[DONE]') {
        await reader.cancel();
        return;
      }
      const event = JSON.parse(data) as { choices?: { delta?: { content?: string | null } }[] };
      const delta = event.choices?.[0]?.delta?.content;
      if (delta) yield delta;
    }
  }
}
