// Type tests: `expectTypeOf` is a no-op at run time; `npm run typecheck` (tsc) checks every line,
// and every `@ts-expect-error` fails the typecheck when the line it guards starts compiling.
import type { Page as PlaywrightPage } from 'playwright-core';
import type { Page as PuppeteerPage } from 'puppeteer-core';
import { afterAll, describe, expectTypeOf, it } from 'vitest';
import {
  Client,
  CLIENT_DEFAULTS,
  connect,
  countTokens,
  decodeBinary,
  decodeInt8,
  ERROR_CODES,
  parseSSE,
  POLL_DEFAULTS,
  readClientEnv,
  unpackBits,
  accumulateChatStream,
  findPassage,
  fullPageScreenshot,
  readPage,
  textFragmentUrl,
  visit,
} from '../../../src/index.js';
import type {
  AsyncChatJob,
  AsyncChatListResponse,
  BrowserSession,
  BrowserSessionCreateRequest,
  BrowserSessionListResponse,
  ChatCompletionChunk,
  ChatCompletionCreateParamsNonStreaming,
  ChatCompletionCreateParamsStreaming,
  ChatCompletionDoneEvent,
  ChatCompletionRequest,
  ChatCompletionResponse,
  ChatCompletionStreamEvent,
  ChatMessage,
  ChatModel,
  ClientEnv,
  ClientOptions,
  Connection,
  ConnectOptions,
  ContextualizedEmbeddingsRequest,
  ContextualizedEmbeddingsResponse,
  Cost,
  EmbeddingsRequest,
  EmbeddingsResponse,
  ErrorCode,
  ImageResult,
  Logger,
  PollOptions,
  RequestOptions,
  SearchRequest,
  SearchResponse,
  SearchResult,
  SessionErrorReason,
  SSEEvent,
  UsageInfo,
  ValidationIssue,
  ChatStreamSources,
  DriverName,
  ProviderName,
  SessionManagerOptions,
  AnyPage,
  VisitResult,
  ReadPageResult,
  PageLink,
  PageMetadata,
  PassageMatch,
  EmbedFn,
  MatchMethod,
  FullPageResult,
  Har,
  AbortError,
  APIError,
  AuthenticationError,
  NotFoundError,
  RateLimitError,
  SessionError,
  Stream,
  SvcError,
  TimeoutError,
  ValidationError,
} from '../../../src/index.js';
import type {
  AccumulateOptions,
  FinishedAsyncChatJob,
  ChatCompletionStream,
} from '../../../src/index.js';

// Never sends anything: these tests only look at types.
const client = new Client({ apiKey: 'sk-types-only', baseURL: 'http://127.0.0.1:9' });
const messages: ChatMessage[] = [{ role: 'user', content: 'What is CDP?' }];
afterAll(() => client.close());

describe('chat.completions.create overloads', () => {
  it('returns a ChatCompletionStream (a Stream of events) for stream: true', () => {
    const call = () => client.chat.completions.create({ model: 'core', messages, stream: true });
    expectTypeOf(call).returns.resolves.toEqualTypeOf<ChatCompletionStream>();
    expectTypeOf(call).returns.resolves.toExtend<Stream<ChatCompletionStreamEvent>>();
    expectTypeOf(call).returns.resolves.toExtend<AsyncIterable<ChatCompletionStreamEvent>>();
  });

  it('returns Promise<ChatCompletionResponse> without stream, or with stream false or null', () => {
    const plain = () => client.chat.completions.create({ model: 'core', messages });
    const off = () => client.chat.completions.create({ model: 'core', messages, stream: false });
    const nil = () => client.chat.completions.create({ model: 'core', messages, stream: null });
    expectTypeOf(plain).returns.toEqualTypeOf<Promise<ChatCompletionResponse>>();
    expectTypeOf(off).returns.toEqualTypeOf<Promise<ChatCompletionResponse>>();
    expectTypeOf(nil).returns.toEqualTypeOf<Promise<ChatCompletionResponse>>();
  });

  it('returns the union when stream is only known as boolean', () => {
    const flag = Math.random() > 0.5;
    const call = () => client.chat.completions.create({ model: 'core', messages, stream: flag });
    expectTypeOf(call).returns.resolves.toEqualTypeOf<
      ChatCompletionResponse | ChatCompletionStream
    >();
  });

  it('types the streaming params and discriminates stream events on object', () => {
    expectTypeOf<ChatCompletionCreateParamsStreaming['stream']>().toEqualTypeOf<true>();
    expectTypeOf<ChatCompletionCreateParamsNonStreaming>().toExtend<ChatCompletionRequest>();
    expectTypeOf<ChatCompletionStreamEvent>().toEqualTypeOf<
      ChatCompletionChunk | ChatCompletionDoneEvent
    >();
    const narrow = (ev: ChatCompletionStreamEvent) =>
      ev.object === 'chat.completion.done' ? ev.choices[0]?.message : ev.choices[0]?.delta;
    expectTypeOf(narrow).returns.not.toBeAny();
    expectTypeOf<ChatCompletionChunk['object']>().toEqualTypeOf<'chat.completion.chunk'>();
    expectTypeOf<ChatCompletionDoneEvent['object']>().toEqualTypeOf<'chat.completion.done'>();
  });

  it('types the accumulator and the stream helpers', () => {
    expectTypeOf(accumulateChatStream).returns.toEqualTypeOf<Promise<ChatCompletionResponse>>();
    expectTypeOf(accumulateChatStream)
      .parameter(0)
      .toEqualTypeOf<AsyncIterable<ChatCompletionStreamEvent>>();
    expectTypeOf<ChatCompletionStream['finalCompletion']>().returns.toEqualTypeOf<
      Promise<ChatCompletionResponse>
    >();
    expectTypeOf<ChatCompletionStream['textDeltas']>().returns.toExtend<AsyncIterable<string>>();
    expectTypeOf<NonNullable<AccumulateOptions['onSources']>>()
      .parameter(0)
      .toEqualTypeOf<ChatStreamSources>();
    expectTypeOf<ChatStreamSources['citations']>().toEqualTypeOf<string[]>();
  });
});

describe('request params types', () => {
  it('ChatCompletionRequest accepts valid bodies and rejects invalid ones', () => {
    const ok: ChatCompletionRequest = {
      model: 'core-pro',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: [{ type: 'text', text: 'hi' }] },
      ],
      stream_mode: 'concise',
      search_domain_filter: ['example.com', '-spam.com'],
      web_search_options: { search_context_size: 'high' },
      response_format: { type: 'json_schema', json_schema: { schema: { type: 'object' } } },
    };
    expectTypeOf(ok).toExtend<ChatCompletionRequest>();
    // @ts-expect-error model must be one of the chat models
    const badModel: ChatCompletionRequest = { model: 'gpt-4', messages };
    const badRole: ChatCompletionRequest = {
      model: 'core',
      // @ts-expect-error role must be system, user, assistant or tool
      messages: [{ role: 'bot', content: 'x' }],
    };
    // @ts-expect-error messages is required
    const noMessages: ChatCompletionRequest = { model: 'core' };
    // @ts-expect-error stream_mode is full or concise
    const badMode: ChatCompletionRequest = { model: 'core', messages, stream_mode: 'short' };
    void [badModel, badRole, noMessages, badMode];
    expectTypeOf<ChatModel>().toEqualTypeOf<
      'core' | 'core-pro' | 'core-deep-research' | 'core-reasoning-pro'
    >();
  });

  it('SearchRequest accepts one or several queries and rejects other shapes', () => {
    const one: SearchRequest = { query: 'sqlite fts5', max_results: 5, country: 'US' };
    const many: SearchRequest = { query: ['a', 'b'], search_recency_filter: 'week' };
    void [one, many];
    // @ts-expect-error query is required
    const none: SearchRequest = { max_results: 3 };
    // @ts-expect-error max_results is a number
    const badMax: SearchRequest = { query: 'q', max_results: '5' };
    // @ts-expect-error search_recency_filter is hour, day, week, month or year
    const badRecency: SearchRequest = { query: 'q', search_recency_filter: 'decade' };
    void [none, badMax, badRecency];
  });

  it('EmbeddingsRequest and ContextualizedEmbeddingsRequest accept their models and input shapes', () => {
    const e: EmbeddingsRequest = { model: 'svc-embed-v1-0.6b', input: ['a', 'b'], dimensions: 256 };
    const c: ContextualizedEmbeddingsRequest = {
      model: 'svc-embed-context-v1-0.6b',
      input: [['intro', 'body']],
      encoding_format: 'base64_binary',
    };
    void [e, c];
    // @ts-expect-error a contextualized model is not a standard embedding model
    const wrongModel: EmbeddingsRequest = { model: 'svc-embed-context-v1-0.6b', input: 'a' };
    const badFormat: EmbeddingsRequest = {
      model: 'svc-embed-v1-4b',
      input: 'a',
      // @ts-expect-error encoding_format is base64_int8 or base64_binary
      encoding_format: 'float',
    };
    const flat: ContextualizedEmbeddingsRequest = {
      model: 'svc-embed-context-v1-0.6b',
      // @ts-expect-error contextualized input is documents of chunks, not flat texts
      input: ['a'],
    };
    void [wrongModel, badFormat, flat];
  });

  it('BrowserSessionCreateRequest accepts {} and typed options, rejects unknown types', () => {
    const empty: BrowserSessionCreateRequest = {};
    const full: BrowserSessionCreateRequest = {
      idle_timeout_s: 60,
      viewport: { width: 1280, height: 720 },
      tags: ['ci'],
    };
    void [empty, full];
    // @ts-expect-error idle_timeout_s is a number of seconds
    const badIdle: BrowserSessionCreateRequest = { idle_timeout_s: '60s' };
    // @ts-expect-error viewport needs width and height
    const badViewport: BrowserSessionCreateRequest = { viewport: { width: 800 } };
    void [badIdle, badViewport];
  });

  it('async create and revoke params are typed through the resource methods', () => {
    expectTypeOf(client.async.chat.completions.create).toBeCallableWith({
      request: { model: 'core-deep-research', messages },
      idempotency_key: 'k1',
    });
    expectTypeOf(client.async.chat.completions.create).toBeCallableWith({
      // @ts-expect-error the async body wraps the chat request in `request`
      model: 'core',
      messages,
    });
    expectTypeOf(client.auth.revokeToken).toBeCallableWith({ auth_token: 'sk-old' });
    // @ts-expect-error auth_token is required
    expectTypeOf(client.auth.revokeToken).toBeCallableWith({});
  });
});

describe('resource return types', () => {
  it('each resource resolves to its response type', () => {
    expectTypeOf(client.search.create).returns.toEqualTypeOf<Promise<SearchResponse>>();
    expectTypeOf(client.embeddings.create).returns.toEqualTypeOf<Promise<EmbeddingsResponse>>();
    expectTypeOf(client.contextualizedEmbeddings.create).returns.toEqualTypeOf<
      Promise<ContextualizedEmbeddingsResponse>
    >();
    expectTypeOf(client.browser.sessions.create).returns.toEqualTypeOf<Promise<BrowserSession>>();
    expectTypeOf(client.browser.sessions.get).returns.toEqualTypeOf<Promise<BrowserSession>>();
    expectTypeOf(client.browser.sessions.list).returns.toEqualTypeOf<
      Promise<BrowserSessionListResponse>
    >();
    expectTypeOf(client.browser.sessions.delete).returns.toEqualTypeOf<Promise<void>>();
    expectTypeOf(client.async.chat.completions.get).returns.toEqualTypeOf<Promise<AsyncChatJob>>();
    expectTypeOf(client.async.chat.completions.list).returns.toEqualTypeOf<
      Promise<AsyncChatListResponse>
    >();
    expectTypeOf(client.auth.revokeToken).returns.resolves.toHaveProperty('revoked');
  });

  it('createAndPoll and poll resolve to a finished job narrowed by status', () => {
    expectTypeOf(client.async.chat.completions.createAndPoll).returns.toEqualTypeOf<
      Promise<FinishedAsyncChatJob>
    >();
    expectTypeOf(client.async.chat.completions.poll).returns.toEqualTypeOf<
      Promise<FinishedAsyncChatJob>
    >();
    const read = (job: FinishedAsyncChatJob) =>
      job.status === 'COMPLETED' ? job.response : job.error_message;
    expectTypeOf(read).returns.toEqualTypeOf<ChatCompletionResponse | string | null | undefined>();
    expectTypeOf<NonNullable<PollOptions['onProgress']>>()
      .parameter(0)
      .toEqualTypeOf<AsyncChatJob>();
    expectTypeOf<PollOptions>().toExtend<RequestOptions>();
    // @ts-expect-error pollInterval is in ms, a number
    const bad: PollOptions = { pollInterval: '1s' };
    void bad;
  });

  it('response types expose the spec fields', () => {
    expectTypeOf<ChatCompletionResponse['search_results']>().toEqualTypeOf<
      SearchResult[] | null | undefined
    >();
    expectTypeOf<ChatCompletionResponse['citations']>().toEqualTypeOf<
      string[] | null | undefined
    >();
    expectTypeOf<ChatCompletionResponse['images']>().toEqualTypeOf<
      ImageResult[] | null | undefined
    >();
    expectTypeOf<ChatCompletionResponse['usage']>().toEqualTypeOf<UsageInfo | null | undefined>();
    expectTypeOf<UsageInfo['cost']>().toEqualTypeOf<Cost>();
    expectTypeOf<Cost['total_cost']>().toEqualTypeOf<number>();
    expectTypeOf<SearchResult['url']>().toEqualTypeOf<string>();
    expectTypeOf<ImageResult['width']>().toEqualTypeOf<number>();
    expectTypeOf<AsyncChatJob['status']>().toEqualTypeOf<
      'CREATED' | 'IN_PROGRESS' | 'COMPLETED' | 'FAILED'
    >();
    expectTypeOf<AsyncChatListResponse['next_token']>().toEqualTypeOf<string | null>();
    expectTypeOf<BrowserSession['status']>().toEqualTypeOf<
      'running' | 'stopped' | 'expired' | 'failed'
    >();
    expectTypeOf<BrowserSession['cdp_url']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<EmbeddingsResponse['data'][number]['embedding']>().toEqualTypeOf<string>();
    expectTypeOf<
      ContextualizedEmbeddingsResponse['data'][number]['data'][number]['embedding']
    >().toEqualTypeOf<string>();
    expectTypeOf<SearchResponse['results']>().toExtend<unknown[]>();
  });
});

describe('client, connection and transport types', () => {
  it('ClientOptions accepts the documented options and rejects wrong types', () => {
    const opts: ClientOptions = {
      apiKey: 'sk',
      baseURL: 'http://127.0.0.1:8787',
      timeout: 5_000,
      maxRetries: 3,
      logger: console,
      fetchOptions: { connections: 8 },
    };
    void opts;
    // @ts-expect-error timeout is in ms, a number
    const bad: ClientOptions = { timeout: '5s' };
    // @ts-expect-error unknown option
    const unknown: ClientOptions = { retries: 3 };
    void [bad, unknown];
    expectTypeOf<ConnectOptions>().toExtend<ClientOptions>();
    expectTypeOf(connect).returns.toEqualTypeOf<Promise<Connection>>();
    expectTypeOf<Connection['client']>().toEqualTypeOf<Client>();
    expectTypeOf<Connection['close']>().returns.toEqualTypeOf<Promise<void>>();
    expectTypeOf(readClientEnv).returns.toEqualTypeOf<ClientEnv>();
    expectTypeOf<ClientEnv['apiKey']>().toEqualTypeOf<string | undefined>();
    expectTypeOf(CLIENT_DEFAULTS.maxRetries).toBeNumber();
    expectTypeOf(POLL_DEFAULTS.pollInterval).toBeNumber();
    expectTypeOf(client.setApiKey).parameters.toEqualTypeOf<[string]>();
  });

  it('RequestOptions, Logger and SSE types', () => {
    const ro: RequestOptions = { signal: AbortSignal.timeout(1_000), timeout: 10, maxRetries: 0 };
    void ro;
    // @ts-expect-error signal must be an AbortSignal
    const badSignal: RequestOptions = { signal: true };
    void badSignal;
    expectTypeOf(console).toExtend<Logger>();
    expectTypeOf<SSEEvent>().toEqualTypeOf<{
      event: string | undefined;
      data: string;
      id: string | undefined;
      retry: number | undefined;
    }>();
    expectTypeOf(parseSSE).returns.toExtend<AsyncIterable<SSEEvent>>();
    expectTypeOf<Stream<number>>().toExtend<AsyncIterable<number>>();
  });
});

describe('error and helper types', () => {
  it('error classes carry typed fields', () => {
    expectTypeOf<APIError>().toExtend<SvcError>();
    expectTypeOf<ValidationError>().toExtend<APIError>();
    expectTypeOf<AuthenticationError>().toExtend<APIError>();
    expectTypeOf<NotFoundError>().toExtend<APIError>();
    expectTypeOf<TimeoutError>().toExtend<SvcError>();
    expectTypeOf<AbortError>().toExtend<SvcError>();
    expectTypeOf<APIError['requestId']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<APIError['status']>().toEqualTypeOf<number>();
    expectTypeOf<RateLimitError['retryAfter']>().toEqualTypeOf<number | undefined>();
    expectTypeOf<ValidationError['detail']>().toEqualTypeOf<ValidationIssue[]>();
    expectTypeOf<ValidationIssue['loc']>().toEqualTypeOf<(string | number)[]>();
    expectTypeOf<SvcError['code']>().toEqualTypeOf<ErrorCode>();
    expectTypeOf(ERROR_CODES.rateLimited).toEqualTypeOf<'rate_limited'>();
    expectTypeOf<SessionError['reason']>().toEqualTypeOf<SessionErrorReason>();
    // @ts-expect-error not a session error reason
    const reason: SessionErrorReason = 'crashed';
    void reason;
  });

  it('embedding decoders return typed arrays', () => {
    expectTypeOf(decodeInt8).returns.toEqualTypeOf<Int8Array>();
    expectTypeOf(decodeBinary).returns.toEqualTypeOf<Uint8Array>();
    expectTypeOf(unpackBits).returns.toEqualTypeOf<Uint8Array>();
    expectTypeOf(countTokens).returns.toBeNumber();
  });
});

describe('session and page types exported for recipes', () => {
  it('names drivers and providers, and types the session manager options', () => {
    expectTypeOf<DriverName>().toEqualTypeOf<'playwright' | 'puppeteer'>();
    expectTypeOf<ProviderName>().toEqualTypeOf<'api' | 'local' | 'cdp' | 'grid'>();
    const opts: SessionManagerOptions = { provider: 'api', client };
    void opts;
    // @ts-expect-error not a provider name
    const bad: SessionManagerOptions = { provider: 'remote' };
    void bad;
  });

  it('page helpers accept Playwright and Puppeteer pages and return typed results', () => {
    expectTypeOf<PlaywrightPage>().toExtend<AnyPage>();
    expectTypeOf<PuppeteerPage>().toExtend<AnyPage>();
    expectTypeOf(visit).returns.toEqualTypeOf<Promise<VisitResult>>();
    expectTypeOf<VisitResult['status']>().toEqualTypeOf<number | null>();
    expectTypeOf(readPage).returns.toEqualTypeOf<Promise<ReadPageResult>>();
    expectTypeOf<ReadPageResult['links']>().toEqualTypeOf<PageLink[]>();
    expectTypeOf<ReadPageResult['metadata']>().toEqualTypeOf<PageMetadata>();
    expectTypeOf<PageMetadata['published']>().toEqualTypeOf<string | null>();
    expectTypeOf(findPassage).returns.toEqualTypeOf<Promise<PassageMatch | null>>();
    expectTypeOf<PassageMatch['method']>().toEqualTypeOf<MatchMethod>();
    expectTypeOf<MatchMethod>().toEqualTypeOf<'exact' | 'fuzzy' | 'embedding'>();
    expectTypeOf<EmbedFn>().parameter(0).toEqualTypeOf<string[][]>();
    expectTypeOf(fullPageScreenshot).returns.toEqualTypeOf<Promise<FullPageResult>>();
    expectTypeOf<FullPageResult['png']>().toEqualTypeOf<Buffer>();
    expectTypeOf<Har['log']['version']>().toEqualTypeOf<'1.2'>();
    expectTypeOf(textFragmentUrl).returns.toBeString();
  });
});
