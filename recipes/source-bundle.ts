/**
 * sourceBundle: everything about a page at one moment, one folder per page: `page.md`,
 * `page.html`, `full.png` (full page after scrolling, or the viewport with a note), `page.pdf`,
 * `page.har`, `timings.json`, `meta.json`. Usable as test attachments or an archive of a source.
 *
 * As a script: `npx tsx recipes/source-bundle.ts <url>... [--out bundles] [--report]`.
 */
import { createHash } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { extractText } from 'unpdf';
import {
  defineCommand,
  EXIT,
  fullPageScreenshot,
  readPage,
  recordHar,
  runCommand,
  savePdf,
  toPageLike,
  UsageError,
} from '../src/index.js';
import type { AnyPage, FullPageResult, PageMetadata } from '../src/index.js';
import { writeReport } from './report.js';
import type { ReportFiles } from './report.js';
import { openPage } from './support/evidence.js';
import { openRuntime } from './support/runtime.js';
import type { RuntimeOptions } from './support/runtime.js';
import { isMain, table } from './support/script.js';

/** What `meta.json` holds. */
export interface BundleMeta {
  url: string;
  finalUrl: string;
  status: number | null;
  redirected: boolean;
  contentType: string | null;
  /** `ok`, or why the page is not the one asked for. */
  state: 'ok' | 'blocked' | 'unreachable';
  reason: string | null;
  title: string;
  lang: string | null;
  metadata: PageMetadata | null;
  /** `sha256:` of what was received: the file's bytes for downloads and PDFs, else the page's text. */
  contentHash: string | null;
  /** The URL answered with a file to download (octet-stream, attachment): where it was saved. */
  download: { file: string; bytes: number } | null;
  /** How `full.png` was taken, and why it fell back to the viewport. */
  screenshot: { mode: FullPageResult['mode'] | 'none'; note: string | null; height: number | null };
  capturedAt: string;
}

/** One bundle folder. */
export interface Bundle {
  url: string;
  dir: string;
  /** Names of the files written into `dir`. */
  files: string[];
  meta: BundleMeta;
  /** ms per step: visit, read, screenshot, pdf, har, total. */
  timings: Record<string, number>;
}

/** Options of {@link sourceBundle}. */
export interface SourceBundleOptions extends RuntimeOptions {
  /** Parent of the bundle folders. @default 'bundles' */
  outDir?: string | undefined;
  /** Tallest page shot in full; taller pages fall back to the viewport. @default 15_000 */
  maxScreenshotHeight?: number | undefined;
  /** Bound on the full-page shot before falling back. @default 20_000 */
  screenshotTimeout?: number | undefined;
  /** Write `report.html` + `report.json` into `outDir` too. @default false */
  report?: boolean | undefined;
  onProgress?: ((bundle: Bundle, done: number, total: number) => void) | undefined;
}

/** Defaults of {@link sourceBundle}. */
export const BUNDLE_DEFAULTS = { outDir: 'bundles', report: false } as const;

/** A readable, unique folder name for `url`. */
export function bundleName(url: string): string {
  const hash = createHash('sha256').update(url).digest('hex').slice(0, 8);
  const slug = url
    .replace(/^[a-z]+:\/\//i, '')
    .replace(/[^a-z0-9]+/gi, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 60);
  return `${slug || 'page'}-${hash}`;
}

/**
 * Archives each page into its own folder under `outDir`, through a session pool.
 * A blocked or unreachable page still gets a bundle (what was there, with `state` saying why).
 * @throws the file system's errors
 * @example const [b] = (await sourceBundle('https://example.com', { outDir: 'evidence' })).bundles;
 */
export async function sourceBundle(
  url: string | readonly string[],
  options: SourceBundleOptions = {},
): Promise<{ bundles: Bundle[]; report: ReportFiles | null }> {
  const urls = typeof url === 'string' ? [url] : [...url];
  const outDir = options.outDir ?? BUNDLE_DEFAULTS.outDir;
  const runtime = await openRuntime(options, false);
  try {
    let done = 0;
    const bundles = await Promise.all(
      urls.map((u) =>
        runtime
          .pool()
          .run((page) => bundleOne(page, u, path.join(outDir, bundleName(u)), options))
          .then((b) => {
            options.onProgress?.(b, ++done, urls.length);
            return b;
          }),
      ),
    );
    let report: ReportFiles | null = null;
    if (options.report ?? BUNDLE_DEFAULTS.report) {
      report = await writeReport(
        {
          title: 'sourceBundle',
          pages: bundles.map((b) => ({
            title: b.meta.title || b.url,
            url: b.url,
            text: b.files.join(', '),
            facts: {
              folder: b.dir,
              state: b.meta.state,
              status: b.meta.status,
              screenshot: b.meta.screenshot.note ?? b.meta.screenshot.mode,
              ...b.timings,
            },
          })),
        },
        outDir,
      );
    }
    return { bundles, report };
  } finally {
    await runtime.close();
  }
}

async function bundleOne(
  page: AnyPage,
  url: string,
  dir: string,
  options: SourceBundleOptions,
): Promise<Bundle> {
  const started = performance.now();
  const timings: Record<string, number> = {};
  const step = async <T>(name: string, fn: () => Promise<T>): Promise<T> => {
    const t = performance.now();
    try {
      return await fn();
    } finally {
      timings[name] = Math.round(performance.now() - t);
    }
  };
  await mkdir(dir, { recursive: true });
  const files: string[] = [];
  const put = async (name: string, body: string | Buffer) => {
    await writeFile(path.join(dir, name), body);
    files.push(name);
  };
  const har = await recordHar(page);
  const v = await step('visit', () => openPage(page, url));
  const meta: BundleMeta = {
    url,
    finalUrl: v.finalUrl,
    status: v.status,
    redirected: v.redirected,
    contentType: v.contentType,
    state: v.ok ? 'ok' : v.blocked ? 'blocked' : 'unreachable',
    reason: v.blocked ? `${v.blocked.kind}: ${v.blocked.reason}` : (v.error ?? null),
    title: '',
    lang: null,
    metadata: null,
    contentHash: null,
    download: null,
    screenshot: { mode: 'none', note: null, height: null },
    capturedAt: new Date().toISOString(),
  };
  const isPdf = v.contentType === 'application/pdf';
  if (v.download) {
    // A file, not a page: keep the bytes as received; a PDF still gets its text, under the name a
    // PDF shown in the browser's viewer gets (a headless shell has no viewer: it downloads).
    const file = isPdf ? 'page.pdf' : `download-${v.download.filename}`;
    await put(file, v.download.bytes);
    meta.download = { file, bytes: v.download.bytes.length };
    meta.contentHash = v.download.contentHash;
    meta.title = v.download.filename;
    if (isPdf) await put('page.md', await pdfText(v.download.bytes));
  } else if (v.status !== null && !v.error) {
    // The shot scrolls through the page first, so lazily loaded content is in what is read next.
    const shot = await step('screenshot', () =>
      fullPageScreenshot(page, {
        ...(options.maxScreenshotHeight ? { maxHeight: options.maxScreenshotHeight } : {}),
        ...(options.screenshotTimeout ? { timeout: options.screenshotTimeout } : {}),
      }),
    );
    meta.screenshot = { mode: shot.mode, note: shot.note ?? null, height: shot.height };
    await put('full.png', shot.png);
    if (isPdf) {
      await step('read', async () => {
        const res = await fetch(v.finalUrl);
        const bytes = Buffer.from(await res.arrayBuffer());
        await put('page.pdf', bytes);
        await put('page.md', await pdfText(bytes));
        meta.contentHash = `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
      });
    } else {
      const read = await step('read', () => readPage(page));
      Object.assign(meta, {
        title: read.title,
        lang: read.lang,
        metadata: read.metadata,
        contentHash: read.contentHash,
      });
      await put('page.md', read.markdown);
    }
    await put('page.html', await toPageLike(page).content());
    if (!isPdf) {
      await step('pdf', async () => put('page.pdf', await savePdf(page)));
    }
  }
  const log = await step('har', () => har.stop());
  await put('page.har', JSON.stringify(log, null, 2));
  timings['total'] = Math.round(performance.now() - started);
  await put('timings.json', `${JSON.stringify(timings, null, 2)}\n`);
  await put('meta.json', `${JSON.stringify(meta, null, 2)}\n`);
  return { url, dir, files, meta, timings };
}

async function pdfText(bytes: Buffer): Promise<string> {
  const { text } = await extractText(new Uint8Array(bytes), { mergePages: true });
  return text;
}

const command = defineCommand({
  name: 'source-bundle',
  program: 'tsx recipes/source-bundle.ts',
  summary: 'everything about a page at one moment, one folder per page',
  usage: 'npx tsx recipes/source-bundle.ts <url>... [--out bundles] [--report]',
  positionals: true,
  options: {
    out: { type: 'string', arg: '<dir>', help: 'parent of the bundle folders (default bundles)' },
    report: { type: 'boolean', help: 'also write report.html and report.json into --out' },
    pool: { type: 'string', arg: '<n>', help: 'browser sessions working at once (default 2)' },
  },
  examples: ['npx tsx recipes/source-bundle.ts https://example.com/article --report'],
  async run({ values, positionals }) {
    if (positionals.length === 0) throw new UsageError('source-bundle: give URLs (--help)');
    const { bundles, report } = await sourceBundle(positionals, {
      outDir: values.out ?? 'bundles',
      report: values.report === true,
      poolSize: Number(values.pool ?? '2'),
    });
    const rows: unknown[][] = [['state', 'status', 'screenshot', 'ms', 'folder']];
    for (const b of bundles) {
      rows.push([
        b.meta.state,
        b.meta.status ?? '',
        b.meta.screenshot.mode,
        b.timings['total'],
        b.dir,
      ]);
    }
    console.log(table(rows));
    if (report) console.log(`report: ${report.html}`);
    return bundles.every((b) => b.meta.state === 'ok') ? EXIT.ok : EXIT.failure;
  },
});

if (isMain(import.meta.url)) void runCommand(command);
