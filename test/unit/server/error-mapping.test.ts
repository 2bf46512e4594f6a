import { describe, expect, it } from 'vitest';
import { ErrorBodySchema, ValidationErrorBodySchema } from '../../../src/protocol/index.js';
import { JobQueueError } from '../../../src/server/engines/jobs/errors.js';
import { RemoteEmbeddingError } from '../../../src/server/engines/embedder/remote-embedder.js';
import {
  BadRequest,
  CapacityExhausted,
  Conflict,
  Forbidden,
  Internal,
  Invalid,
  NotFound,
  RateLimited,
  TooLarge,
  Unauthorized,
  Unavailable,
  Upstream,
} from '../../../src/server/errors.js';
import type { DomainError, DomainErrorKind } from '../../../src/server/errors.js';
import { STATUS_OF, answerError } from '../../../src/server/http-error.js';

describe('the one error mapping', () => {
  const cases: [DomainError, number][] = [
    [new BadRequest('m'), 400],
    [new Unauthorized('m'), 401],
    [new Forbidden('m'), 403],
    [new NotFound('m'), 404],
    [new Conflict('m'), 409],
    [new TooLarge('m'), 413],
    [Invalid.at(['body', 'a'], 'm'), 422],
    [new RateLimited('m', 7), 429],
    [new CapacityExhausted('m', 7), 429],
    [new Upstream('m'), 502],
    [new Unavailable('m'), 503],
    [new Internal('m'), 500],
  ];

  it('gives every kind of domain error one status, and a body of the documented shape', () => {
    const kinds = new Set<DomainErrorKind>(cases.map(([e]) => e.kind));
    expect([...kinds].sort()).toEqual(Object.keys(STATUS_OF).sort());
    for (const [error, status] of cases) {
      const answer = answerError(error);
      expect(answer.status, error.kind).toBe(status);
      expect(answer.unexpected).toBe(false);
      if (status === 422) {
        expect(ValidationErrorBodySchema.parse(answer.body)).toEqual({
          detail: [{ loc: ['body', 'a'], msg: 'm', type: 'value_error' }],
        });
      } else {
        expect(ErrorBodySchema.parse(answer.body).error.message).toBe('m');
      }
    }
    expect(answerError(new RateLimited('m', 7)).headers).toEqual({ 'Retry-After': '7' });
    expect(answerError(new Conflict('m', { retryable: false })).headers).toEqual({
      'x-should-retry': 'false',
    });
  });

  it('translates the engines own errors: job queue kinds and a failed remote embedder', () => {
    expect(answerError(new JobQueueError('invalid_next_token', 'bad')).body).toEqual({
      detail: [
        { loc: ['query', 'next_token'], msg: 'next_token is not valid: bad', type: 'value_error' },
      ],
    });
    expect(answerError(new JobQueueError('invalid_limit', 'bad')).status).toBe(422);
    expect(answerError(new JobQueueError('stopped', 'job queue was stopped')).status).toBe(503);
    const remote = answerError(
      new RemoteEmbeddingError('remote embeddings: POST http://10.0.0.5/x: HTTP 500', 500),
    );
    expect(remote.status).toBe(502);
    expect(JSON.stringify(remote.body)).not.toContain('10.0.0.5');
  });

  it('answers anything else with a 500 that names only the request id', () => {
    const answer = answerError(new Error('secret path /etc/svc/key'), 'req_1');
    expect(answer).toMatchObject({ status: 500, unexpected: true });
    expect(answer.body).toEqual({
      error: {
        message: 'Internal server error (request req_1)',
        type: 'api_error',
        code: 'api_error',
      },
    });
  });
});
