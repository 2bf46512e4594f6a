/**
 * The error tree of svc-toolkit. Every error thrown by the client is a {@link SvcError} with a
 * stable {@link ERROR_CODES | code}; HTTP failures are {@link APIError}s, one class per status.
 *
 * Messages read `<what failed>: <METHOD> <path>: <server message>` and never carry an API key,
 * a `token=` query value or a request body.
 *
 * This module is a leaf: it imports nothing.
 */

/**
 * Stable machine-readable codes, one per error class. Compare `err.code` against these rather
 * than matching messages or using `instanceof` across package copies.
 */
export const ERROR_CODES = {
  svc: 'svc_error',
  api: 'api_error',
  badRequest: 'bad_request',
  authentication: 'authentication_error',
  permissionDenied: 'permission_denied',
  notFound: 'not_found',
  conflict: 'conflict',
  validation: 'validation_error',
  rateLimited: 'rate_limited',
  internalServer: 'internal_server_error',
  connection: 'connection_error',
  timeout: 'timeout',
  aborted: 'aborted',
  responseShape: 'response_shape_error',
  session: 'session_error',
} as const;

/** One of the values of {@link ERROR_CODES}. */
export type ErrorCode = (typeof ERROR_CODES)[keyof typeof ERROR_CODES];

/** Response headers as a plain lower-cased record. */
export type ErrorHeaders = Record<string, string>;

/** One entry of a 422 body: `loc` names the offending field, e.g. `['body', 'messages', 0, 'role']`. */
export interface ValidationIssue {
  loc: (string | number)[];
  msg: string;
  type: string;
}

/** Options accepted by every {@link SvcError} constructor. */
export interface SvcErrorOptions {
  /** The underlying error, kept on `err.cause`. */
  cause?: unknown;
}

/** Root of every error svc-toolkit throws. */
export class SvcError extends Error {
  /** Stable machine-readable code, one of {@link ERROR_CODES}. */
  readonly code: ErrorCode;

  constructor(message: string, options: SvcErrorOptions & { code?: ErrorCode } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = options.code ?? ERROR_CODES.svc;
  }
}

/** Fields shared by every {@link APIError} constructor. */
export interface APIErrorInit extends SvcErrorOptions {
  status: number;
  body: unknown;
  headers?: ErrorHeaders;
}

/**
 * The server answered with a non-2xx status. Use {@link APIError.from} to get the subclass that
 * matches the status.
 */
export class APIError extends SvcError {
  /** HTTP status code. */
  readonly status: number;
  /** The parsed JSON body, or the raw text when it was not JSON. */
  readonly body: unknown;
  /** Response headers, lower-cased. */
  readonly headers: ErrorHeaders;
  /** The server's `x-request-id`, to quote in support requests. */
  readonly requestId: string | undefined;

  constructor(message: string, init: APIErrorInit & { code?: ErrorCode }) {
    super(message, { cause: init.cause, code: init.code ?? ERROR_CODES.api });
    this.status = init.status;
    this.body = init.body;
    this.headers = init.headers ?? {};
    this.requestId = this.headers['x-request-id'];
  }

  /**
   * Build the error class matching `status` from a response.
   * @param status - HTTP status code.
   * @param body - parsed JSON body (or raw text).
   * @param headers - response headers (lower-cased keys).
   * @param method - request method, for the message.
   * @param path - request path; `token=` query values are redacted.
   * @example
   * throw APIError.from(429, { error: { message: 'slow down' } }, { 'retry-after': '1' }, 'POST', '/search');
   */
  static from(
    status: number,
    body: unknown,
    headers: ErrorHeaders,
    method: string,
    path: string,
  ): APIError {
    const server = serverMessage(body) ?? `HTTP ${status}`;
    const where = `${method.toUpperCase()} ${redactPath(path)}`;
    const msg = (what: string): string => `${what}: ${where}: ${server}`;
    const init: APIErrorInit = { status, body, headers };
    if (status === 422) return new ValidationError(msg('Validation failed (422)'), init);
    if (status === 401) return new AuthenticationError(msg('Authentication failed (401)'), init);
    if (status === 403) return new PermissionDeniedError(msg('Permission denied (403)'), init);
    if (status === 404) return new NotFoundError(msg('Not found (404)'), init);
    if (status === 409) return new ConflictError(msg('Conflict (409)'), init);
    if (status === 429) return new RateLimitError(msg('Rate limited (429)'), init);
    if (status >= 500) return new InternalServerError(msg(`Server error (${status})`), init);
    if (status >= 400) return new BadRequestError(msg(`Request rejected (${status})`), init);
    return new APIError(msg(`Unexpected status (${status})`), init);
  }
}

/** 422: the request broke the schema. `detail[].loc` names the exact field. */
export class ValidationError extends APIError {
  /** The server's (or the local schema's) issues, one per offending field. */
  readonly detail: ValidationIssue[];

  constructor(message: string, init: APIErrorInit) {
    super(message, { ...init, code: ERROR_CODES.validation });
    this.detail = validationDetail(init.body);
  }
}

/** 401: missing, unknown or revoked API key. */
export class AuthenticationError extends APIError {
  constructor(message: string, init: APIErrorInit) {
    super(message, { ...init, code: ERROR_CODES.authentication });
  }
}

/** 403: the key may not do this. */
export class PermissionDeniedError extends APIError {
  constructor(message: string, init: APIErrorInit) {
    super(message, { ...init, code: ERROR_CODES.permissionDenied });
  }
}

/** 404: unknown or expired job or session. */
export class NotFoundError extends APIError {
  constructor(message: string, init: APIErrorInit) {
    super(message, { ...init, code: ERROR_CODES.notFound });
  }
}

/** 409: the resource is in a conflicting state. */
export class ConflictError extends APIError {
  constructor(message: string, init: APIErrorInit) {
    super(message, { ...init, code: ERROR_CODES.conflict });
  }
}

/** 429: rate limited. `retryAfter` is the server's `Retry-After` in ms, when it sent one. */
export class RateLimitError extends APIError {
  /** Milliseconds the server asked us to wait, or `undefined` when it did not say. */
  readonly retryAfter: number | undefined;

  constructor(message: string, init: APIErrorInit) {
    super(message, { ...init, code: ERROR_CODES.rateLimited });
    this.retryAfter = parseRetryAfter(this.headers);
  }
}

/** Status >= 500. */
export class InternalServerError extends APIError {
  constructor(message: string, init: APIErrorInit) {
    super(message, { ...init, code: ERROR_CODES.internalServer });
  }
}

/** Any other 4xx (400, 408, 413, ...). */
export class BadRequestError extends APIError {
  constructor(message: string, init: APIErrorInit) {
    super(message, { ...init, code: ERROR_CODES.badRequest });
  }
}

/** The connection failed or dropped before a complete response arrived. */
export class ConnectionError extends SvcError {
  constructor(message: string, options: SvcErrorOptions = {}) {
    super(message, { ...options, code: ERROR_CODES.connection });
  }
}

/** A request, or the gap between two stream events, took longer than its timeout. */
export class TimeoutError extends SvcError {
  /** The timeout that elapsed, in ms. */
  readonly timeout: number | undefined;

  constructor(message: string, options: SvcErrorOptions & { timeout?: number } = {}) {
    super(message, { cause: options.cause, code: ERROR_CODES.timeout });
    this.timeout = options.timeout;
  }
}

/** The caller aborted the request through its `AbortSignal` (or `stream.controller`). */
export class AbortError extends SvcError {
  constructor(message: string, options: SvcErrorOptions = {}) {
    super(message, { ...options, code: ERROR_CODES.aborted });
  }
}

/** A 2xx response whose body breaks the contract (not JSON, or the wrong shape). */
export class ResponseShapeError extends SvcError {
  /** The body as received. */
  readonly body: unknown;

  constructor(message: string, options: SvcErrorOptions & { body?: unknown } = {}) {
    super(message, { cause: options.cause, code: ERROR_CODES.responseShape });
    this.body = options.body;
  }
}

/** Why a browser session became unusable. */
export type SessionErrorReason = 'expired' | 'browser_gone' | 'attach_failed' | 'disconnected';

/** A browser session expired, its browser died, or attaching to it failed. */
export class SessionError extends SvcError {
  /** What went wrong with the session. */
  readonly reason: SessionErrorReason;
  /** The session's id, when known. */
  readonly sessionId: string | undefined;

  constructor(
    message: string,
    options: SvcErrorOptions & { reason: SessionErrorReason; sessionId?: string },
  ) {
    super(message, { cause: options.cause, code: ERROR_CODES.session });
    this.reason = options.reason;
    this.sessionId = options.sessionId;
  }
}

/**
 * Replace `token=` query values in a path or URL with `[redacted]`, so CDP URLs and signed links
 * can appear in messages.
 */
export function redactPath(path: string): string {
  return path.replace(/([?&](?:token|api_key|key|signature|sig)=)[^&#\s]*/gi, '$1[redacted]');
}

/**
 * Replace every occurrence of each secret in `text` with `[redacted]`. Secrets shorter than 4
 * characters are ignored: replacing them would shred ordinary words.
 */
export function redactSecrets(text: string, secrets: readonly (string | undefined)[]): string {
  let out = text;
  for (const s of secrets)
    if (s !== undefined && s.length >= 4) out = out.split(s).join('[redacted]');
  return out;
}

/**
 * Milliseconds to wait from `retry-after-ms`, or `retry-after` (delta seconds or an HTTP date).
 * @returns `undefined` when absent or unparseable.
 */
export function parseRetryAfter(
  headers: ErrorHeaders,
  now: number = Date.now(),
): number | undefined {
  const ms = headers['retry-after-ms'];
  if (ms !== undefined && ms.trim() !== '') {
    const n = Number(ms);
    if (Number.isFinite(n) && n >= 0) return n;
  }
  const ra = headers['retry-after'];
  if (ra === undefined || ra.trim() === '') return undefined;
  const seconds = Number(ra);
  if (Number.isFinite(seconds)) return seconds >= 0 ? seconds * 1000 : undefined;
  const date = Date.parse(ra);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

function serverMessage(body: unknown): string | undefined {
  if (typeof body === 'string') return body.trim() === '' ? undefined : body.slice(0, 500);
  if (!isRecord(body)) return undefined;
  const detail = validationDetail(body);
  if (detail.length > 0) return detail.map((d) => `${d.loc.join('.')}: ${d.msg}`).join('; ');
  const err = body['error'];
  if (isRecord(err) && typeof err['message'] === 'string') return err['message'];
  if (typeof err === 'string') return err;
  if (typeof body['message'] === 'string') return body['message'];
  if (typeof body['detail'] === 'string') return body['detail'];
  return undefined;
}

function validationDetail(body: unknown): ValidationIssue[] {
  if (!isRecord(body) || !Array.isArray(body['detail'])) return [];
  const out: ValidationIssue[] = [];
  for (const d of body['detail'] as unknown[]) {
    if (!isRecord(d)) continue;
    const loc = Array.isArray(d['loc'])
      ? (d['loc'] as unknown[]).filter(
          (x): x is string | number => typeof x === 'string' || typeof x === 'number',
        )
      : [];
    out.push({
      loc,
      msg: typeof d['msg'] === 'string' ? d['msg'] : '',
      type: typeof d['type'] === 'string' ? d['type'] : '',
    });
  }
  return out;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
