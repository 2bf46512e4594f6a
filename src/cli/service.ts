// How every `svc` command gets a client: the remote service named by SVC_BASE_URL, or the data
// dir's embedded service: the one already running there (`svc serve`, another command), else one
// started in this process, so `svc index` and `svc ask` share one index and one set of sessions.
import path from 'node:path';
import type { Client } from '../client/index.js';
import { readClientEnv } from '../client/index.js';
import { connect } from '../connect.js';
import * as indexEngine from '../server/engines/index/index.js';
import type { IndexedDocument } from '../server/engines/index/index.js';
import * as storage from '../server/storage.js';
import type { RunningServer } from '../server/index.js';
import { UnavailableError } from './common.js';
import { formatSources } from './output.js';
import type { SourceEntry } from './output.js';

/** Options of {@link openService}. */
export interface ServiceOptions {
  /** Data dir of the embedded server (ignored with `SVC_BASE_URL`). @default SVC_DATA_DIR or ~/.svc-toolkit */
  dataDir?: string | undefined;
}

/** A client for the service the command talks to. Close it in `finally`. */
export interface Service {
  client: Client;
  /**
   * The embedded server started for this command; `undefined` when talking to `SVC_BASE_URL` or
   * to the service another process runs on the data dir.
   */
  server: RunningServer | undefined;
  /** The data dir in use, or `undefined` for a remote service. */
  dataDir: string | undefined;
  /** Base URL of the data dir's embedded service (started here or elsewhere); `undefined` if remote. */
  localUrl: string | undefined;
  /** A document of the data dir's index, by id (`null` when unknown or the service is remote). */
  document(id: string): IndexedDocument | null;
  /** Documents in the data dir's index; `undefined` for a remote service. */
  indexedDocuments(): number | undefined;
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
    return {
      client,
      server: undefined,
      dataDir: undefined,
      localUrl: undefined,
      document: () => null,
      indexedDocuments: () => undefined,
      close: once(close),
    };
  }
  const dataDir = await resolveDataDir(options.dataDir);
  // No warm browser: most commands never open a session, and they live for seconds.
  const { client, server, close } = await connect({
    server: { dataDir, logLevel: 'warn', warmPoolSize: 0 },
  });
  let reader: IndexReader | undefined;
  const document = (id: string): IndexedDocument | null => {
    if (server !== undefined) return server.engines.index.getDocument(id);
    reader ??= openIndexReader(dataDir);
    return reader.index.getDocument(id);
  };
  const indexedDocuments = (): number => {
    if (server !== undefined) return server.engines.index.stats().documents;
    reader ??= openIndexReader(dataDir);
    return reader.index.stats().documents;
  };
  return {
    client,
    server,
    dataDir,
    localUrl: server?.url ?? client.baseURL,
    document,
    indexedDocuments,
    close: once(async () => {
      reader?.db.close();
      await close();
    }),
  };
}

interface IndexReader {
  db: { close(): void };
  index: indexEngine.SearchIndex;
}

/** The data dir's index, read beside the process that serves it (SQLite in WAL mode allows it). */
function openIndexReader(dataDir: string): IndexReader {
  const db = storage.openDatabase(dataDir);
  return { db, index: indexEngine.createSearchIndex(db) };
}

/**
 * Tells the reader of an empty local index where answers come from (nothing yet), on stderr.
 * @returns true when the hint was shown
 */
export function hintIfIndexEmpty(service: Service): boolean {
  if (service.indexedDocuments() !== 0) return false;
  process.stderr.write(
    `svc: the index of ${service.dataDir} is empty, so answers cite nothing: add documents first with\n` +
      `     svc index <files|folders|urls>${service.dataDir === undefined ? '' : ` --data-dir ${service.dataDir}`}\n`,
  );
  return true;
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
  const { localUrl } = service;
  if (localUrl === undefined || !url.startsWith(`${localUrl}/docs/`)) return url;
  const id = decodeURIComponent(new URL(url).pathname.slice('/docs/'.length));
  const doc = service.document(id);
  if (doc === null) return url;
  return /^https?:\/\//i.test(doc.url) ? doc.url : doc.source;
}

/**
 * Writes the numbered sources block of an answer to stdout, each location through
 * {@link displayLocation}.
 */
export function printSources(
  service: Service,
  answer: {
    citations?: readonly string[] | null | undefined;
    search_results?: readonly SourceEntry[] | null | undefined;
  },
): void {
  process.stdout.write(
    formatSources(answer.citations ?? [], answer.search_results ?? [], (url) =>
      displayLocation(service, url),
    ),
  );
}
