import { describe, expect, it } from 'vitest';
import {
  APIError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  ERROR_CODES,
  InternalServerError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  SessionError,
  SvcError,
  ValidationError,
  parseRetryAfter,
  redactPath,
  redactSecrets,
} from '../../../src/errors.js';

describe('APIError.from', () => {
  it.each([
    [400, BadRequestError, 'bad_request'],
    [401, AuthenticationError, 'authentication_error'],
    [403, PermissionDeniedError, 'permission_denied'],
    [404, NotFoundError, 'not_found'],
    [409, ConflictError, 'conflict'],
    [413, BadRequestError, 'bad_request'],
    [422, ValidationError, 'validation_error'],
    [429, RateLimitError, 'rate_limited'],
    [500, InternalServerError, 'internal_server_error'],
    [503, InternalServerError, 'internal_server_error'],
  ])('maps %i to its class and stable code', (status, cls, code) => {
    const err = APIError.from(status, { error: { message: 'm' } }, {}, 'get', '/x');
    expect(err).toBeInstanceOf(cls);
    expect(err).toBeInstanceOf(APIError);
    expect(err).toBeInstanceOf(SvcError);
    expect(err.code).toBe(code);
    expect(err.status).toBe(status);
    expect(err.name).toBe(cls.name);
  });

  it('formats "<what failed>: <METHOD> <path>: <server message>"', () => {
    const err = APIError.from(
      404,
      { error: { message: 'job not found', type: 't', code: 'c' } },
      {},
      'get',
      '/async/chat/completions/j1',
    );
    expect(err.message).toBe('Not found (404): GET /async/chat/completions/j1: job not found');
  });

  it('summarises 422 detail with field locations and keeps detail[]', () => {
    const body = {
      detail: [{ loc: ['body', 'max_tokens'], msg: 'must be > 0', type: 'greater_than' }],
    };
    const err = APIError.from(422, body, {}, 'POST', '/chat/completions') as ValidationError;
    expect(err.message).toBe(
      'Validation failed (422): POST /chat/completions: body.max_tokens: must be > 0',
    );
    expect(err.detail).toEqual(body.detail);
  });

  it('uses a plain-text body, and HTTP <status> when there is none', () => {
    expect(APIError.from(502, 'Bad gateway', {}, 'GET', '/a').message).toBe(
      'Server error (502): GET /a: Bad gateway',
    );
    expect(APIError.from(500, '', {}, 'GET', '/a').message).toBe(
      'Server error (500): GET /a: HTTP 500',
    );
  });

  it('takes requestId from x-request-id and retryAfter in ms from Retry-After', () => {
    const err = APIError.from(
      429,
      {},
      { 'x-request-id': 'r1', 'retry-after': '2' },
      'GET',
      '/a',
    ) as RateLimitError;
    expect(err.requestId).toBe('r1');
    expect(err.retryAfter).toBe(2000);
  });

  it('redacts token= query values from the path', () => {
    const err = APIError.from(401, {}, {}, 'GET', '/v1/browser/sessions/s/cdp?token=abc123&x=1');
    expect(err.message).toContain('/v1/browser/sessions/s/cdp?token=[redacted]&x=1');
    expect(err.message).not.toContain('abc123');
  });
});

describe('helpers', () => {
  it('parseRetryAfter reads retry-after-ms, seconds and HTTP dates', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(parseRetryAfter({ 'retry-after-ms': '250', 'retry-after': '9' }, now)).toBe(250);
    expect(parseRetryAfter({ 'retry-after': '1.5' }, now)).toBe(1500);
    expect(parseRetryAfter({ 'retry-after': 'Thu, 01 Jan 2026 00:00:03 GMT' }, now)).toBe(3000);
    expect(parseRetryAfter({ 'retry-after': 'Wed, 31 Dec 2025 00:00:00 GMT' }, now)).toBe(0);
    expect(parseRetryAfter({ 'retry-after': 'soon' }, now)).toBeUndefined();
    expect(parseRetryAfter({}, now)).toBeUndefined();
  });

  it('redactSecrets replaces every occurrence and ignores tiny secrets', () => {
    expect(redactSecrets('a sk-1234 b sk-1234', ['sk-1234', 'ab', undefined])).toBe(
      'a [redacted] b [redacted]',
    );
  });

  it('redactPath handles token at any query position', () => {
    expect(redactPath('ws://h/cdp?x=1&token=t0k#f')).toBe('ws://h/cdp?x=1&token=[redacted]#f');
  });

  it('SessionError carries its reason and wraps a cause', () => {
    const cause = new Error('ws closed');
    const err = new SessionError('Session lost: s1: browser exited', {
      reason: 'browser_gone',
      sessionId: 's1',
      cause,
    });
    expect(err.code).toBe(ERROR_CODES.session);
    expect(err.reason).toBe('browser_gone');
    expect(err.cause).toBe(cause);
  });
});
