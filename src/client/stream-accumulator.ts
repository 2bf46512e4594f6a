/**
 * Turning a streamed chat completion back into the response a non-streamed call returns, while
 * handing text and sources to the caller as they arrive.
 */
import type {
  ChatCompletionResponse,
  ImageResult,
  SearchResult,
  UsageInfo,
} from '../protocol/index.js';
import { AbortError, ResponseShapeError, SvcError } from '../errors.js';
import { Stream } from './sse.js';
import type { ChatCompletionStreamEvent } from './resources/chat.js';

/** The sources known so far: `citations[n - 1]` is what an `[n]` marker refers to. */
export interface ChatStreamSources {
  search_results: SearchResult[];
  citations: string[];
}

/** Callbacks of {@link accumulateChatStream} and {@link ChatCompletionStream.finalCompletion}. */
export interface AccumulateOptions {
  /**
   * Called with each new piece of text of choice 0 and the text so far. With `stream_mode:
   * 'concise'`, the final message wins: when it extends the deltas, the rest arrives as one delta.
   */
  onDelta?: ((delta: string, snapshot: string) => void) | undefined;
  /**
   * Called whenever `search_results` or `citations` change (early, late or repeated lists are
   * merged first), so a caller can start visiting cited pages before the answer is complete.
   */
  onSources?: ((sources: ChatStreamSources) => void) | undefined;
  /** Called with every event, after it was merged. */
  onEvent?: ((event: ChatCompletionStreamEvent) => void) | undefined;
}

/** What one event changed, as returned by {@link ChatCompletionAccumulator.add}. */
export interface AccumulatorUpdate {
  /** New text of choice 0 (`''` when none). */
  delta: string;
  /** Whether `search_results` or `citations` changed. */
  sourcesChanged: boolean;
}

interface ChoiceState {
  role: string;
  content: string;
  parts: ContentPart[] | undefined;
  finishReason: string | null;
}

type ContentPart = { [key: string]: unknown; type: string };

type Keyed<T> = (item: T) => string;

/**
 * Merge a list that arrived in an event into the list known so far. A list holding every known
 * key is a full list and replaces ours (its order is what `[n]` markers index); otherwise its
 * new keys are appended, so pieces sent early, late or repeatedly keep their first position.
 */
function mergeList<T>(known: T[], incoming: readonly T[], key: Keyed<T>): T[] {
  const seen = new Set<string>();
  const unique = incoming.filter((item) => {
    const k = key(item);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
  if (known.every((item) => seen.has(key(item)))) return unique;
  const have = new Set(known.map(key));
  return [...known, ...unique.filter((item) => !have.has(key(item)))];
}

function sameKeys<T>(a: readonly T[], b: readonly T[], key: Keyed<T>): boolean {
  return a.length === b.length && a.every((item, i) => key(item) === key(b[i] as T));
}

const byUrl: Keyed<SearchResult> = (r) => r.url;
const byImage: Keyed<ImageResult> = (r) => r.image_url;
const asIs: Keyed<string> = (s) => s;

/**
 * Folds stream events, in order, into a {@link ChatCompletionResponse}. Handles both stream modes:
 * `full` (delta chunks carrying sources, `usage` on the last) and `concise` (deltas, then one
 * `chat.completion.done` event whose message and sources win). `usage` is the last non-null one,
 * so cumulative and once-only usage both end right; `finish_reason` is the last non-null per choice.
 * @example
 * const acc = new ChatCompletionAccumulator();
 * for await (const ev of stream) process.stdout.write(acc.add(ev).delta);
 * const completion = acc.result();
 */
export class ChatCompletionAccumulator {
  #id: string | undefined;
  #model: string | undefined;
  #created: number | undefined;
  #choices = new Map<number, ChoiceState>();
  #searchResults: SearchResult[] = [];
  #citations: string[] = [];
  #images: ImageResult[] | undefined;
  #related: string[] | undefined;
  #usage: UsageInfo | undefined;
  #events = 0;

  /** Number of events merged so far. */
  get eventCount(): number {
    return this.#events;
  }

  /** The text of choice 0 so far. */
  get text(): string {
    return this.#choices.get(0)?.content ?? '';
  }

  /** True once every choice seen has a `finish_reason`: the server ended the completion. */
  get finished(): boolean {
    return (
      this.#choices.size > 0 && [...this.#choices.values()].every((c) => c.finishReason !== null)
    );
  }

  /** The sources known so far (copies). */
  get sources(): ChatStreamSources {
    return { search_results: [...this.#searchResults], citations: [...this.#citations] };
  }

  /** Merge one event; returns what it changed. */
  add(event: ChatCompletionStreamEvent): AccumulatorUpdate {
    this.#events += 1;
    this.#id ??= event.id;
    this.#model ??= event.model;
    this.#created ??= event.created;
    const before = this.text;
    if (event.object === 'chat.completion.done') {
      for (const choice of event.choices) {
        const state = this.#choice(choice.index);
        // The concise final event carries the whole message: it replaces the deltas.
        state.role = choice.message.role;
        setContent(state, choice.message.content);
        if (choice.finish_reason != null) state.finishReason = choice.finish_reason;
      }
    } else {
      for (const choice of event.choices) {
        const state = this.#choice(choice.index);
        const delta = choice.delta;
        if (typeof delta.role === 'string' && delta.role !== '') state.role = delta.role;
        appendContent(state, delta.content);
        if (choice.finish_reason != null) state.finishReason = choice.finish_reason;
      }
    }
    const sourcesChanged = this.#mergeSources(event, event.object === 'chat.completion.done');
    if (event.usage != null) this.#usage = event.usage;
    if (event.images != null) this.#images = mergeList(this.#images ?? [], event.images, byImage);
    if (event.related_questions != null) {
      this.#related = mergeList(this.#related ?? [], event.related_questions, asIs);
    }
    const after = this.text;
    return { delta: after.startsWith(before) ? after.slice(before.length) : '', sourcesChanged };
  }

  /**
   * The completion so far, shaped like a non-streamed response.
   * @throws {ResponseShapeError} when no event was merged (the stream carried no completion).
   */
  result(): ChatCompletionResponse {
    if (this.#id === undefined || this.#model === undefined || this.#created === undefined) {
      throw new ResponseShapeError('Stream ended without any completion event');
    }
    const choices = [...this.#choices.entries()]
      .sort(([a], [b]) => a - b)
      .map(([index, s]) => ({
        index,
        finish_reason: s.finishReason,
        message: { role: s.role, content: s.parts ?? s.content },
        delta: { role: s.role, content: '' },
      }));
    const out: ChatCompletionResponse = {
      id: this.#id,
      model: this.#model,
      created: this.#created,
      object: 'chat.completion',
      choices,
      usage: this.#usage ?? null,
      citations: [...this.#citations],
      search_results: [...this.#searchResults],
    };
    if (this.#images !== undefined) out.images = [...this.#images];
    if (this.#related !== undefined) out.related_questions = [...this.#related];
    return out;
  }

  #choice(index: number): ChoiceState {
    let state = this.#choices.get(index);
    if (state === undefined) {
      state = { role: 'assistant', content: '', parts: undefined, finishReason: null };
      this.#choices.set(index, state);
    }
    return state;
  }

  #mergeSources(event: ChatCompletionStreamEvent, authoritative: boolean): boolean {
    const results = event.search_results;
    const citations = event.citations;
    const nextResults =
      results == null || results.length === 0
        ? this.#searchResults
        : authoritative
          ? mergeList([], results, byUrl)
          : mergeList(this.#searchResults, results, byUrl);
    const nextCitations =
      citations == null || citations.length === 0
        ? this.#citations
        : authoritative
          ? mergeList([], citations, asIs)
          : mergeList(this.#citations, citations, asIs);
    const changed =
      !sameKeys(nextResults, this.#searchResults, byUrl) ||
      !sameKeys(nextCitations, this.#citations, asIs);
    this.#searchResults = nextResults;
    this.#citations = nextCitations;
    return changed;
  }
}

function appendContent(state: ChoiceState, content: unknown): void {
  if (typeof content === 'string') {
    if (state.parts !== undefined) state.parts.push({ type: 'text', text: content });
    else state.content += content;
  } else if (Array.isArray(content)) {
    // Structured deltas (content chunks): keep them as an array, text still readable via .text.
    state.parts ??= state.content === '' ? [] : [{ type: 'text', text: state.content }];
    for (const part of content as ContentPart[]) {
      state.parts.push(part);
      if (part.type === 'text' && typeof part['text'] === 'string') state.content += part['text'];
    }
  }
}

function setContent(state: ChoiceState, content: unknown): void {
  state.parts = undefined;
  state.content = '';
  appendContent(state, content);
}

/**
 * Read a chat stream to the end and return the completion a non-streamed call would have
 * returned, calling `onDelta` / `onSources` on the way.
 * @throws {ResponseShapeError} when the stream carried no completion event.
 * @throws what the stream throws ({@link ConnectionError}, {@link TimeoutError}, {@link APIError}, ...).
 * @example
 * const stream = await client.chat.completions.create({ model: 'core', messages, stream: true });
 * const completion = await accumulateChatStream(stream, { onSources: (s) => prefetch(s.citations) });
 */
export async function accumulateChatStream(
  stream: AsyncIterable<ChatCompletionStreamEvent>,
  options: AccumulateOptions = {},
): Promise<ChatCompletionResponse> {
  const acc = new ChatCompletionAccumulator();
  for await (const event of stream) notify(options, acc, acc.add(event), event);
  return acc.result();
}

function notify(
  options: AccumulateOptions,
  acc: ChatCompletionAccumulator,
  update: AccumulatorUpdate,
  event: ChatCompletionStreamEvent,
): void {
  if (update.sourcesChanged) options.onSources?.(acc.sources);
  if (update.delta !== '') options.onDelta?.(update.delta, acc.text);
  options.onEvent?.(event);
}

type Outcome = { ok: true } | { ok: false; error: unknown };

/**
 * The stream `chat.completions.create({ stream: true })` returns: a {@link Stream} of events that
 * also folds them into the final completion as they pass, whoever iterates it.
 * @example
 * const stream = await client.chat.completions.create({ model: 'core', messages, stream: true });
 * for await (const text of stream.textDeltas()) process.stdout.write(text);
 * const { citations } = await stream.finalCompletion();
 */
export class ChatCompletionStream extends Stream<ChatCompletionStreamEvent> {
  readonly #acc = new ChatCompletionAccumulator();
  readonly #listeners: AccumulateOptions[] = [];
  readonly #final: Promise<ChatCompletionResponse>;
  #settle: (outcome: Outcome) => void = () => undefined;
  #started = false;

  /** Wrap a stream of chat events; iterate the wrapper, not `inner`. */
  constructor(inner: Stream<ChatCompletionStreamEvent>) {
    // The generator needs `this`, which exists only after super(): hand super a late-bound thunk.
    const box: { run?: () => AsyncGenerator<ChatCompletionStreamEvent, void, undefined> } = {};
    super(() => box.run!(), inner.controller);
    box.run = () => {
      this.#started = true;
      return this.#run(inner);
    };
    const ended = new Promise<Outcome>((resolve) => (this.#settle = resolve));
    this.#final = ended.then((outcome) => {
      if (!outcome.ok) throw outcome.error;
      return this.#acc.result();
    });
    // Nobody may ask for the final completion: an early break must not become an unhandled rejection.
    this.#final.catch(() => undefined);
  }

  /** The completion so far (text, sources, usage), readable at any point of the iteration. */
  get snapshot(): ChatCompletionAccumulator {
    return this.#acc;
  }

  /**
   * The completion once the stream has ended. Reads the stream itself when nobody has started
   * iterating it by the next turn of the event loop; otherwise waits for the loop that does.
   * Callbacks apply to the events still to come. After an abort, rejects unless the events that
   * arrived had already finished every choice.
   * @throws {SvcError} when the iterating loop stopped before the end.
   * @throws {ResponseShapeError} when the stream carried no completion event.
   * @throws what the stream throws ({@link ConnectionError}, {@link TimeoutError}, ...).
   */
  async finalCompletion(options: AccumulateOptions = {}): Promise<ChatCompletionResponse> {
    this.#listeners.push(options);
    // Give a loop started right after this call (`const p = s.finalCompletion(); for await
    // (const t of s.textDeltas())`) the chance to drive the stream before we drive it here.
    await new Promise<void>((resolve) => setImmediate(resolve));
    if (!this.#started) {
      for await (const event of this) void event;
    }
    return this.#final;
  }

  /**
   * An async iterator of the new text of choice 0, driving the stream; sources stay readable on
   * {@link ChatCompletionStream.snapshot} and through `finalCompletion()` afterwards.
   * @throws {SvcError} when the stream was already iterated.
   */
  async *textDeltas(): AsyncGenerator<string, void, undefined> {
    let previous = '';
    for await (const event of this) {
      void event;
      const text = this.#acc.text;
      // A concise final message that rewrites the deltas has no delta form: skip it.
      if (text.length > previous.length && text.startsWith(previous)) {
        yield text.slice(previous.length);
      }
      previous = text;
    }
  }

  async *#run(
    inner: Stream<ChatCompletionStreamEvent>,
  ): AsyncGenerator<ChatCompletionStreamEvent, void, undefined> {
    let finished = false;
    try {
      for await (const event of inner) {
        const update = this.#acc.add(event);
        for (const listener of this.#listeners) notify(listener, this.#acc, update, event);
        yield event;
      }
      finished = true;
      // An aborted Stream ends quietly; unless the events buffered before the abort already
      // finished every choice, the completion is partial and the final promise says so.
      this.#settle(
        inner.controller.signal.aborted && !this.#acc.finished
          ? { ok: false, error: new AbortError('Stream aborted before its end') }
          : { ok: true },
      );
    } catch (error) {
      finished = true;
      this.#settle({ ok: false, error });
      throw error;
    } finally {
      if (!finished) {
        this.#settle({
          ok: false,
          error: new SvcError('Stream closed before its end: the completion is incomplete'),
        });
      }
    }
  }
}
