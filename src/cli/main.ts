#!/usr/bin/env node
import type { Command } from './command.js';
import { runCommand } from './command.js';
import { EXIT } from './common.js';

// Commands load on demand: `svc --help` or a usage error must not pay for SQLite, the answer
// engine or Chromium code.
const COMMANDS: Record<string, { summary: string; load: () => Promise<Command> }> = {
  serve: {
    summary: 'run the embedded service on loopback',
    load: async () => (await import('./commands/serve.js')).serveCommand,
  },
  index: {
    summary: 'add files, folders and web pages to the local index',
    load: async () => (await import('./commands/index.js')).indexCommand,
  },
  ask: {
    summary: 'an answer with numbered citations, streamed; --capture for evidence',
    load: async () => (await import('./commands/ask.js')).askCommand,
  },
  search: {
    summary: 'ranked search results, no language model',
    load: async () => (await import('./commands/search.js')).searchCommand,
  },
  research: {
    summary: 'a deep-research job, polled until done, resumable',
    load: async () => (await import('./commands/research.js')).researchCommand,
  },
  verify: {
    summary: "an answer's citations checked on their pages and scored (a CI gate)",
    load: async () => (await import('./commands/verify.js')).verifyCommand,
  },
  scrape: {
    summary: 'search, then read the top results as Markdown; --schema extracts',
    load: async () => (await import('./commands/scrape.js')).scrapeCommand,
  },
  bundle: {
    summary: 'archive pages: Markdown, HTML, PNG, PDF, HAR and timings per URL',
    load: async () => (await import('./commands/bundle.js')).bundleCommand,
  },
  embed: {
    summary: 'embeddings of texts and their similarity matrix',
    load: async () => (await import('./commands/embed.js')).embedCommand,
  },
  sessions: {
    summary: 'list, create and stop browser sessions (ls|create|rm)',
    load: async () => (await import('./commands/sessions.js')).sessionsCommand,
  },
  contexts: {
    summary: 'saved browser contexts sessions start from (ls|create|rm)',
    load: async () => (await import('./commands/contexts.js')).contextsCommand,
  },
  keys: {
    summary: 'create, list and revoke API keys of the embedded service',
    load: async () => (await import('./commands/keys.js')).keysCommand,
  },
  mcp: {
    summary: 'serve the tools to agents over MCP (stdio, or --http)',
    load: async () => (await import('./commands/mcp.js')).mcpCommand,
  },
};

const HELP = `svc: answers, search results and browser sessions, turned into evidence

Usage: svc <command> [options]     (svc <command> --help for its options; svc --version)

Commands:
${Object.entries(COMMANDS)
  .map(([name, c]) => `  ${name.padEnd(10)} ${c.summary}`)
  .join('\n')}

Without SVC_BASE_URL, commands start the embedded service themselves, on the data dir
(--data-dir, SVC_DATA_DIR, default ~/.svc-toolkit): what \`svc index\` adds, \`svc ask\` answers from.
With SVC_BASE_URL (and SVC_API_KEY) they talk to that service.

Exit codes:
  0    done
  1    the work failed (an input failed to index, a job failed, the service answered an error),
       or found problems: svc verify below --min-score, svc bundle with a page not read
  2    bad command line (unknown command or flag, bad value)
  3    service unavailable: unreachable, not configured, or the API key was refused
  130  interrupted (Ctrl-C)

Examples:
  svc index ./docs https://example.com/guide
  svc ask how does the index rank results
  svc search sqlite fts5 --max-results 5
  svc ask how does the recycling plant recover lithium --capture --out evidence
  svc verify --completion answer.json --min-score 0.8
  svc scrape battery recycling --max-pages 3 --out pages
  svc bundle https://example.com/article --out bundles
  svc research compare LFP and NMC cell ageing --effort high
  svc research compare LFP and NMC cell ageing --capture --out evidence
  svc embed "first text" "second text"
  svc sessions ls
  svc serve --port 8787
  svc keys create --user alice
`;

/** The `svc` dispatcher: `--version`, the main help, or the named command. */
const svc: Pick<Command, 'run'> = {
  run: async (argv) => main(argv),
};

async function main(argv: readonly string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === '--version' || name === '-v' || name === 'version') {
    process.stdout.write(`${await packageVersion()}\n`);
    return EXIT.ok;
  }
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(HELP);
    return name === undefined ? EXIT.usage : EXIT.ok;
  }
  const command = COMMANDS[name];
  if (!command) {
    process.stderr.write(`svc: unknown command '${name}'\n\n${HELP}`);
    return EXIT.usage;
  }
  return (await command.load()).run(rest);
}

/** The version in package.json, found from this file in the source tree or in `dist/`. */
async function packageVersion(): Promise<string> {
  const { readFile } = await import('node:fs/promises');
  for (const up of ['../../package.json', '../../../package.json']) {
    try {
      const pkg = JSON.parse(await readFile(new URL(up, import.meta.url), 'utf8')) as {
        name?: string;
        version?: string;
      };
      if (pkg.name === 'svc-toolkit' && pkg.version) return pkg.version;
    } catch {
      // Not at this depth: src/cli/main.ts and dist/src/cli/main.js sit at different ones.
    }
  }
  return 'unknown';
}

void runCommand(svc);
