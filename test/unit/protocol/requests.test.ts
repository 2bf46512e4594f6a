import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  AsyncChatCreateRequestSchema,
  AsyncChatJobSchema,
  AsyncChatListQuerySchema,
  AsyncChatListResponseSchema,
  BrowserSessionCreateRequestSchema,
  BrowserSessionListResponseSchema,
  BrowserSessionSchema,
  RevokeAuthTokenRequestSchema,
  RevokeAuthTokenResponseSchema,
  SearchRequestSchema,
  SearchResponseSchema,
  parseRequest,
} from '../../../src/protocol/index.js';

function reject(schema: z.ZodType, data: unknown, root: 'body' | 'query' = 'body') {
  const r = parseRequest(schema, data, root);
  if (r.ok) throw new Error(`expected rejection of ${JSON.stringify(data)}`);
  return r.body.detail;
}
function accept(schema: z.ZodType, data: unknown) {
  const r = parseRequest(schema, data, 'body');
  if (!r.ok) throw new Error(`expected acceptance, got ${JSON.stringify(r.body)}`);
  return r.value as Record<string, unknown>;
}
const locs = (schema: z.ZodType, data: unknown) => reject(schema, data).map((d) => d.loc);

const chat = { model: 'core-deep-research', messages: [{ role: 'user', content: 'research x' }] };

describe('async chat create', () => {
  it('accepts a deep-research request with an idempotency key', () => {
    const v = accept(AsyncChatCreateRequestSchema, { request: chat, idempotency_key: 'k1' });
    expect((v.request as { stream_mode: string }).stream_mode).toBe('full');
    expect(v.idempotency_key).toBe('k1');
  });

  it('rejects other chat models at request.model', () => {
    const [d] = reject(AsyncChatCreateRequestSchema, { request: { ...chat, model: 'core-pro' } });
    expect(d!.loc).toEqual(['body', 'request', 'model']);
    expect(d!.msg).toContain('must be core-deep-research');
    expect(locs(AsyncChatCreateRequestSchema, { request: { ...chat, model: 'nope' } })).toEqual([
      ['body', 'request', 'model'],
    ]);
  });

  it('validates the inner request with the chat rules', () => {
    expect(
      locs(AsyncChatCreateRequestSchema, { request: { ...chat, max_tokens: 0, model: 'core' } }),
    ).toEqual([
      ['body', 'request', 'model'],
      ['body', 'request', 'max_tokens'],
    ]);
    expect(reject(AsyncChatCreateRequestSchema, {})[0]).toEqual({
      loc: ['body', 'request'],
      msg: 'Field required',
      type: 'missing',
    });
  });

  it('bounds idempotency_key to 1..256 characters', () => {
    accept(AsyncChatCreateRequestSchema, { request: chat, idempotency_key: 'k'.repeat(256) });
    expect(
      locs(AsyncChatCreateRequestSchema, { request: chat, idempotency_key: 'k'.repeat(257) }),
    ).toEqual([['body', 'idempotency_key']]);
    expect(locs(AsyncChatCreateRequestSchema, { request: chat, idempotency_key: '' })).toEqual([
      ['body', 'idempotency_key'],
    ]);
  });
});

describe('async chat list and job', () => {
  it('coerces limit from the query string, defaults it to 20 and bounds it to 1..100', () => {
    expect(AsyncChatListQuerySchema.parse({})).toEqual({ limit: 20 });
    expect(AsyncChatListQuerySchema.parse({ limit: '100', next_token: 't' })).toEqual({
      limit: 100,
      next_token: 't',
    });
    expect(reject(AsyncChatListQuerySchema, { limit: '0' }, 'query')[0]!.loc).toEqual([
      'query',
      'limit',
    ]);
    expect(reject(AsyncChatListQuerySchema, { limit: '101' }, 'query')[0]!.loc).toEqual([
      'query',
      'limit',
    ]);
    expect(reject(AsyncChatListQuerySchema, { limit: '2.5' }, 'query')[0]!.type).toBe('int_type');
  });

  it('parses jobs in each state and rejects unknown states', () => {
    const job = { id: 'j', model: 'core-deep-research', created_at: 1, status: 'CREATED' };
    expect(AsyncChatJobSchema.parse(job).status).toBe('CREATED');
    AsyncChatJobSchema.parse({ ...job, status: 'FAILED', failed_at: 3, error_message: 'boom' });
    AsyncChatJobSchema.parse({ ...job, status: 'IN_PROGRESS', started_at: 2, started_by: 'x' });
    expect(AsyncChatJobSchema.safeParse({ ...job, status: 'DONE' }).success).toBe(false);
    expect(AsyncChatJobSchema.safeParse({ ...job, created_at: 1.5 }).success).toBe(false);
    const list = AsyncChatListResponseSchema.parse({ requests: [job], next_token: null });
    expect(list.next_token).toBeNull();
  });
});

describe('search request', () => {
  it('accepts a query string and defaults max_results to 10', () => {
    expect(accept(SearchRequestSchema, { query: 'x' }).max_results).toBe(10);
  });

  it('accepts 1..5 queries and rejects 6 or an empty one', () => {
    accept(SearchRequestSchema, { query: ['a', 'b', 'c', 'd', 'e'] });
    const [six] = reject(SearchRequestSchema, { query: ['a', 'b', 'c', 'd', 'e', 'f'] });
    expect(six).toMatchObject({ loc: ['body', 'query'], type: 'too_long' });
    expect(locs(SearchRequestSchema, { query: ['a', ''] })).toEqual([['body', 'query', 1]]);
    expect(locs(SearchRequestSchema, { query: '' })).toEqual([['body', 'query']]);
    expect(locs(SearchRequestSchema, { query: [] })).toEqual([['body', 'query']]);
    expect(reject(SearchRequestSchema, {})[0]!.type).toBe('missing');
  });

  it('bounds max_results to 1..20 and max_tokens_per_page to > 0', () => {
    accept(SearchRequestSchema, { query: 'x', max_results: 1, max_tokens_per_page: 1 });
    accept(SearchRequestSchema, { query: 'x', max_results: 20 });
    expect(locs(SearchRequestSchema, { query: 'x', max_results: 21 })).toEqual([
      ['body', 'max_results'],
    ]);
    expect(locs(SearchRequestSchema, { query: 'x', max_results: 0 })).toEqual([
      ['body', 'max_results'],
    ]);
    expect(locs(SearchRequestSchema, { query: 'x', max_tokens_per_page: 0 })).toEqual([
      ['body', 'max_tokens_per_page'],
    ]);
  });

  it('validates filters, dates and country', () => {
    accept(SearchRequestSchema, {
      query: 'x',
      search_recency_filter: 'day',
      search_mode: 'academic',
      search_domain_filter: ['a.com', '-b.com'],
      search_language_filter: ['en'],
      search_after_date_filter: '1/2/2024',
      last_updated_before_filter: '2025-12-31',
      country: 'US',
    });
    for (const [key, value] of [
      ['search_recency_filter', 'hourly'],
      ['search_mode', 'news'],
      ['search_after_date_filter', '2024.01.02'],
      ['search_before_date_filter', '31/12/2024'],
      ['country', 'USA'],
    ] as const) {
      expect(locs(SearchRequestSchema, { query: 'x', [key]: value })).toEqual([['body', key]]);
    }
    expect(
      locs(SearchRequestSchema, { query: 'x', search_domain_filter: Array(21).fill('a.com') }),
    ).toEqual([['body', 'search_domain_filter']]);
  });

  it('parses flat and per-query result lists', () => {
    const item = { title: 't', url: 'u', snippet: 's', date: '2025-01-01', last_updated: null };
    expect(
      SearchResponseSchema.parse({ id: 'i', results: [item], server_time: 'now' }).results,
    ).toHaveLength(1);
    const nested = SearchResponseSchema.parse({
      id: 'i',
      results: [[item], []],
      server_time: 'now',
    });
    expect(nested.results).toEqual([[item], []]);
  });
});

describe('browser sessions', () => {
  it('accepts an empty body and every optional field at its bounds', () => {
    expect(accept(BrowserSessionCreateRequestSchema, {})).toEqual({});
    accept(BrowserSessionCreateRequestSchema, {
      idle_timeout_s: 5,
      max_duration_s: 86400,
      viewport: { width: 7680, height: 100 },
      user_agent: 'u'.repeat(512),
      tags: Array.from({ length: 20 }, () => 't'.repeat(64)),
    });
  });

  it('rejects out-of-range fields at their exact location', () => {
    const S = BrowserSessionCreateRequestSchema;
    expect(locs(S, { idle_timeout_s: 4 })).toEqual([['body', 'idle_timeout_s']]);
    expect(locs(S, { max_duration_s: 9 })).toEqual([['body', 'max_duration_s']]);
    expect(locs(S, { max_duration_s: 86401 })).toEqual([['body', 'max_duration_s']]);
    expect(locs(S, { viewport: { width: 99, height: 4321 } })).toEqual([
      ['body', 'viewport', 'width'],
      ['body', 'viewport', 'height'],
    ]);
    expect(locs(S, { user_agent: '' })).toEqual([['body', 'user_agent']]);
    expect(locs(S, { tags: ['ok', 't'.repeat(65)] })).toEqual([['body', 'tags', 1]]);
    expect(locs(S, { tags: Array(21).fill('t') })).toEqual([['body', 'tags']]);
  });

  it('parses hosted records without cdp_url and rejects a non-uuid id', () => {
    const rec = {
      session_id: '6f1c3c1e-8a4b-4d2a-9b1e-0c8d7e6f5a4b',
      status: 'running',
      created_at: 1,
      expires_at: null,
      tags: [],
    };
    expect(BrowserSessionSchema.parse(rec).status).toBe('running');
    expect(BrowserSessionSchema.safeParse({ ...rec, session_id: 'abc' }).success).toBe(false);
    expect(BrowserSessionSchema.safeParse({ ...rec, status: 'paused' }).success).toBe(false);
    expect(BrowserSessionListResponseSchema.parse({ sessions: [rec] }).sessions).toHaveLength(1);
  });
});

describe('auth token revocation', () => {
  it('requires a non-empty auth_token', () => {
    accept(RevokeAuthTokenRequestSchema, { auth_token: 't' });
    expect(locs(RevokeAuthTokenRequestSchema, { auth_token: '' })).toEqual([
      ['body', 'auth_token'],
    ]);
    expect(reject(RevokeAuthTokenRequestSchema, {})[0]!.type).toBe('missing');
    expect(RevokeAuthTokenResponseSchema.parse({ revoked: true, at: 1 }).revoked).toBe(true);
  });
});
