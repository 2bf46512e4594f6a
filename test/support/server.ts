import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startServer } from '../../src/server/index.js';
import type { Logger, RunningServer, ServerOptions } from '../../src/server/index.js';

/** A started test server plus what the test needs to inspect it. */
export interface TestServer extends RunningServer {
  dataDir: string;
  /** Every log line the server wrote, as JSON strings. */
  logs: string[];
  /** Closes the server and removes its data dir. */
  dispose(): Promise<void>;
}

/** A fresh temporary data dir. */
export function tempDir(prefix = 'svc-test-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

/** A logger capturing lines into `lines` (so tests can assert nothing secret is logged). */
export function captureLogger(lines: string[]): Logger {
  const push = (level: string) => (msg: string, fields?: Record<string, unknown>) =>
    void lines.push(JSON.stringify({ level, msg, ...fields }));
  return { debug: push('debug'), info: push('info'), warn: push('warn'), error: push('error') };
}

/**
 * Starts the real embedded server on 127.0.0.1:0 with a temp data dir and generous rate limits
 * (tests that exercise limits pass their own).
 */
export async function startTestServer(options: ServerOptions = {}): Promise<TestServer> {
  const dataDir = options.dataDir ?? tempDir();
  const logs: string[] = [];
  const server = await startServer({
    port: 0,
    warmPoolSize: 0,
    rateLimits: {
      chat: 10_000,
      async: 10_000,
      search: 10_000,
      embeddings: 10_000,
      browser: 10_000,
      auth: 10_000,
    },
    logger: captureLogger(logs),
    ...options,
    dataDir,
  });
  return Object.assign(server, {
    dataDir,
    logs,
    async dispose() {
      await server.close();
      if (!options.dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
    },
  });
}
