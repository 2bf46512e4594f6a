// What the evidence commands (`ask --capture`, `research --capture`, `verify`, `scrape`, `bundle`)
// share: the browser flags, a progress bar fed by recipe events, the citation table, and JSON
// output without screenshot bytes.
import type { DriverName } from '../../sessions/types.js';
import { AbortError } from '../../errors.js';
import type {
  CitationCheck,
  CiteAndCaptureResult,
  CiteProgress,
  EvidenceSummary,
} from '../../../recipes/index.js';
import type { OptionSpecs } from '../command.js';
import { choiceOption, printTable, ProgressBar, rangeOption } from '../output.js';

/** Libraries a session can be driven with. */
export const DRIVERS = ['playwright', 'puppeteer'] as const satisfies readonly DriverName[];

/** Largest `--pool`: each session is a Chromium context; more only queue on a small machine. */
export const MAX_POOL = 16;

/** The browser flags every evidence command takes (spread into its `options`). */
export const BROWSER_FLAGS = {
  pool: {
    type: 'string',
    arg: '<n>',
    help: `browser sessions working at once, 1..${MAX_POOL} (default 2)`,
  },
  driver: {
    type: 'string',
    arg: '<d>',
    help: 'library driving each session: playwright (default) or puppeteer',
  },
} as const satisfies OptionSpecs;

/** The flags of an evidence run (`--capture`): browser flags, `--out` and `--json`. */
export interface CaptureFlags extends BrowserOptions {
  outDir: string | undefined;
  json: boolean;
}

/** Recipe options from the browser flags. */
export interface BrowserOptions {
  poolSize?: number;
  driver?: DriverName;
}

/**
 * Parses `--pool` and `--driver`.
 * @throws UsageError naming the command and the flag
 */
export function browserOptions(
  command: string,
  values: { pool?: string | undefined; driver?: string | undefined },
): BrowserOptions {
  const poolSize = rangeOption(command, 'pool', values.pool, 1, MAX_POOL);
  const driver = choiceOption(command, 'driver', values.driver, DRIVERS);
  return {
    ...(poolSize !== undefined && { poolSize }),
    ...(driver !== undefined && { driver }),
  };
}

/**
 * A progress bar on stderr fed one recipe event at a time; created on the first event, because the
 * total (citations, pages) is only known then.
 */
export class RecipeProgress {
  readonly #label: string;
  #bar: ProgressBar | undefined;

  /** @param label shown before the bar, e.g. `citations` */
  constructor(label: string) {
    this.#label = label;
  }

  /** Starts the clock of the rate and ETA: call when the measured work begins. */
  start(): void {
    this.#bar ??= new ProgressBar({ label: this.#label });
  }

  /** Records `done` of `total`, with a detail shown on a TTY (the URL just finished). */
  update(done: number, total: number, detail: string): void {
    this.#bar ??= new ProgressBar({ label: this.#label, total });
    this.#bar.update(done, total, detail);
  }

  /** Completes the bar's line (when one was drawn). */
  finish(): void {
    this.#bar?.finish();
  }
}

/** First `width` characters of `text`, whitespace collapsed, ellipsis when cut. */
function excerpt(text: string, width: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= width ? flat : `${flat.slice(0, width - 1)}…`;
}

/**
 * Prints one row per citation: marker, verdict, match method, HTTP status, URL (through `locate`,
 * so local documents show their file) and the quote found, or why none was; a `contradicted` row
 * shows what conflicts (`number: 5 MiB vs page 1 MiB`) before the page's quote.
 */
export function printCitations(
  checks: readonly CitationCheck[],
  locate: (url: string) => string = (url) => url,
): void {
  if (checks.length === 0) {
    process.stdout.write('Citations: none (the answer has no [n] markers)\n');
    return;
  }
  printTable(
    ['#', 'verdict', 'method', 'status', 'url', 'quote (or reason)'],
    checks.map((c) => [
      `[${c.n}]`,
      c.verdict,
      c.passage?.method ?? '',
      c.page?.status === null || c.page === null ? '' : String(c.page.status),
      c.url === null ? '(no such source)' : locate(c.url),
      excerpt(
        c.verdict === 'contradicted' && c.conflicts.length > 0
          ? `${c.conflicts.map((x) => `${x.kind}: ${x.claim} vs page ${x.page}`).join('; ')}: "${c.passage?.quote ?? ''}"`
          : c.passage
            ? `"${c.passage.quote}"`
            : c.reason,
        70,
      ),
    ]),
    { maxWidth: [6, 11, 9, 6, 80, 70] },
  );
}

/**
 * `supported 3, contradicted 1, not_found 1, blocked 0, unreachable 0 of 5; score 0.6`; the
 * `contradicted` count only when there is one, so the common line stays as scripts know it.
 */
export function formatSummary(s: EvidenceSummary): string {
  const contradicted = s.contradicted > 0 ? `, contradicted ${s.contradicted}` : '';
  return `supported ${s.supported}${contradicted}, not_found ${s.not_found}, blocked ${s.blocked}, unreachable ${s.unreachable} of ${s.total}; score ${s.score}`;
}

/**
 * `value` as JSON text with raw bytes (screenshot Buffers) left out: the files they were written
 * to are referenced by path instead.
 */
export function evidenceJson(value: unknown): string {
  return `${JSON.stringify(value, dropBytes, 2)}\n`;
}

function dropBytes(_key: string, value: unknown): unknown {
  const v = value as { type?: unknown; data?: unknown } | null;
  // Buffer#toJSON has already run: its shape is { type: 'Buffer', data: [...] }.
  if (v && typeof v === 'object' && v.type === 'Buffer' && Array.isArray(v.data)) return undefined;
  return value;
}

/**
 * `fn`, silenced once `signal` aborts: a recipe stopped by Ctrl-C still reports the work it was
 * finishing, after the service those reports would be resolved against has closed.
 */
export function whileLive<A extends unknown[]>(
  signal: AbortSignal,
  fn: (...args: A) => void,
): (...args: A) => void {
  return (...args) => {
    if (!signal.aborted) fn(...args);
  };
}

/**
 * Resolves with `work`, or rejects with an AbortError as soon as `signal` aborts: the recipes take
 * no signal, so Ctrl-C stops the command here, and closing the service then ends their requests.
 */
export function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(new AbortError('interrupted'));
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(new AbortError('interrupted'));
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

/** The output flags of a capture run. */
export interface CaptureRunOptions {
  /** Print the result as JSON instead of text. */
  json: boolean;
  /** The answer is still streaming when the cited pages start loading (ask, not research). */
  streaming?: boolean | undefined;
  /** What the terminal shows for a cited URL (a local document's file, see displayLocation). */
  locate: (url: string) => string;
}

/**
 * The `onProgress` of citeAndCapture or deepResearch, drawing the CLI's view of a capture: a note
 * when the cited pages start loading, the answer on stdout once complete (text mode), a progress
 * bar over the citations.
 */
export function captureProgress(
  options: CaptureRunOptions,
  progress: RecipeProgress,
): (event: CiteProgress) => void {
  let announced = false;
  return (event) => {
    if (event.type === 'sources') {
      if (announced) return;
      announced = true;
      process.stderr.write(
        `svc: loading ${event.urls.length} cited page(s)${options.streaming ? ' while the answer arrives' : ''}\n`,
      );
    } else if (event.type === 'answer') {
      progress.start();
      if (!options.json)
        process.stdout.write(`${event.answer.trimEnd() || '(no answer text)'}\n\n`);
    } else {
      const url = event.check.url === null ? '' : options.locate(event.check.url);
      progress.update(event.done, event.total, `${event.check.verdict} ${url}`);
    }
  };
}

/** The closing text of a capture: citation table, summary line, report paths. */
export function printCaptureResult(result: CiteAndCaptureResult, options: CaptureRunOptions): void {
  if (options.json) {
    process.stdout.write(evidenceJson(result));
    return;
  }
  printCitations(result.citations, options.locate);
  process.stdout.write(`\n${formatSummary(result.summary)}\n`);
  if (result.report) {
    process.stdout.write(`Report: ${result.report.html}\n        ${result.report.json}\n`);
  }
}
