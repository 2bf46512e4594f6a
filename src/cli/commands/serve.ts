import path from 'node:path';
import { parseArgs } from 'node:util';
import { startServer } from '../../server/index.js';
import { readDataDirPort, SERVICE_FILES } from '../../server/service-lock.js';
import { EXIT, intOption, parseOrUsage, UsageError } from '../common.js';
import { resolveDataDir } from '../service.js';

const HELP = `svc serve: run the embedded service

Options:
  --host <addr>       interface to bind (default 127.0.0.1; others need --allow-remote)
  --port <n>          port (default SVC_PORT, else the data dir's own port, else 8787;
                      0 picks a free one); the data dir keeps it, so its links stay valid
  --data-dir <dir>    database, browser profiles (default ~/.svc-toolkit or SVC_DATA_DIR)
  --max-sessions <n>  concurrent browser sessions
  --allow-remote      permit binding beyond loopback

One service per data dir: while it runs, every \`svc\` command on the same data dir uses it (and
its browser sessions) instead of starting its own. Other programs authenticate with the data
dir's local key (the file local.key in the data dir), a key from \`svc keys create\`, or
SVC_API_KEY (comma-separated keys, accepted too).

Exit: 0 after Ctrl-C, 1 when it cannot start (port in use, data dir already served), 2 bad usage.

Example:
  svc serve --port 8787 --data-dir ./.svc
`;

/** `svc serve`: runs until SIGINT/SIGTERM, then shuts down gracefully (sessions ended, storage closed). */
export async function runServe(argv: string[]): Promise<number> {
  const { values } = parseOrUsage('serve', () =>
    parseArgs({
      args: argv,
      strict: true,
      options: {
        host: { type: 'string' },
        port: { type: 'string' },
        'data-dir': { type: 'string' },
        'max-sessions': { type: 'string' },
        'allow-remote': { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    }),
  );
  if (values.help) {
    process.stdout.write(HELP);
    return EXIT.ok;
  }
  const flagPort = intOption('port', values.port);
  if (flagPort !== undefined && (flagPort < 0 || flagPort > 65535)) {
    throw new UsageError(`serve: --port: expected an integer from 0 to 65535, got ${flagPort}`);
  }
  const maxSessions = intOption('max-sessions', values['max-sessions']);
  if (maxSessions !== undefined && maxSessions < 1) {
    throw new UsageError(`serve: --max-sessions: expected a positive integer, got ${maxSessions}`);
  }
  const dataDir = await resolveDataDir(values['data-dir']);
  const port = flagPort ?? (process.env.SVC_PORT ? undefined : readDataDirPort(dataDir));
  const server = await startServer({
    ...(values.host !== undefined && { host: values.host }),
    ...(port !== undefined && { port }),
    dataDir,
    ...(maxSessions !== undefined && { maxSessions }),
    ...(values['allow-remote'] !== undefined && { allowRemote: values['allow-remote'] }),
  });
  process.stdout.write(`svc: listening on ${server.url}\n`);
  process.stdout.write(
    `svc: data dir ${dataDir}; API key: the local key in ${path.join(dataDir, SERVICE_FILES.localKey)}\n`,
  );
  await new Promise<void>((resolve) => {
    const stop = (): void => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
  process.stdout.write('svc: shutting down\n');
  await server.close();
  return EXIT.ok;
}
