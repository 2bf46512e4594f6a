import { rmSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { findChromium, launchChromium } from '../../chromium.js';
import { readClientEnv } from '../../client/index.js';
import type { FetchHtml, IndexProgress, IndexReport } from '../../server/engines/index/index.js';
import { createSearchIndex } from '../../server/engines/index/index.js';
import { openDatabase } from '../../server/storage.js';
import { EXIT, parseOrUsage, UsageError } from '../common.js';
import { EXIT_CODES, formatTable, printJson, ProgressBar } from '../output.js';
import { resolveDataDir } from '../service.js';

const HELP = `svc index: add files, folders and web pages to the local search index

Usage: svc index <file|dir|url>... [options]

Formats: HTML, Markdown, TXT, PDF, DOCX. Folders are walked recursively (dot-entries and
node_modules skipped). http(s) URLs are loaded in headless Chromium, so script-built pages index
their rendered text. Unchanged documents are skipped; changed ones are replaced.

Options:
  --data-dir <dir>   index of this data dir (default SVC_DATA_DIR or ~/.svc-toolkit)
  --timeout <ms>     page load limit per URL (default 30000)
  --json             print the report as JSON (counts, failed inputs, documents)
  -h, --help         this help

The index is always the local data dir's, also when SVC_BASE_URL names a remote service; answers
from \`svc ask\` (without SVC_BASE_URL) come from it.

Exit: 0 all indexed, 1 some input failed (the others are still indexed) or the inputs held
nothing to index, 2 bad usage.

Examples:
  svc index ./docs ./notes/plan.md
  svc index https://example.com/article --data-dir ./.svc
  svc index ./corpus --json | jq .failed
`;

const DEFAULT_URL_TIMEOUT_MS = 30_000;

/** `svc index <inputs...>`: ingests into the data dir's index with progress and a summary table. */
export async function runIndex(argv: string[]): Promise<number> {
  const { values, positionals } = parseOrUsage('index', () =>
    parseArgs({
      args: argv,
      strict: true,
      allowPositionals: true,
      options: {
        'data-dir': { type: 'string' },
        timeout: { type: 'string' },
        json: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    }),
  );
  if (values.help) {
    process.stdout.write(HELP);
    return EXIT.ok;
  }
  if (positionals.length === 0) {
    throw new UsageError('index: give at least one file, folder or URL (svc index --help)');
  }
  const timeout = values.timeout === undefined ? DEFAULT_URL_TIMEOUT_MS : Number(values.timeout);
  if (!Number.isInteger(timeout) || timeout <= 0) {
    throw new UsageError(
      `index: --timeout: expected a positive integer (ms), got '${values.timeout}'`,
    );
  }
  const dataDir = await resolveDataDir(values['data-dir']);
  const hasUrls = positionals.some(isUrl);
  const remote = readClientEnv().baseURL;
  if (remote !== undefined) {
    process.stderr.write(
      `svc: index: writing to the local data dir ${dataDir}; the service at SVC_BASE_URL (${remote}) is not changed\n`,
    );
  }

  const db = openDatabase(dataDir);
  const browser = hasUrls ? await openBrowserFetcher(timeout) : undefined;
  const bar = new ProgressBar({ label: 'indexing' });
  let report: IndexReport;
  try {
    const index = createSearchIndex(db);
    let done = 0;
    let total = 0;
    let noted = { file: '', tenth: -1 };
    report = await index.indexPaths(positionals, {
      onProgress: (p: IndexProgress) => {
        ({ done, total } = p);
        bar.update(done, total, p.path);
      },
      // A large file shows how far into it the reader is, not a bar frozen until it ends.
      onFileProgress: ({ path: file, fraction }) => {
        const tenth = Math.floor(fraction * 10);
        if (file === noted.file && tenth <= noted.tenth) return;
        noted = { file, tenth };
        bar.note(`${file} ${tenth * 10}% read`);
      },
      ...(browser && { fetchHtml: browser.fetchHtml }),
    });
  } finally {
    bar.finish();
    await browser?.close();
    db.close();
  }

  if (values.json) {
    printJson({ dataDir, ...report });
  } else {
    process.stdout.write(summary(report, dataDir));
  }
  if (report.documents.length === 0) {
    // Zero counts and exit 0 would read as success: say that nothing was found, and fail.
    process.stderr.write(
      `svc: index: nothing to index in ${positionals.join(', ')}: no HTML, Markdown, TXT, PDF or DOCX file found` +
        (report.unsupported > 0 ? ` (${report.unsupported} files of other types skipped)` : '') +
        '\n',
    );
    return EXIT.failure;
  }
  return report.failed.length > 0 ? EXIT.failure : EXIT.ok;
}

function summary(report: IndexReport, dataDir: string): string {
  const counts = formatTable(
    ['outcome', 'count'],
    [
      ['added', String(report.added)],
      ['updated', String(report.updated)],
      ['skipped', String(report.skipped)],
      ['unsupported', String(report.unsupported)],
      ['failed', String(report.failed.length)],
    ],
    { alignRight: [1] },
  );
  let out = `${counts}`;
  if (report.failed.length > 0) {
    out += `\nFailed:\n${formatTable(
      ['input', 'error'],
      report.failed.map((f) => [f.path, f.error]),
      { maxWidth: 100 },
    )}`;
  }
  out += `\nIndex: ${dataDir}\n`;
  return out;
}

const isUrl = (s: string): boolean => /^https?:\/\//i.test(s);

/** The bytes at `url` with their content type, for documents that are not pages. */
async function fetchDocument(url: string, timeout: number): ReturnType<FetchHtml> {
  const res = await fetch(url, { signal: AbortSignal.timeout(timeout) });
  if (res.status >= 400) throw new Error(`HTTP ${res.status} from ${url}`);
  return {
    html: '',
    finalUrl: res.url || url,
    bytes: new Uint8Array(await res.arrayBuffer()),
    contentType: res.headers.get('content-type'),
  };
}

interface BrowserFetcher {
  fetchHtml: FetchHtml;
  close(): Promise<void>;
}

/**
 * A private headless Chromium driven through puppeteer-core: each URL in a new page, the rendered
 * DOM after the network went quiet.
 * @throws ChromiumNotFoundError when no Chromium is installed
 */
async function openBrowserFetcher(timeout: number): Promise<BrowserFetcher> {
  const { path: executablePath } = await findChromium();
  const userDataDir = await mkdtemp(path.join(os.tmpdir(), 'svc-index-chromium-'));
  let chromium: Awaited<ReturnType<typeof launchChromium>> | undefined;
  // Chromium leads its own process group, so it would outlive a Ctrl-C'd `svc index`.
  const onSignal = (): void => {
    void (chromium?.kill() ?? Promise.resolve()).finally(() => {
      rmSync(userDataDir, { recursive: true, force: true });
      process.exit(EXIT_CODES.interrupted);
    });
  };
  const unwatch = (): void => {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    chromium = await launchChromium({ executablePath, userDataDir });
    const launched = chromium;
    // puppeteer-core is only needed for URL inputs: load it on demand.
    const puppeteer = (await import('puppeteer-core')).default;
    const browser = await puppeteer.connect({
      browserWSEndpoint: chromium.wsEndpoint,
      defaultViewport: { width: 1280, height: 900 },
    });
    return {
      fetchHtml: async (url) => {
        const page = await browser.newPage();
        try {
          let response;
          try {
            response = await page.goto(url, { waitUntil: 'networkidle2', timeout });
          } catch (error) {
            // A download (octet-stream, attachment) cancels the navigation: read the bytes instead.
            if (!/net::ERR_ABORTED/.test((error as Error).message)) throw error;
            return await fetchDocument(url, timeout);
          }
          const status = response?.status() ?? 0;
          if (status >= 400) throw new Error(`HTTP ${status} from ${url}`);
          const type = response?.headers()['content-type'] ?? '';
          // Chromium shows a PDF in its viewer, whose DOM is not the document: index the bytes.
          if (type !== '' && !/^(text\/html|application\/xhtml\+xml)/i.test(type)) {
            return await fetchDocument(page.url(), timeout);
          }
          return { html: await page.content(), finalUrl: page.url() };
        } finally {
          // A page that failed to load may already be gone; the browser is killed at the end anyway.
          await page.close().catch(() => undefined);
        }
      },
      close: async () => {
        unwatch();
        // Disconnecting fails only when the browser is already gone, which kill() settles.
        await browser.disconnect().catch(() => undefined);
        await launched.kill();
        await rm(userDataDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    unwatch();
    await chromium?.kill();
    await rm(userDataDir, { recursive: true, force: true });
    throw error;
  }
}
