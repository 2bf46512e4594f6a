// How every `svc` command gets a client: the remote service named by SVC_BASE_URL, or the embedded
// server started in this process on the data dir, so `svc index` and `svc ask` share one index.
import path from 'node:path';
import type { Client } from '../client/index.js';
import { readClientEnv } from '../client/index.js';
import { connect } from '../connect.js';
import type { RunningServer } from '../server/index.js';
import { UnavailableError } from './output.js';

/** Options of {@link openService}. */
export interface ServiceOptions {
  /** Data dir of the embedded server (ignored with `SVC_BASE_URL`). @default SVC_DATA_DIR or ~/.svc-toolkit */
  dataDir?: string | undefined;
}

/** A client for the service the command talks to. Close it in `finally`. */
export interface Service {
  client: Client;
  /** The embedded server started for this command; `undefined` when talking to `SVC_BASE_URL`. */
  server: RunningServer | undefined;
  /** The data dir in use, or `undefined` for a remote service. */
  dataDir: string | undefined;
  /** Closes the client and the embedded server (idempotent). */
  close(): Promise<void>;
}

/**
 * The data dir a command uses: `--data-dir`, else `SVC_DATA_DIR`, else `~/.svc-toolkit`, resolved
 * to an absolute path. The server module (and its default) is loaded only when needed.
 */
export async function resolveDataDir(flag: string | undefined): Promise<string> {
  const explicit = flag ?? (process.env.SVC_DATA_DIR || undefined);
  if (explicit !== undefined) return path.resolve(explicit);
  return (await import('../server/index.js')).SERVER_DEFAULTS.dataDir;
}

/**
 * Opens the service: with `SVC_BASE_URL` (and `SVC_API_KEY`) a client for that service; without,
 * the embedded server on a free loopback port over the data dir, logging warnings only, with no
 * pre-launched browser.
 * @throws UnavailableError when `SVC_BASE_URL` is set without `SVC_API_KEY`
 * @throws Error when the embedded server cannot start (data dir unusable, corrupt database)
 */
export async function openService(options: ServiceOptions = {}): Promise<Service> {
  const env = readClientEnv();
  if (env.baseURL !== undefined) {
    if (env.apiKey === undefined) {
      throw new UnavailableError(
        `SVC_BASE_URL is set (${env.baseURL}) but SVC_API_KEY is not: set the key of that service, or unset SVC_BASE_URL to use the embedded one`,
      );
    }
    const { client, close } = await connect();
    return { client, server: undefined, dataDir: undefined, close: once(close) };
  }
  const dataDir = await resolveDataDir(options.dataDir);
  // No warm browser: most commands never open a session, and they live for seconds.
  const { client, server, close } = await connect({
    server: { dataDir, logLevel: 'warn', warmPoolSize: 0 },
  });
  return { client, server, dataDir, close: once(close) };
}

/**
 * Runs `work` with an open service and always closes it, also when `work` throws. The signal
 * aborts on the first SIGINT/SIGTERM so the command can stop its requests and clean up; a second
 * one exits at once with 130.
 * @example
 * return withService({ dataDir }, async ({ client }, signal) => { ... });
 */
export async function withService<T>(
  options: ServiceOptions,
  work: (service: Service, signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const service = await openService(options);
  const controller = new AbortController();
  const onSignal = (): void => {
    if (controller.signal.aborted) process.exit(130);
    controller.abort(new Error('interrupted'));
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    return await work(service, controller.signal);
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await service.close();
  }
}

function once(fn: () => Promise<void>): () => Promise<void> {
  let done: Promise<void> | undefined;
  return () => (done ??= fn());
}

/**
 * Where a result URL should point a reader of the terminal. The embedded service cites local
 * documents by signed `/docs/{id}` links on its own port, which die with this command; for those
 * it returns the document's source (the file path, or the URL it was fetched from). Other URLs,
 * and every URL of a remote service, come back unchanged.
 */
export function displayLocation(service: Service, url: string): string {
  const { server } = service;
  if (server === undefined || !url.startsWith(`${server.url}/docs/`)) return url;
  const id = decodeURIComponent(new URL(url).pathname.slice('/docs/'.length));
  const doc = server.engines.index.getDocument(id);
  if (doc === null) return url;
  return /^https?:\/\//i.test(doc.url) ? doc.url : doc.source;
}
