import type { Client } from '../../client/index.js';
import { NotFoundError } from '../../errors.js';
import type { BrowserSession, BrowserSessionCreateRequest } from '../../protocol/index.js';
import { aborted, defineCommand } from '../command.js';
import { EXIT, UsageError } from '../common.js';
import { formatTime, printJson, printTable, rangeOption } from '../output.js';
import { subcommand } from './subcommand.js';
import type { Service } from '../service.js';

/** `svc sessions ls|create|rm`. */
export const sessionsCommand = defineCommand({
  name: 'sessions',
  summary: 'browser sessions of the service',
  usage: [
    'svc sessions ls [--all] [--json]            your sessions (running ones; --all adds ended ones)',
    'svc sessions create [options] [--json]      start a session and print its CDP URL',
    'svc sessions rm <id>...                     stop sessions',
    'svc sessions rm --all                       stop every running session',
  ],
  positionals: true,
  options: {
    all: { type: 'boolean', help: 'ls: ended sessions too; rm: every running session' },
    tag: {
      type: 'string',
      multiple: true,
      arg: '<t>',
      help: 'create: tag the session; repeat for several',
    },
    'idle-timeout': {
      type: 'string',
      arg: '<s>',
      help: 'create: end after this many idle seconds (5..86400)',
    },
    'max-duration': {
      type: 'string',
      arg: '<s>',
      help: 'create: end after this many seconds in total (10..86400)',
    },
  },
  json: 'print the sessions, the new session or the results as JSON',
  dataDir: true,
  notes: `Sessions live in the service that created them. Without SVC_BASE_URL that is the embedded service
of this very command: \`svc sessions create\` then keeps it running, and the session with it, until
Ctrl-C. To keep sessions across commands, run \`svc serve\` and set SVC_BASE_URL and SVC_API_KEY.`,
  examples: [
    'svc sessions ls',
    'svc sessions create --tag crawl --idle-timeout 120',
    'svc sessions rm 0b6f0e4e-2f7c-4d1e-9a55-5f4f8cfa3a10',
    'svc sessions rm --all',
  ],
  run: (ctx) => {
    const { values } = ctx;
    return subcommand(ctx, {
      async ls() {
        const { client } = await ctx.service();
        const { sessions } = await client.browser.sessions.list({ signal: ctx.signal });
        const shown = values.all ? sessions : sessions.filter((s) => s.status === 'running');
        if (ctx.json) printJson({ sessions: shown });
        else if (shown.length === 0)
          process.stderr.write(`svc: no ${values.all ? '' : 'running '}sessions\n`);
        else printSessions(shown);
        return EXIT.ok;
      },
      async create() {
        const idle = rangeOption('sessions', 'idle-timeout', values['idle-timeout'], 5, 86_400);
        const max = rangeOption('sessions', 'max-duration', values['max-duration'], 10, 86_400);
        const params: BrowserSessionCreateRequest = {
          ...(values.tag !== undefined && { tags: values.tag }),
          ...(idle !== undefined && { idle_timeout_s: idle }),
          ...(max !== undefined && { max_duration_s: max }),
        };
        return create(await ctx.service(), params, ctx.json, ctx.signal);
      },
      async rm(ids) {
        if (ids.length === 0 && !values.all) {
          throw new UsageError('sessions rm: give session ids, or --all (see svc sessions ls)');
        }
        if (ids.length > 0 && values.all) {
          throw new UsageError('sessions rm: give session ids or --all, not both');
        }
        const { client } = await ctx.service();
        return remove(client, values.all ? undefined : ids, ctx.json, ctx.signal);
      },
    });
  },
});

function printSessions(sessions: readonly BrowserSession[]): void {
  printTable(
    ['id', 'status', 'created', 'expires', 'tags'],
    sessions.map((s) => [
      s.session_id,
      s.status,
      formatTime(s.created_at),
      s.expires_at === null ? '-' : formatTime(s.expires_at),
      s.tags.join(','),
    ]),
    { maxWidth: [36, 8, 20, 20, 40] },
  );
}

async function create(
  { client, server }: Service,
  params: BrowserSessionCreateRequest,
  json: boolean,
  signal: AbortSignal,
): Promise<number> {
  const session = await client.browser.sessions.create(params, { signal });
  const cdpUrl = client.browser.sessions.cdpUrl(session);
  if (json) printJson({ ...session, cdp_url: cdpUrl });
  else {
    printSessions([session]);
    process.stdout.write(`\ncdp: ${cdpUrl}\n`);
  }
  if (server === undefined) return EXIT.ok;
  // The embedded service dies with this process, and the session with it: keep both until asked.
  process.stderr.write(
    "svc: the session runs in this command's embedded service; press Ctrl-C to end it\n",
  );
  await aborted(signal);
  await client.browser.sessions.delete(session.session_id);
  process.stderr.write(`svc: stopped ${session.session_id}\n`);
  return EXIT.ok;
}

async function remove(
  client: Client,
  ids: readonly string[] | undefined,
  json: boolean,
  signal: AbortSignal,
): Promise<number> {
  const targets =
    ids ??
    (await client.browser.sessions.list({ signal })).sessions
      .filter((s) => s.status === 'running')
      .map((s) => s.session_id);
  const results: Array<{
    session_id: string;
    stopped: boolean;
    /** The state it had already reached when it was not running any more. */
    status?: string;
    error?: string;
  }> = [];
  for (const id of targets) {
    try {
      // Deleting an ended session succeeds too; saying "stopped" for it would be untrue.
      const before = await client.browser.sessions.get(id, { signal });
      if (before.status !== 'running') {
        results.push({ session_id: id, stopped: false, status: before.status });
        continue;
      }
      await client.browser.sessions.delete(id, { signal });
      results.push({ session_id: id, stopped: true });
    } catch (error) {
      // One unknown id must not keep the others running; it is reported and sets exit 1.
      if (!(error instanceof NotFoundError)) throw error;
      results.push({ session_id: id, stopped: false, error: (error as Error).message });
    }
  }
  if (json) printJson({ results });
  else {
    for (const r of results) {
      if (r.stopped) process.stdout.write(`stopped ${r.session_id}\n`);
      else if (r.status !== undefined)
        process.stdout.write(`${r.session_id} had already ended (${r.status}): nothing to stop\n`);
      else process.stderr.write(`svc: ${r.session_id}: ${r.error}\n`);
    }
    if (targets.length === 0) process.stderr.write('svc: no running sessions\n');
  }
  return results.every((r) => r.stopped || r.status !== undefined) ? EXIT.ok : EXIT.failure;
}
