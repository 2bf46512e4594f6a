/**
 * `svc-toolkit/recipes`: programs that turn answers and search results into evidence on real
 * pages. Each is also runnable as a script: `npx tsx recipes/<name>.ts --help`.
 */
export {
  answerFromCompletion,
  citeAndCapture,
  completionText,
  CITE_DEFAULTS,
} from './cite-and-capture.js';
export type {
  AnswerInput,
  CiteAndCaptureOptions,
  CiteAndCaptureResult,
  CiteInput,
  CiteProgress,
} from './cite-and-capture.js';
export { verifyAnswer, VERIFY_DEFAULTS } from './verify-answer.js';
export type { VerifyAnswerOptions, VerifyAnswerResult } from './verify-answer.js';
export { searchAndScrape, locateFields, SCRAPE_DEFAULTS } from './search-and-scrape.js';
export type {
  ExtractedField,
  ScrapedPage,
  SearchAndScrapeOptions,
  SearchAndScrapeResult,
} from './search-and-scrape.js';
export { deepResearch } from './deep-research.js';
export type { DeepResearchOptions, DeepResearchResult, ResearchProgress } from './deep-research.js';
export { sourceBundle, bundleName, BUNDLE_DEFAULTS } from './source-bundle.js';
export type { Bundle, BundleMeta, SourceBundleOptions } from './source-bundle.js';
export { escapeHtml, jsonReplacer, renderReportHtml, writeReport } from './report.js';
export type { ReportData, ReportFiles, ReportPage } from './report.js';
export { splitSentences, claimText, stripReasoning } from './support/sentences.js';
export type { AnswerSentence } from './support/sentences.js';
export { contextualEmbed, EVIDENCE_DEFAULTS } from './support/evidence.js';
export { RUNTIME_DEFAULTS } from './support/runtime.js';
export type { RuntimeOptions } from './support/runtime.js';
export { summarize } from './support/types.js';
export type {
  CitationCheck,
  EvidenceSummary,
  PageEvidence,
  PassageEvidence,
  ScreenshotEvidence,
  Verdict,
} from './support/types.js';
