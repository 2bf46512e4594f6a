/** Exit codes of the `svc` command. */
export const EXIT = {
  ok: 0,
  /** The work ran and failed (or found problems, for `verify`). */
  failure: 1,
  /** Bad command line. */
  usage: 2,
} as const;

/** A command-line mistake: printed without a stack, exit code 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** Runs a `parseArgs` call, turning its errors into {@link UsageError}s naming the command. */
export function parseOrUsage<T>(command: string, run: () => T): T {
  try {
    return run();
  } catch (error) {
    throw new UsageError(`${command}: ${(error as Error).message}`);
  }
}

/** Parses an integer option, naming it when the value is not one. */
export function intOption(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n)) throw new UsageError(`--${name}: expected an integer, got '${value}'`);
  return n;
}
