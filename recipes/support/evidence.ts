/**
 * The per-page work of every evidence recipe: load a cited page, then for each claim find the
 * passage, highlight it and shoot it, and turn what happened into a verdict.
 */
import { createHash } from 'node:crypto';
import { extractText } from 'unpdf';
import {
  capture,
  clearHighlights,
  decodeInt8,
  findPassages,
  highlight,
  textFragmentUrl,
  toPageLike,
  visit,
} from '../../src/index.js';
import type {
  AnyPage,
  Client,
  Conflict,
  EmbedFn,
  PassageMatch,
  VisitResult,
} from '../../src/index.js';
import { locateAll, locateChannel, recording, verdictOf } from './locate.js';
import type { CandidateSource, LocateRecord, RecordedSearch } from './locate.js';
import type { PageEvidence, PassageEvidence, ScreenshotEvidence, Verdict } from './types.js';

/** Defaults of the page work, applied once with `??`. Durations in ms. */
export const EVIDENCE_DEFAULTS = {
  /** Navigation timeout of each cited page. */
  navigationTimeout: 20_000,
  /** Bound on each in-page step (find, highlight, screenshot). */
  actionTimeout: 15_000,
  /** Bound on scrolling through a page so lazily loaded text appears. */
  scrollTimeout: 3_000,
  /** Contextualized embedding model behind the last matching step. */
  embeddingModel: 'svc-embed-context-v1-0.6b',
  /** Candidate passages kept per matching step (fuzzy, embedding), each verified. */
  candidates: 3,
  /** Mark of a supporting passage in screenshots. */
  supportColor: '#ffeb3b',
  /** Mark of a conflicting passage in screenshots: a contradiction must not look like support. */
  conflictColor: '#ff8a80',
} as const;

/** Options of {@link examinePage}. */
export interface ExamineOptions {
  /** Take passage and viewport screenshots. */
  screenshots: boolean;
  /** The embedding step of {@link findPassage}; omitted: exact and fuzzy only. */
  embed?: EmbedFn | undefined;
  /** @default EVIDENCE_DEFAULTS.actionTimeout */
  actionTimeout?: number | undefined;
  /** @default EVIDENCE_DEFAULTS.scrollTimeout */
  scrollTimeout?: number | undefined;
}

/** What {@link examinePage} found for one claim. */
export interface ClaimOutcome {
  verdict: Verdict;
  reason: string;
  conflicts: Conflict[];
  passage: PassageEvidence | null;
  screenshots: Omit<ScreenshotEvidence, 'passagePath' | 'viewportPath'> | null;
  findMs: number;
  captureMs: number;
  /**
   * When the claim's evidence was on screen (ms since the epoch): mid-capture, while its passage
   * was highlighted, or once found when no screenshot was taken. Links the claim to a recording.
   */
  capturedAt?: number | undefined;
}

/** What {@link examinePage} found for a page. */
export interface PageOutcome {
  page: PageEvidence | null;
  claims: ClaimOutcome[];
}

/**
 * An {@link EmbedFn} backed by the contextualized embeddings endpoint (int8 vectors decoded).
 * @throws what the client throws
 */
export function contextualEmbed(
  client: Client,
  model: string = EVIDENCE_DEFAULTS.embeddingModel,
): EmbedFn {
  return async (documents) => {
    const res = await client.contextualizedEmbeddings.create({
      model: model as typeof EVIDENCE_DEFAULTS.embeddingModel,
      input: documents,
    });
    return [...res.data]
      .sort((a, b) => a.index - b.index)
      .map((doc) =>
        [...doc.data]
          .sort((a, b) => a.index - b.index)
          .map((e) => Array.from(decodeInt8(e.embedding as string))),
      );
  };
}

/**
 * Loads `url` in `page`, bounded; never throws (failures come back in the result). The session
 * pool resets a reused page before each task, including after a failed load, so no stray
 * navigation from an earlier task can cancel this one.
 */
export function openPage(page: AnyPage, url: string, timeout?: number): Promise<VisitResult> {
  return visit(page, url, { timeout: timeout ?? EVIDENCE_DEFAULTS.navigationTimeout });
}

const elapsed = (since: number): number => Math.round(performance.now() - since);

/**
 * Examines a loaded page for each claim: blocked and unreachable pages give that verdict to every
 * claim (with a viewport shot of the wall); a PDF has its text extracted and rendered into the page
 * first; then each claim's candidate passages are located (exact, fuzzy; after scrolling through
 * the page once so lazy content exists; then embeddings) and verified (`verifyClaim`): the claim is
 * `supported` only when a candidate passes, `contradicted` when a candidate about the same thing
 * states a different fact, `not_found` otherwise; a claim left `not_found` that joins statements
 * (`statementsOf`) has each statement located and verified on its own (`judgeStatements`). The
 * deciding passage is highlighted (support and conflict in different colours) and shot.
 * @throws SessionError when the browser is lost; other page errors become per-claim reasons
 */
export async function examinePage(
  page: AnyPage,
  visited: VisitResult,
  claims: readonly string[],
  options: ExamineOptions,
): Promise<PageOutcome> {
  const timeout = options.actionTimeout ?? EVIDENCE_DEFAULTS.actionTimeout;
  const pageEvidence: PageEvidence = {
    status: visited.status,
    finalUrl: visited.finalUrl,
    redirected: visited.redirected,
    fetchMs: visited.fetchMs,
    contentType: visited.contentType,
    contentHash: null,
    rendered: 'page',
    ...(visited.localSource ? { localSource: visited.localSource } : {}),
  };
  const all = (verdict: Verdict, reason: string, shot: ClaimOutcome['screenshots'] = null) => ({
    page: pageEvidence,
    claims: claims.map(() => ({
      verdict,
      reason,
      conflicts: [],
      passage: null,
      screenshots: shot,
      findMs: 0,
      captureMs: 0,
    })),
  });
  if (visited.blocked) {
    const shot = options.screenshots ? await wallShot(page) : null;
    return all('blocked', `${visited.blocked.kind}: ${visited.blocked.reason}`, shot);
  }
  if (!visited.ok) {
    const why = visited.error ?? `HTTP ${visited.status ?? 'no response'}`;
    return all('unreachable', why);
  }
  if (visited.contentType === 'application/pdf') {
    try {
      await renderPdfText(page, visited.finalUrl, timeout);
      pageEvidence.rendered = 'pdf-text';
    } catch (error) {
      return all('unreachable', `PDF could not be read: ${(error as Error).message}`);
    }
  }
  pageEvidence.contentHash = await hashVisibleText(page);
  const context = await headings(page, timeout);
  const searches: RecordedSearch[] = [];
  const source = pageSource(page, options);
  // Read once: a subscriber arriving while the page is examined waits for the next page.
  const traced = locateChannel.hasSubscribers;
  const located = await locateAll(
    traced ? recording(source, searches) : source,
    claims,
    context,
    !!options.embed,
  );
  if (traced) {
    const record: LocateRecord = {
      url: visited.finalUrl,
      context,
      claims: [...claims],
      semantic: !!options.embed,
      searches,
    };
    locateChannel.publish(record);
  }
  const out: ClaimOutcome[] = [];
  // Captures come after every claim is located: highlighting changes the DOM, which would make
  // the next claim read the page's text again.
  for (const l of located) {
    const { judged, failure, findMs } = l;
    const match = judged.match;
    if (!match || verdictOf(l) === 'not_found') {
      out.push({
        verdict: 'not_found',
        reason: `no passage on the page supports the sentence${failure}${judged.reason ? `; ${judged.reason}` : ''}`,
        conflicts: [],
        passage: null,
        screenshots: null,
        findMs,
        captureMs: 0,
      });
      continue;
    }
    const color =
      judged.verdict === 'contradicted'
        ? EVIDENCE_DEFAULTS.conflictColor
        : EVIDENCE_DEFAULTS.supportColor;
    const passage: PassageEvidence = {
      method: match.method,
      score: match.score,
      quote: match.quote,
      domPath: match.domPath,
      textFragmentUrl: textFragmentUrl(visited.finalUrl, match.quote),
      coverage: judged.coverage,
      highlightColor: color,
    };
    const shooting = performance.now();
    const screenshots = options.screenshots
      ? await shootPassage(page, match, timeout, color)
      : null;
    out.push({
      verdict: judged.verdict,
      reason: judged.reason,
      conflicts: judged.conflicts,
      passage,
      screenshots,
      findMs,
      captureMs: elapsed(shooting),
      // The highlight is on between the start and the end of the capture.
      capturedAt: Date.now() - Math.round(elapsed(shooting) / 2),
    });
  }
  return { page: pageEvidence, claims: out };
}

/** The loaded page as a {@link CandidateSource}: its text and chunk vectors read once for all. */
function pageSource(page: AnyPage, options: ExamineOptions): CandidateSource {
  const p = toPageLike(page);
  const timeout = options.actionTimeout ?? EVIDENCE_DEFAULTS.actionTimeout;
  const cache = new Map<string, number[]>();
  return {
    find: (claim, methods, batchWith) =>
      findPassages(p, claim, {
        timeout,
        limit: EVIDENCE_DEFAULTS.candidates,
        methods,
        cache,
        ...(options.embed && methods.includes('embedding') && { embed: options.embed }),
        ...(batchWith && { batchWith: [...batchWith] }),
      }),
    scroll: () => scrollThrough(page, options.scrollTimeout ?? EVIDENCE_DEFAULTS.scrollTimeout),
  };
}

async function shootPassage(
  page: AnyPage,
  match: PassageMatch,
  timeout: number,
  color: string,
): Promise<ClaimOutcome['screenshots']> {
  const marked = await highlight(page, match, { timeout, color });
  const shot = await capture(page, marked ?? match, { timeout });
  await clearHighlights(page);
  return { passage: shot.passage, viewport: shot.viewport };
}

/** The viewport of a wall page, as evidence of what stood in the way. */
async function wallShot(page: AnyPage): Promise<ClaimOutcome['screenshots']> {
  try {
    const png = await toPageLike(page).screenshot();
    return { passage: png, viewport: png };
  } catch {
    // A wall that cannot even be shot still gets its verdict; the picture is a bonus.
    return null;
  }
}

/**
 * The page's title, title heading (h1), site name and address: what the whole page is about. A
 * claim's key term may be stated there rather than in the passage ("RetryHandler" over a list of
 * its options; "undici" in the site name or the path of its documentation). Section headings are
 * each candidate's own context (`PassageMatch.context`), added by the judge per candidate.
 */
async function headings(page: AnyPage, timeout: number): Promise<string> {
  const read = toPageLike(page).evaluate(() => {
    const meta = (selector: string): string =>
      document.querySelector<HTMLMetaElement>(selector)?.content ?? '';
    // Path words, not query strings: a signed URL's parameters name nothing.
    const where = `${location.hostname} ${decodeURIComponent(location.pathname)}`;
    return [
      document.title,
      meta('meta[property="og:site_name"]'),
      meta('meta[name="application-name"]'),
      // The file a locally indexed document came from (see the index engine's renderer).
      meta('meta[name="svc:source"]'),
      where.replace(/[/_.-]+/g, ' '),
      // The page's title heading only: lower headings name sections (one per option, method or
      // event on a reference page), and a section's heading reaches the verifier with the
      // candidates under it, so a term named by a sibling section is not taken as stated.
      ...Array.from(document.querySelectorAll('h1'), (h) => h.textContent),
    ]
      .join(' \n ')
      .slice(0, 4000);
  }, null);
  return Promise.race([
    read,
    new Promise<string>((resolve) => setTimeout(() => resolve(''), timeout).unref()),
  ]);
}

/** `sha256:<hex>` of the page's visible text, whitespace collapsed. */
async function hashVisibleText(page: AnyPage): Promise<string> {
  const text = await toPageLike(page).evaluate(
    () => (document.body?.innerText ?? '').replace(/\s+/g, ' ').trim(),
    null,
  );
  return `sha256:${createHash('sha256').update(text).digest('hex')}`;
}

/**
 * Scrolls to the bottom in viewport steps until the height stops growing or `timeout` passes, so
 * content loaded by IntersectionObserver or `loading=lazy` exists; then back to the top.
 */
async function scrollThrough(page: AnyPage, timeout: number): Promise<void> {
  await toPageLike(page).evaluate(async (limit: number) => {
    const until = Date.now() + limit;
    const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
    let y = 0;
    while (Date.now() < until) {
      const height = document.documentElement.scrollHeight;
      if (y >= height - window.innerHeight) {
        await pause(120);
        if (document.documentElement.scrollHeight <= height) break;
      }
      y += Math.max(200, window.innerHeight);
      window.scrollTo(0, y);
      await pause(50);
    }
    window.scrollTo(0, 0);
  }, timeout);
}

/**
 * Replaces the page with the text of the PDF at `url` (one section per PDF page): Chromium's PDF
 * viewer exposes no DOM text to search, highlight or crop.
 * @throws when the PDF cannot be fetched or parsed
 */
async function renderPdfText(page: AnyPage, url: string, timeout: number): Promise<void> {
  const res = await fetch(url, { signal: AbortSignal.timeout(timeout) });
  if (!res.ok) throw new Error(`HTTP ${res.status} fetching the PDF`);
  const { text } = await extractText(new Uint8Array(await res.arrayBuffer()));
  const p = toPageLike(page);
  await p.goto('about:blank', { timeout, waitUntil: 'load' });
  await p.evaluate(
    ({ pages, source }: { pages: string[]; source: string }) => {
      document.title = source;
      document.body.innerHTML = '';
      document.body.style.cssText = 'font: 16px/1.5 sans-serif; max-width: 760px; margin: 24px';
      const note = document.createElement('p');
      note.style.color = '#666';
      note.textContent = `Text extracted from the PDF ${source}`;
      document.body.appendChild(note);
      pages.forEach((t, i) => {
        const section = document.createElement('section');
        section.id = `page-${i + 1}`;
        for (const para of t.split(/\n\s*\n/)) {
          const el = document.createElement('p');
          el.textContent = para.replace(/\s+/g, ' ').trim();
          if (el.textContent) section.appendChild(el);
        }
        document.body.appendChild(section);
      });
    },
    { pages: text, source: url },
  );
}
