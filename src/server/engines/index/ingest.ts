import { createHash } from 'node:crypto';
import { readFile, readdir, stat } from 'node:fs/promises';
import { basename, extname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { categorize, domainOf } from './category.js';
import { layoutAndChunk } from './chunk.js';
import { readDocx } from './formats/docx.js';
import { readHtml } from './formats/html.js';
import { LARGE_HTML_CHARS, readLargeHtml } from './formats/html-stream.js';
import { readMarkdown } from './formats/markdown.js';
import { readText } from './formats/plain.js';
import { readPdf } from './formats/pdf.js';
import { SCHEMA_VERSION } from './schema.js';
import type { IndexStore } from './store.js';
import type { ExtractedDocument, SourceKind } from './types.js';

/**
 * Loads a URL in a browser and returns the rendered DOM and the URL after redirects; for a
 * document that is not a page (a PDF, a DOCX, a download) it returns the bytes received and their
 * `contentType` as well, and those are indexed like the same file on disk.
 */
export type FetchHtml = (url: string) => Promise<{
  html: string;
  finalUrl: string;
  bytes?: Uint8Array | undefined;
  contentType?: string | null | undefined;
}>;

const KIND_BY_CONTENT_TYPE: Record<string, SourceKind> = {
  'application/pdf': 'pdf',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'docx',
  'text/markdown': 'markdown',
  'text/x-markdown': 'markdown',
  'text/plain': 'txt',
};

/** The format of fetched bytes: from the content type, else from the URL's extension. */
export function kindOfFetched(
  contentType: string | null | undefined,
  url: string,
): SourceKind | null {
  const type = contentType?.split(';')[0]?.trim().toLowerCase() ?? '';
  const byType = KIND_BY_CONTENT_TYPE[type];
  if (byType) return byType;
  try {
    return kindOfPath(new URL(url).pathname);
  } catch {
    return null;
  }
}

/** What happened to one input. `skipped` = unchanged since the last indexing. */
export type IndexOutcome = 'added' | 'updated' | 'skipped' | 'failed';

/** One progress event, sent after each input is handled. */
export interface IndexProgress {
  /** Inputs handled so far, including this one. */
  done: number;
  /** All supported inputs found (files under directories, URLs). */
  total: number;
  path: string;
  outcome: IndexOutcome;
  /** The document id, unless the input failed. */
  docId?: string;
  error?: string;
}

/** Options of {@link indexPaths}. */
export interface IndexPathsOptions {
  /** Called after each input. */
  onProgress?: (progress: IndexProgress) => void;
  /** Called while one large input is read, with the share of it read so far (0..1). */
  onFileProgress?: (progress: { path: string; fraction: number }) => void;
  /** Needed for `http(s)://` inputs; without it they fail with a per-input error. */
  fetchHtml?: FetchHtml;
  /** Clock for `indexedAt`. @default () => new Date() */
  now?: () => Date;
}

/** Totals of one {@link indexPaths} run. */
export interface IndexReport {
  added: number;
  updated: number;
  /** Unchanged documents (same content hash). */
  skipped: number;
  /** Files under the given directories with an unsupported extension, ignored. */
  unsupported: number;
  failed: Array<{ path: string; error: string }>;
  /** Every handled input with its outcome and document id. */
  documents: Array<{ path: string; docId: string | null; outcome: IndexOutcome }>;
}

const KIND_BY_EXTENSION: Record<string, SourceKind> = {
  '.html': 'html',
  '.htm': 'html',
  '.xhtml': 'html',
  '.md': 'markdown',
  '.markdown': 'markdown',
  '.mdx': 'markdown',
  '.txt': 'txt',
  '.text': 'txt',
  '.pdf': 'pdf',
  '.docx': 'docx',
};

/** The format a file name maps to, or `null` when unsupported. */
export function kindOfPath(path: string): SourceKind | null {
  return KIND_BY_EXTENSION[extname(path).toLowerCase()] ?? null;
}

/** Stable document id for a source key (`file:<absolute path>` or a URL without its fragment). */
export function documentIdFor(sourceKey: string): string {
  return createHash('sha256').update(sourceKey).digest('hex').slice(0, 16);
}

function sha256(...parts: Array<string | Uint8Array>): string {
  const h = createHash('sha256').update(`v${SCHEMA_VERSION}\0`);
  for (const p of parts) h.update(p);
  return h.digest('hex');
}

const isUrl = (s: string): boolean => /^https?:\/\//i.test(s);

async function readFileDocument(
  path: string,
  kind: SourceKind,
  bytes: Uint8Array,
  onFraction?: (fraction: number) => void,
): Promise<ExtractedDocument> {
  const fallbackTitle = basename(path, extname(path));
  const utf8 = (): string => new TextDecoder('utf-8').decode(bytes);
  switch (kind) {
    case 'html': {
      const doc = await readAnyHtml(utf8(), pathToFileURL(path).href, onFraction);
      return { ...doc, title: doc.title || fallbackTitle };
    }
    case 'markdown':
      return readMarkdown(utf8(), fallbackTitle, pathToFileURL(path).href);
    case 'pdf':
      return readPdf(bytes, fallbackTitle, onFraction);
    case 'docx':
      return readDocx(bytes, fallbackTitle, onFraction);
    default:
      return readText(utf8(), fallbackTitle);
  }
}

/** Small pages through a DOM and Readability; large ones through the bounded-memory reader. */
async function readAnyHtml(
  html: string,
  baseUrl: string | null,
  onFraction?: (fraction: number) => void,
): Promise<ExtractedDocument> {
  if (html.length <= LARGE_HTML_CHARS) return readHtml(html, { baseUrl });
  return readLargeHtml(html, { baseUrl, onProgress: onFraction });
}

/** Inputs of {@link writeExtracted}. */
export interface WriteInput {
  id: string;
  source: string;
  sourceKind: SourceKind;
  /** URL used when the document states none (file URL, final URL after redirects). */
  fallbackUrl: string;
  contentHash: string;
  extracted: ExtractedDocument;
  indexedAt: Date;
}

/**
 * Chunks an extracted document and writes it, replacing a previous version.
 *
 * @throws Error when the document has no text at all.
 */
export function writeExtracted(store: IndexStore, input: WriteInput): void {
  const { extracted } = input;
  const laidOut = layoutAndChunk(extracted.blocks);
  if (laidOut.chunks.length === 0) throw new Error('no readable text in document');
  const url = extracted.canonicalUrl ?? input.fallbackUrl;
  const domain = domainOf(url);
  store.replace({
    id: input.id,
    url,
    source: input.source,
    sourceKind: input.sourceKind,
    title: extracted.title || url,
    domain,
    language: extracted.language,
    category: categorize(extracted.category, domain),
    publishedAt: extracted.publishedAt,
    updatedAt: extracted.updatedAt,
    contentHash: input.contentHash,
    html: extracted.html,
    laidOut,
    indexedAt: input.indexedAt,
  });
}

interface WalkState {
  files: string[];
  errors: Array<{ path: string; error: string }>;
  unsupported: number;
}

// Errors are per entry, so one unreadable entry (a dangling link, a denied directory) never hides
// its siblings.
async function walk(path: string, state: WalkState, top: boolean): Promise<void> {
  let isDirectory: boolean;
  try {
    isDirectory = (await stat(path)).isDirectory();
  } catch (err) {
    state.errors.push({ path, error: errorMessage(err) });
    return;
  }
  if (!isDirectory) {
    // An explicitly named file is always attempted, so an unsupported one reports why.
    if (top || kindOfPath(path)) state.files.push(path);
    else state.unsupported++;
    return;
  }
  let entries: string[];
  try {
    entries = (await readdir(path)).sort((a, b) => a.localeCompare(b));
  } catch (err) {
    state.errors.push({ path, error: errorMessage(err) });
    return;
  }
  for (const name of entries) {
    if (name.startsWith('.') || name === 'node_modules') continue;
    await walk(join(path, name), state, false);
  }
}

/**
 * Indexes files, directories (recursively, skipping dot-entries and `node_modules`) and
 * `http(s)://` URLs. Each input is independent: an unreadable or corrupt one is recorded in
 * `failed` and the rest are still indexed. A document whose content hash is unchanged is skipped;
 * a changed one is replaced with its chunks.
 *
 * @param store - The index store to write to.
 * @param paths - Files, directories or URLs.
 * @param options - Progress callback, URL fetcher, clock.
 * @returns Totals and per-input outcomes. Never throws for a bad input.
 */
export async function indexPaths(
  store: IndexStore,
  paths: readonly string[],
  options: IndexPathsOptions = {},
): Promise<IndexReport> {
  const now = options.now ?? (() => new Date());
  const report: IndexReport = {
    added: 0,
    updated: 0,
    skipped: 0,
    unsupported: 0,
    failed: [],
    documents: [],
  };
  const state: WalkState = { files: [], errors: [], unsupported: 0 };
  for (const p of paths) {
    if (isUrl(p)) state.files.push(p);
    else await walk(resolve(p), state, true);
  }
  report.unsupported = state.unsupported;
  const { files: inputs, errors: walkErrors } = state;
  const total = inputs.length + walkErrors.length;
  let done = 0;
  const record = (
    path: string,
    outcome: IndexOutcome,
    docId: string | null,
    error?: string,
  ): void => {
    done++;
    if (outcome === 'failed') report.failed.push({ path, error: error ?? 'unknown error' });
    else report[outcome]++;
    report.documents.push({ path, docId, outcome });
    const progress: IndexProgress = { done, total, path, outcome };
    if (docId) progress.docId = docId;
    if (error) progress.error = error;
    options.onProgress?.(progress);
  };
  for (const w of walkErrors) record(w.path, 'failed', null, w.error);
  for (const input of inputs) {
    try {
      const onFraction = options.onFileProgress
        ? (fraction: number) => options.onFileProgress?.({ path: input, fraction })
        : undefined;
      const { id, outcome } = isUrl(input)
        ? await indexUrl(store, input, options.fetchHtml, now(), onFraction)
        : await indexFile(store, input, now(), onFraction);
      record(input, outcome, id);
    } catch (err) {
      record(input, 'failed', null, errorMessage(err));
    }
  }
  return report;
}

function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/**
 * Indexes one file (format from its extension).
 *
 * @throws Error when the file is unreadable, unsupported or corrupt.
 */
export async function indexFile(
  store: IndexStore,
  path: string,
  indexedAt: Date,
  onFraction?: (fraction: number) => void,
): Promise<{ id: string; outcome: Exclude<IndexOutcome, 'failed'> }> {
  const abs = resolve(path);
  const kind = kindOfPath(abs);
  if (!kind) throw new Error(`unsupported file type "${extname(abs) || basename(abs)}"`);
  const bytes = new Uint8Array(await readFile(abs));
  const id = documentIdFor(`file:${abs}`);
  const contentHash = sha256(kind, bytes);
  const previous = store.contentHash(id);
  if (previous === contentHash) return { id, outcome: 'skipped' };
  let extracted: ExtractedDocument;
  try {
    extracted = await readFileDocument(abs, kind, bytes, onFraction);
  } catch (err) {
    throw new Error(`cannot read ${kind.toUpperCase()} file: ${errorMessage(err)}`, { cause: err });
  }
  writeExtracted(store, {
    id,
    source: abs,
    sourceKind: kind,
    fallbackUrl: pathToFileURL(abs).href,
    contentHash,
    extracted,
    indexedAt,
  });
  return { id, outcome: previous === null ? 'added' : 'updated' };
}

/**
 * Indexes one URL through `fetchHtml` (a browser, so script-rendered pages index their rendered text).
 * The id comes from the URL as given, without its fragment; the stored URL is the page's canonical
 * URL, else the final URL after redirects.
 *
 * @throws Error when no fetcher is given, the fetch fails, or the page has no text.
 */
export async function indexUrl(
  store: IndexStore,
  url: string,
  fetchHtml: FetchHtml | undefined,
  indexedAt: Date,
  onFraction?: (fraction: number) => void,
): Promise<{ id: string; outcome: Exclude<IndexOutcome, 'failed'> }> {
  if (!fetchHtml) throw new Error('URL inputs need a fetchHtml (a browser session) to load them');
  const key = new URL(url);
  key.hash = '';
  const id = documentIdFor(key.href);
  const fetched = await fetchHtml(url);
  const { finalUrl } = fetched;
  const kind = fetched.bytes ? kindOfFetched(fetched.contentType, finalUrl) : 'html';
  if (kind === null) {
    throw new Error(
      `unsupported content type "${fetched.contentType ?? 'unknown'}" at ${finalUrl}`,
    );
  }
  let extracted: ExtractedDocument;
  let contentHash: string;
  if (fetched.bytes && kind !== 'html') {
    // A document, not a page: read like the same file on disk; the hash is of the bytes received.
    contentHash = sha256('url', kind, fetched.bytes);
    if (store.contentHash(id) === contentHash) return { id, outcome: 'skipped' };
    const name = decodeURIComponent(new URL(finalUrl).pathname.split('/').pop() || key.hostname);
    try {
      extracted = await readFileDocument(name, kind, fetched.bytes);
    } catch (err) {
      throw new Error(`cannot read ${kind.toUpperCase()} from ${finalUrl}: ${errorMessage(err)}`, {
        cause: err,
      });
    }
  } else {
    const html = fetched.bytes ? new TextDecoder().decode(fetched.bytes) : fetched.html;
    extracted = await readAnyHtml(html, finalUrl, onFraction);
    contentHash = sha256('url', JSON.stringify({ ...extracted, html: '' }));
  }
  const previous = store.contentHash(id);
  if (previous === contentHash) return { id, outcome: 'skipped' };
  writeExtracted(store, {
    id,
    source: url,
    sourceKind: 'url',
    fallbackUrl: finalUrl,
    contentHash,
    extracted,
    indexedAt,
  });
  return { id, outcome: previous === null ? 'added' : 'updated' };
}
