// What the `ls|create|rm` commands (`svc sessions`, `svc contexts`) share: the action dispatch and
// deleting several ids where an unknown one fails alone.
import { NotFoundError } from '../../errors.js';
import type { CommandContext, OptionSpecs } from '../command.js';
import { EXIT, UsageError } from '../common.js';

/** The handlers of `ls`, `create` and `rm`; each gets the positionals after the action. */
export interface Actions {
  ls(rest: string[]): Promise<number>;
  create(rest: string[]): Promise<number>;
  rm(rest: string[]): Promise<number>;
}

/** Aliases accepted for the actions. */
const ALIASES: Readonly<Record<string, keyof Actions>> = {
  ls: 'ls',
  list: 'ls',
  create: 'create',
  rm: 'rm',
  delete: 'rm',
};

/**
 * Runs the action the first positional names (`ls`/`list`, `create`, `rm`/`delete`); with none,
 * prints the command's help and returns exit code 2.
 * @throws UsageError for an unknown action
 */
export async function subcommand<O extends OptionSpecs>(
  ctx: CommandContext<O>,
  actions: Actions,
): Promise<number> {
  const [action, ...rest] = ctx.positionals;
  if (action === undefined) {
    process.stdout.write(ctx.help());
    return EXIT.usage;
  }
  const name = ALIASES[action];
  if (name === undefined) {
    throw new UsageError(`${ctx.name}: unknown action '${action}' (ls, create, rm)`);
  }
  return actions[name](rest);
}

/** The outcome of deleting one id. */
export interface DeleteResult {
  id: string;
  deleted: boolean;
  error?: string;
}

/**
 * Calls `del` for each id in turn; a 404 is recorded against its id and the others go on, any other
 * error stops the run.
 */
export async function deleteEach(
  ids: readonly string[],
  del: (id: string) => Promise<unknown>,
): Promise<DeleteResult[]> {
  const results: DeleteResult[] = [];
  for (const id of ids) {
    try {
      await del(id);
      results.push({ id, deleted: true });
    } catch (error) {
      if (!(error instanceof NotFoundError)) throw error;
      results.push({ id, deleted: false, error: error.message });
    }
  }
  return results;
}
