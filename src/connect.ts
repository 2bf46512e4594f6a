import { Client } from './client/index.js';
import type { ClientOptions } from './client/index.js';
import type { RunningServer, ServerOptions } from './server/index.js';

/** What {@link connect} returns: a client, and the embedded server when one was started. */
export interface Connection {
  client: Client;
  /**
   * The embedded server this call started, or `undefined` when a remote service was configured or
   * another process already serves the data dir (the client then talks to that one).
   */
  server: RunningServer | undefined;
  /**
   * Closes the client and, if started here, the embedded server; a server started here first
   * waits for other processes still using it (`svc` commands on the same data dir).
   */
  close(): Promise<void>;
}

/** Options of {@link connect}. */
export interface ConnectOptions extends ClientOptions {
  /** Options for the embedded server, used only when no remote service is configured. */
  server?: ServerOptions;
}

/**
 * A client for the configured service, in one line: with `SVC_BASE_URL` (or `baseURL`) it talks to
 * that service. Without, it uses the embedded service of the data dir (`server.dataDir`,
 * `SVC_DATA_DIR`, `~/.svc-toolkit`): the one another process already runs there (`svc serve`, a
 * running `svc` command), else one started here, at the data dir's own port so its links stay
 * valid. The server code is imported lazily: users of a hosted service never load SQLite or Chromium.
 * @throws Error when the embedded server cannot start (port in use, data dir unusable)
 * @example
 * const { client, close } = await connect();
 * const answer = await client.chat.completions.create({ model: 'core', messages: [{ role: 'user', content: 'What is CDP?' }] });
 * await close();
 */
export async function connect(options: ConnectOptions = {}): Promise<Connection> {
  const { server: serverOptions, ...clientOptions } = options;
  if (clientOptions.baseURL ?? process.env.SVC_BASE_URL) {
    const client = new Client(clientOptions);
    return { client, server: undefined, close: async () => client.close() };
  }
  const { startServer, resolveServerOptions } = await import('./server/index.js');
  const lockModule = await import('./server/service-lock.js');
  const { dataDir } = resolveServerOptions({ ...serverOptions, port: 0 });
  for (let attempt = 0; ; attempt++) {
    const lease = await lockModule.useRunningService(dataDir);
    if (lease !== undefined) {
      const client = new Client({
        ...clientOptions,
        apiKey: clientOptions.apiKey ?? lease.apiKey,
        baseURL: lease.url,
      });
      return {
        client,
        server: undefined,
        close: async () => {
          await client.close();
          lease.release();
        },
      };
    }
    const persisted = lockModule.readDataDirPort(dataDir);
    const startOn = async (port: number | undefined): Promise<RunningServer> =>
      startServer({
        // A library stays quiet on stderr unless asked (SVC_LOG_LEVEL, or server.logLevel).
        ...(process.env.SVC_LOG_LEVEL ? {} : { logLevel: 'warn' as const }),
        ...serverOptions,
        dataDir,
        ...(port !== undefined && { port }),
        ...(clientOptions.apiKey !== undefined && {
          apiKeys: [clientOptions.apiKey, ...(serverOptions?.apiKeys ?? [])],
        }),
      });
    let server: RunningServer;
    try {
      server = await startOn(serverOptions?.port ?? persisted ?? 0);
    } catch (error) {
      const code = (error as { code?: string }).code;
      // Another process won the race for the data dir: use its service.
      if (code === 'data_dir_busy' && attempt < 5) continue;
      // The data dir's port is taken by something else: serve on a free one (old links move).
      if (code === 'EADDRINUSE' && serverOptions?.port === undefined && persisted !== undefined) {
        process.emitWarning(
          `port ${persisted} of data dir ${dataDir} is taken; serving on a free port (links issued before point at the old one)`,
        );
        server = await startOn(0);
      } else throw error;
    }
    const running = server;
    const client = new Client({ ...clientOptions, apiKey: running.apiKey, baseURL: running.url });
    return {
      client,
      server: running,
      close: async () => {
        await client.close();
        // The service lives in this process: other commands using it keep it (and this process)
        // up until they finish. Say so, or a finished command would seem to hang.
        await lockModule.drainUsers(dataDir, undefined, (pids) =>
          process.emitWarning(
            `the service of data dir ${dataDir} runs in this process and ${pids.length} other process(es) still use it (pid ${pids.join(', ')}); exiting once they finish`,
          ),
        );
        await running.close();
      },
    };
  }
}
