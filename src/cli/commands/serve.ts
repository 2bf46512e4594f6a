import path from 'node:path';
import { startServer } from '../../server/index.js';
import { readDataDirPort, SERVICE_FILES } from '../../server/service-lock.js';
import { aborted, defineCommand } from '../command.js';
import { EXIT } from '../common.js';
import { rangeOption } from '../output.js';
import { resolveDataDir } from '../service.js';

/** `svc serve`: runs until SIGINT/SIGTERM, then shuts down gracefully (sessions ended, storage closed). */
export const serveCommand = defineCommand({
  name: 'serve',
  summary: 'run the embedded service',
  usage: 'svc serve [options]',
  options: {
    host: {
      type: 'string',
      arg: '<addr>',
      help: 'interface to bind (default 127.0.0.1; others need --allow-remote)',
    },
    port: {
      type: 'string',
      arg: '<n>',
      help: "port (default SVC_PORT, else the data dir's own port, else 8787;\n0 picks a free one); the data dir keeps it, so its links stay valid",
    },
    'max-sessions': { type: 'string', arg: '<n>', help: 'concurrent browser sessions' },
    'allow-remote': { type: 'boolean', help: 'permit binding beyond loopback' },
    'grid-url': {
      type: 'string',
      arg: '<url>',
      help: 'run browser sessions on this Selenium Grid 4 (default SVC_GRID_URL;\nelse local Chromium): no warm pool, no session files, contexts keep\ncookies only (see docs/sessions.md)',
    },
    'database-url': {
      type: 'string',
      arg: '<url>',
      help: "keep keys, session records, contexts and jobs in this PostgreSQL\n(postgres://user:pass@host/db; default SVC_DATABASE_URL, else the data\ndir's SQLite): several instances on one database act as one service\n(see docs/postgres.md)",
    },
    'internal-url': {
      type: 'string',
      arg: '<url>',
      help: 'where the other instances reach this one, to forward CDP connections\n(default SVC_INTERNAL_URL, else the listen URL)',
    },
    recycle: {
      type: 'boolean',
      help: "hand the wiped browser of a deleted session to the same user's next\nsession instead of launching one (never to another user; off by default:\nsee docs/sessions.md for what a wipe clears and what it cannot)",
    },
  },
  dataDir: 'database, browser profiles (default SVC_DATA_DIR or ~/.svc-toolkit)',
  notes: `One service per data dir: while it runs, every \`svc\` command on the same data dir uses it (and
its browser sessions) instead of starting its own. Other programs authenticate with the data
dir's local key (the file local.key in the data dir), a key from \`svc keys create\`, or
SVC_API_KEY (comma-separated keys, accepted too).

Exit: 0 after Ctrl-C, 1 when it cannot start (port in use, data dir already served), 2 bad usage.`,
  examples: ['svc serve --port 8787 --data-dir ./.svc'],
  async run(ctx) {
    const { values } = ctx;
    const flagPort = rangeOption('serve', 'port', values.port, 0, 65_535);
    const maxSessions = rangeOption('serve', 'max-sessions', values['max-sessions'], 1, 10_000);
    const dataDir = await resolveDataDir(ctx.dataDirFlag);
    const port = flagPort ?? (process.env.SVC_PORT ? undefined : readDataDirPort(dataDir));
    const server = await startServer({
      ...(values.host !== undefined && { host: values.host }),
      ...(port !== undefined && { port }),
      dataDir,
      ...(maxSessions !== undefined && { maxSessions }),
      ...(values['allow-remote'] !== undefined && { allowRemote: values['allow-remote'] }),
      ...(values['grid-url'] !== undefined && { gridUrl: values['grid-url'] }),
      ...(values.recycle !== undefined && { recycle: values.recycle }),
      ...(values['database-url'] !== undefined && { databaseUrl: values['database-url'] }),
      ...(values['internal-url'] !== undefined && { internalUrl: values['internal-url'] }),
    });
    process.stdout.write(`svc: listening on ${server.url}\n`);
    process.stdout.write(
      `svc: data dir ${dataDir}; API key: the local key in ${path.join(dataDir, SERVICE_FILES.localKey)}\n`,
    );
    await aborted(ctx.signal);
    process.stdout.write('svc: shutting down\n');
    await server.close();
    return EXIT.ok;
  },
});
