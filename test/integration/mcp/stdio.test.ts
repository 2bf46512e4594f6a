// `svc mcp` over stdio, driven by the MCP SDK's own client exactly as an agent's host launches it:
// the real CLI in a child process, the embedded service over an indexed data dir, real Chromium.
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { TOOLS } from '../../../src/cli/mcp/schemas.js';
import { alive, processesMentioning } from '../../support/processes.js';
import { waitFor } from '../../support/wait.js';
import { tempDataDir } from '../cli/run-cli.js';
import { connectStdio, jsonOf, textOf } from './helpers.js';
import type { StdioConnection } from './helpers.js';
import { SLOW, sessionEnds, setUp } from './support.js';
import type { McpFixture } from './support.js';
import { BAD_ARGUMENTS, browserRoundTrip, expectNamesField } from './scenarios.js';

const CALL = { timeout: SLOW - 10_000 };

/** A progress notification as the client's `onprogress` receives it. */
interface Progress {
  progress: number;
  total?: number | undefined;
  message?: string | undefined;
}

let fx: McpFixture;
let conn: StdioConnection;
let client: Client;

beforeAll(async () => {
  fx = await setUp();
  conn = await connectStdio(fx.dataDir);
  client = conn.client;
}, SLOW);

afterAll(async () => {
  await client?.close();
  await fx?.close();
});

describe('answer and evidence tools', () => {
  it(
    'searches, asks, then verifies the answer: a verdict, quote and text-fragment link per claim, and the passage as a PNG image block',
    async () => {
      const search = await client.callTool(
        { name: 'search', arguments: { query: 'battery recycling plant', max_results: 3 } },
        undefined,
        CALL,
      );
      expect(search.isError, textOf(search)).toBeFalsy();
      const hits = jsonOf<{ results: { url: string; title: string }[] }>(search).results;
      expect(hits.length).toBeGreaterThan(0);
      expect(hits.length).toBeLessThanOrEqual(3);

      const ask = await client.callTool(
        { name: 'ask', arguments: { question: 'what does the battery recycling plant recover' } },
        undefined,
        CALL,
      );
      expect(ask.isError, textOf(ask)).toBeFalsy();
      const answer = jsonOf<{ answer: string; citations: string[]; search_results: unknown[] }>(
        ask,
      );
      expect(answer.answer).toMatch(/\[\d+\]/);
      expect(answer.citations.length).toBeGreaterThan(0);
      expect(answer.search_results.length).toBeGreaterThan(0);

      const progress: Progress[] = [];
      const verify = await client.callTool(
        {
          name: 'verify',
          arguments: { answer: answer.answer, citations: answer.citations, screenshots: true },
        },
        undefined,
        { ...CALL, onprogress: (p) => progress.push(p) },
      );
      expect(verify.isError, textOf(verify)).toBeFalsy();
      const result = jsonOf<{
        claims: {
          n: number;
          verdict: string;
          quote: string | null;
          text_fragment_url: string | null;
        }[];
        summary: { total: number; supported: number };
        report: { json: string; html: string };
      }>(verify);
      const supported = result.claims.filter((c) => c.verdict === 'supported');
      expect(supported.length).toBeGreaterThan(0);
      expect(supported[0]!.quote!.length).toBeGreaterThan(20);
      expect(supported[0]!.text_fragment_url).toContain('#:~:text=');
      expect(result.summary.total).toBe(result.claims.length);
      // One progress notification per checked citation, growing to the total.
      expect(progress.filter((p) => p.total !== undefined).length).toBe(result.claims.length);

      const images = (
        verify.content as { type: string; data?: string; mimeType?: string }[]
      ).filter((c) => c.type === 'image');
      expect(images.length).toBeGreaterThan(0);
      expect(images[0]!.mimeType).toBe('image/png');
      expect(Buffer.from(images[0]!.data!, 'base64').subarray(1, 4).toString()).toBe('PNG');

      // The report is a resource of this run.
      const { resources } = await client.listResources();
      expect(resources.map((r) => r.uri)).toContain(result.report.json);
      const read = await client.readResource({ uri: result.report.json });
      const report = JSON.parse((read.contents[0] as { text: string }).text) as {
        citations: unknown[];
      };
      expect(report.citations.length).toBe(result.claims.length);
    },
    SLOW,
  );

  it(
    'starts a research job, then resumes it by id with progress notifications until the answer',
    async () => {
      const started = await client.callTool(
        {
          name: 'research',
          arguments: { question: 'how do grid batteries affect prices', wait_ms: 0 },
        },
        undefined,
        CALL,
      );
      expect(started.isError, textOf(started)).toBeFalsy();
      const job = jsonOf<{ job_id: string; status: string }>(started);
      expect(job.job_id).toMatch(/\S/);

      const progress: Progress[] = [];
      const resumed = await client.callTool(
        { name: 'research', arguments: { job_id: job.job_id } },
        undefined,
        { ...CALL, onprogress: (p) => progress.push(p) },
      );
      expect(resumed.isError, textOf(resumed)).toBeFalsy();
      const done = jsonOf<{ job_id: string; status: string; answer: string; citations: string[] }>(
        resumed,
      );
      expect(done.job_id).toBe(job.job_id);
      expect(done.status).toBe('COMPLETED');
      expect(done.answer.length).toBeGreaterThan(0);
      expect(progress.length).toBeGreaterThan(0);
      expect(progress.at(-1)!.message).toContain(job.job_id);
    },
    SLOW,
  );
});

describe('cite', () => {
  it(
    'answers a question with the evidence of each claim',
    async () => {
      const cite = await client.callTool(
        { name: 'cite', arguments: { question: 'what does the battery recycling plant recover' } },
        undefined,
        CALL,
      );
      expect(cite.isError, textOf(cite)).toBeFalsy();
      const result = jsonOf<{
        question: string;
        answer: string;
        claims: { n: number; url: string; verdict: string; quote: string | null }[];
        summary: { total: number; supported: number };
      }>(cite);
      expect(result.question).toBe('what does the battery recycling plant recover');
      expect(result.answer).toMatch(/\[\d+\]/);
      expect(result.claims.length).toBe(result.summary.total);
      const supported = result.claims.find((c) => c.verdict === 'supported');
      expect(supported?.quote).toBeTruthy();
      // No screenshots asked: no image blocks.
      expect((cite.content as { type: string }[]).some((c) => c.type === 'image')).toBe(false);
    },
    SLOW,
  );
});

describe('browser tools', () => {
  it(
    'opens a session, navigates, snapshots with stable refs, clicks and types by ref, shoots and closes',
    async () => {
      await browserRoundTrip(client, fx.site.url);
    },
    SLOW,
  );
});

describe('recordings', () => {
  it(
    'serves the recording of a session opened with record: true as resources, after it is closed',
    async () => {
      const opened = await client.callTool(
        { name: 'browser_open', arguments: { record: true } },
        undefined,
        CALL,
      );
      expect(opened.isError, textOf(opened)).toBeFalsy();
      const { session_id, recording } = jsonOf<{
        session_id: string;
        recording: { events: string; replay: string };
      }>(opened);
      expect(recording.events).toBe(`recording://${session_id}/recording.json`);
      const url = `${fx.site.url}/article.html`;
      await client.callTool(
        { name: 'browser_navigate', arguments: { session_id, url } },
        undefined,
        CALL,
      );
      await client.callTool({ name: 'browser_close', arguments: { session_id } }, undefined, CALL);

      const { resources } = await client.listResources();
      expect(resources.map((r) => r.uri)).toEqual(
        expect.arrayContaining([recording.events, recording.replay]),
      );
      const events = await client.readResource({ uri: recording.events });
      const doc = JSON.parse((events.contents[0] as { text: string }).text) as {
        events: unknown[];
        pages: { url: string }[];
      };
      expect(doc.events.length).toBeGreaterThan(0);
      expect(doc.pages.map((p) => p.url)).toContain(url);
      const replay = await client.readResource({ uri: recording.replay });
      expect(replay.contents[0]!.mimeType).toBe('text/html');
      expect((replay.contents[0] as { text: string }).text).toMatch(/^<!doctype html>/i);
    },
    SLOW,
  );
});

describe('bad arguments', () => {
  it(
    'answers a tool error naming the offending field for a bad argument to each tool, and keeps serving',
    async () => {
      for (const { tool, args, field } of BAD_ARGUMENTS) {
        const result = await client.callTool({ name: tool, arguments: args }, undefined, CALL);
        expectNamesField(result, tool, field);
      }
      // Every tool was tried: a new tool must come with its bad-argument case.
      expect(new Set(BAD_ARGUMENTS.map((b) => b.tool))).toEqual(new Set(Object.keys(TOOLS)));
      const after = await client.callTool(
        { name: 'search', arguments: { query: 'sqlite' } },
        undefined,
        CALL,
      );
      expect(after.isError).toBeFalsy();
    },
    SLOW,
  );
});

describe('session lifetime', () => {
  it(
    'names context.id when browser_open is given a saved context that does not exist',
    async () => {
      const result = await client.callTool(
        { name: 'browser_open', arguments: { context: { id: 'no-such-context' } } },
        undefined,
        CALL,
      );
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(/context\.id: no saved context "no-such-context"/);
    },
    SLOW,
  );

  it(
    'releases a session left idle, then ends on SIGINT with no session running and no Chromium left',
    async () => {
      const dataDir = tempDataDir();
      const idle = await connectStdio(dataDir, ['--idle-timeout', '1000']);
      try {
        const first = jsonOf<{ session_id: string }>(
          await idle.client.callTool({ name: 'browser_open', arguments: {} }, undefined, CALL),
        ).session_id;
        expect(
          await waitFor(() => sessionEnds(dataDir, [first])[0]?.status === 'stopped', 30_000),
        ).toBe(true);
        const gone = await idle.client.callTool(
          { name: 'browser_snapshot', arguments: { session_id: first } },
          undefined,
          CALL,
        );
        expect(gone.isError).toBe(true);
        expect(textOf(gone)).toMatch(/session_id: no open session/);

        const second = jsonOf<{ session_id: string }>(
          await idle.client.callTool({ name: 'browser_open', arguments: {} }, undefined, CALL),
        ).session_id;
        expect(processesMentioning(dataDir).length).toBeGreaterThan(0);
        process.kill(idle.pid, 'SIGINT');
        expect(await waitFor(() => !alive(idle.pid), 30_000)).toBe(true);
        expect(await waitFor(() => processesMentioning(dataDir).length === 0, 10_000)).toBe(true);
        expect(sessionEnds(dataDir, [second])[0]?.status).toBe('stopped');
      } finally {
        await idle.client.close();
        rmSync(dataDir, { recursive: true, force: true });
      }
    },
    SLOW,
  );
});

describe('disconnect', () => {
  it(
    'releases the sessions of a client that disconnects: 0 sessions running and 0 Chromium left',
    async () => {
      // A data dir of its own: its Chromium processes are this client's and no one else's.
      const dataDir = tempDataDir();
      const other = await connectStdio(dataDir);
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
      expect(processesMentioning(dataDir).length).toBeGreaterThanOrEqual(2);
      const pid = other.pid;
      await other.client.close();
      expect(await waitFor(() => !alive(pid), 30_000)).toBe(true);
      expect(await waitFor(() => processesMentioning(dataDir).length === 0, 10_000)).toBe(true);
      const ends = sessionEnds(dataDir, ids);
      expect(ends).toHaveLength(2);
      for (const end of ends) {
        expect(end.status).toBe('stopped');
        // Released by the MCP server when its client left, not reaped at service shutdown.
        expect(end.end_reason).toBe('deleted by the client');
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
    SLOW,
  );
});
