import { parseArgs } from 'node:util';
import type { Client } from '../../client/index.js';
import { NotFoundError } from '../../errors.js';
import type { BrowserContext } from '../../protocol/index.js';
import { EXIT, parseOrUsage, UsageError } from '../common.js';
import { printJson, printTable } from '../output.js';
import { withService } from '../service.js';

const HELP = `svc contexts: saved browser contexts (cookies, localStorage, IndexedDB)

Usage:
  svc contexts ls [--json]           your contexts, newest first
  svc contexts create [--json]       a new, empty context; prints its id
  svc contexts rm <id>...            delete contexts and their saved state

Options: --data-dir <dir> (embedded service, default SVC_DATA_DIR or ~/.svc-toolkit), --json, -h

A session created with {"context": {"id": "<id>", "persist": true}} starts with the context's
state and saves its own back when it is stopped or expires. State is encrypted at rest; a
context is yours alone, and in use by one running session at a time.

Examples:
  svc contexts create
  svc contexts ls
  svc contexts rm 6a1d2c9e-3f0b-4c4e-8d7a-2b1f0e9c5a44
`;

/** `svc contexts ls|create|rm`. */
export async function runContexts(argv: string[]): Promise<number> {
  const { values, positionals } = parseOrUsage('contexts', () =>
    parseArgs({
      args: argv,
      strict: true,
      allowPositionals: true,
      options: {
        json: { type: 'boolean' },
        'data-dir': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }),
  );
  const [action, ...ids] = positionals;
  if (values.help || action === undefined) {
    process.stdout.write(HELP);
    return values.help ? EXIT.ok : EXIT.usage;
  }
  const service = { dataDir: values['data-dir'] };
  switch (action) {
    case 'ls':
    case 'list':
      return withService(service, async ({ client }, signal) => {
        const { contexts } = await client.browser.contexts.list({ signal });
        if (values.json) printJson({ contexts });
        else if (contexts.length === 0) process.stderr.write('svc: no contexts\n');
        else printContexts(contexts);
        return EXIT.ok;
      });
    case 'create':
      return withService(service, async ({ client }, signal) => {
        const context = await client.browser.contexts.create({}, { signal });
        if (values.json) printJson(context);
        else process.stdout.write(`${context.id}\n`);
        return EXIT.ok;
      });
    case 'rm':
    case 'delete':
      if (ids.length === 0)
        throw new UsageError('contexts rm: give context ids (see svc contexts ls)');
      return withService(service, ({ client }, signal) => remove(client, ids, values.json, signal));
    default:
      throw new UsageError(`contexts: unknown action '${action}' (ls, create, rm)`);
  }
}

function printContexts(contexts: readonly BrowserContext[]): void {
  printTable(
    ['id', 'created', 'saved', 'bytes', 'in use by'],
    contexts.map((c) => [
      c.id,
      time(c.created_at),
      c.updated_at === null || c.updated_at === undefined ? '-' : time(c.updated_at),
      String(c.size_bytes ?? 0),
      c.session_id ?? '-',
    ]),
    { maxWidth: [36, 20, 20, 10, 36] },
  );
}

/** Unix seconds as `YYYY-MM-DD HH:MM:SS` (UTC). */
function time(seconds: number): string {
  return new Date(seconds * 1000).toISOString().slice(0, 19).replace('T', ' ');
}

async function remove(
  client: Client,
  ids: readonly string[],
  json: boolean | undefined,
  signal: AbortSignal,
): Promise<number> {
  const results: { id: string; deleted: boolean; error?: string }[] = [];
  for (const id of ids) {
    try {
      await client.browser.contexts.delete(id, { signal });
      results.push({ id, deleted: true });
    } catch (error) {
      // One unknown id must not stop the others; a context in use (409) is an error worth stopping on.
      if (!(error instanceof NotFoundError)) throw error;
      results.push({ id, deleted: false, error: error.message });
    }
  }
  if (json) printJson({ results });
  else
    for (const r of results) {
      if (r.deleted) process.stdout.write(`deleted ${r.id}\n`);
      else process.stderr.write(`svc: ${r.id}: ${r.error}\n`);
    }
  return results.every((r) => r.deleted) ? EXIT.ok : EXIT.failure;
}
