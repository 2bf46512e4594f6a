// A server in its own process, so a test can SIGKILL it: `serve-child.ts <dataDir> <databaseUrl>`.
import { startServer } from '../../../src/server/index.js';
import { KEYS } from '../browser-sessions/helpers.js';

const [dataDir, databaseUrl] = process.argv.slice(2);
if (!dataDir || !databaseUrl) throw new Error('usage: serve-child.ts <dataDir> <databaseUrl>');
const server = await startServer({
  port: 0,
  dataDir,
  databaseUrl,
  apiKeys: KEYS,
  warmPoolSize: 0,
  logLevel: 'silent',
});
process.stdout.write(JSON.stringify({ url: server.url }) + '\n');
