import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  ERROR_TYPES,
  ErrorBodySchema,
  ROUTES,
  ValidationErrorBodySchema,
  parseRequest,
  routePath,
  toValidationErrorBody,
  type RouteId,
} from '../../../src/protocol/index.js';

describe('route table', () => {
  it('holds every endpoint with its method and path', () => {
    const table = Object.values(ROUTES).map((r) => `${r.method} ${r.path}`);
    expect(table).toEqual([
      'POST /chat/completions',
      'POST /async/chat/completions',
      'GET /async/chat/completions/{request_id}',
      'GET /async/chat/completions',
      'POST /search',
      'POST /v1/embeddings',
      'POST /v1/contextualizedembeddings',
      'POST /revoke_auth_token',
      'POST /v1/browser/sessions',
      'GET /v1/browser/capacity',
      'GET /v1/browser/sessions',
      'GET /v1/browser/sessions/{session_id}',
      'DELETE /v1/browser/sessions/{session_id}',
      'GET /v1/browser/sessions/{session_id}/cdp',
      'GET /v1/browser/connect',
      'POST /v1/browser/contexts',
      'GET /v1/browser/contexts',
      'GET /v1/browser/contexts/{context_id}',
      'DELETE /v1/browser/contexts/{context_id}',
      'GET /v1/browser/sessions/{session_id}/downloads',
      'GET /v1/browser/sessions/{session_id}/downloads/{name}',
      'POST /v1/browser/sessions/{session_id}/uploads',
      'GET /v1/browser/sessions/{session_id}/recording',
      'GET /v1/browser/sessions/{session_id}/recording.html',
      'DELETE /v1/browser/sessions/{session_id}/recording',
    ]);
    for (const [id, r] of Object.entries(ROUTES)) {
      expect(r.id).toBe(id);
      const names = [...r.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      expect(r.pathParams).toEqual(names);
    }
  });

  it('marks streaming, websocket and body-less routes', () => {
    expect(ROUTES['chat.completions.create'].stream).toBe(true);
    expect(ROUTES['browser.sessions.cdp'].websocket).toBe(true);
    expect(ROUTES['browser.sessions.delete'].response).toBeNull();
    expect(ROUTES['browser.sessions.delete'].status).toBe(204);
    expect(ROUTES['embeddings.create'].rateGroup).toBe('embeddings');
    expect(ROUTES['async.chat.completions.list'].query).toBeDefined();
  });

  it('fills path parameters with encodeURIComponent', () => {
    expect(routePath('chat.completions.create')).toBe('/chat/completions');
    expect(routePath('async.chat.completions.get', { request_id: 'job 1/2' })).toBe(
      '/async/chat/completions/job%201%2F2',
    );
    expect(routePath('browser.sessions.cdp', { session_id: 'abc' })).toBe(
      '/v1/browser/sessions/abc/cdp',
    );
  });

  it('throws when a path parameter is missing', () => {
    const id: RouteId = 'browser.sessions.get';
    expect(() => routePath(id, { session_id: '' })).toThrow(/session_id/);
    expect(() => routePath(id, {} as { session_id: string })).toThrow(/session_id/);
  });
});

describe('error bodies', () => {
  it('maps statuses to error types', () => {
    expect(ERROR_TYPES[401]).toBe('authentication_error');
    expect(ERROR_TYPES[413]).toBe('request_too_large');
    expect(ERROR_TYPES[503]).toBe('overloaded_error');
    expect(
      ErrorBodySchema.parse({ error: { message: 'm', type: 'not_found_error', code: 'not_found' } })
        .error.type,
    ).toBe('not_found_error');
  });

  it('produces bodies that satisfy the 422 schema', () => {
    const r = parseRequest(z.object({ a: z.string() }), { a: 1 }, 'path');
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(ValidationErrorBodySchema.parse(r.body)).toEqual(r.body);
      expect(r.body.detail[0]!.loc).toEqual(['path', 'a']);
    }
  });

  it('still gives locations and types without reportInput', () => {
    const err = z.object({ n: z.int().lte(5), s: z.string() }).safeParse({ n: 6 }).error!;
    expect(toValidationErrorBody(err, 'body').detail).toEqual([
      { loc: ['body', 'n'], msg: 'n must be at most 5', type: 'less_than_equal' },
      { loc: ['body', 's'], msg: 'Field required', type: 'missing' },
    ]);
  });
});
