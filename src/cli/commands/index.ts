import { readClientEnv } from '../../client/index.js';
import type { FetchHtml, IndexProgress, IndexReport } from '../../server/engines/index/index.js';
import { createSearchIndex } from '../../server/engines/index/index.js';
import { openDatabase } from '../../server/storage.js';
import type { Session } from '../../sessions/session.js';
import type { SessionManager } from '../../sessions/session-manager.js';
import type { DriverName } from '../../sessions/types.js';
import { defineCommand } from '../command.js';
import { EXIT, UsageError } from '../common.js';
import { formatTable, printJson, ProgressBar } from '../output.js';
import { resolveDataDir } from '../service.js';

const DEFAULT_URL_TIMEOUT_MS = 30_000;

/** `svc index <inputs...>`: ingests into the data dir's index with progress and a summary table. */
export const indexCommand = defineCommand({
  name: 'index',
  summary: 'add files, folders and web pages to the local search index',
  usage: 'svc index <file|dir|url>... [options]',
  positionals: true,
  options: {
    timeout: {
      type: 'string',
      arg: '<ms>',
      help: `page load limit per URL (default ${DEFAULT_URL_TIMEOUT_MS})`,
    },
  },
  json: 'print the report as JSON (counts, failed inputs, documents)',
  dataDir: 'index of this data dir (default SVC_DATA_DIR or ~/.svc-toolkit)',
  notes: `Formats: HTML, Markdown, TXT, PDF, DOCX. Folders are walked recursively (dot-entries and
node_modules skipped). http(s) URLs are loaded in headless Chromium, in one session of the
session manager (launched here, or where SVC_SESSION_PROVIDER or SVC_CDP_URL point), so
script-built pages index their rendered text. Unchanged documents are skipped; changed ones
are replaced.

The index is always the local data dir's, also when SVC_BASE_URL names a remote service; answers
from \`svc ask\` (without SVC_BASE_URL) come from it.

Exit: 0 all indexed, 1 some input failed (the others are still indexed) or the inputs held
nothing to index, 2 bad usage.`,
  examples: [
    'svc index ./docs ./notes/plan.md',
    'svc index https://example.com/article --data-dir ./.svc',
    'svc index ./corpus --json | jq .failed',
  ],
  async run(ctx) {
    const { values, positionals } = ctx;
    if (positionals.length === 0) {
      throw new UsageError('index: give at least one file, folder or URL (svc index --help)');
    }
    const timeout = values.timeout === undefined ? DEFAULT_URL_TIMEOUT_MS : Number(values.timeout);
    if (!Number.isInteger(timeout) || timeout <= 0) {
      throw new UsageError(
        `index: --timeout: expected a positive integer (ms), got '${values.timeout}'`,
      );
    }
    const dataDir = await resolveDataDir(ctx.dataDirFlag);
    const hasUrls = positionals.some(isUrl);
    const remote = readClientEnv().baseURL;
    if (remote !== undefined) {
      process.stderr.write(
        `svc: index: writing to the local data dir ${dataDir}; the service at SVC_BASE_URL (${remote}) is not changed\n`,
      );
    }

    const db = openDatabase(dataDir);
    ctx.defer(() => db.close());
    const bar = new ProgressBar({ label: 'indexing' });
    let report: IndexReport;
    try {
      const index = createSearchIndex(db);
      let noted = { file: '', tenth: -1 };
      report = await index.indexPaths(positionals, {
        onProgress: (p: IndexProgress) => bar.update(p.done, p.total, p.path),
        // A large file shows how far into it the reader is, not a bar frozen until it ends.
        onFileProgress: ({ path: file, fraction }) => {
          const tenth = Math.floor(fraction * 10);
          if (file === noted.file && tenth <= noted.tenth) return;
          noted = { file, tenth };
          bar.note(`${file} ${tenth * 10}% read`);
        },
        ...(hasUrls && { fetchHtml: sessionFetcher(() => ctx.sessions({ local: true }), timeout) }),
      });
    } finally {
      bar.finish();
    }

    if (ctx.json) {
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
  },
});

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

/**
 * Loads each URL in a page of one browser session from the session manager (created on the first
 * URL, released with the command): the rendered DOM after the network went quiet.
 */
function sessionFetcher(
  manager: () => Promise<SessionManager<DriverName>>,
  timeout: number,
): FetchHtml {
  let session: Promise<Session<'puppeteer'>> | undefined;
  return async (url) => {
    session ??= manager().then((m) =>
      m.create({ driver: 'puppeteer', viewport: { width: 1280, height: 900 } }),
    );
    const page = await (await session).context.newPage();
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
      // A page that failed to load may already be gone; the session is released at the end anyway.
      await page.close().catch(() => undefined);
    }
  };
}
