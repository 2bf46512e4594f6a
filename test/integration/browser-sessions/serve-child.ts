// Runs a real server in its own process so a test can SIGKILL it: `node --import tsx serve-child.ts <dataDir>`.
import { startServer } from '../../../src/server/index.js';
import { KEYS } from './helpers.js';

const dataDir = process.argv[2];
if (!dataDir) throw new Error('usage: serve-child.ts <dataDir>');
const server = await startServer({
  port: 0,
  dataDir,
  apiKeys: KEYS,
  warmPoolSize: 1,
  logLevel: 'silent',
});
process.stdout.write(JSON.stringify({ url: server.url }) + '\n');
