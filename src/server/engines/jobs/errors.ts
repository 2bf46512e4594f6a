/** Stable codes of {@link JobQueueError}. */
export type JobQueueErrorCode =
  'invalid_option' | 'invalid_limit' | 'invalid_next_token' | 'not_started' | 'stopped';

/**
 * A caller error of the job engine (bad option, bad page token, queue state). http-error.ts maps
 * `invalid_limit` and `invalid_next_token` to a 422 on the offending query parameter.
 */
export class JobQueueError extends Error {
  /** Stable machine-readable code. */
  readonly code: JobQueueErrorCode;

  /** @param code stable code; @param message human-readable detail. */
  constructor(code: JobQueueErrorCode, message: string) {
    super(message);
    this.name = 'JobQueueError';
    this.code = code;
  }
}
