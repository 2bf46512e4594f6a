import { ERROR_TYPES } from '../protocol/index.js';

/** Options of an {@link HttpError}. */
export interface HttpErrorOptions {
  /** Stable machine-readable code. @default derived from the status */
  code?: string;
  /** Extra response headers, e.g. `Retry-After`. */
  headers?: Record<string, string>;
  cause?: unknown;
}

/**
 * An error a route handler throws to answer with `{error: {message, type, code}}` and `status`.
 * @example throw new HttpError(404, 'Session not found: 3f…', { code: 'session_not_found' })
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
  toBody(): { error: { message: string; type: string; code: string } } {
    return { error: { message: this.message, type: typeFor(this.status), code: this.code } };
  }
}

/** The `type` string of the error body for an HTTP status. */
export function typeFor(status: number): string {
  const types: Record<number, string> = ERROR_TYPES;
  return types[status] ?? (status >= 500 ? 'api_error' : 'invalid_request_error');
}

/** A 422 carrying the spec's `{detail: [...]}` body instead of the error body. */
export class ValidationHttpError extends Error {
  readonly status = 422;
  constructor(
    readonly body: { detail: { loc: (string | number)[]; msg: string; type: string }[] },
  ) {
    super(body.detail.map((d) => `${d.loc.join('.')}: ${d.msg}`).join('; '));
    this.name = 'ValidationHttpError';
  }
}
