// Terminal helpers shared by the `svc` commands: progress on stderr, aligned tables and JSON on
// stdout, and one error printer that maps every failure to an exit code.
import { ChromiumNotFoundError } from '../chromium.js';
import {
  AbortError,
  AuthenticationError,
  ConnectionError,
  PermissionDeniedError,
  ValidationError,
} from '../errors.js';
import { EXIT, UnavailableError, UsageError } from './common.js';

/** A writable text stream, with the TTY bits the progress bar needs. */
export interface OutStream {
  write(chunk: string): unknown;
  isTTY?: boolean | undefined;
  columns?: number | undefined;
}

/** Options of {@link ProgressBar}. */
export interface ProgressBarOptions {
  /** Shown before the bar, e.g. `indexing`. */
  label: string;
  /** Expected total; may be set later with {@link ProgressBar.update}. @default 0 (unknown) */
  total?: number | undefined;
  /** Where to draw. @default process.stderr */
  stream?: OutStream | undefined;
  /** Redraw in place; otherwise one line per 10%. @default stream.isTTY */
  tty?: boolean | undefined;
  /** Clock, for rate and ETA. @default Date.now */
  now?: (() => number) | undefined;
}

const BAR_WIDTH = 24;
// TTY redraws are throttled: a fast loop must not spend its time repainting the terminal.
const REDRAW_MS = 80;

/**
 * A progress bar on stderr for long work. On a TTY it redraws one line in place with counts,
 * percentage, rate and ETA; elsewhere (CI logs, pipes) it prints one line per 10% step, so logs
 * stay short.
 * @example
 * const bar = new ProgressBar({ label: 'indexing', total: files.length });
 * for (const f of files) { await work(f); bar.update(++done, undefined, f); }
 * bar.finish();
 */
export class ProgressBar {
  readonly #label: string;
  readonly #stream: OutStream;
  readonly #tty: boolean;
  readonly #now: () => number;
  readonly #started: number;
  #total: number;
  #done = 0;
  #detail = '';
  #lastDraw = 0;
  #lastStep = -1;
  #drawn = false;

  constructor(options: ProgressBarOptions) {
    this.#label = options.label;
    this.#stream = options.stream ?? process.stderr;
    this.#tty = options.tty ?? this.#stream.isTTY === true;
    this.#now = options.now ?? Date.now;
    this.#started = this.#now();
    this.#total = options.total ?? 0;
  }

  /** Records progress: `done` of `total` (kept from before when omitted), with an optional detail. */
  update(done: number, total?: number, detail?: string): void {
    this.#done = done;
    if (total !== undefined) this.#total = total;
    if (detail !== undefined) this.#detail = detail;
    if (this.#tty) {
      const t = this.#now();
      if (t - this.#lastDraw < REDRAW_MS && done < this.#total) return;
      this.#lastDraw = t;
      this.#stream.write(`\r${this.line()}\x1b[K`);
      this.#drawn = true;
      return;
    }
    const step = this.#total > 0 ? Math.floor((10 * done) / this.#total) : 0;
    if (step > this.#lastStep) {
      this.#lastStep = step;
      this.#stream.write(`${this.line()}\n`);
    }
  }

  /**
   * Progress inside the current item (a large file): the detail is redrawn on a TTY; elsewhere
   * each call prints one line, so the caller decides how often.
   */
  note(detail: string): void {
    if (this.#tty) {
      this.update(this.#done, undefined, detail);
      return;
    }
    this.#stream.write(`${this.#label}: ${detail}\n`);
  }

  /** Ends the bar: a TTY line is completed with a newline so later output starts clean. */
  finish(): void {
    if (this.#tty && this.#drawn) {
      this.#stream.write(`\r${this.line()}\x1b[K\n`);
      this.#drawn = false;
    }
  }

  /** The current line: label, bar, counts, percentage, rate, ETA (and the detail on a TTY). */
  line(): string {
    const { total } = this;
    const done = this.#done;
    const ratio = total > 0 ? Math.min(1, done / total) : 0;
    const filled = Math.round(ratio * BAR_WIDTH);
    const bar = `[${'#'.repeat(filled)}${'.'.repeat(BAR_WIDTH - filled)}]`;
    const elapsed = Math.max(1, this.#now() - this.#started) / 1000;
    const rate = done / elapsed;
    const eta = rate > 0 && total > done ? formatDuration(((total - done) / rate) * 1000) : '-';
    const parts = [
      this.#label,
      bar,
      `${done}/${total || '?'}`,
      `${Math.round(ratio * 100)}%`,
      `${rate.toFixed(1)}/s`,
      `ETA ${done >= total && total > 0 ? '0s' : eta}`,
    ];
    let text = parts.join(' ');
    if (this.#tty && this.#detail) {
      const room = (this.#stream.columns ?? 100) - text.length - 3;
      if (room > 8) text += `  ${ellipsize(this.#detail, room, true)}`;
    }
    return text;
  }

  /** The total so far (0 when unknown). */
  get total(): number {
    return this.#total;
  }
}

/** `1.2s`, `45s`, `3m05s`. */
export function formatDuration(ms: number): string {
  if (ms < 10_000) return `${(ms / 1000).toFixed(1)}s`;
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s}s`;
  return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
}

/**
 * Shortens `text` to `width` characters with an ellipsis; `fromStart` keeps the end (paths).
 */
export function ellipsize(text: string, width: number, fromStart = false): string {
  if (text.length <= width) return text;
  if (width <= 1) return '…'.slice(0, width);
  return fromStart ? `…${text.slice(text.length - width + 1)}` : `${text.slice(0, width - 1)}…`;
}

/** Options of {@link formatTable}. */
export interface TableOptions {
  /** Columns aligned right (numbers). @default none */
  alignRight?: readonly number[] | undefined;
  /** Longest cell (one number for all columns, or one per column), longer ones end in `…`. @default 60 */
  maxWidth?: number | readonly number[] | undefined;
}

/**
 * Formats rows as aligned columns under a header line, two spaces apart, no trailing spaces.
 * @example formatTable(['outcome', 'count'], [['added', '3']], { alignRight: [1] })
 */
export function formatTable(
  headers: readonly string[],
  rows: ReadonlyArray<readonly string[]>,
  options: TableOptions = {},
): string {
  const limit = options.maxWidth ?? 60;
  const max = (i: number): number =>
    typeof limit === 'number' ? limit : (limit[i] ?? Number.POSITIVE_INFINITY);
  const right = new Set(options.alignRight ?? []);
  const cells = [headers, ...rows].map((row) =>
    headers.map((_, i) => ellipsize((row[i] ?? '').replace(/\s+/g, ' '), max(i))),
  );
  const widths = headers.map((_, i) => Math.max(...cells.map((row) => row[i]!.length)));
  const lines = cells.map((row) =>
    row
      .map((cell, i) => (right.has(i) ? cell.padStart(widths[i]!) : cell.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd(),
  );
  lines.splice(1, 0, widths.map((w) => '-'.repeat(w)).join('  '));
  return lines.join('\n') + '\n';
}

/** Writes {@link formatTable} to stdout. */
export function printTable(
  headers: readonly string[],
  rows: ReadonlyArray<readonly string[]>,
  options: TableOptions = {},
): void {
  process.stdout.write(formatTable(headers, rows, options));
}

/** Writes `value` as indented JSON and a newline to stdout (the `--json` output of every command). */
export function printJson(value: unknown): void {
  process.stdout.write(JSON.stringify(value, null, 2) + '\n');
}

/** Writes one compact JSON line to stdout (NDJSON, for streamed events). */
export function printJsonLine(value: unknown): void {
  process.stdout.write(JSON.stringify(value) + '\n');
}

/**
 * The exit code an error stands for: 2 usage, 3 service unavailable or key refused, 130 aborted
 * (the CLI aborts requests only on Ctrl-C), else 1.
 */
export function exitCodeFor(error: unknown): number {
  if (error instanceof UsageError) return EXIT.usage;
  if (error instanceof AbortError) return EXIT.interrupted;
  if (
    error instanceof UnavailableError ||
    error instanceof ConnectionError ||
    error instanceof AuthenticationError ||
    error instanceof PermissionDeniedError
  ) {
    return EXIT.unavailable;
  }
  return EXIT.failure;
}

/**
 * Prints an error to stderr as `svc: <message>` (or `<prefix>: <message>`), a `ValidationError`'s
 * issues as `  loc: msg` lines, and a hint for the unavailable case; returns the exit code
 * ({@link exitCodeFor}).
 */
export function printError(
  error: unknown,
  stream: OutStream = process.stderr,
  prefix = 'svc',
): number {
  const message = error instanceof Error ? error.message : String(error);
  stream.write(`${prefix}: ${message}\n`);
  if (error instanceof ValidationError) {
    for (const issue of error.detail) {
      const loc = issue.loc.filter((part, i) => !(i === 0 && part === 'body')).join('.');
      stream.write(`  ${loc || '(request)'}: ${issue.msg}\n`);
    }
  }
  const code = exitCodeFor(error);
  if (code === EXIT.unavailable && !(error instanceof UnavailableError)) {
    stream.write(
      process.env.SVC_BASE_URL
        ? `${prefix}: check SVC_BASE_URL (${process.env.SVC_BASE_URL}) and SVC_API_KEY\n`
        : `${prefix}: the embedded service did not answer\n`,
    );
  }
  if (error instanceof ChromiumNotFoundError) {
    stream.write(`${prefix}: URL inputs need Chromium; local files index without it\n`);
  }
  return code;
}

/** The text of choice 0 of a completion (string content, or the text parts of chunked content). */
export function messageText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part: { type?: unknown; text?: unknown }) =>
      part.type === 'text' && typeof part.text === 'string' ? part.text : '',
    )
    .join('');
}

/** One numbered source line pair for {@link formatSources}. */
export interface SourceEntry {
  url: string;
  title?: string | null | undefined;
  date?: string | null | undefined;
}

/**
 * The numbered sources block printed under an answer: `[n] title (date)` then the location
 * (`locate(url)`, the URL by default), where `n` is what the answer's `[n]` markers refer to
 * (`citations[n - 1]`).
 */
export function formatSources(
  citations: readonly string[],
  results: readonly SourceEntry[],
  locate: (url: string) => string = (url) => url,
): string {
  if (citations.length === 0 && results.length === 0) return 'Sources: none\n';
  const byUrl = new Map(results.map((r) => [r.url, r]));
  const list: SourceEntry[] =
    citations.length > 0 ? citations.map((url) => byUrl.get(url) ?? { url }) : [...results];
  const width = String(list.length).length + 2;
  const lines = list.map((s, i) => {
    const n = `[${i + 1}]`.padStart(width);
    const title = s.title ? s.title : s.url;
    const date = s.date ? ` (${s.date.slice(0, 10)})` : '';
    return `${n} ${title}${date}\n${' '.repeat(width + 1)}${locate(s.url)}`;
  });
  return `Sources:\n${lines.join('\n')}\n`;
}

/**
 * Checks a flag's value against a fixed list.
 * @throws UsageError naming the command, the flag and the accepted values
 */
export function choiceOption<T extends string>(
  command: string,
  name: string,
  value: string | undefined,
  choices: readonly T[],
): T | undefined {
  if (value === undefined) return undefined;
  if (!(choices as readonly string[]).includes(value)) {
    throw new UsageError(
      `${command}: --${name}: expected one of ${choices.join(', ')}; got '${value}'`,
    );
  }
  return value as T;
}

/**
 * Parses an integer flag within `min..max`.
 * @throws UsageError naming the command and the flag
 */
export function rangeOption(
  command: string,
  name: string,
  value: string | undefined,
  min: number,
  max: number,
): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max) {
    throw new UsageError(
      `${command}: --${name}: expected an integer from ${min} to ${max}; got '${value}'`,
    );
  }
  return n;
}

/** Unix seconds as `YYYY-MM-DD HH:MM:SS` (UTC), the time column of the `svc` tables. */
export function formatTime(seconds: number): string {
  return new Date(seconds * 1000).toISOString().slice(0, 19).replace('T', ' ');
}
