// The input schema of every MCP tool, built from the package's own request schemas: the JSON
// Schema an MCP client sees is generated from these zod objects, and the values a tool receives
// were parsed by them, so a tool accepts exactly what the client and the service accept.
import { z } from 'zod';
import { ChatCompletionRequestSchema } from '../../protocol/chat.js';
import { BrowserSessionCreateRequestSchema } from '../../protocol/browser-sessions.js';
import { intRange, nonEmptyString, numberRange } from '../../protocol/fields.js';
import { ChatModelSchema } from '../../protocol/models.js';
import { SearchRequestSchema } from '../../protocol/search.js';

/** The search filters `ask` and `cite` take, exactly as a chat completion request defines them. */
const chatFilters = ChatCompletionRequestSchema.pick({
  search_mode: true,
  search_domain_filter: true,
  search_language_filter: true,
  search_recency_filter: true,
  search_after_date_filter: true,
  search_before_date_filter: true,
  last_updated_after_filter: true,
  last_updated_before_filter: true,
}).shape;

const question = nonEmptyString().describe('The question, in plain words.');
const sessionId = nonEmptyString().describe('The session handle that browser_open returned.');
const ref = z
  .string()
  .regex(/^e\d+$/, { error: 'must be a ref such as e12, from browser_snapshot' })
  .describe('The ref of an element, as browser_snapshot lists it (e.g. "e12").');
const screenshots = z
  .boolean()
  .default(false)
  .describe('Also return each passage as a PNG image (one image per checked citation, up to 8).');

/** `search`: the `/search` request body itself. */
export const SearchToolSchema = SearchRequestSchema;

/** `ask`: a question, a model and the chat request's search filters. */
export const AskToolSchema = z.object({
  question,
  model: ChatModelSchema.default('core').describe('The answer model.'),
  ...chatFilters,
});

/** `research`: start a deep-research job, or resume waiting for one by id. */
export const ResearchToolSchema = z.object({
  question: question
    .optional()
    .describe('The question of a new job. Give this, or job_id to resume an earlier one.'),
  job_id: nonEmptyString()
    .optional()
    .describe('The id of a job started earlier (by this or another client): wait for it again.'),
  reasoning_effort: ChatCompletionRequestSchema.shape.reasoning_effort.describe(
    'How many searches the job breaks the question into (new jobs only).',
  ),
  wait_ms: intRange(0, 600_000)
    .default(120_000)
    .describe(
      'How long to wait for the job in this call, in ms; the job keeps running after that, and calling research with its job_id waits again.',
    ),
});

/** `verify`: an answer with `[n]` markers and the URLs they index. */
export const VerifyToolSchema = z.object({
  answer: nonEmptyString().describe(
    'The answer text; each claim carries [n] markers, n indexing citations from 1.',
  ),
  citations: z
    .array(z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }))
    .max(50, { error: 'must hold at most 50 URLs' })
    .describe('The cited URLs: [1] is the first.'),
  question: question.optional(),
  screenshots,
  min_score: numberRange(0, 1)
    .default(1)
    .describe('Share of citations that must be supported for passed to be true.'),
});

/** `cite`: a question answered, then every citation of the answer checked. */
export const CiteToolSchema = z.object({
  question,
  model: ChatModelSchema.default('core').describe('The answer model.'),
  screenshots,
});

/** `browser_open`: a new session, sized and tagged as the session create request allows. */
export const BrowserOpenToolSchema = z.object({
  ...BrowserSessionCreateRequestSchema.pick({
    viewport: true,
    user_agent: true,
    tags: true,
    context: true,
    record: true,
  }).shape,
  driver: z
    .enum(['playwright', 'puppeteer'])
    .default('playwright')
    .describe('The library that drives the session.'),
});

/** `browser_navigate`: load a URL in a session. */
export const BrowserNavigateToolSchema = z.object({
  session_id: sessionId,
  url: z.url({ protocol: /^(https?|about)$/, error: 'must be an http(s) URL' }),
  wait_until: z
    .enum(['load', 'domcontentloaded', 'networkidle'])
    .default('load')
    .describe('When the navigation counts as finished.'),
});

/** `browser_snapshot`: the page as Markdown plus its interactive elements. */
export const BrowserSnapshotToolSchema = z.object({
  session_id: sessionId,
  max_chars: intRange(200, 200_000)
    .default(20_000)
    .describe('Longest Markdown returned; the rest is cut.'),
});

/** `browser_click`: click an element by ref. */
export const BrowserClickToolSchema = z.object({ session_id: sessionId, ref });

/** `browser_type`: type into a field by ref. */
export const BrowserTypeToolSchema = z.object({
  session_id: sessionId,
  ref,
  text: z.string().max(10_000, { error: 'must be at most 10000 characters' }),
  submit: z.boolean().default(false).describe('Press Enter after typing.'),
});

/** `browser_press`: press a key, on an element or on the page. */
export const BrowserPressToolSchema = z.object({
  session_id: sessionId,
  key: nonEmptyString().describe('A key name: Enter, Tab, Escape, ArrowDown, a character...'),
  ref: ref.optional().describe('The element to focus first; the focused element otherwise.'),
});

/** `browser_screenshot`: a PNG of the viewport, the whole page, or one element. */
export const BrowserScreenshotToolSchema = z.object({
  session_id: sessionId,
  full_page: z.boolean().default(false),
  ref: ref.optional().describe('Shoot only this element.'),
});

/** `browser_extract`: fields following a JSON schema, each with the page sentence holding it. */
export const BrowserExtractToolSchema = z.object({
  session_id: sessionId,
  schema: z
    .record(z.string(), z.unknown())
    .refine((s) => s.type === 'object' || typeof s.properties === 'object', {
      error: 'must be a JSON schema of an object (with type "object" and properties)',
    })
    .describe('JSON schema of the data to extract from the current page.'),
  instruction: nonEmptyString()
    .optional()
    .describe('What to extract, in words (helps pick the right sentences).'),
});

/** `browser_close`: release a session. */
export const BrowserCloseToolSchema = z.object({ session_id: sessionId });

/** One tool as the server registers it. */
export interface ToolSpec {
  title: string;
  description: string;
  inputSchema: z.ZodObject;
}

/** Every tool of `svc mcp`: the one table the server registers and the drift test reads. */
export const TOOLS = {
  search: {
    title: 'Search',
    description:
      'Ranked search results (title, url, snippet, dates) for a query, or up to 5 queries at once. No language model.',
    inputSchema: SearchToolSchema,
  },
  ask: {
    title: 'Ask',
    description:
      'An answer with [n] citation markers, the cited URLs and the search results it was written from.',
    inputSchema: AskToolSchema,
  },
  research: {
    title: 'Deep research',
    description:
      'A deep-research job: give question to start one, or job_id to resume waiting. Reports progress while it waits; returns the answer when done, or the job_id to call again with.',
    inputSchema: ResearchToolSchema,
  },
  verify: {
    title: 'Verify an answer',
    description:
      'Checks each [n] claim of an answer on its cited page. Per claim: a verdict (e.g. supported, not_found, blocked, unreachable), the quote found, a text-fragment link to it, and, on request, a screenshot of the passage. Writes a report (see resources).',
    inputSchema: VerifyToolSchema,
  },
  cite: {
    title: 'Answer with evidence',
    description:
      'Asks the question, then checks every citation of the answer on its page: the answer plus a verdict, quote and text-fragment link per claim.',
    inputSchema: CiteToolSchema,
  },
  browser_open: {
    title: 'Open a browser session',
    description:
      'Opens a remote browser session and returns its session_id; context {id, persist} starts it from a saved context (cookies, storage) and, with persist, saves it back on close; record keeps an rrweb recording (a resource). Sessions are released by browser_close, when this client disconnects, or after they sit idle.',
    inputSchema: BrowserOpenToolSchema,
  },
  browser_navigate: {
    title: 'Navigate',
    description:
      'Loads a URL in a session: HTTP status, final URL, title, and whether the page is a challenge or login wall.',
    inputSchema: BrowserNavigateToolSchema,
  },
  browser_snapshot: {
    title: 'Snapshot the page',
    description:
      'The page as readable Markdown, then a numbered list of its interactive elements, each with a ref (e.g. e3) that browser_click, browser_type and browser_press take. Refs stay valid while the element is on the page.',
    inputSchema: BrowserSnapshotToolSchema,
  },
  browser_click: {
    title: 'Click',
    description: 'Clicks the element with this ref, then waits for the page to settle.',
    inputSchema: BrowserClickToolSchema,
  },
  browser_type: {
    title: 'Type',
    description:
      'Replaces the value of the input or textarea with this ref by text; submit presses Enter after.',
    inputSchema: BrowserTypeToolSchema,
  },
  browser_press: {
    title: 'Press a key',
    description: 'Presses a key, on the element with ref or on the focused element.',
    inputSchema: BrowserPressToolSchema,
  },
  browser_screenshot: {
    title: 'Screenshot',
    description: 'A PNG of the viewport, the whole page (full_page), or one element (ref).',
    inputSchema: BrowserScreenshotToolSchema,
  },
  browser_extract: {
    title: 'Extract data',
    description:
      'Extracts data following a JSON schema from the current page; each field comes with the page sentence that holds it and a text-fragment link (quote null when no sentence holds the value).',
    inputSchema: BrowserExtractToolSchema,
  },
  browser_close: {
    title: 'Close a browser session',
    description: 'Releases the session and its browser.',
    inputSchema: BrowserCloseToolSchema,
  },
} as const satisfies Record<string, ToolSpec>;

/** Names of the tools. */
export type ToolName = keyof typeof TOOLS;

/** The arguments a tool's handler receives (after parsing, defaults applied). */
export type ToolArgs<N extends ToolName> = z.output<(typeof TOOLS)[N]['inputSchema']>;
