/** Helpers for running a recipe file as a script: entry detection and tables. */
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { CitationCheck, EvidenceSummary } from './types.js';

/** True when the module at `moduleUrl` is the script node was started with. */
export function isMain(moduleUrl: string): boolean {
  const entry = process.argv[1];
  if (!entry) return false;
  try {
    return realpathSync(entry) === realpathSync(fileURLToPath(moduleUrl));
  } catch {
    // argv[1] may name a file that does not exist as such (stdin, -e): then this module is not it.
    return false;
  }
}

/** Renders rows as an aligned text table. */
export function table(rows: readonly (readonly unknown[])[]): string {
  const cells = rows.map((r) => r.map((c) => String(c ?? '')));
  const widths = cells[0]?.map((_, i) => Math.max(...cells.map((r) => (r[i] ?? '').length))) ?? [];
  const line = (r: string[]) =>
    r
      .map((c, i) => c.padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd();
  const [head, ...body] = cells;
  if (!head) return '';
  return [line(head), widths.map((w) => '-'.repeat(w)).join('  '), ...body.map(line)].join('\n');
}

const short = (s: string | null, n: number): string =>
  !s ? '' : s.length > n ? `${s.slice(0, n - 1)}…` : s;

/** One row per citation plus the summary line. */
export function citationTable(checks: readonly CitationCheck[], summary: EvidenceSummary): string {
  const rows: unknown[][] = [['#', 'verdict', 'method', 'status', 'ms', 'url', 'quote']];
  for (const c of checks) {
    rows.push([
      `[${c.n}]`,
      c.verdict,
      c.passage?.method ?? '',
      c.page?.status ?? '',
      c.timings.visitMs + c.timings.findMs + c.timings.captureMs,
      short(c.url, 60),
      short(c.passage?.quote ?? c.reason, 50),
    ]);
  }
  const s = summary;
  return `${table(rows)}\n\nsupported ${s.supported}, contradicted ${s.contradicted}, not_found ${s.not_found}, blocked ${s.blocked}, unreachable ${s.unreachable} of ${s.total}; score ${s.score}`;
}
