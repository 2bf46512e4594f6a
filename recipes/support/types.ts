/** Result types shared by the recipes and the report. */
import type { Conflict, MatchMethod } from '../../src/index.js';

/**
 * How one citation ended. `supported`: a passage of the page states the claim. `contradicted`: a
 * passage about the same thing states a different fact (see {@link CitationCheck.conflicts}).
 * `not_found`: nothing on the page addresses the claim. `blocked` (a challenge or login wall, or a
 * 401/403/429/503) is never counted as support; `unreachable` means the page could not be loaded
 * (network error, 4xx/5xx).
 */
export type Verdict = 'supported' | 'contradicted' | 'not_found' | 'blocked' | 'unreachable';

/** What the visited page answered. */
export interface PageEvidence {
  /** HTTP status of the main document, `null` when there was no response. */
  status: number | null;
  /** URL after redirects. */
  finalUrl: string;
  redirected: boolean;
  /** Navigation time in ms. */
  fetchMs: number;
  contentType: string | null;
  /** `sha256:<hex>` of the page's visible text, whitespace collapsed; `null` when not read. */
  contentHash: string | null;
  /** `pdf-text`: a PDF whose extracted text was rendered into a page to locate and shoot it. */
  rendered: 'page' | 'pdf-text';
  /** The local file a cited document of the embedded service was indexed from. */
  localSource?: string;
}

/** The passage found for a claim. */
export interface PassageEvidence {
  method: MatchMethod;
  /** 1 for exact; the fuzzy share of words or the cosine otherwise. */
  score: number;
  /** The page's own text of the passage. */
  quote: string;
  /** CSS path of the element holding the passage. */
  domPath: string;
  /** The final URL with a `#:~:text=` directive that opens the page scrolled to the quote. */
  textFragmentUrl: string;
  /** Share of the claim's content words the passage states (lemmas, synonyms), 0..1. */
  coverage: number;
  /** Background of the passage's mark in the screenshot: support and conflict differ. */
  highlightColor: string;
}

/** Screenshots of one citation: PNG bytes, and their files when written. */
export interface ScreenshotEvidence {
  passage: Buffer;
  viewport: Buffer;
  /** Paths relative to the output folder, when written there. */
  passagePath: string | null;
  viewportPath: string | null;
}

/** One `[n]` marker of one sentence, checked against its page. */
export interface CitationCheck {
  /** The marker number: `citations[n - 1]` is its URL. */
  n: number;
  /** Index of the sentence carrying the marker. */
  sentenceIndex: number;
  /** The sentence as the answer wrote it. */
  sentence: string;
  /** The claim looked up on the page (markers and Markdown removed). */
  claim: string;
  /** The cited URL, `null` when the marker points past the citation list. */
  url: string | null;
  /** Title from `search_results`, when the answer had one for this URL. */
  title: string | null;
  verdict: Verdict;
  /** Why: the match method, the conflict, the block reason, the network error... */
  reason: string;
  /** What the page states differently, when `contradicted`: `{ kind: 'number', claim: '5 MiB', page: '1 MiB' }`. */
  conflicts: Conflict[];
  /** The supporting passage, or the conflicting one when `contradicted`. */
  passage: PassageEvidence | null;
  page: PageEvidence | null;
  /**
   * When the session was recorded: its replay page and the ms offset at which this citation's
   * evidence was captured (the report links to `url#t=offsetMs`).
   */
  recording?: { url: string; offsetMs: number } | undefined;
  /** Present when screenshots were taken and the passage (or the wall) could be shot. */
  screenshots: ScreenshotEvidence | null;
  /** ms spent: waiting for a browser, loading the page, finding the passage, capturing it. */
  timings: { waitMs: number; visitMs: number; findMs: number; captureMs: number };
}

/** Counts of verdicts and the share of citations supported. */
export interface EvidenceSummary {
  total: number;
  supported: number;
  contradicted: number;
  not_found: number;
  blocked: number;
  unreachable: number;
  /**
   * `supported / total`, 0 when there is no citation (an uncited answer is not grounded); a
   * `contradicted` citation counts against it like any other that is not supported.
   */
  score: number;
}

/** Summarises verdicts. */
export function summarize(checks: readonly { verdict: Verdict }[]): EvidenceSummary {
  const s = {
    total: checks.length,
    supported: 0,
    contradicted: 0,
    not_found: 0,
    blocked: 0,
    unreachable: 0,
  };
  for (const c of checks) s[c.verdict]++;
  const score = s.total === 0 ? 0 : Math.round((s.supported / s.total) * 1000) / 1000;
  return { ...s, score };
}
