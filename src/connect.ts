import { Client } from './client/index.js';
import type { ClientOptions } from './client/index.js';
import type { RunningServer, ServerOptions } from './server/index.js';

/** What {@link connect} returns: a client, and the embedded server when one was started. */
export interface Connection {
  client: Client;
  /** The embedded server this call started, or `undefined` when a remote service was configured. */
  server: RunningServer | undefined;
  /** Closes the client and, if started here, the embedded server. */
  close(): Promise<void>;
}

/** Options of {@link connect}. */
export interface ConnectOptions extends ClientOptions {
  /** Options for the embedded server, used only when no remote service is configured. */
  server?: ServerOptions;
}

/**
 * A client for the configured service, in one line: with `SVC_BASE_URL` (or `baseURL`) it talks to
 * that service; without, it starts the embedded server on a free loopback port (imported lazily, so
 * users of a hosted service never load SQLite or Chromium code) and points the client at it.
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
  const { startServer, KeyStore } = await import('./server/index.js');
  const apiKey = clientOptions.apiKey ?? KeyStore.generate();
  const server = await startServer({
    port: 0,
    ...serverOptions,
    apiKeys: [apiKey, ...(serverOptions?.apiKeys ?? [])],
  });
  const client = new Client({ ...clientOptions, apiKey, baseURL: server.url });
  return {
    client,
    server,
    close: async () => {
      await client.close();
      await server.close();
    },
  };
}
