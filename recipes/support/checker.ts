/**
 * Checks every `[n]` of an answer against its page through a session pool. Pages can be loaded
 * before the answer is complete ({@link CitationChecker.prefetch}): each page task visits its URL,
 * then waits for the finished answer to know which claims to look for.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { AnyPage, EmbedFn, SessionPool, DriverName } from '../../src/index.js';
import { examinePage, openPage } from './evidence.js';
import type { PageOutcome } from './evidence.js';
import { splitSentences } from './sentences.js';
import type { CitationCheck } from './types.js';

/** Options of {@link CitationChecker}. */
export interface CheckerOptions {
  screenshots: boolean;
  embed?: EmbedFn | undefined;
  navigationTimeout?: number | undefined;
  /** Called as each citation gets its verdict. */
  onCheck?: ((check: CitationCheck, done: number, total: number) => void) | undefined;
}

/** Where a recorded session's replay starts: its page and the epoch ms of its `#t=0`. */
interface Replay {
  url: string;
  origin: number;
  /** When the page was loaded: the moment of claims captured without a highlight. */
  visitedAt: number;
}

interface PageTask {
  queuedAt: number;
  result: Promise<
    { outcome: PageOutcome | null; waitMs: number; replay?: Replay } | { error: Error }
  >;
}

/** Claims wanted per URL, known once the answer is complete. */
type Wanted = Map<string, string[]>;

/** Runs the page work of an answer's citations through `pool`. */
export class CitationChecker {
  readonly #pool: () => SessionPool<DriverName>;
  readonly #options: CheckerOptions;
  readonly #tasks = new Map<string, PageTask>();
  #wanted: Wanted | undefined;
  #resolveWanted!: (wanted: Wanted) => void;
  readonly #wantedPromise: Promise<Wanted>;

  constructor(pool: () => SessionPool<DriverName>, options: CheckerOptions) {
    this.#pool = pool;
    this.#options = options;
    this.#wantedPromise = new Promise((resolve) => (this.#resolveWanted = resolve));
  }

  /** Starts loading `url` now (before its claims are known). Idempotent. */
  prefetch(url: string): void {
    if (this.#tasks.has(url)) return;
    const queuedAt = performance.now();
    const result = this.#pool()
      .run(async (page: AnyPage, session) => {
        const waitMs = Math.round(performance.now() - queuedAt);
        // The answer finished while this task queued and does not cite the page: skip the visit.
        if (this.#wanted && !this.#wanted.get(url)?.length) return { outcome: null, waitMs };
        const visited = await openPage(page, url, this.#options.navigationTimeout);
        const replay = replayOf(session.record, Date.now());
        const claims = (await this.#wantedPromise).get(url) ?? [];
        if (claims.length === 0) return { outcome: null, waitMs };
        const outcome = await examinePage(page, visited, claims, this.#options);
        return { outcome, waitMs, ...(replay && { replay }) };
      })
      .catch((error: unknown) => ({ error: error as Error }));
    this.#tasks.set(url, { queuedAt, result });
  }

  /** Lets prefetched page tasks end without work (the answer failed): call before closing the pool. */
  cancel(): void {
    if (this.#wanted) return;
    this.#wanted = new Map();
    this.#resolveWanted(this.#wanted);
  }

  /**
   * Checks each marker of `answer` against `citations[n - 1]`, and settles pages prefetched but not
   * cited. A page task that fails (browser lost, pool closed) gives `unreachable` with the error.
   */
  async check(
    answer: string,
    citations: readonly string[],
    titles: ReadonlyMap<string, string> = new Map(),
  ): Promise<CitationCheck[]> {
    const checks: CitationCheck[] = [];
    const wanted: Wanted = new Map();
    for (const s of splitSentences(answer)) {
      for (const n of s.markers) {
        const url = citations[n - 1] ?? null;
        checks.push({
          n,
          sentenceIndex: s.index,
          sentence: s.text,
          claim: s.claim,
          url,
          title: url ? (titles.get(url) ?? null) : null,
          verdict: 'not_found',
          reason: url ? 'not checked' : `marker [${n}] has no entry in citations`,
          conflicts: [],
          passage: null,
          page: null,
          screenshots: null,
          timings: { waitMs: 0, visitMs: 0, findMs: 0, captureMs: 0 },
        });
        if (!url) continue;
        const list = wanted.get(url) ?? [];
        if (!list.includes(s.claim)) list.push(s.claim);
        wanted.set(url, list);
      }
    }
    this.#wanted = wanted;
    this.#resolveWanted(wanted);
    for (const url of wanted.keys()) this.prefetch(url);
    let done = checks.filter((c) => !c.url).length;
    const total = checks.length;
    for (const c of checks) if (!c.url) this.#options.onCheck?.(c, done, total);
    await Promise.all(
      [...this.#tasks.entries()].map(async ([url, task]) => {
        const settled = await task.result;
        const claims = wanted.get(url) ?? [];
        for (const c of checks) {
          if (c.url !== url) continue;
          if ('error' in settled) {
            c.verdict = 'unreachable';
            c.reason = `the page could not be examined: ${settled.error.message.split('\n')[0]}`;
          } else if (settled.outcome) {
            const o = settled.outcome.claims[claims.indexOf(c.claim)];
            c.page = settled.outcome.page;
            c.timings.waitMs = settled.waitMs;
            c.timings.visitMs = settled.outcome.page?.fetchMs ?? 0;
            if (o) {
              c.verdict = o.verdict;
              c.reason = o.reason;
              c.conflicts = o.conflicts;
              c.passage = o.passage;
              c.timings.findMs = o.findMs;
              c.timings.captureMs = o.captureMs;
              if (settled.replay) {
                const at = o.capturedAt ?? settled.replay.visitedAt;
                c.recording = {
                  url: settled.replay.url,
                  offsetMs: Math.max(0, at - settled.replay.origin),
                };
              }
              c.screenshots = o.screenshots && {
                ...o.screenshots,
                passagePath: null,
                viewportPath: null,
              };
            }
          }
          this.#options.onCheck?.(c, ++done, total);
        }
      }),
    );
    return checks;
  }
}

/**
 * The replay of a recorded session (`record: true`): the service starts its recording at the
 * record's `created_at` (whole seconds), which is the replay page's `#t=0`.
 */
function replayOf(
  record: { recording_url?: string | null | undefined; created_at: number },
  visitedAt: number,
): Replay | undefined {
  if (!record.recording_url) return undefined;
  return { url: record.recording_url, origin: record.created_at * 1000, visitedAt };
}

/**
 * Writes each check's screenshots to `outDir/shots/` and records the relative paths on it.
 * @throws the file system's errors
 */
export async function writeScreenshots(checks: CitationCheck[], outDir: string): Promise<void> {
  const dir = path.join(outDir, 'shots');
  const written = new Map<Buffer, string>();
  for (const [i, c] of checks.entries()) {
    if (!c.screenshots) continue;
    await mkdir(dir, { recursive: true });
    const save = async (png: Buffer, kind: string): Promise<string> => {
      const known = written.get(png);
      if (known) return known;
      const rel = `shots/${String(i + 1).padStart(3, '0')}-n${c.n}-${kind}.png`;
      await writeFile(path.join(outDir, rel), png);
      written.set(png, rel);
      return rel;
    };
    c.screenshots.passagePath = await save(c.screenshots.passage, 'passage');
    c.screenshots.viewportPath = await save(c.screenshots.viewport, 'viewport');
  }
}
