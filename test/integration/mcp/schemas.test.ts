// No drift between what each MCP tool advertises and the package's zod schemas: the JSON Schema an
// MCP client sees (listed by the real `svc mcp` through the SDK's client) is what zod generates
// from the tool's schema, and the request fields a tool shares with the service's API are
// advertised exactly as the protocol schemas define them.
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { TOOLS } from '../../../src/cli/mcp/schemas.js';
import type { ToolName } from '../../../src/cli/mcp/schemas.js';
import {
  BrowserSessionCreateRequestSchema,
  CHAT_MODELS,
  ChatCompletionRequestSchema,
  SearchRequestSchema,
} from '../../../src/protocol/index.js';
import { tempDataDir } from '../cli/run-cli.js';
import { connectStdio } from './helpers.js';
import { SLOW } from './support.js';

let dataDir: string;
let client: Client;

beforeAll(async () => {
  dataDir = tempDataDir();
  ({ client } = await connectStdio(dataDir));
}, SLOW);

afterAll(async () => {
  await client?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** The JSON Schema zod itself makes of `schema`, as an MCP client is meant to see it. */
const jsonSchema = (schema: z.ZodType): Record<string, unknown> =>
  z.toJSONSchema(schema, { target: 'draft-7', io: 'input' }) as Record<string, unknown>;

/** `schema` without the descriptions the tool layer adds. */
function undescribed(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(undescribed);
  if (schema && typeof schema === 'object') {
    return Object.fromEntries(
      Object.entries(schema)
        .filter(([k]) => k !== 'description')
        .map(([k, v]) => [k, undescribed(v)]),
    );
  }
  return schema;
}

describe('tool schemas (no drift from the zod schemas)', () => {
  it(
    'advertises every tool with the description and the JSON Schema generated from its zod schema',
    async () => {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual(Object.keys(TOOLS).sort());
      for (const tool of tools) {
        const spec = TOOLS[tool.name as ToolName];
        expect(tool.description, tool.name).toBe(spec.description);
        expect(tool.inputSchema, tool.name).toEqual(jsonSchema(spec.inputSchema));
      }
    },
    SLOW,
  );

  it(
    'takes request fields exactly as the protocol schemas define them',
    async () => {
      const { tools } = await client.listTools();
      const props = (name: string): Record<string, unknown> =>
        (tools.find((t) => t.name === name)!.inputSchema.properties ?? {}) as Record<
          string,
          unknown
        >;
      // search is the /search body itself.
      expect(tools.find((t) => t.name === 'search')!.inputSchema).toEqual(
        jsonSchema(SearchRequestSchema),
      );
      const chat = jsonSchema(ChatCompletionRequestSchema).properties as Record<string, unknown>;
      for (const field of ['search_domain_filter', 'search_recency_filter', 'search_mode']) {
        expect(props('ask')[field], field).toEqual(chat[field]);
      }
      expect(undescribed(props('ask').model)).toEqual({
        default: 'core',
        type: 'string',
        enum: [...CHAT_MODELS],
      });
      const create = jsonSchema(BrowserSessionCreateRequestSchema).properties as Record<
        string,
        unknown
      >;
      for (const field of ['viewport', 'user_agent', 'tags']) {
        expect(props('browser_open')[field], field).toEqual(create[field]);
      }
    },
    SLOW,
  );
});
