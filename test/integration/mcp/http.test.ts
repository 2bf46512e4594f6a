// `svc mcp --http` driven by the MCP SDK's Streamable HTTP client: bearer auth, the tools, one set
// of browser sessions per client, released when that client ends its MCP session.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { TOOLS } from '../../../src/cli/mcp/schemas.js';
import { processesMentioning } from '../../support/processes.js';
import { waitFor } from '../../support/wait.js';
import { connectHttp, jsonOf, startHttpServer, textOf } from './helpers.js';
import type { HttpServerProcess } from './helpers.js';
import { BAD_ARGUMENTS, browserRoundTrip, expectNamesField } from './scenarios.js';
import { SLOW, sessionEnds, setUp } from './support.js';
import type { McpFixture } from './support.js';

const CALL = { timeout: SLOW - 10_000 };
const TOKEN = randomBytes(18).toString('base64url');

let fx: McpFixture;
let server: HttpServerProcess;
let client: Client;

beforeAll(async () => {
  fx = await setUp();
  server = await startHttpServer(fx.dataDir, TOKEN);
  ({ client } = await connectHttp(server.url, TOKEN));
}, SLOW);

afterAll(async () => {
  await client?.close();
  if (server && server.child.exitCode === null) {
    server.child.kill('SIGTERM');
    await server.exited;
  }
  await fx?.close();
});

describe('svc mcp --http', () => {
  it('refuses a request without the bearer token, or with another one, and never prints it', async () => {
    const init = {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    };
    const none = await fetch(server.url, init);
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toBe('Bearer');
    const wrong = await fetch(server.url, {
      ...init,
      headers: { ...init.headers, authorization: `Bearer ${TOKEN}x` },
    });
    expect(wrong.status).toBe(401);
    // A page of another origin cannot use the endpoint, even knowing the token.
    const foreign = await fetch(server.url, {
      ...init,
      headers: { ...init.headers, authorization: `Bearer ${TOKEN}`, origin: 'http://evil.example' },
    });
    expect(foreign.status).toBe(403);
    // The token came from SVC_MCP_TOKEN: it is never written to the log.
    expect(server.stderr()).not.toContain(TOKEN);
  });

  it(
    'lists every tool and answers search over Streamable HTTP',
    async () => {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual(Object.keys(TOOLS).sort());
      const search = await client.callTool(
        { name: 'search', arguments: { query: 'sqlite full text search', max_results: 2 } },
        undefined,
        CALL,
      );
      expect(search.isError, textOf(search)).toBeFalsy();
      expect(jsonOf<{ results: unknown[] }>(search).results.length).toBeGreaterThan(0);
    },
    SLOW,
  );

  it(
    'opens a session, navigates, snapshots, clicks and types by ref, shoots and closes',
    async () => {
      await browserRoundTrip(client, fx.site.url);
    },
    SLOW,
  );

  it(
    'answers a tool error naming the field for a bad argument to each tool',
    async () => {
      for (const { tool, args, field } of BAD_ARGUMENTS) {
        const result = await client.callTool({ name: tool, arguments: args }, undefined, CALL);
        expectNamesField(result, tool, field);
      }
    },
    SLOW,
  );

  it(
    "releases a disconnected client's sessions, and only its own: 0 of its sessions running, its Chromium gone",
    async () => {
      const other = await connectHttp(server.url, TOKEN);
      const ids: string[] = [];
      for (let i = 0; i < 2; i++) {
        const opened = await other.client.callTool(
          { name: 'browser_open', arguments: {} },
          undefined,
          CALL,
        );
        expect(opened.isError, textOf(opened)).toBeFalsy();
        ids.push(jsonOf<{ session_id: string }>(opened).session_id);
      }
      // The first client keeps a session through the other's disconnect.
      const mine = jsonOf<{ session_id: string }>(
        await client.callTool({ name: 'browser_open', arguments: {} }, undefined, CALL),
      ).session_id;
      expect(processesMentioning(fx.dataDir).length).toBeGreaterThanOrEqual(3);

      await other.transport.terminateSession();
      await other.client.close();
      expect(
        await waitFor(
          () => sessionEnds(fx.dataDir, ids).every((s) => s.status === 'stopped'),
          30_000,
        ),
      ).toBe(true);
      for (const end of sessionEnds(fx.dataDir, ids)) {
        expect(end.end_reason).toBe('deleted by the client');
      }
      expect(sessionEnds(fx.dataDir, [mine])[0]!.status).toBe('running');
      const snap = await client.callTool(
        { name: 'browser_snapshot', arguments: { session_id: mine } },
        undefined,
        CALL,
      );
      expect(snap.isError, textOf(snap)).toBeFalsy();

      // SIGTERM ends the server: the remaining session is released, and no Chromium is left.
      server.child.kill('SIGTERM');
      expect(await server.exited).toBe(0);
      expect(await waitFor(() => processesMentioning(fx.dataDir).length === 0, 10_000)).toBe(true);
      expect(sessionEnds(fx.dataDir, [mine])[0]!.status).toBe('stopped');
    },
    SLOW,
  );
});
