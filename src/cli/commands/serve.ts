import { startServer } from '../../server/index.js';
import { parseArgs } from 'node:util';
import { EXIT, intOption, parseOrUsage } from '../common.js';

const HELP = `svc serve: run the embedded service

Options:
  --host <addr>       interface to bind (default 127.0.0.1; others need --allow-remote)
  --port <n>          port (default 8787; 0 picks a free one)
  --data-dir <dir>    database, browser profiles (default ~/.svc-toolkit or SVC_DATA_DIR)
  --max-sessions <n>  concurrent browser sessions
  --allow-remote      permit binding beyond loopback

Keys come from SVC_API_KEY (comma-separated); with none stored, one is generated and printed once.

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
  const port = intOption('port', values.port);
  const maxSessions = intOption('max-sessions', values['max-sessions']);
  const server = await startServer({
    ...(values.host !== undefined && { host: values.host }),
    ...(port !== undefined && { port }),
    ...(values['data-dir'] !== undefined && { dataDir: values['data-dir'] }),
    ...(maxSessions !== undefined && { maxSessions }),
    ...(values['allow-remote'] !== undefined && { allowRemote: values['allow-remote'] }),
  });
  process.stdout.write(`svc: listening on ${server.url}\n`);
  if (server.generatedApiKey) {
    process.stdout.write(`svc: generated API key (shown once, stored hashed): ${server.apiKey}\n`);
  }
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
