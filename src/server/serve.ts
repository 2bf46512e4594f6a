import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { getRequestListener } from '@hono/node-server';
import { createApp } from './app.js';
import { authenticateHeader, KeyStore } from './auth/key-store.js';
import type { ServerContext } from './context.js';
import { errorBody } from './http-error.js';
import { createLogger } from './logger.js';
import { resolveServerOptions } from './options.js';
import type { ServerOptions } from './options.js';
import { RateLimiter } from './rate-limit.js';
import { createAttachmentFetcher } from './attachments.js';
import { DocLinks } from './doc-links.js';
import { attachCdpProxy } from './cdp-proxy.js';
import type { CdpProxy } from './cdp-proxy.js';
import { Answerer } from './engines/answerer/index.js';
import { BrowserSessions } from './engines/browsers/index.js';
import { createEmbedder } from './engines/embedder/index.js';
import type { Embedder } from './engines/embedder/index.js';
import { createSearchIndex } from './engines/index/index.js';
import type { SearchIndex } from './engines/index/index.js';
import { JobQueue, PgJobStore, SqliteJobStore } from './engines/jobs/index.js';
import { Retriever } from './retrieval.js';
import { completeChat } from './engines/answerer/index.js';
import type { RouteHandlers } from './register-routes.js';
import { asyncChatHandlers } from './routes/async-chat.js';
import type { ChatJobQueue } from './routes/async-chat.js';
import { authHandlers } from './routes/auth.js';
import { browserSessionHandlers } from './routes/browser-sessions.js';
import { chatHandlers } from './routes/chat.js';
import { docHandlers } from './routes/docs.js';
import { embeddingHandlers } from './routes/embeddings.js';
import { searchHandlers } from './routes/search.js';
import { modelHandlers } from './routes/models.js';
import { acquireServiceLock, ensureLocalKey, writeDataDirPort } from './service-lock.js';
import { openDatabase } from './storage.js';
import { openStorage } from './storage/index.js';
import type { Storage } from './storage/index.js';

/** A running embedded server. */
export interface RunningServer {
  /** `http://127.0.0.1:PORT` */
  url: string;
  /** The first key given, else the data dir's local key (`<dataDir>/local.key`). */
  apiKey: string | undefined;
  /** True when `apiKey` is the local key and this start created it (a fresh data dir). */
  generatedApiKey: boolean;
  ctx: ServerContext;
  keys: KeyStore;
  /** The shared state (SQLite in the data dir, or PostgreSQL with `databaseUrl`). */
  storage: Storage;
  /** The engines, for in-process use (indexing from the CLI or tests). */
  engines: Engines;
  httpServer: http.Server;
  /** Stops accepting, ends sessions and jobs, closes storage. Idempotent. */
  close(): Promise<void>;
}

/** The engines of a running server. */
export interface Engines {
  index: SearchIndex;
  jobs: ChatJobQueue;
  answerer: Answerer;
  embedder: Embedder;
  browsers: BrowserSessions;
}

/** A part of the service with a lifecycle: engines start, attach and release what they own. */
export interface ServerPart {
  /** Called once the HTTP server exists (e.g. to handle WebSocket upgrades). */
  attach?(server: http.Server): void;
  /** Called once the server listens, so work started here sees the final base URL. */
  start?(): void;
  close?(): Promise<void>;
}

/**
 * Starts the embedded service: the spec's routes on real engines, bound to loopback by default.
 * It takes the data dir's lock first (one service per data dir, see service-lock.ts), so its
 * start-up reaping only ever meets browsers of a dead server; browsers start once it listens.
 * @throws DataDirBusyError when another live service holds the data dir
 * @throws Error with `code` 'EADDRINUSE' when the port is taken (nothing left running)
 * @throws Error naming the option when the options are invalid, or when the data dir is unusable
 * @example
 * const server = await startServer({ port: 0, dataDir: '/tmp/svc' });
 * console.log(server.url, server.apiKey);
 * await server.close();
 */
export async function startServer(options: ServerOptions = {}): Promise<RunningServer> {
  const config = resolveServerOptions(options);
  const logger = options.logger ?? createLogger(config.logLevel);
  const clock = options.clock ?? Date.now;
  const lock = acquireServiceLock(config.dataDir);
  let db: ReturnType<typeof openDatabase> | undefined;
  let storage: Storage;
  let local: { key: string; created: boolean };
  try {
    db = openDatabase(config.dataDir);
    storage = await openStorage({
      dataDir: config.dataDir,
      db,
      databaseUrl: config.databaseUrl,
      clock,
      logger,
    });
    try {
      for (const { key, userId } of config.apiKeys)
        await storage.keys.add(key, userId, 'configured');
      // One local credential per data dir, reused by every local command (not one key per start).
      local = await ensureLocalKey(config.dataDir, storage.keys, KeyStore.generate);
    } catch (error) {
      await storage.close();
      throw error;
    }
  } catch (error) {
    db?.close();
    lock.release();
    throw error;
  }
  const keys = storage.keys;
  const apiKey = config.apiKeys[0]?.key ?? local.key;
  const generatedApiKey = config.apiKeys.length === 0 && local.created;

  let url = '';
  const ctx: ServerContext = {
    config,
    db,
    storage,
    logger,
    clock,
    baseUrl: () => url,
    auth: { authenticateHeader: (header) => authenticateHeader(keys, header) },
  };

  // One budget per key and route group, shared by the routes and the CDP relay's connect.
  const limiter = new RateLimiter(clock);
  const parts: ServerPart[] = [];
  let engines: Engines;
  let handlers: PartHandlers;
  try {
    const created = await createParts(ctx, limiter);
    engines = created.engines;
    handlers = created.handlers;
    parts.push(...created.parts);
  } catch (error) {
    await closeParts(parts);
    await storage.close();
    db.close();
    lock.release();
    throw error;
  }
  const app = createApp(
    ctx,
    limiter,
    { ...authHandlers(keys), ...modelHandlers(), ...handlers },
    { liveToken: (id, token) => engines.browsers.liveViews.authorize(id, token) },
  );
  const listener = getRequestListener(app.fetch);
  // Requests that arrive while browsers start (reaping, warm pool) wait for it instead of racing it.
  let ready: () => void = () => undefined;
  const started = new Promise<void>((resolve) => (ready = resolve));
  const httpServer = http.createServer((req, res) => {
    void started.then(() => listener(req, res));
  });
  httpServer.on('clientError', answerClientError);
  for (const part of parts) part.attach?.(httpServer);

  try {
    await new Promise<void>((resolve, reject) => {
      httpServer.once('error', reject);
      httpServer.listen(config.port, config.host, () => {
        httpServer.off('error', reject);
        resolve();
      });
    });
  } catch (error) {
    // Fail fast and leave nothing behind: no browser has started yet.
    await closeParts(parts);
    await storage.close();
    db.close();
    lock.release();
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') {
      throw Object.assign(
        new Error(
          `Port ${config.port} on ${config.host} is already in use: stop what listens there or pick another port (--port, SVC_PORT; 0 picks a free one)`,
          { cause: error },
        ),
        { code },
      );
    }
    throw error;
  }
  const { address, port } = httpServer.address() as AddressInfo;
  url = `http://${address.includes(':') ? `[${address}]` : address}:${port}`;
  logger.info('server listening', { url, dataDir: config.dataDir });
  await engines.browsers.start();
  for (const part of parts) part.start?.();
  ready();
  // The data dir keeps its address: its signed links resolve whenever it is served again.
  writeDataDirPort(config.dataDir, port);
  lock.publish(
    url.replace('://0.0.0.0:', '://127.0.0.1:').replace('://[::]:', '://[::1]:'),
    local.key,
  );

  let closing: Promise<void> | undefined;
  const close = (): Promise<void> =>
    (closing ??= (async () => {
      lock.markClosing();
      const stopped = new Promise<void>((resolve) => httpServer.close(() => resolve()));
      httpServer.closeIdleConnections();
      await closeParts(parts);
      httpServer.closeAllConnections();
      await stopped;
      await storage.close();
      db.close();
      lock.release();
      logger.info('server closed', { url });
    })());

  return { url, apiKey, generatedApiKey, ctx, keys, storage, engines, httpServer, close };
}

/** The handlers of the routes served by the engines (all but the key and model routes). */
type PartHandlers = Omit<RouteHandlers, 'auth.revokeToken' | 'models.list' | 'models.get'>;

/** The engines behind the routes, created in dependency order, and the routes' handlers. */
async function createParts(
  ctx: ServerContext,
  limiter: RateLimiter,
): Promise<{ parts: ServerPart[]; engines: Engines; handlers: PartHandlers }> {
  const { db, config, clock } = ctx;
  const now = () => new Date(clock());
  const index = createSearchIndex(db, { now });
  const embedder = createEmbedder(config.embedRemote, {
    engine: config.localEmbedder,
    db,
    onFallback: (reason) => ctx.logger.warn('embedder: hashing model answers', { reason }),
  });
  ctx.logger.info('embedder', { engine: embedder.engine, loads: 'on first use' });
  const links = new DocLinks(db, ctx.baseUrl);
  const retriever = new Retriever(index, embedder, links, now);
  const answerer = new Answerer({
    retrieve: retriever.retrieve,
    fetchAttachment: createAttachmentFetcher(),
    llm: config.llm,
    clock,
  });
  const { pool } = ctx.storage;
  // Jobs live with the shared state: PostgreSQL when configured (any instance may run or take over
  // a job), else the data dir's SQLite.
  const jobs: ChatJobQueue = new JobQueue({
    store: pool ? new PgJobStore(pool, { clock }) : new SqliteJobStore(db, { clock }),
    concurrency: config.jobConcurrency,
    leaseMs: config.jobLeaseMs,
    handler: (request, { signal }) => completeChat(answerer, request, signal),
    onError: (error) => ctx.logger.error('job queue error', { error: String(error) }),
  });
  // Started by startServer once it listens (browsers start only then).
  const browsers = new BrowserSessions(ctx);
  let proxy: CdpProxy | undefined;
  const parts: ServerPart[] = [
    {
      attach: (server) => {
        proxy = attachCdpProxy(server, ctx, browsers, limiter);
      },
      close: async () => {
        proxy?.close();
        await browsers.close();
      },
    },
    {
      // Resumed jobs must cite absolute URLs: start the queue only once the base URL is known.
      start: () => {
        void jobs.start().then(
          (recovered) => {
            if (recovered.requeued + recovered.failed > 0)
              ctx.logger.info('jobs recovered after restart', recovered);
          },
          (error: unknown) =>
            ctx.logger.error('job queue failed to start', { error: String(error) }),
        );
      },
      close: () => jobs.stop(),
    },
  ];
  const handlers: PartHandlers = {
    ...browserSessionHandlers(ctx, browsers),
    ...chatHandlers(ctx, answerer),
    ...searchHandlers(retriever),
    ...docHandlers(index, links),
    ...embeddingHandlers(embedder),
    ...asyncChatHandlers(jobs),
  };
  return { parts, engines: { index, jobs, answerer, embedder, browsers }, handlers };
}

/**
 * Answers what Node's HTTP parser refuses before the app sees it (oversized headers or URL,
 * malformed request line) with the error body instead of Node's empty 400/431.
 */
function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const tooLarge = error.code === 'HPE_HEADER_OVERFLOW';
  const status = tooLarge ? 431 : 400;
  const body = JSON.stringify(
    tooLarge
      ? errorBody(
          status,
          'Request header fields too large: shorten the URL, query string or headers',
          'headers_too_large',
        )
      : errorBody(status, 'Malformed HTTP request', 'bad_request'),
  );
  socket.end(
    `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\nConnection: close\r\n` +
      `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
}

async function closeParts(parts: ServerPart[]): Promise<void> {
  for (const part of [...parts].reverse()) {
    await part.close?.();
  }
}
