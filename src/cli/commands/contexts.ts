import type { Client } from '../../client/index.js';
import type { BrowserContext } from '../../protocol/index.js';
import { defineCommand } from '../command.js';
import { EXIT, UsageError } from '../common.js';
import { formatTime, printJson, printTable } from '../output.js';
import { deleteEach, subcommand } from './subcommand.js';

/** `svc contexts ls|create|rm`. */
export const contextsCommand = defineCommand({
  name: 'contexts',
  summary: 'saved browser contexts (cookies, localStorage, IndexedDB)',
  usage: [
    'svc contexts ls [--json]           your contexts, newest first',
    'svc contexts create [--json]       a new, empty context; prints its id',
    'svc contexts rm <id>...            delete contexts and their saved state',
  ],
  positionals: true,
  options: {},
  json: 'print the contexts, the new context or the results as JSON',
  dataDir: true,
  notes: `A session created with {"context": {"id": "<id>", "persist": true}} starts with the context's
state and saves its own back when it is stopped or expires. State is encrypted at rest; a
context is yours alone, and in use by one running session at a time.`,
  examples: [
    'svc contexts create',
    'svc contexts ls',
    'svc contexts rm 6a1d2c9e-3f0b-4c4e-8d7a-2b1f0e9c5a44',
  ],
  run: (ctx) =>
    subcommand(ctx, {
      async ls() {
        const { client } = await ctx.service();
        const { contexts } = await client.browser.contexts.list({ signal: ctx.signal });
        if (ctx.json) printJson({ contexts });
        else if (contexts.length === 0) process.stderr.write('svc: no contexts\n');
        else printContexts(contexts);
        return EXIT.ok;
      },
      async create() {
        const { client } = await ctx.service();
        const context = await client.browser.contexts.create({}, { signal: ctx.signal });
        if (ctx.json) printJson(context);
        else process.stdout.write(`${context.id}\n`);
        return EXIT.ok;
      },
      async rm(ids) {
        if (ids.length === 0) {
          throw new UsageError('contexts rm: give context ids (see svc contexts ls)');
        }
        const { client } = await ctx.service();
        return remove(client, ids, ctx.json, ctx.signal);
      },
    }),
});

function printContexts(contexts: readonly BrowserContext[]): void {
  printTable(
    ['id', 'created', 'saved', 'bytes', 'in use by'],
    contexts.map((c) => [
      c.id,
      formatTime(c.created_at),
      c.updated_at === null || c.updated_at === undefined ? '-' : formatTime(c.updated_at),
      String(c.size_bytes ?? 0),
      c.session_id ?? '-',
    ]),
    { maxWidth: [36, 20, 20, 10, 36] },
  );
}

async function remove(
  client: Client,
  ids: readonly string[],
  json: boolean,
  signal: AbortSignal,
): Promise<number> {
  // A context in use (409) is an error worth stopping on; an unknown id only fails itself.
  const results = await deleteEach(ids, (id) => client.browser.contexts.delete(id, { signal }));
  if (json) printJson({ results });
  else
    for (const r of results) {
      if (r.deleted) process.stdout.write(`deleted ${r.id}\n`);
      else process.stderr.write(`svc: ${r.id}: ${r.error}\n`);
    }
  return results.every((r) => r.deleted) ? EXIT.ok : EXIT.failure;
}
