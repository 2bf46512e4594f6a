/**
 * Exit codes of the `svc` command and of the recipe scripts: the one table, so scripts can tell a
 * bad command line from a broken setup from failed work.
 */
export const EXIT = {
  ok: 0,
  /** The work ran and failed (or found problems, for `verify`). */
  failure: 1,
  /** Bad command line: unknown command or flag, bad or missing value. */
  usage: 2,
  /** The service could not be used at all: not configured, unreachable, or the key was refused. */
  unavailable: 3,
  /** Ctrl-C (SIGINT) or SIGTERM stopped the work; the shell's code for SIGINT. */
  interrupted: 130,
} as const;

/** A command-line mistake: printed without a stack, exit code 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/**
 * The service could not be used at all (not configured, unreachable, key refused): exit code 3.
 */
export class UnavailableError extends Error {
  override name = 'UnavailableError';
}
