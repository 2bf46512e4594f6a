// The one command framework of `svc` and the recipe scripts: parsing, generated `--help`,
// `--json`, exit codes, and the runtime (service, session manager, signal) with one cleanup path.
import { parseArgs } from 'node:util';
import type { DriverName } from '../sessions/types.js';
import type { SessionManager } from '../sessions/session-manager.js';
import { EXIT, UsageError } from './common.js';
import { printError } from './output.js';
import type { Service } from './service.js';

/** One flag of a command. */
export interface OptionSpec {
  type: 'string' | 'boolean';
  /** The flag may repeat; its value is then an array. @default false */
  multiple?: boolean;
  /** One-letter alias, e.g. `o` for `-o`. */
  short?: string;
  /** Name of the value in the help, e.g. `<n>`; string flags only. */
  arg?: string;
  /** Help text; `\n` starts a continuation line. */
  help: string;
}

/** The flags of a command, by long name. */
export type OptionSpecs = Readonly<Record<string, OptionSpec>>;

/** The parsed values of `O`: a string, a string array (`multiple`), or a boolean; absent if not given. */
export type OptionValues<O extends OptionSpecs> = {
  [K in keyof O]?: O[K] extends { type: 'boolean' }
    ? boolean
    : O[K] extends { multiple: true }
      ? string[]
      : string;
};

/** What a command's `run` receives. */
export interface CommandContext<O extends OptionSpecs> {
  /** The command's name (the prefix of its usage errors). */
  name: string;
  /** The command's generated `--help` text. */
  help(): string;
  /** The flags given (the framework's `--json` and `--data-dir` included when enabled). */
  values: OptionValues<O>;
  /** The arguments that are not flags. */
  positionals: string[];
  /** `--json` was given (always false for a command without `json`). */
  json: boolean;
  /** The data dir flag (`--data-dir`), if given. */
  dataDirFlag: string | undefined;
  /**
   * Aborts on the first SIGINT/SIGTERM (a second one exits at once with 130). The handlers are
   * installed on first read and removed when the command ends.
   */
  readonly signal: AbortSignal;
  /** The service (`SVC_BASE_URL`, or the data dir's embedded one), opened once, closed at the end. */
  service(): Promise<Service>;
  /**
   * A session manager, created once (the first call's options decide), closed at the end before
   * the service. Its sessions come from the provider the environment selects
   * (`SVC_SESSION_PROVIDER`, `SVC_CDP_URL`, `SVC_BASE_URL`); with none set, from the command's
   * service, or with `local` from a Chromium launched here, with no service started.
   */
  sessions(options?: SessionsOptions): Promise<SessionManager<DriverName>>;
  /** Runs `cleanup` when the command ends, whatever happened; cleanups run last-registered first. */
  defer(cleanup: () => Promise<unknown> | unknown): void;
}

/** Options of {@link CommandContext.sessions}. */
export interface SessionsOptions {
  /**
   * Without a provider in the environment, launch Chromium here (the `local` provider) instead of
   * taking sessions from the command's service, so no service is started for them.
   * @default false
   */
  local?: boolean | undefined;
}

/** What {@link defineCommand} takes. */
export interface CommandSpec<O extends OptionSpecs> {
  /** The command's name, e.g. `ask`: the help title is `svc <name>` unless `program` says otherwise. */
  name: string;
  /** One line: what the command does (the help's first line). */
  summary: string;
  /** The usage lines, without `Usage:`, e.g. `svc ask <question...> [options]`. */
  usage: string | readonly string[];
  /** The command's own flags, in help order. */
  options: O;
  /** Take arguments that are not flags. @default false */
  positionals?: boolean;
  /** Add `--json` with this help text. @default no `--json` */
  json?: string;
  /** Add `--data-dir` with this help text (`true`: the standard text). @default no `--data-dir` */
  dataDir?: true | string;
  /** Paragraphs printed after the options (what it does, exit codes). */
  notes?: string;
  /** Example command lines. */
  examples: readonly string[];
  /** Help title instead of `svc <name>` (a recipe script's `tsx recipes/x.ts`). */
  program?: string;
  /** The work; returns the exit code ({@link EXIT}). Throw {@link UsageError} for a bad command line. */
  run(ctx: CommandContext<O>): Promise<number>;
}

/** A defined command. */
export interface Command {
  readonly name: string;
  readonly summary: string;
  /** The generated `--help` text. */
  help(): string;
  /**
   * Parses `argv` and runs the command, then releases what it opened.
   * @returns the exit code
   * @throws UsageError for a bad command line; whatever the work throws otherwise
   */
  run(argv: readonly string[]): Promise<number>;
}

const DATA_DIR_HELP = 'data dir of the embedded service (default SVC_DATA_DIR or ~/.svc-toolkit)';
const HELP_FLAG: OptionSpec = { type: 'boolean', short: 'h', help: 'this help' };
const FLAG_WIDTH = 18;

/**
 * Defines a command: the same parsing (`node:util` `parseArgs`, strict), `--help` generated from
 * its options and examples, `--json` and `--data-dir` when asked for, exit code 2 for every bad
 * command line, and one runtime released in one place.
 * @example
 * export const hello = defineCommand({
 *   name: 'hello', summary: 'greets', usage: 'svc hello <name>', positionals: true, json: 'as JSON',
 *   options: { loud: { type: 'boolean', help: 'shout' } }, examples: ['svc hello world'],
 *   async run({ positionals, values, json }) { ...; return EXIT.ok; },
 * });
 */
export function defineCommand<const O extends OptionSpecs>(spec: CommandSpec<O>): Command {
  const all: Record<string, OptionSpec> = { ...spec.options };
  if (spec.json !== undefined) all.json = { type: 'boolean', help: spec.json };
  if (spec.dataDir !== undefined) {
    all['data-dir'] = {
      type: 'string',
      arg: '<dir>',
      help: spec.dataDir === true ? DATA_DIR_HELP : spec.dataDir,
    };
  }
  all.help = HELP_FLAG;
  const title = spec.program ?? `svc ${spec.name}`;
  const help = (): string => formatHelp(title, spec, all);
  return {
    name: spec.name,
    summary: spec.summary,
    help,
    async run(argv) {
      let parsed;
      try {
        parsed = parseArgs({
          args: [...argv],
          strict: true,
          allowPositionals: spec.positionals ?? false,
          options: Object.fromEntries(
            Object.entries(all).map(([name, o]) => [
              name,
              {
                type: o.type,
                ...(o.multiple && { multiple: true }),
                ...(o.short !== undefined && { short: o.short }),
              },
            ]),
          ),
        });
      } catch (error) {
        throw new UsageError(`${spec.name}: ${(error as Error).message}`);
      }
      const values = parsed.values as Record<string, unknown>;
      if (values.help === true) {
        process.stdout.write(help());
        return EXIT.ok;
      }
      const dataDirFlag = values['data-dir'] as string | undefined;
      const runtime = new Runtime(dataDirFlag);
      try {
        return await spec.run({
          name: spec.name,
          help,
          values: values as OptionValues<O>,
          positionals: parsed.positionals,
          json: values.json === true,
          dataDirFlag,
          get signal() {
            return runtime.signal();
          },
          service: () => runtime.service(),
          sessions: (options) => runtime.sessions(options),
          defer: (cleanup) => runtime.defer(cleanup),
        });
      } finally {
        await runtime.close();
      }
    },
  };
}

/**
 * Runs `command` on this process's arguments and sets `process.exitCode`: the command's code, or
 * the one its error stands for, printed as `<prefix>: <message>`. The entry point of `svc` and of
 * every recipe script.
 * @example
 * if (isMain(import.meta.url)) runCommand(citeAndCaptureCommand);
 */
export function runCommand(
  command: Pick<Command, 'run'>,
  argv: readonly string[] = process.argv.slice(2),
  prefix = 'svc',
): Promise<number> {
  return command.run(argv).then(
    (code) => (process.exitCode = code),
    (error: unknown) => (process.exitCode = printError(error, process.stderr, prefix)),
  );
}

/** What a command opened, released once, in reverse order, by {@link Runtime.close}. */
class Runtime {
  readonly #dataDir: string | undefined;
  readonly #cleanups: Array<() => Promise<unknown> | unknown> = [];
  #service: Promise<Service> | undefined;
  #sessions: Promise<SessionManager<DriverName>> | undefined;
  #signal: AbortSignal | undefined;

  constructor(dataDir: string | undefined) {
    this.#dataDir = dataDir;
  }

  defer(cleanup: () => Promise<unknown> | unknown): void {
    this.#cleanups.push(cleanup);
  }

  signal(): AbortSignal {
    if (this.#signal === undefined) {
      const controller = new AbortController();
      const onSignal = (): void => {
        if (controller.signal.aborted) process.exit(EXIT.interrupted);
        controller.abort(new Error('interrupted'));
      };
      process.on('SIGINT', onSignal);
      process.on('SIGTERM', onSignal);
      this.defer(() => {
        process.off('SIGINT', onSignal);
        process.off('SIGTERM', onSignal);
      });
      this.#signal = controller.signal;
    }
    return this.#signal;
  }

  // Each cleanup is registered when its resource is first asked for, not when it is ready, so the
  // reverse order holds even when a later resource finishes opening first.
  service(): Promise<Service> {
    if (this.#service === undefined) {
      const opening = import('./service.js').then(({ openService }) =>
        openService({ dataDir: this.#dataDir }),
      );
      this.#service = opening;
      this.defer(async () => (await settled(opening))?.close());
    }
    return this.#service;
  }

  sessions(options: SessionsOptions = {}): Promise<SessionManager<DriverName>> {
    if (this.#sessions === undefined) {
      const opening = (async () => {
        const { SessionManager, readSessionEnv, selectProvider } =
          await import('../sessions/index.js');
        const env = readSessionEnv();
        if (options.local === true && selectProvider({}, env) !== 'api') {
          return new SessionManager<DriverName>({});
        }
        const { client } = await this.service();
        const provider = selectProvider({ client }, env);
        return new SessionManager<DriverName>({
          provider,
          ...(provider === 'api' && { client }),
        });
      })();
      this.#sessions = opening;
      this.defer(async () => (await settled(opening))?.close());
    }
    return this.#sessions;
  }

  async close(): Promise<void> {
    const errors: unknown[] = [];
    for (const cleanup of this.#cleanups.splice(0).reverse()) {
      try {
        await cleanup();
      } catch (error) {
        errors.push(error);
      }
    }
    if (errors.length === 1) throw errors[0];
    if (errors.length > 1) throw new AggregateError(errors, 'Closing the command failed');
  }
}

/** The value `promise` resolves to, or `undefined` when it rejects (its caller saw the error). */
function settled<T>(promise: Promise<T>): Promise<T | undefined> {
  return promise.catch(() => undefined);
}

function formatHelp(
  title: string,
  spec: CommandSpec<OptionSpecs>,
  options: Record<string, OptionSpec>,
): string {
  const usage =
    typeof spec.usage === 'string'
      ? `Usage: ${spec.usage}`
      : `Usage:\n${spec.usage.map((u) => `  ${u}`).join('\n')}`;
  const lines = Object.entries(options).map(([name, o]) => {
    const flag = `${o.short !== undefined ? `-${o.short}, ` : ''}--${name}${o.arg !== undefined ? ` ${o.arg}` : ''}`;
    const [first = '', ...rest] = o.help.split('\n');
    const head = `  ${flag.padEnd(FLAG_WIDTH)}  ${first}`.trimEnd();
    return [head, ...rest.map((r) => `${' '.repeat(FLAG_WIDTH + 4)}${r}`)].join('\n');
  });
  const parts = [`${title}: ${spec.summary}`, usage, `Options:\n${lines.join('\n')}`];
  if (spec.notes !== undefined) parts.push(spec.notes.trim());
  parts.push(`Examples:\n${spec.examples.map((e) => `  ${e}`).join('\n')}`);
  return `${parts.join('\n\n')}\n`;
}

/** Resolves when `signal` aborts (at once if it has): a long-running command's wait for Ctrl-C. */
export function aborted(signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) =>
    signal.addEventListener('abort', () => resolve(), { once: true }),
  );
}
