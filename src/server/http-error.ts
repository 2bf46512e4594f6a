// The one mapping from an error to what the caller sees: status, body and headers. The app's
// onError, the CDP upgrade's refusals and a chat stream that fails mid-way all answer through it.
import { HTTPException } from 'hono/http-exception';
import { ERROR_TYPES } from '../protocol/index.js';
import type { ErrorBody, ValidationErrorBody } from '../protocol/index.js';
import { RemoteEmbeddingError } from './engines/embedder/remote-embedder.js';
import { JobQueueError } from './engines/jobs/errors.js';
import { Conflict, DomainError, Invalid, RetryLater, Unavailable, Upstream } from './errors.js';
import type { DomainErrorKind } from './errors.js';

/**
 * The status of each kind of domain error. `upstream` is 502: a dependency of the service (the
 * answer model, a remote embedder, a session's browser) failed, not the service itself.
 */
export const STATUS_OF: Readonly<Record<DomainErrorKind, number>> = {
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  too_large: 413,
  invalid: 422,
  rate_limited: 429,
  capacity_exhausted: 429,
  upstream: 502,
  unavailable: 503,
  internal: 500,
};

/** What an error answers: the status, the body of ARCHITECTURE.md, extra headers. */
export interface ErrorAnswer {
  status: number;
  body: ErrorBody | ValidationErrorBody;
  headers: Record<string, string>;
  /** The error is a bug or an unknown failure: log it with its stack (its message is not shown). */
  unexpected: boolean;
}

/** The `type` string of the error body for an HTTP status. */
export function typeFor(status: number): string {
  const types: Record<number, string> = ERROR_TYPES;
  return types[status] ?? (status >= 500 ? 'api_error' : 'invalid_request_error');
}

/**
 * The error body `{error: {message, type, code}}` for `status`.
 * @example errorBody(404, 'Document not found', 'document_not_found')
 */
export function errorBody(status: number, message: string, code?: string): ErrorBody {
  return { error: { message, type: typeFor(status), code: code ?? typeFor(status) } };
}

/**
 * Maps any error to its answer. Domain errors (errors.ts) answer their kind's status with their
 * own message; the engines' own error classes are translated first (a bad `next_token` is a 422
 * at `["query", "next_token"]`, a stopped job queue 503, a failed remote embedder 502 with a
 * message that names no address); anything else is a 500 that names only the request id.
 * @param requestId shown in the 500 message so a caller can quote it
 */
export function answerError(error: unknown, requestId?: string): ErrorAnswer {
  const known = translate(error);
  if (known instanceof Invalid) {
    return { status: 422, body: { detail: known.detail }, headers: {}, unexpected: false };
  }
  if (known instanceof DomainError) {
    const status = STATUS_OF[known.kind];
    const headers: Record<string, string> = {};
    if (known instanceof RetryLater) headers['Retry-After'] = String(known.retryAfterSeconds);
    if (known instanceof Conflict && !known.retryable) headers['x-should-retry'] = 'false';
    return {
      status,
      body: errorBody(status, known.message, known.code),
      headers,
      unexpected: false,
    };
  }
  if (known instanceof HttpError) {
    return {
      status: known.status,
      body: errorBody(known.status, known.message, known.code),
      headers: known.headers,
      unexpected: false,
    };
  }
  if (known instanceof HTTPException) {
    return {
      status: known.status,
      body: errorBody(known.status, known.message || 'Request failed'),
      headers: {},
      unexpected: false,
    };
  }
  const where = requestId === undefined ? '' : ` (request ${requestId})`;
  return {
    status: 500,
    body: errorBody(500, `Internal server error${where}`),
    headers: {},
    unexpected: true,
  };
}

/** The engines' own error classes, as the domain errors they are. */
function translate(error: unknown): unknown {
  if (error instanceof JobQueueError) {
    switch (error.code) {
      case 'invalid_next_token':
        return Invalid.at(['query', 'next_token'], `next_token is not valid: ${error.message}`);
      case 'invalid_limit':
        return Invalid.at(['query', 'limit'], `limit is not valid: ${error.message}`);
      case 'not_started':
      case 'stopped':
        return new Unavailable('The job queue is not running: retry shortly', {
          code: 'jobs_unavailable',
          cause: error,
        });
      default:
        return error;
    }
  }
  if (error instanceof RemoteEmbeddingError) {
    const status = error.status === undefined ? '' : ` (HTTP ${error.status})`;
    return new Upstream(`Embeddings upstream failed${status}: retry, or check its status`, {
      code: 'upstream_error',
      cause: error,
    });
  }
  return error;
}

/** Options of an {@link HttpError}. */
export interface HttpErrorOptions {
  /** Stable machine-readable code. @default derived from the status */
  code?: string;
  /** Extra response headers, e.g. `Retry-After`. */
  headers?: Record<string, string>;
  cause?: unknown;
}

/**
 * An error with an explicit HTTP status.
 * @deprecated Throw the domain errors of errors.ts (`NotFound`, `Conflict`, `Invalid`, ...): they
 * name what failed and {@link answerError} gives them their status. Kept so code written against
 * it still answers correctly.
 */
export class HttpError extends Error {
  readonly status: number;
  readonly code: string;
  readonly headers: Record<string, string>;

  constructor(status: number, message: string, options: HttpErrorOptions = {}) {
    super(message, { cause: options.cause });
    this.name = 'HttpError';
    this.status = status;
    this.code = options.code ?? typeFor(status);
    this.headers = options.headers ?? {};
  }

  /** The error body of ARCHITECTURE.md. */
  toBody(): ErrorBody {
    return errorBody(this.status, this.message, this.code);
  }
}
