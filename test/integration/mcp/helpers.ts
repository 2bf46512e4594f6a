// Starts the real `svc mcp` (through tsx, like a user's MCP client launches it) and connects the
// SDK's own client to it, over stdio or over Streamable HTTP.
import { spawn } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ROOT } from '../cli/run-cli.js';

/** The arguments that run the CLI from source. */
export const CLI = ['--import', 'tsx', 'src/cli/main.ts'];

/** The environment of a `svc mcp` child: the embedded service over `dataDir`, nothing remote. */
export function mcpEnv(
  dataDir: string,
  extra: Record<string, string> = {},
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
  delete env.SVC_BASE_URL;
  delete env.SVC_API_KEY;
  delete env.SVC_SESSION_PROVIDER;
  delete env.SVC_CDP_URL;
  delete env.SVC_LOG_LEVEL;
  return { ...env, SVC_DATA_DIR: dataDir, ...extra };
}

/** An SDK client connected to `svc mcp` over stdio, and the server's pid. */
export interface StdioConnection {
  client: Client;
  transport: StdioClientTransport;
  pid: number;
  stderr(): string;
}

/** Launches `svc mcp` as an MCP client does (stdio) and connects. */
export async function connectStdio(dataDir: string, args: string[] = []): Promise<StdioConnection> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [...CLI, 'mcp', ...args],
    cwd: ROOT,
    env: mcpEnv(dataDir),
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const client = new Client({ name: 'svc-test', version: '1.0.0' });
  await client.connect(transport);
  return { client, transport, pid: transport.pid ?? -1, stderr: () => stderr };
}

/** A `svc mcp --http 0` child and its endpoint. */
export interface HttpServerProcess {
  child: ChildProcessWithoutNullStreams;
  url: string;
  exited: Promise<number | null>;
  stderr(): string;
}

/** Starts `svc mcp --http 0` with `token` in SVC_MCP_TOKEN and waits for its URL. */
export async function startHttpServer(dataDir: string, token: string): Promise<HttpServerProcess> {
  const child = spawn(process.execPath, [...CLI, 'mcp', '--http', '0'], {
    cwd: ROOT,
    env: mcpEnv(dataDir, { SVC_MCP_TOKEN: token }),
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (s: string) => (stderr += s));
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => resolve(code)),
  );
  const url = await new Promise<string>((resolve, reject) => {
    const check = (): void => {
      const m = /Streamable HTTP on (http:\/\/\S+)/.exec(stderr);
      if (m) resolve(m[1]!);
    };
    child.stderr.on('data', check);
    void exited.then(() => reject(new Error(`svc mcp exited:\n${stderr}`)));
  });
  return { child, url, exited, stderr: () => stderr };
}

/** An SDK client connected over Streamable HTTP with the bearer token. */
export async function connectHttp(
  url: string,
  token: string,
): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: { headers: { authorization: `Bearer ${token}` } },
  });
  const client = new Client({ name: 'svc-test-http', version: '1.0.0' });
  await client.connect(transport);
  return { client, transport };
}

/** The text blocks of a tool result, joined. */
export function textOf(result: unknown): string {
  const content = ((result as { content?: unknown }).content ?? []) as {
    type: string;
    text?: string;
  }[];
  return content
    .filter((c) => c.type === 'text')
    .map((c) => c.text ?? '')
    .join('\n');
}

/** The JSON of a tool result's first text block. */
export function jsonOf<T = Record<string, unknown>>(result: unknown): T {
  const content = ((result as { content?: unknown }).content ?? []) as {
    type: string;
    text?: string;
  }[];
  return JSON.parse(content[0]?.text ?? 'null') as T;
}
