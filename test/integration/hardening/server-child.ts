// A real embedded server in its own process, so a test can SIGKILL it and read its /proc entry.
// Usage: node --import tsx server-child.ts <dataDir> [options JSON]
// Prints one JSON line `{url, pid}` once listening, or `{error}` and exits 1 when the start fails.
import { startServer } from '../../../src/server/index.js';
import type { ServerOptions } from '../../../src/server/index.js';

const [dataDir, json] = process.argv.slice(2);
if (!dataDir) throw new Error('usage: server-child.ts <dataDir> [options JSON]');
const options = JSON.parse(json ?? '{}') as ServerOptions;
try {
  const server = await startServer({ port: 0, logLevel: 'silent', ...options, dataDir });
  process.stdout.write(JSON.stringify({ url: server.url, pid: process.pid }) + '\n');
  const stop = (): void => void server.close().then(() => process.exit(0));
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
} catch (error) {
  process.stdout.write(JSON.stringify({ error: (error as Error).message }) + '\n');
  process.exit(1);
}
