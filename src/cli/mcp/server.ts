// One MCP server per connected client: every tool of TOOLS registered with its zod input schema
// (the SDK advertises its JSON Schema; calls are validated with it), errors turned into tool
// errors naming the field, and the resources of the run.
import { readFileSync } from 'node:fs';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { CallToolRequestSchema, ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { parseRequest } from '../../protocol/validation.js';
import type { BrowserScope } from './browser-scope.js';
import type { ToolExtra } from './progress.js';
import { registerResources } from './resources.js';
import { errorMessage, errorResult, invalidArguments } from './results.js';
import type { McpRuntime } from './runtime.js';
import { TOOLS } from './schemas.js';
import type { ToolArgs, ToolName } from './schemas.js';
import { askTool, researchTool, searchTool } from './tools-answer.js';
import {
  clickTool,
  closeTool,
  extractTool,
  navigateTool,
  openTool,
  pressTool,
  screenshotTool,
  snapshotTool,
  typeTool,
} from './tools-browser.js';
import { citeTool, verifyTool } from './tools-evidence.js';

/** Name and version the server announces: the package's. */
export const MCP_SERVER_INFO = { name: 'svc-toolkit', version: packageVersion() } as const;

/** The version in package.json, from this file in the source tree or in `dist/`. */
function packageVersion(): string {
  for (const up of ['../../../package.json', '../../../../package.json']) {
    try {
      const pkg = JSON.parse(readFileSync(new URL(up, import.meta.url), 'utf8')) as {
        name?: string;
        version?: string;
      };
      if (pkg.name === 'svc-toolkit' && pkg.version) return pkg.version;
    } catch {
      // Not at this depth: src/cli/mcp/ and dist/src/cli/mcp/ sit at different ones.
    }
  }
  return '0.0.0';
}

const INSTRUCTIONS = `svc-toolkit: search, answers with citations, deep research, and browser sessions, with tools to check claims on their sources.
Ground what you say: after ask or research, call verify with the answer and its citations (or use cite) and keep only supported claims.
Browser: browser_open, browser_navigate, browser_snapshot (refs like e3), then browser_click / browser_type / browser_press by ref; browser_close when done.`;

type Handler<N extends ToolName> = (args: ToolArgs<N>, extra: ToolExtra) => Promise<CallToolResult>;

/**
 * Builds the MCP server a client talks to: the shared runtime, and `scope` holding the browser
 * sessions of this client only.
 * @example
 * const server = createMcpServer(runtime, runtime.newScope());
 * await server.connect(new StdioServerTransport());
 */
export function createMcpServer(rt: McpRuntime, scope: BrowserScope): McpServer {
  const server = new McpServer(MCP_SERVER_INFO, { instructions: INSTRUCTIONS });
  const browser = { rt, scope };
  // Reports and recordings are resources: tell the client the list changed.
  const announcing =
    <N extends ToolName>(run: Handler<N>): Handler<N> =>
    async (args, extra) => {
      const result = await run(args, extra);
      if (server.isConnected()) server.sendResourceListChanged();
      return result;
    };
  const handlers: { [N in ToolName]: Handler<N> } = {
    search: (a, e) => searchTool(rt, a, e),
    ask: (a, e) => askTool(rt, a, e),
    research: (a, e) => researchTool(rt, a, e),
    verify: announcing((a, e) => verifyTool(rt, a, e)),
    cite: announcing((a, e) => citeTool(rt, a, e)),
    browser_open: announcing((a) => openTool(browser, a)),
    browser_navigate: (a) => navigateTool(browser, a),
    browser_snapshot: (a) => snapshotTool(browser, a),
    browser_click: (a) => clickTool(browser, a),
    browser_type: (a) => typeTool(browser, a),
    browser_press: (a) => pressTool(browser, a),
    browser_screenshot: (a) => screenshotTool(browser, a),
    browser_extract: (a, e) => extractTool(browser, a, e),
    browser_close: (a) => closeTool(browser, a),
  };
  const run = async (name: ToolName, args: unknown, extra: ToolExtra): Promise<CallToolResult> => {
    const handler = handlers[name] as (args: unknown, extra: ToolExtra) => Promise<CallToolResult>;
    try {
      await rt.ready;
      return await handler(args, extra);
    } catch (error) {
      return errorResult(errorMessage(name, error));
    }
  };
  for (const name of Object.keys(TOOLS) as ToolName[]) {
    const spec = TOOLS[name];
    // The SDK lists each tool with the JSON Schema of its zod schema.
    server.registerTool(
      name,
      { title: spec.title, description: spec.description, inputSchema: spec.inputSchema },
      (args: unknown, extra: ToolExtra) => run(name, args, extra),
    );
  }
  // Calls are validated by the same schemas through the package's own validator, so a bad
  // argument reads as the service's 422 would: the field's path, what it must be, what it got.
  server.server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const name = request.params.name;
    if (!Object.hasOwn(TOOLS, name)) {
      throw new McpError(ErrorCode.InvalidParams, `Tool ${name} not found`);
    }
    const tool = name as ToolName;
    const parsed = parseRequest(TOOLS[tool].inputSchema, request.params.arguments ?? {}, 'body');
    if (!parsed.ok) return errorResult(invalidArguments(tool, parsed.body.detail));
    return run(tool, parsed.value, extra);
  });
  registerResources(server, rt);
  return server;
}
