// The evidence tools: verify (an answer and its citations -> a verdict per claim) and cite (a
// question -> the answer plus that evidence). Verdict objects pass through as the recipes make
// them: new verdicts and fields (conflicts, ...) reach the agent without a change here.
import { randomUUID } from 'node:crypto';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { citeAndCapture, verifyAnswer } from '../../../recipes/index.js';
import type { CitationCheck, CiteAndCaptureResult, CiteProgress } from '../../../recipes/index.js';
import { progressOf } from './progress.js';
import type { ToolExtra } from './progress.js';
import { jsonResult, pngBlock } from './results.js';
import type { McpRuntime, ReportEntry } from './runtime.js';
import type { ToolArgs } from './schemas.js';

/** Limits of the evidence tools. */
export const EVIDENCE_TOOL_DEFAULTS = {
  /** Most passage images in one result: more would flood the agent's context. */
  maxImages: 8,
  /** Browser sessions checking citations at once. */
  poolSize: 2,
} as const;

/** `verify`: a verdict per `[n]` claim, with quote, text-fragment link and optional image. */
export async function verifyTool(
  rt: McpRuntime,
  args: ToolArgs<'verify'>,
  extra: ToolExtra,
): Promise<CallToolResult> {
  const id = reportId('verify');
  const result = await verifyAnswer(
    {
      answer: args.answer,
      citations: args.citations,
      ...(args.question !== undefined && { question: args.question }),
    },
    {
      ...(await runOptions(rt, id, args.screenshots, extra)),
      minScore: args.min_score,
      title: 'verify',
    },
  );
  const entry = noteReport(rt, id, 'verify', args.question ?? args.answer, result);
  // The agent sent the answer and its sources: not echoed back.
  const { answer: _answer, sources: _sources, ...checked } = shape(result, entry);
  return evidenceResult(
    { ...checked, passed: result.passed, min_score: result.minScore },
    result.citations,
    args.screenshots,
  );
}

/** `cite`: asks the question, then checks each citation of the answer. */
export async function citeTool(
  rt: McpRuntime,
  args: ToolArgs<'cite'>,
  extra: ToolExtra,
): Promise<CallToolResult> {
  const id = reportId('cite');
  const result = await citeAndCapture(args.question, {
    ...(await runOptions(rt, id, args.screenshots, extra)),
    model: args.model,
    title: 'cite',
  });
  const entry = noteReport(rt, id, 'cite', args.question, result);
  return evidenceResult(shape(result, entry), result.citations, args.screenshots);
}

async function runOptions(rt: McpRuntime, id: string, screenshots: boolean, extra: ToolExtra) {
  const report = progressOf(extra);
  const outDir = await rt.reportDir(id);
  return {
    client: rt.client,
    sessions: rt.manager,
    poolSize: EVIDENCE_TOOL_DEFAULTS.poolSize,
    screenshots,
    report: true,
    outDir,
    onProgress: (event: CiteProgress) => {
      if (event.type === 'citation') {
        report(
          event.done,
          event.total,
          `[${event.check.n}] ${event.check.verdict} ${event.check.url ?? ''}`,
        );
      } else if (event.type === 'answer') {
        report(0, undefined, 'answer received; checking citations');
      }
    },
  };
}

function reportId(tool: string): string {
  return `${tool}-${randomUUID().slice(0, 8)}`;
}

function noteReport(
  rt: McpRuntime,
  id: string,
  tool: string,
  subject: string,
  result: CiteAndCaptureResult,
): ReportEntry | null {
  if (!result.report) return null;
  const entry: ReportEntry = {
    id,
    tool,
    subject: subject.replace(/\s+/g, ' ').slice(0, 120),
    files: result.report,
    createdAt: new Date().toISOString(),
  };
  rt.reports.set(id, entry);
  return entry;
}

/** The result as JSON: each check without its bytes, with the report's resource URIs. */
function shape(result: CiteAndCaptureResult, entry: ReportEntry | null): Record<string, unknown> {
  return {
    question: result.question,
    answer: result.answer,
    sources: result.sources,
    claims: result.citations.map(plainCheck),
    summary: result.summary,
    timings: result.timings,
    report: entry && {
      html: `report://${entry.id}/report.html`,
      json: `report://${entry.id}/report.json`,
    },
  };
}

/**
 * A check as an agent reads it: every field the recipe set (new verdicts and fields such as
 * `conflicts` included), without what only a report needs (bytes, timings, the page's hashes),
 * the quote and its text-fragment link lifted to the top.
 */
function plainCheck(check: CitationCheck): Record<string, unknown> {
  const { screenshots, timings: _timings, page, passage, sentenceIndex: _index, ...rest } = check;
  const { quote, textFragmentUrl, ...match } = passage ?? { quote: null, textFragmentUrl: null };
  return {
    ...rest,
    quote,
    text_fragment_url: textFragmentUrl,
    match: passage ? match : null,
    status: page?.status ?? null,
    final_url: page?.finalUrl ?? null,
    screenshot: screenshots?.passagePath ?? null,
  };
}

function evidenceResult(
  value: Record<string, unknown>,
  checks: readonly CitationCheck[],
  withImages: boolean,
): CallToolResult {
  const images: CallToolResult['content'] = [];
  if (withImages) {
    let shown = 0;
    for (const check of checks) {
      if (shown >= EVIDENCE_TOOL_DEFAULTS.maxImages) break;
      if (!check.screenshots) continue;
      shown++;
      images.push(
        { type: 'text', text: `Passage of claim [${check.n}] (${check.verdict}):` },
        pngBlock(check.screenshots.passage),
      );
    }
  }
  return jsonResult(value, images);
}
