// `svc mcp --http PORT`: Streamable HTTP on loopback, one MCP session (and one set of browser
// sessions) per client, behind a bearer token compared in constant time. A client that ends its
// MCP session (DELETE), or sends nothing for the idle timeout, has its browser sessions released.
import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import type { BrowserScope } from './browser-scope.js';
import type { McpRuntime } from './runtime.js';
import { createMcpServer } from './server.js';

/** The endpoint path. */
export const MCP_HTTP_PATH = '/mcp';

/** Options of {@link serveHttp}. */
export interface HttpOptions {
  /** Loopback port; 0 picks a free one. */
  port: number;
  /** The bearer token every request must carry. */
  token: string;
  /** An MCP session with no request for this long (ms) is closed and its browsers released. */
  idleTimeout: number;
}

/** A running HTTP endpoint. */
export interface HttpEndpoint {
  /** `http://127.0.0.1:<port>/mcp` */
  url: string;
  /** Open MCP sessions. */
  readonly clients: number;
  /** Closes every MCP session (releasing their browsers) and the listener. */
  close(): Promise<void>;
}

interface Client {
  transport: WebStandardStreamableHTTPServerTransport;
  scope: BrowserScope;
  timer: NodeJS.Timeout;
  ended: Promise<void> | undefined;
}

/**
 * Serves MCP over Streamable HTTP on `127.0.0.1:<port>`.
 * @throws the listen error (port in use)
 * @example
 * const endpoint = await serveHttp(runtime, { port: 8931, token, idleTimeout: 600_000 });
 * // clients connect to endpoint.url with `Authorization: Bearer <token>`
 * await endpoint.close();
 */
export async function serveHttp(rt: McpRuntime, options: HttpOptions): Promise<HttpEndpoint> {
  const clients = new Map<string, Client>();
  const expected = digest(options.token);
  let port = options.port;

  const end = (id: string): Promise<void> => {
    const client = clients.get(id);
    if (!client) return Promise.resolve();
    return (client.ended ??= (async () => {
      clients.delete(id);
      clearTimeout(client.timer);
      await client.scope.closeAll();
      await client.transport.close().catch(() => undefined);
    })());
  };

  const handle = async (req: Request): Promise<Response> => {
    const url = new URL(req.url);
    if (url.pathname !== MCP_HTTP_PATH) return jsonError(404, `not found: use ${MCP_HTTP_PATH}`);
    // DNS rebinding: a page on another origin must not reach us through a name bound to 127.0.0.1.
    const host = req.headers.get('host') ?? '';
    if (host !== `127.0.0.1:${port}` && host !== `localhost:${port}`) {
      return jsonError(403, 'forbidden host');
    }
    const origin = req.headers.get('origin');
    if (
      origin !== null &&
      origin !== `http://127.0.0.1:${port}` &&
      origin !== `http://localhost:${port}`
    ) {
      return jsonError(403, 'forbidden origin');
    }
    const auth = /^Bearer (.+)$/i.exec(req.headers.get('authorization') ?? '')?.[1];
    if (auth === undefined || !timingSafeEqual(digest(auth), expected)) {
      return jsonError(401, 'missing or wrong bearer token', { 'www-authenticate': 'Bearer' });
    }
    const sessionId = req.headers.get('mcp-session-id');
    if (sessionId !== null) {
      const client = clients.get(sessionId);
      if (!client) return jsonError(404, 'unknown or closed MCP session: initialize again');
      client.timer.refresh();
      return client.transport.handleRequest(req);
    }
    if (req.method !== 'POST') return jsonError(400, 'no mcp-session-id: initialize first');
    let body: unknown;
    try {
      body = await req.json();
    } catch {
      return jsonError(400, 'the body is not JSON');
    }
    if (!isInitializeRequest(body)) return jsonError(400, 'no mcp-session-id: initialize first');
    const scope = rt.newScope();
    const transport: WebStandardStreamableHTTPServerTransport =
      new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => {
          const timer = setTimeout(() => void end(id), options.idleTimeout);
          timer.unref();
          clients.set(id, { transport, scope, timer, ended: undefined });
        },
        onsessionclosed: (id) => end(id),
      });
    transport.onclose = () => {
      const id = transport.sessionId;
      if (id !== undefined) void end(id);
      else void scope.closeAll();
    };
    const server = createMcpServer(rt, scope);
    await server.connect(transport);
    return transport.handleRequest(req, { parsedBody: body });
  };

  const listener = getRequestListener(handle);
  const httpServer = http.createServer((req, res) => void listener(req, res));
  await new Promise<void>((resolve, reject) => {
    httpServer.once('error', reject);
    httpServer.listen(options.port, '127.0.0.1', () => {
      httpServer.off('error', reject);
      resolve();
    });
  });
  port = (httpServer.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}${MCP_HTTP_PATH}`,
    get clients() {
      return clients.size;
    },
    async close() {
      await Promise.all([...clients.keys()].map(end));
      // Open SSE streams would keep close() waiting forever.
      httpServer.closeAllConnections();
      await new Promise<void>((resolve) => httpServer.close(() => resolve()));
    },
  };
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}

function jsonError(
  status: number,
  message: string,
  headers: Record<string, string> = {},
): Response {
  return new Response(
    JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }),
    { status, headers: { 'content-type': 'application/json', ...headers } },
  );
}
