import { statSync } from 'node:fs';
import path from 'node:path';
import type { Bundle } from '../../../recipes/index.js';
import { defineCommand } from '../command.js';
import { EXIT, UsageError } from '../common.js';
import { printTable, rangeOption } from '../output.js';
import { BROWSER_FLAGS, browserOptions, evidenceJson, RecipeProgress } from './capture.js';

/** Where `svc bundle` writes its folders unless `--out` says otherwise. */
export const BUNDLE_OUT_DIR = 'bundles';

/** `svc bundle <url...>`: sourceBundle per URL; prints the folders and their files. */
export const bundleCommand = defineCommand({
  name: 'bundle',
  summary: 'everything about a page at one moment, one folder per page',
  usage: 'svc bundle <url...> [options]',
  positionals: true,
  options: {
    out: {
      type: 'string',
      arg: '<dir>',
      help: `parent of the bundle folders (default ${BUNDLE_OUT_DIR})`,
    },
    'max-height': {
      type: 'string',
      arg: '<px>',
      help: 'tallest page shot in full, 1000..100000; taller pages fall back to the\nviewport, with a note (default 15000)',
    },
    report: { type: 'boolean', help: 'also write report.html and report.json into --out' },
    ...BROWSER_FLAGS,
  },
  json: 'print the bundles as JSON (folder, files, meta, timings)',
  notes: `Each folder holds page.md (the main content as Markdown), page.html (the DOM after load),
full.png (the full page, scrolled first so lazy content loads), page.pdf (the print, or the
original PDF), page.har (every request), timings.json and meta.json (status, final URL, content
hash, how the screenshot was taken). Usable as test attachments or an archive of a source.
Only Chromium is needed: no service is started.

Exit: 0 every page was read, 1 some page was blocked or unreachable (its folder says why),
2 bad usage.`,
  examples: [
    'svc bundle https://example.com/article',
    'svc bundle https://example.com/a https://example.com/b.pdf --out evidence --pool 2',
    "svc bundle http://127.0.0.1:8080/report.html --json | jq -r '.bundles[].dir'",
  ],
  async run(ctx) {
    const { values, positionals } = ctx;
    if (positionals.length === 0)
      throw new UsageError('bundle: give one or more URLs (svc bundle --help)');
    for (const url of positionals) {
      if (!/^https?:\/\//i.test(url) || !URL.canParse(url)) {
        throw new UsageError(`bundle: not an http(s) URL: '${url}'`);
      }
    }
    const maxHeight = rangeOption('bundle', 'max-height', values['max-height'], 1000, 100_000);
    const browser = browserOptions('bundle', values);
    const outDir = values.out ?? BUNDLE_OUT_DIR;

    const { sourceBundle } = await import('../../../recipes/index.js');
    const progress = new RecipeProgress('bundles');
    progress.start();
    let result;
    try {
      result = await sourceBundle(positionals, {
        ...browser,
        outDir,
        ...(maxHeight !== undefined && { maxScreenshotHeight: maxHeight }),
        ...(values.report && { report: true }),
        onProgress: (bundle, done, total) =>
          progress.update(done, total, `${bundle.meta.state} ${bundle.url}`),
      });
    } finally {
      progress.finish();
    }
    const { bundles, report } = result;
    const code = bundles.every((b) => b.meta.state === 'ok') ? EXIT.ok : EXIT.failure;
    if (ctx.json) {
      process.stdout.write(evidenceJson(result));
      return code;
    }
    for (const b of bundles) printBundle(b);
    if (report) process.stdout.write(`Report: ${report.html}\n`);
    return code;
  },
});

/** One bundle: its folder and state, then a table of its files with sizes and notes. */
function printBundle(b: Bundle): void {
  const { meta } = b;
  const status = meta.status === null ? 'no response' : `HTTP ${meta.status}`;
  const why = meta.reason ? `: ${meta.reason}` : '';
  process.stdout.write(`${b.dir}\n  ${b.url}  ${meta.state} (${status})${why}\n`);
  if (meta.download) process.stdout.write(`  a file, not a page: saved as ${meta.download.file}\n`);
  if (meta.redirected) process.stdout.write(`  redirected to ${meta.finalUrl}\n`);
  const rows = b.files.map((name) => [
    name,
    formatSize(sizeOf(path.join(b.dir, name))),
    noteFor(name, b),
  ]);
  process.stdout.write('\n');
  printTable(['file', 'size', 'note'], rows, { alignRight: [1], maxWidth: [16, 10, 90] });
  process.stdout.write('\n');
}

/** What is worth knowing about one file of a bundle. */
function noteFor(name: string, b: Bundle): string {
  const { meta, timings } = b;
  const ms = (step: string): string => (timings[step] !== undefined ? `${timings[step]} ms` : '');
  switch (name) {
    case 'full.png': {
      const shot = meta.screenshot;
      if (shot.note) return shot.note;
      const height = shot.height !== null ? `, ${shot.height} px tall` : '';
      return `${shot.mode === 'full' ? 'full page' : shot.mode}${height}, ${ms('screenshot')}`;
    }
    case 'page.md':
      return meta.title ? `"${meta.title}"` : '';
    case 'page.pdf':
      return meta.contentType === 'application/pdf' ? 'the original PDF' : `printed, ${ms('pdf')}`;
    case 'meta.json':
      return meta.contentHash ?? '';
    case meta.download?.file:
      return `downloaded file (${meta.contentType ?? 'unknown type'}), ${meta.contentHash ?? ''}`;
    case 'timings.json':
      return timings['total'] !== undefined ? `total ${timings['total']} ms` : '';
    default:
      return '';
  }
}

function sizeOf(file: string): number | null {
  try {
    return statSync(file).size;
  } catch {
    return null;
  }
}

/** `812 B`, `14.2 kB`, `3.1 MB`. */
function formatSize(bytes: number | null): string {
  if (bytes === null) return '?';
  if (bytes < 1000) return `${bytes} B`;
  if (bytes < 1_000_000) return `${(bytes / 1000).toFixed(1)} kB`;
  return `${(bytes / 1_000_000).toFixed(1)} MB`;
}
