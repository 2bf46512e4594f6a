/**
 * The embedded service as the benches start it: a fresh data dir, one key, no logs, and no warm
 * pool (a bench's browsers come from its own pool or launcher, so the service's would only
 * compete for the same cores).
 */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '../../src/index.js';
import { startServer } from '../../src/server/index.js';
import type { RunningServer } from '../../src/server/index.js';

/** A started service, a client for it, and where its data lives. */
export interface BenchService {
  server: RunningServer;
  client: Client;
  dataDir: string;
  key: string;
}

/**
 * Starts the service on a loopback port with a data dir under the system temp dir.
 * @param name names the data dir (`svc-bench-<name>-...`)
 * @example const { server, client } = await startBenchService('evidence');
 */
export async function startBenchService(name: string): Promise<BenchService> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), `svc-bench-${name}-`));
  const key = 'svc_bench-0123456789abcdefghijklmnopqrstuvw';
  const quiet = { debug() {}, info() {}, warn() {}, error() {} };
  const server = await startServer({
    port: 0,
    dataDir,
    apiKeys: [key],
    logger: quiet,
    warmPoolSize: 0,
  });
  return { server, client: new Client({ baseURL: server.url, apiKey: key }), dataDir, key };
}
