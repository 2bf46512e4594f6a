// The browser tools: sessions of the session manager (any provider), opened per MCP client and
// driven by refs from browser_snapshot.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { NotFoundError } from '../../errors.js';
import { readPage, toPageLike, visit } from '../../page/index.js';
import { completionText, locateFields } from '../../../recipes/index.js';
import type { ScrapedPage } from '../../../recipes/index.js';
import type { BrowserScope } from './browser-scope.js';
import { MCP_SESSION_TAG } from './browser-scope.js';
import type { ToolExtra } from './progress.js';
import { jsonResult, pngBlock, ToolInputError } from './results.js';
import type { McpRuntime } from './runtime.js';
import type { ToolArgs } from './schemas.js';
import { clickRef, formatSnapshot, pressKey, shootRef, snapshot, typeRef } from './snapshot.js';

/** Navigation timeout of browser_navigate, in ms. */
export const NAVIGATION_TIMEOUT_MS = 30_000;

/** Everything a browser tool needs: the shared runtime and the calling client's sessions. */
export interface BrowserToolContext {
  rt: McpRuntime;
  scope: BrowserScope;
}

/** `browser_open`: a new session for this client. */
export async function openTool(
  { rt, scope }: BrowserToolContext,
  args: ToolArgs<'browser_open'>,
): Promise<CallToolResult> {
  let session;
  try {
    ({ session } = await scope.open({
      driver: args.driver,
      tags: [MCP_SESSION_TAG, ...(args.tags ?? [])],
      ...(args.viewport !== undefined && { viewport: args.viewport }),
      ...(args.user_agent !== undefined && { userAgent: args.user_agent }),
      ...(args.context !== undefined && { context: args.context }),
      ...(args.record !== undefined && { record: args.record }),
    }));
  } catch (error) {
    if (args.context !== undefined && error instanceof NotFoundError) {
      throw new ToolInputError('context.id', `no saved context ${JSON.stringify(args.context.id)}`);
    }
    throw error;
  }
  const recording = rt.noteRecording(session.record, args.record === true);
  return jsonResult({
    session_id: session.id,
    provider: session.provider,
    driver: session.driver,
    status: session.record.status,
    expires_at: session.record.expires_at,
    recording: recording ? recordingUris(session.id) : null,
  });
}

/** `browser_navigate`: status, final URL, title, and whether the page is a wall. */
export async function navigateTool(
  { scope }: BrowserToolContext,
  args: ToolArgs<'browser_navigate'>,
): Promise<CallToolResult> {
  const { session } = scope.get(args.session_id);
  const page = toPageLike(session.page);
  const result = await visit(page, args.url, {
    timeout: NAVIGATION_TIMEOUT_MS,
    waitUntil: args.wait_until,
  });
  const title = result.status === null && result.error ? '' : await page.title().catch(() => '');
  return jsonResult({
    url: args.url,
    final_url: result.finalUrl,
    status: result.status,
    ok: result.ok,
    title,
    blocked: result.blocked,
    error: result.error ?? null,
    fetch_ms: result.fetchMs,
  });
}

/** `browser_snapshot`: Markdown plus the numbered interactive elements. */
export async function snapshotTool(
  { scope }: BrowserToolContext,
  args: ToolArgs<'browser_snapshot'>,
): Promise<CallToolResult> {
  const { session, refs } = scope.get(args.session_id);
  const s = await snapshot(session, refs, args.max_chars);
  return {
    content: [{ type: 'text', text: formatSnapshot(s) }],
    structuredContent: { url: s.url, title: s.title, truncated: s.truncated, elements: s.elements },
  };
}

/** `browser_click`. */
export async function clickTool(
  { scope }: BrowserToolContext,
  args: ToolArgs<'browser_click'>,
): Promise<CallToolResult> {
  const { session } = scope.get(args.session_id);
  await clickRef(session, args.ref);
  return pageState(session.page, `clicked ${args.ref}`);
}

/** `browser_type`. */
export async function typeTool(
  { scope }: BrowserToolContext,
  args: ToolArgs<'browser_type'>,
): Promise<CallToolResult> {
  const { session } = scope.get(args.session_id);
  await typeRef(session, args.ref, args.text, args.submit);
  return pageState(
    session.page,
    `typed into ${args.ref}${args.submit ? ' and pressed Enter' : ''}`,
  );
}

/** `browser_press`. */
export async function pressTool(
  { scope }: BrowserToolContext,
  args: ToolArgs<'browser_press'>,
): Promise<CallToolResult> {
  const { session } = scope.get(args.session_id);
  await pressKey(session, args.key, args.ref);
  return pageState(session.page, `pressed ${args.key}`);
}

/** `browser_screenshot`: a PNG image block. */
export async function screenshotTool(
  { scope }: BrowserToolContext,
  args: ToolArgs<'browser_screenshot'>,
): Promise<CallToolResult> {
  const { session } = scope.get(args.session_id);
  if (args.ref !== undefined && args.full_page) {
    throw new ToolInputError('full_page', 'give full_page or ref, not both');
  }
  const page = toPageLike(session.page);
  const png =
    args.ref !== undefined
      ? await shootRef(session, args.ref)
      : await page.screenshot({ fullPage: args.full_page });
  return {
    content: [
      { type: 'text', text: `Screenshot of ${page.url()} (${png.length} bytes PNG)` },
      pngBlock(png),
    ],
  };
}

/**
 * `browser_extract`: the service fills the schema from the page at the session's URL (sent as a
 * `file_url` attachment, search off), then each value is located in the text the browser shows.
 */
export async function extractTool(
  { rt, scope }: BrowserToolContext,
  args: ToolArgs<'browser_extract'>,
  extra: ToolExtra,
): Promise<CallToolResult> {
  const { session } = scope.get(args.session_id);
  const page = toPageLike(session.page);
  const url = page.url();
  if (!/^https?:/i.test(url)) {
    throw new ToolInputError(
      'session_id',
      `the session shows ${url}, not a web page: browser_navigate to one first`,
    );
  }
  const read = await readPage(page);
  const keys = Object.keys((args.schema.properties ?? {}) as Record<string, unknown>);
  const completion = await rt.client.chat.completions.create(
    {
      model: 'core',
      disable_search: true,
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: args.instruction ?? `${read.title}: ${keys.join(', ')}` },
            { type: 'file_url', file_url: { url } },
          ],
        },
      ],
      response_format: {
        type: 'json_schema',
        json_schema: { name: 'extraction', schema: args.schema },
      },
    },
    { signal: extra.signal },
  );
  let data: unknown;
  try {
    data = JSON.parse(completionText(completion));
  } catch {
    throw new Error('the service answered text that is not JSON for this schema');
  }
  const scraped: ScrapedPage = {
    url,
    state: 'ok',
    reason: null,
    status: null,
    finalUrl: url,
    fetchMs: 0,
    title: read.title,
    lang: read.lang,
    markdown: read.markdown,
    text: read.text,
    links: read.links,
    metadata: read.metadata,
    contentHash: read.contentHash,
    snippet: '',
  };
  const fields = locateFields(data, [scraped]).map((f) => ({
    path: f.path,
    value: f.value,
    quote: f.quote,
    text_fragment_url: f.textFragmentUrl,
  }));
  return jsonResult({ url, data, fields });
}

/** `browser_close`. */
export async function closeTool(
  { rt, scope }: BrowserToolContext,
  args: ToolArgs<'browser_close'>,
): Promise<CallToolResult> {
  const session = await scope.close(args.session_id);
  const recording = rt.noteRecording(session.record, false);
  return jsonResult({
    session_id: session.id,
    status: session.record.status,
    recording: recording ? recordingUris(session.id) : null,
  });
}

async function pageState(
  driverPage: Parameters<typeof toPageLike>[0],
  done: string,
): Promise<CallToolResult> {
  const page = toPageLike(driverPage);
  return jsonResult({ done, url: page.url(), title: await page.title().catch(() => '') });
}

/** The resources of a session's recording. */
function recordingUris(sessionId: string): { events: string; replay: string } {
  return {
    events: `recording://${sessionId}/recording.json`,
    replay: `recording://${sessionId}/replay.html`,
  };
}
