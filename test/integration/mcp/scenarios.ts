// Scenarios run over both transports: the browser round trip and one bad argument per tool.
import { expect } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { ToolName } from '../../../src/cli/mcp/schemas.js';
import { jsonOf, textOf } from './helpers.js';

const CALL = { timeout: 120_000 };

interface SnapshotJson {
  url: string;
  elements: { ref: string; role: string; name: string; value?: string }[];
}

/** The structured content of a browser_snapshot result. */
function snapshotOf(result: { structuredContent?: unknown }): SnapshotJson {
  return result.structuredContent as SnapshotJson;
}

async function call(
  client: Client,
  name: ToolName,
  args: Record<string, unknown>,
): Promise<{ content?: unknown; structuredContent?: unknown; isError?: unknown }> {
  const result = (await client.callTool({ name, arguments: args }, undefined, CALL)) as {
    content?: unknown;
    structuredContent?: unknown;
    isError?: unknown;
  };
  expect(result.isError, `${name}: ${textOf(result)}`).toBeFalsy();
  return result;
}

/**
 * open -> navigate -> snapshot (twice: same refs) -> click by ref -> type by ref -> screenshot ->
 * close, on the loopback fixture site at `site`.
 */
export async function browserRoundTrip(client: Client, site: string): Promise<void> {
  const opened = jsonOf<{ session_id: string }>(await call(client, 'browser_open', {}));
  const session_id = opened.session_id;

  const nav = jsonOf<{ status: number; title: string; ok: boolean }>(
    await call(client, 'browser_navigate', { session_id, url: `${site}/article.html` }),
  );
  expect(nav.status).toBe(200);
  expect(nav.ok).toBe(true);

  const first = await call(client, 'browser_snapshot', { session_id });
  const text = textOf(first);
  expect(text).toContain('## Interactive elements');
  expect(text).toMatch(/Hollowbrook/);
  const archive = snapshotOf(first).elements.find((e) => e.role === 'link' && e.name === 'Archive');
  expect(archive, text).toBeDefined();
  expect(text).toContain(`[${archive!.ref}] link "Archive"`);
  // A second snapshot of the same page keeps every ref.
  const again = snapshotOf(await call(client, 'browser_snapshot', { session_id }));
  expect(again.elements.map((e) => e.ref)).toEqual(snapshotOf(first).elements.map((e) => e.ref));

  // Extraction: each field with the page sentence holding it, and a link that opens the page there.
  const extracted = jsonOf<{
    fields: { path: string; quote: string | null; text_fragment_url: string | null }[];
  }>(
    await call(client, 'browser_extract', {
      session_id,
      instruction: 'When did the Hollowbrook Bridge open to traffic?',
      schema: { type: 'object', properties: { opened: { type: 'string' } } },
    }),
  );
  const openedAt = extracted.fields.find((f) => f.path === 'opened');
  expect(openedAt?.quote).toContain('14 March 1932');
  expect(text.replace(/\s+/g, ' ')).toContain(openedAt!.quote);
  expect(openedAt?.text_fragment_url).toContain(`${site}/article.html#:~:text=`);

  const clicked = jsonOf<{ url: string }>(
    await call(client, 'browser_click', { session_id, ref: archive!.ref }),
  );
  expect(clicked.url).toBe(`${site}/archive.html`);
  // The old page's refs are gone with it: a clear error, not a click on something else.
  const stale = await client.callTool(
    { name: 'browser_click', arguments: { session_id, ref: archive!.ref } },
    undefined,
    CALL,
  );
  expect(stale.isError).toBe(true);
  expect(textOf(stale)).toMatch(/ref: .*not on the current page/);

  await call(client, 'browser_navigate', { session_id, url: `${site}/login.html` });
  const login = snapshotOf(await call(client, 'browser_snapshot', { session_id }));
  const email = login.elements.find((e) => e.role === 'textbox' && e.name === 'Email');
  expect(email).toBeDefined();
  // Refs keep growing per session: none of the login page's reuses one of the article's.
  const articleRefs = new Set(snapshotOf(first).elements.map((e) => e.ref));
  expect(login.elements.some((e) => articleRefs.has(e.ref))).toBe(false);
  await call(client, 'browser_type', { session_id, ref: email!.ref, text: 'ada@example.org' });
  const typed = snapshotOf(await call(client, 'browser_snapshot', { session_id }));
  expect(typed.elements.find((e) => e.ref === email!.ref)?.value).toBe('ada@example.org');

  const shot = await call(client, 'browser_screenshot', { session_id });
  const element = await call(client, 'browser_screenshot', { session_id, ref: email!.ref });
  const field = (element.content as { type: string; data?: string }[]).find(
    (c) => c.type === 'image',
  );
  expect(Buffer.from(field!.data!, 'base64').subarray(1, 4).toString()).toBe('PNG');
  // Enter in the form submits it: the page moves to the form's action.
  const pressed = jsonOf<{ url: string }>(
    await call(client, 'browser_press', { session_id, ref: email!.ref, key: 'Enter' }),
  );
  expect(pressed.url).toBe(`${site}/login`);

  const image = (shot.content as { type: string; data?: string; mimeType?: string }[]).find(
    (c) => c.type === 'image',
  );
  expect(image?.mimeType).toBe('image/png');
  expect(Buffer.from(image!.data!, 'base64').subarray(1, 4).toString()).toBe('PNG');

  const closed = jsonOf<{ status: string }>(await call(client, 'browser_close', { session_id }));
  expect(closed.status).toBe('stopped');
  const after = await client.callTool(
    { name: 'browser_snapshot', arguments: { session_id } },
    undefined,
    CALL,
  );
  expect(after.isError).toBe(true);
  expect(textOf(after)).toMatch(/session_id: no open session/);
}

/**
 * Checks that `result` is a tool error of `tool` naming `field` first: `<tool>: invalid <field>...`
 * or `<tool>: invalid arguments: <field> ...`.
 */
export function expectNamesField(result: unknown, tool: string, field: string): void {
  const r = result as { isError?: unknown };
  const text = textOf(result);
  expect(r.isError, `${tool}: ${text}`).toBe(true);
  const escaped = field.replace(/[.[\]]/g, (c) => `\\${c}`);
  expect(text).toMatch(new RegExp(`^${tool}: invalid (arguments: )?${escaped}\\b`));
}

/** One bad call per tool and the field its error must name. */
export const BAD_ARGUMENTS: { tool: ToolName; args: Record<string, unknown>; field: string }[] = [
  { tool: 'search', args: { query: 'x', max_results: 50 }, field: 'max_results' },
  {
    tool: 'ask',
    args: { question: 'x', search_recency_filter: 'decade' },
    field: 'search_recency_filter',
  },
  { tool: 'research', args: { wait_ms: 10 }, field: 'question' },
  {
    tool: 'verify',
    args: { answer: 'It opened [1].', citations: ['ftp://x.org/a'] },
    field: 'citations',
  },
  { tool: 'cite', args: { question: 'x', model: 'gpt-9' }, field: 'model' },
  { tool: 'browser_open', args: { viewport: { width: 5, height: 600 } }, field: 'viewport.width' },
  {
    tool: 'browser_navigate',
    args: { session_id: 'nope', url: 'https://example.org/' },
    field: 'session_id',
  },
  { tool: 'browser_snapshot', args: { session_id: 'nope' }, field: 'session_id' },
  { tool: 'browser_click', args: { session_id: 'nope', ref: 'the button' }, field: 'ref' },
  { tool: 'browser_type', args: { session_id: 'nope', ref: 'e1' }, field: 'text' },
  { tool: 'browser_press', args: { session_id: 'nope' }, field: 'key' },
  {
    tool: 'browser_screenshot',
    args: { session_id: 'nope', full_page: 'yes' },
    field: 'full_page',
  },
  {
    tool: 'browser_extract',
    args: { session_id: 'nope', schema: { type: 'string' } },
    field: 'schema',
  },
  { tool: 'browser_close', args: {}, field: 'session_id' },
];
