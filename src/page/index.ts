/**
 * Page actions that turn a citation into evidence on a real page: visit, read, find the passage,
 * highlight, capture. Each takes a Playwright or a Puppeteer page (or a {@link PageLike}).
 */
export { toPageLike, withTimeout } from './adapter.js';
export type {
  AnyPage,
  CdpLike,
  NavigationResult,
  PageLike,
  Rect,
  ScreenshotOptions,
  WaitUntil,
} from './adapter.js';
export { DEFAULTS } from './defaults.js';
export { detectBlock, judgeBlock, visit } from './visit.js';
export type { BlockKind, Blocked, VisitOptions, VisitResult } from './visit.js';
export type { BlockSignals } from './in-page.js';
export { readHtml, readPage } from './read.js';
export type { PageLink, PageMetadata, ReadPageOptions, ReadPageResult } from './read.js';
export { findPassage, findPassages } from './find-passage.js';
export type {
  EmbedFn,
  FindPassageOptions,
  FindPassagesOptions,
  MatchMethod,
  PassageMatch,
} from './find-passage.js';
export { isCodeIndex, normalizeText, stripCitationMarkers } from './text.js';
export type { TextPoint, TextRange } from './text.js';
export { clearHighlights, highlight } from './highlight.js';
export type { HighlightOptions, HighlightResult } from './highlight.js';
export { capture, fullPageScreenshot, savePdf } from './capture.js';
export type {
  CaptureOptions,
  CaptureResult,
  FullPageOptions,
  FullPageResult,
  SavePdfOptions,
} from './capture.js';
export { textFragmentUrl } from './text-fragment.js';
export type { TextFragmentOptions } from './text-fragment.js';
export { recordHar } from './har.js';
export type { Har, HarEntry, HarNameValue, HarRecorder } from './har.js';
