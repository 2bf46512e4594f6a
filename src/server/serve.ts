import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { getRequestListener } from '@hono/node-server';
import { createApp } from './app.js';
import type { RouteRegistrar } from './app.js';
import { authenticateHeader, KeyStore } from './auth/key-store.js';
import type { ServerContext } from './context.js';
import { typeFor } from './http-error.js';
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
import { JobQueue } from './engines/jobs/index.js';
import { Retriever } from './retrieval.js';
import { registerAsyncChatRoutes } from './routes/async-chat.js';
import type { ChatJobQueue } from './routes/async-chat.js';
import { registerAuthRoutes } from './routes/auth.js';
import { registerBrowserSessionRoutes } from './routes/browser-sessions.js';
import { completeChat, registerChatRoutes } from './routes/chat.js';
import { registerDocRoutes } from './routes/docs.js';
import { registerEmbeddingRoutes } from './routes/embeddings.js';
import { registerSearchRoutes } from './routes/search.js';
import { registerModelRoutes } from './routes/models.js';
import { acquireServiceLock, ensureLocalKey, writeDataDirPort } from './service-lock.js';
import { openDatabase } from './storage.js';

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

/** A part of the service with a lifecycle: engines register routes and release what they own. */
export interface ServerPart {
  routes?: RouteRegistrar;
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
  let db: ReturnType<typeof openDatabase>;
  try {
    db = openDatabase(config.dataDir);
  } catch (error) {
    lock.release();
    throw error;
  }
  const keys = new KeyStore(db, clock);
  for (const { key, userId } of config.apiKeys) keys.add(key, userId, 'configured');
  // One local credential per data dir, reused by every local command (not one key per start).
  const local = ensureLocalKey(config.dataDir, keys, KeyStore.generate);
  const apiKey = config.apiKeys[0]?.key ?? local.key;
  const generatedApiKey = config.apiKeys.length === 0 && local.created;

  let url = '';
  const ctx: ServerContext = {
    config,
    db,
    logger,
    clock,
    baseUrl: () => url,
    auth: { authenticateHeader: (header) => authenticateHeader(keys, header) },
  };

  const parts: ServerPart[] = [];
  let engines: Engines;
  try {
    const created = await createParts(ctx);
    engines = created.engines;
    parts.push(...created.parts);
  } catch (error) {
    await closeParts(parts);
    db.close();
    lock.release();
    throw error;
  }
  const app = createApp(ctx, new RateLimiter(clock), [
    (a) => registerAuthRoutes(a, keys),
    (a) => registerModelRoutes(a),
    ...parts.flatMap((p) => (p.routes ? [p.routes] : [])),
  ]);
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
      db.close();
      lock.release();
      logger.info('server closed', { url });
    })());

  return { url, apiKey, generatedApiKey, ctx, keys, engines, httpServer, close };
}

/** The engines behind the routes, created in dependency order. */
async function createParts(ctx: ServerContext): Promise<{ parts: ServerPart[]; engines: Engines }> {
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
  const jobs: ChatJobQueue = new JobQueue({
    db,
    clock,
    concurrency: config.jobConcurrency,
    handler: (request, { signal }) => completeChat(answerer, request, signal),
    onError: (error) => ctx.logger.error('job queue error', { error: String(error) }),
  });
  // Started by startServer once it listens (browsers start only then).
  const browsers = new BrowserSessions(ctx);
  let proxy: CdpProxy | undefined;
  const parts: ServerPart[] = [
    {
      routes: (app) => registerBrowserSessionRoutes(app, ctx, browsers),
      attach: (server) => {
        proxy = attachCdpProxy(server, ctx, browsers);
      },
      close: async () => {
        proxy?.close();
        await browsers.close();
      },
    },
    {
      routes: (app) => {
        registerChatRoutes(app, ctx, answerer);
        registerSearchRoutes(app, retriever);
        registerDocRoutes(app, index, links);
        // Which model answered (`use-lite`, `hashing` or `remote`), read once the route is done.
        for (const route of ['/v1/embeddings', '/v1/contextualizedembeddings']) {
          app.use(route, async (c, next) => {
            await next();
            c.header('x-svc-embedder', embedder.engine);
          });
        }
        registerEmbeddingRoutes(app, embedder);
        registerAsyncChatRoutes(app, jobs);
      },
      // Resumed jobs must cite absolute URLs: start the queue only once the base URL is known.
      start: () => {
        const recovered = jobs.start();
        if (recovered.requeued + recovered.failed > 0)
          ctx.logger.info('jobs recovered after restart', recovered);
      },
      close: () => jobs.stop(),
    },
  ];
  return { parts, engines: { index, jobs, answerer, embedder, browsers } };
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
  const body = JSON.stringify({
    error: {
      message: tooLarge
        ? 'Request header fields too large: shorten the URL, query string or headers'
        : 'Malformed HTTP request',
      type: typeFor(status),
      code: tooLarge ? 'headers_too_large' : 'bad_request',
    },
  });
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
