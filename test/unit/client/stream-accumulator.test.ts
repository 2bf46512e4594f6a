import { describe, expect, it } from 'vitest';
import { AbortError, ResponseShapeError, SvcError } from '../../../src/errors.js';
import type {
  ChatCompletionChunk,
  ChatCompletionDoneEvent,
  SearchResult,
  UsageInfo,
} from '../../../src/protocol/index.js';
import type { ChatCompletionStreamEvent } from '../../../src/client/resources/chat.js';
import { Stream } from '../../../src/client/sse.js';
import {
  accumulateChatStream,
  ChatCompletionAccumulator,
  ChatCompletionStream,
} from '../../../src/client/stream-accumulator.js';
import type { ChatStreamSources } from '../../../src/client/stream-accumulator.js';

const result = (url: string, title = url): SearchResult => ({
  title,
  url,
  snippet: `about ${url}`,
  source: 'web',
});
const usage = (completion: number): UsageInfo => ({
  prompt_tokens: 10,
  completion_tokens: completion,
  total_tokens: 10 + completion,
  cost: { input_tokens_cost: 0, output_tokens_cost: 0, total_cost: 0 },
});
const chunk = (
  content: string | undefined,
  extra: Partial<ChatCompletionChunk> = {},
  finish: string | null = null,
): ChatCompletionChunk => ({
  id: 'c1',
  model: 'core',
  created: 7,
  object: 'chat.completion.chunk',
  choices: [{ index: 0, delta: content === undefined ? {} : { content }, finish_reason: finish }],
  ...extra,
});
const done = (
  content: string,
  extra: Partial<ChatCompletionDoneEvent> = {},
): ChatCompletionDoneEvent => ({
  id: 'c1',
  model: 'core',
  created: 7,
  object: 'chat.completion.done',
  choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content } }],
  ...extra,
});

async function* events(
  list: ChatCompletionStreamEvent[],
): AsyncGenerator<ChatCompletionStreamEvent> {
  for (const ev of list) {
    await Promise.resolve();
    yield ev;
  }
}

function stream(list: ChatCompletionStreamEvent[]): ChatCompletionStream {
  return new ChatCompletionStream(new Stream(() => events(list), new AbortController()));
}

describe('accumulateChatStream', () => {
  it('joins full-mode deltas and keeps finish_reason and the last usage', async () => {
    const out = await accumulateChatStream(
      events([
        chunk('', { choices: [{ index: 0, delta: { role: 'assistant', content: '' } }] }),
        chunk('Hello ', { usage: usage(1) }),
        chunk('world [1].', { usage: usage(2) }),
        chunk(undefined, { usage: usage(3) }, 'stop'),
      ]),
    );
    expect(out.choices[0]?.message).toEqual({ role: 'assistant', content: 'Hello world [1].' });
    expect(out.choices[0]?.finish_reason).toBe('stop');
    expect(out.usage?.completion_tokens).toBe(3);
    expect(out).toMatchObject({ id: 'c1', model: 'core', created: 7, object: 'chat.completion' });
  });

  it('keeps usage sent once early even when later chunks carry none', async () => {
    const out = await accumulateChatStream(
      events([chunk('a', { usage: usage(5) }), chunk('b', { usage: null }), chunk('c')]),
    );
    expect(out.usage?.total_tokens).toBe(15);
  });

  it('keeps sources that arrive late, repeated or in pieces, deduped in first-seen order', async () => {
    const seen: ChatStreamSources[] = [];
    const out = await accumulateChatStream(
      events([
        chunk('x'),
        chunk('y', { search_results: [result('a'), result('b')], citations: ['a', 'b'] }),
        chunk('z', { search_results: [result('b'), result('c')], citations: ['b', 'c', 'c'] }),
        chunk('!', { search_results: [result('a')], citations: ['a'] }),
      ]),
      { onSources: (s) => seen.push(s) },
    );
    expect(out.citations).toEqual(['a', 'b', 'c']);
    expect(out.search_results?.map((r) => r.url)).toEqual(['a', 'b', 'c']);
    // The repeated subset at the end changed nothing, so it fired no callback.
    expect(seen.map((s) => s.citations)).toEqual([
      ['a', 'b'],
      ['a', 'b', 'c'],
    ]);
  });

  it('lets a later full list replace a shorter one, in the full list order', async () => {
    const out = await accumulateChatStream(
      events([
        chunk('x', { citations: ['b'] }),
        chunk('y', { citations: ['a', 'b', 'c'], search_results: [result('a'), result('b')] }),
      ]),
    );
    expect(out.citations).toEqual(['a', 'b', 'c']);
  });

  it('lets the concise done event win over the deltas, sources included', async () => {
    const deltas: string[] = [];
    const out = await accumulateChatStream(
      events([
        chunk('Par'),
        chunk('tial'),
        done('Partial answer [1].', {
          search_results: [result('u1')],
          citations: ['u1'],
          usage: usage(4),
        }),
      ]),
      { onDelta: (d) => deltas.push(d) },
    );
    expect(out.choices[0]?.message.content).toBe('Partial answer [1].');
    expect(out.citations).toEqual(['u1']);
    expect(out.usage?.completion_tokens).toBe(4);
    expect(deltas.join('')).toBe('Partial answer [1].');
  });

  it('takes the done message even when it rewrites the streamed text', async () => {
    const out = await accumulateChatStream(events([chunk('draft'), done('final text')]));
    expect(out.choices[0]?.message.content).toBe('final text');
  });

  it('folds several choices by index', async () => {
    const out = await accumulateChatStream(
      events([
        chunk('a', {
          choices: [
            { index: 1, delta: { content: 'B' } },
            { index: 0, delta: { content: 'a' } },
          ],
        }),
        chunk('', {
          choices: [
            { index: 1, delta: { content: 'b' }, finish_reason: 'length' },
            { index: 0, delta: {}, finish_reason: 'stop' },
          ],
        }),
      ]),
    );
    expect(out.choices.map((c) => [c.index, c.message.content, c.finish_reason])).toEqual([
      [0, 'a', 'stop'],
      [1, 'Bb', 'length'],
    ]);
  });

  it('throws ResponseShapeError for a stream without events', async () => {
    await expect(accumulateChatStream(events([]))).rejects.toBeInstanceOf(ResponseShapeError);
  });
});

describe('ChatCompletionAccumulator', () => {
  it('reports each delta and whether the sources changed', () => {
    const acc = new ChatCompletionAccumulator();
    expect(acc.add(chunk('a', { citations: ['u'] }))).toEqual({
      delta: 'a',
      sourcesChanged: true,
    });
    expect(acc.add(chunk('b', { citations: ['u'] }))).toEqual({
      delta: 'b',
      sourcesChanged: false,
    });
    expect(acc.text).toBe('ab');
    expect(acc.eventCount).toBe(2);
  });
});

describe('ChatCompletionStream', () => {
  it('finalCompletion reads the stream when nobody iterates it', async () => {
    const s = stream([chunk('a', { citations: ['u'] }), chunk('b', {}, 'stop')]);
    const out = await s.finalCompletion();
    expect(out.choices[0]?.message.content).toBe('ab');
    expect(out.citations).toEqual(['u']);
  });

  it('finalCompletion after a full for-await returns what the loop saw', async () => {
    const s = stream([chunk('a'), chunk('b')]);
    const objects: string[] = [];
    for await (const ev of s) objects.push(ev.object);
    expect(objects).toHaveLength(2);
    expect((await s.finalCompletion()).choices[0]?.message.content).toBe('ab');
  });

  it('textDeltas yields only new text and sources are readable mid-stream', async () => {
    const s = stream([
      chunk('Hel', { citations: ['u1'] }),
      chunk('lo', { citations: ['u1', 'u2'] }),
      done('Hello'),
    ]);
    const pieces: string[] = [];
    const citationsSeen: number[] = [];
    for await (const t of s.textDeltas()) {
      pieces.push(t);
      citationsSeen.push(s.snapshot.sources.citations.length);
    }
    expect(pieces).toEqual(['Hel', 'lo']);
    expect(citationsSeen).toEqual([1, 2]);
    expect((await s.finalCompletion()).citations).toEqual(['u1', 'u2']);
  });

  it('finalCompletion asked before a textDeltas loop waits for that loop instead of racing it', async () => {
    const s = stream([chunk('a', { citations: ['u'] }), chunk('b'), chunk('', {}, 'stop')]);
    const deltas: string[] = [];
    const final = s.finalCompletion({ onDelta: (d) => deltas.push(d) });
    const again = s.finalCompletion();
    const pieces: string[] = [];
    for await (const t of s.textDeltas()) pieces.push(t);
    expect(pieces).toEqual(['a', 'b']);
    expect(deltas).toEqual(['a', 'b']);
    expect((await final).choices[0]?.finish_reason).toBe('stop');
    expect(await again).toEqual(await final);
  });

  it('finalCompletion rejects when the loop broke out early', async () => {
    const s = stream([chunk('a'), chunk('b'), chunk('c')]);
    for await (const ev of s) {
      void ev;
      break;
    }
    await expect(s.finalCompletion()).rejects.toBeInstanceOf(SvcError);
  });

  it('finalCompletion rejects with AbortError when the stream was aborted', async () => {
    const controller = new AbortController();
    const s = new ChatCompletionStream(
      new Stream(async function* () {
        yield chunk('a');
        controller.abort();
      }, controller),
    );
    await expect(s.finalCompletion()).rejects.toBeInstanceOf(AbortError);
  });
});
