// The errors engines and handlers throw. They name what went wrong in the domain (not found, in
// conflict, invalid at a location, out of capacity, an upstream that failed), never an HTTP
// status: http-error.ts maps each kind to its status and body, in one place.
import type { ValidationErrorDetail } from '../protocol/index.js';

/** What kind of failure a {@link DomainError} is; http-error.ts maps each to one status. */
export type DomainErrorKind =
  | 'bad_request'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'too_large'
  | 'invalid'
  | 'rate_limited'
  | 'capacity_exhausted'
  | 'upstream'
  | 'unavailable'
  | 'internal';

/** Options of a {@link DomainError}. */
export interface DomainErrorOptions {
  /** Stable machine-readable code, e.g. `session_not_found`. @default the kind */
  code?: string;
  cause?: unknown;
}

/**
 * Base of the errors engines throw. The message is shown to the caller as is, so it must name
 * what failed without a secret, a token or an internal address.
 */
export abstract class DomainError extends Error {
  abstract readonly kind: DomainErrorKind;
  readonly code: string | undefined;

  constructor(message: string, options: DomainErrorOptions = {}) {
    super(message, { cause: options.cause });
    this.name = new.target.name;
    this.code = options.code;
  }
}

/** A request the service cannot act on (e.g. an attachment that cannot be read). */
export class BadRequest extends DomainError {
  readonly kind = 'bad_request';
}

/** Missing, unknown or revoked credentials. */
export class Unauthorized extends DomainError {
  readonly kind = 'unauthorized';
}

/** Valid credentials that do not allow this action (e.g. input on a read-only live view). */
export class Forbidden extends DomainError {
  readonly kind = 'forbidden';
}

/** An unknown id, or another user's (the same answer, so ids leak nothing). */
export class NotFound extends DomainError {
  readonly kind = 'not_found';
}

/** The resource's state forbids the action now (e.g. a context held by a running session). */
export class Conflict extends DomainError {
  readonly kind = 'conflict';
  /** False when retrying the same request can never succeed (answered as `x-should-retry: false`). */
  readonly retryable: boolean;

  constructor(message: string, options: DomainErrorOptions & { retryable?: boolean } = {}) {
    super(message, options);
    this.retryable = options.retryable ?? true;
  }
}

/** A body or file past a size limit. */
export class TooLarge extends DomainError {
  readonly kind = 'too_large';
}

/**
 * Values that break the rules, each at an exact location (`['body', 'messages', 0, 'role']`,
 * `['header', 'idempotency-key']`); answered as the spec's 422 `{detail: [...]}`.
 * @example throw Invalid.at(['query', 'next_token'], 'next_token is not valid')
 */
export class Invalid extends DomainError {
  readonly kind = 'invalid';

  /** @param detail the 422 entries, as the shared schemas produce them (`parseRequest`). */
  constructor(readonly detail: ValidationErrorDetail[]) {
    super(detail.map((d) => `${d.loc.join('.')}: ${d.msg}`).join('; '));
  }

  /** One entry: the only place on the server that builds the 422 entry shape by hand. */
  static at(loc: (string | number)[], msg: string, type = 'value_error'): Invalid {
    return new Invalid([{ loc, msg, type }]);
  }
}

/** A refusal that passes with time: the caller may retry after `retryAfterSeconds`. */
export abstract class RetryLater extends DomainError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
    options: DomainErrorOptions = {},
  ) {
    super(message, options);
  }
}

/** A per-key request budget is spent. */
export class RateLimited extends RetryLater {
  readonly kind = 'rate_limited';
}

/** Every slot is taken (e.g. browser sessions at `maxSessions`). */
export class CapacityExhausted extends RetryLater {
  readonly kind = 'capacity_exhausted';
}

/**
 * A service we depend on failed (the answer model, a remote embedder, a session's browser). The
 * message names which, never its address or its own error text; the cause keeps the details for
 * the log.
 */
export class Upstream extends DomainError {
  readonly kind = 'upstream';
}

/** The service cannot take the request now (starting a browser failed, shutting down). */
export class Unavailable extends DomainError {
  readonly kind = 'unavailable';
}

/** State of our own that cannot be used (e.g. a saved context that no longer decrypts). */
export class Internal extends DomainError {
  readonly kind = 'internal';
}
