import { randomBytes } from 'node:crypto';
import { aborted, defineCommand } from '../command.js';
import { EXIT, UsageError } from '../common.js';
import { rangeOption } from '../output.js';
import type { McpRuntime } from '../mcp/runtime.js';

/** Defaults of `svc mcp`. Durations in ms. */
export const MCP_DEFAULTS = { idleTimeout: 600_000 } as const;

/** `svc mcp [--http <port>]`: runs until the client goes away (stdio) or a signal (both). */
export const mcpCommand = defineCommand({
  name: 'mcp',
  summary: 'the toolkit as a Model Context Protocol server, for agents',
  usage: [
    'svc mcp                       serve one client over stdio (what MCP clients launch)',
    'svc mcp --http <port>         serve clients over Streamable HTTP on 127.0.0.1:<port>/mcp',
  ],
  options: {
    http: {
      type: 'string',
      arg: '<port>',
      help: 'Streamable HTTP on loopback instead of stdio (0 picks a free port)',
    },
    token: {
      type: 'string',
      arg: '<t>',
      help: 'bearer token HTTP clients must send (default SVC_MCP_TOKEN, else a\nnew random token, printed once at start)',
    },
    'idle-timeout': {
      type: 'string',
      arg: '<ms>',
      help: 'release a browser session unused this long, and close an HTTP\nclient silent this long (default 600000: 10 minutes)',
    },
    'reports-dir': {
      type: 'string',
      arg: '<dir>',
      help: 'keep the evidence reports of verify and cite here (default: a\ntemporary folder, removed when the server ends)',
    },
  },
  dataDir: true,
  notes: `Tools: search, ask, research, verify, cite, browser_open, browser_navigate, browser_snapshot,
browser_click, browser_type, browser_press, browser_screenshot, browser_extract, browser_close.
Resources: report://<id>/report.html|json for each report of verify and cite, and
recording://<session>/recording.json|replay.html for sessions opened with record: true.

Without SVC_BASE_URL the tools run on the embedded service over the data dir (what svc index
added), with browsers launched on this machine. Browser sessions a client opened are released
when it disconnects or goes idle, and when the server ends (stdin closed, SIGINT, SIGTERM).

Client configuration (Claude Desktop and other mcpServers clients):
  {"mcpServers": {"svc": {"command": "svc", "args": ["mcp"]}}}`,
  examples: [
    'svc mcp',
    'svc mcp --http 8931',
    'SVC_MCP_TOKEN=... svc mcp --http 8931 --reports-dir evidence',
  ],
  async run(ctx) {
    const { values } = ctx;
    const port = rangeOption('mcp', 'http', values.http, 0, 65_535);
    if (values.token !== undefined && port === undefined) {
      throw new UsageError('mcp: --token applies to --http');
    }
    if (values.token !== undefined && values.token.length < 16) {
      throw new UsageError('mcp: --token: use at least 16 characters');
    }
    const idleTimeout =
      rangeOption('mcp', 'idle-timeout', values['idle-timeout'], 1_000, 86_400_000) ??
      MCP_DEFAULTS.idleTimeout;
    const log = (line: string): void => void process.stderr.write(`svc mcp: ${line}\n`);

    // The MCP handshake does not wait for the service: an agent's host connects, and lists the
    // tools, while the embedded service starts; tool calls wait for it.
    const service = ctx.service();
    service.catch((error: unknown) =>
      log(`the service could not start: ${(error as Error).message}`),
    );
    const { openRuntime } = await import('../mcp/runtime.js');
    const rt = openRuntime(
      service.then((s) => s.client),
      { reportsDir: values['reports-dir'], idleTimeout, log },
    );
    // Cleanups run last-registered first: the runtime (its sessions) before the service.
    ctx.defer(() => rt.close());
    const { signal } = ctx;
    if (port !== undefined) {
      const { serveHttp } = await import('../mcp/http.js');
      const given = values.token ?? (process.env.SVC_MCP_TOKEN || undefined);
      const token = given ?? randomBytes(24).toString('base64url');
      const endpoint = await serveHttp(rt, { port, token, idleTimeout });
      log(`Streamable HTTP on ${endpoint.url}`);
      // A token we made is shown once, for the user to give the client; a given one never is.
      if (given === undefined) log(`bearer token: ${token}`);
      await aborted(signal);
      await endpoint.close();
    } else {
      await serveStdio(rt, signal);
    }
    return EXIT.ok;
  },
});

/** Serves one client on stdin/stdout until it goes away or `signal` aborts. */
async function serveStdio(rt: McpRuntime, signal: AbortSignal): Promise<void> {
  const [{ StdioServerTransport }, { createMcpServer }] = await Promise.all([
    import('@modelcontextprotocol/sdk/server/stdio.js'),
    import('../mcp/server.js'),
  ]);
  const scope = rt.newScope();
  const server = createMcpServer(rt, scope);
  const transport = new StdioServerTransport();
  const gone = new Promise<void>((resolve) => {
    transport.onclose = resolve;
    process.stdin.once('end', resolve);
    process.stdin.once('close', resolve);
    // The client closed its end of our stdout: nobody reads us any more.
    process.stdout.once('error', () => resolve());
  });
  await server.connect(transport);
  await Promise.race([gone, aborted(signal)]);
  await scope.closeAll();
  await server.close().catch(() => undefined);
  process.stdin.destroy();
}
