#!/usr/bin/env node
import { runKeys } from './commands/keys.js';
import { runServe } from './commands/serve.js';
import { EXIT, UsageError } from './common.js';

const COMMANDS: Record<string, { summary: string; run: (argv: string[]) => Promise<number> }> = {
  serve: { summary: 'run the embedded service on loopback', run: runServe },
  keys: { summary: 'create, list and revoke API keys of the embedded service', run: runKeys },
};

const HELP = `svc: answers, search results and browser sessions, turned into evidence

Usage: svc <command> [options]     (svc <command> --help for its options)

Commands:
${Object.entries(COMMANDS)
  .map(([name, c]) => `  ${name.padEnd(10)} ${c.summary}`)
  .join('\n')}

Examples:
  svc serve --port 8787
  svc keys create --user alice
`;

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(HELP);
    return name === undefined ? EXIT.usage : EXIT.ok;
  }
  const command = COMMANDS[name];
  if (!command) {
    process.stderr.write(`svc: unknown command '${name}'\n\n${HELP}`);
    return EXIT.usage;
  }
  return command.run(rest);
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    if (error instanceof UsageError) {
      process.stderr.write(`svc: ${error.message}\n`);
      process.exitCode = EXIT.usage;
      return;
    }
    process.stderr.write(`svc: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = EXIT.failure;
  },
);
