import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { ExtractedField, ScrapedPage } from '../../../recipes/index.js';
import { defineCommand } from '../command.js';
import { EXIT, UsageError } from '../common.js';
import { printTable, rangeOption } from '../output.js';
import { displayLocation } from '../service.js';
import {
  BROWSER_FLAGS,
  browserOptions,
  evidenceJson,
  RecipeProgress,
  untilAborted,
  whileLive,
} from './capture.js';

/** Where `svc scrape` writes its Markdown files unless `--out` says otherwise. */
export const SCRAPE_OUT_DIR = path.join('out', 'scrape');

/** `svc scrape <query...>`: searchAndScrape, one Markdown file per page, a table, the extraction. */
export const scrapeCommand = defineCommand({
  name: 'scrape',
  summary: 'search, then read the top results in Chromium as clean Markdown',
  usage: 'svc scrape <query...> [options]',
  positionals: true,
  options: {
    'max-pages': { type: 'string', arg: '<n>', help: 'results visited, 1..20 (default 5)' },
    schema: {
      type: 'string',
      arg: '<file>',
      help: 'a JSON schema: also extract an object following it (through chat\nresponse_format); every field is printed with the quote and URL it came from',
    },
    out: {
      type: 'string',
      arg: '<dir>',
      help: `where the Markdown files go, one per page read (default ${SCRAPE_OUT_DIR})`,
    },
    report: { type: 'boolean', help: 'also write report.html and report.json into --out' },
    ...BROWSER_FLAGS,
  },
  json: 'print the result as JSON (pages with Markdown, links, metadata; extraction)',
  dataDir: true,
  notes: `Each file is <rank>-<title>.md with the page's URL, title and status as front matter. Pages behind
a challenge or login wall are reported blocked and not written; dead links unreachable.

Exit: 0 done (also when some pages were blocked or unreachable), 1 the search or the extraction
failed, 2 bad usage, 3 service unreachable, 130 interrupted.`,
  examples: [
    'svc scrape battery recycling plant --max-pages 3',
    'svc scrape "grid batteries prices" --out pages --report',
    'svc scrape lithium recovery --schema schema.json --json | jq .extraction.fields',
  ],
  async run(ctx) {
    const { values, positionals } = ctx;
    const query = positionals.join(' ').trim();
    if (query === '') throw new UsageError('scrape: give a query (svc scrape --help)');
    const maxResults = rangeOption('scrape', 'max-pages', values['max-pages'], 1, 20);
    const browser = browserOptions('scrape', values);
    const schema = values.schema !== undefined ? await readSchema(values.schema) : undefined;
    const outDir = values.out ?? SCRAPE_OUT_DIR;

    const service = await ctx.service();
    const signal = ctx.signal;
    const { searchAndScrape } = await import('../../../recipes/index.js');
    const locate = (url: string): string => displayLocation(service, url);
    const progress = new RecipeProgress('pages');
    progress.start();
    let result;
    try {
      result = await untilAborted(
        searchAndScrape(query, {
          ...browser,
          client: service.client,
          ...(maxResults !== undefined && { maxResults }),
          ...(schema !== undefined && { schema }),
          ...(values.report && { report: true, outDir }),
          onProgress: whileLive(signal, (page, done, total) =>
            progress.update(done, total, `${page.state} ${locate(page.url)}`),
          ),
        }),
        signal,
      );
    } finally {
      progress.finish();
    }
    const files = await writePages(result.pages, outDir, locate);
    if (ctx.json) {
      // The written file of each page (or null) rides along, so scripts need not rebuild names.
      const pages = result.pages.map((p, i) => ({ ...p, file: files[i] ?? null }));
      process.stdout.write(evidenceJson({ ...result, pages }));
      return EXIT.ok;
    }
    if (result.pages.length === 0) {
      process.stderr.write(`svc: no results for "${query}"\n`);
      return EXIT.ok;
    }
    printTable(
      ['#', 'state', 'status', 'chars', 'title', 'file (or reason)', 'url'],
      result.pages.map((p, i) => [
        String(i + 1),
        p.state,
        p.status === null ? '' : String(p.status),
        String(p.markdown.length),
        p.title,
        files[i] ? path.basename(files[i]) : (p.reason ?? ''),
        locate(p.url),
      ]),
      { alignRight: [0, 3], maxWidth: [3, 11, 6, 8, 40, 70, 1000] },
    );
    const written = files.filter((f) => f !== null).length;
    process.stdout.write(`\n${written} Markdown file(s) in ${outDir}\n`);
    if (result.extraction) printExtraction(result.extraction, locate);
    if (result.report) process.stdout.write(`Report: ${result.report.html}\n`);
    return EXIT.ok;
  },
});

/**
 * Writes each page that was read as `<rank>-<slug>.md` with front matter; returns each page's
 * path (`null` for blocked and unreachable pages, which have no content to keep).
 */
async function writePages(
  pages: readonly ScrapedPage[],
  outDir: string,
  locate: (url: string) => string,
): Promise<(string | null)[]> {
  await mkdir(outDir, { recursive: true });
  const width = String(pages.length).length;
  return Promise.all(
    pages.map(async (page, i) => {
      if (page.state !== 'ok') return null;
      const name = `${String(i + 1).padStart(width, '0')}-${slug(page.title || page.url)}.md`;
      const file = path.join(outDir, name);
      const front = [
        '---',
        `url: ${JSON.stringify(locate(page.url))}`,
        `title: ${JSON.stringify(page.title)}`,
        `status: ${page.status ?? 'null'}`,
        `content_hash: ${JSON.stringify(page.contentHash)}`,
        '---',
        '',
      ].join('\n');
      await writeFile(file, `${front}\n${page.markdown.trimEnd()}\n`);
      return file;
    }),
  );
}

/** A file-name-safe slug of `text`, at most 60 characters. */
function slug(text: string): string {
  const s = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/^[a-z]+:\/\//, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '');
  return s || 'page';
}

/** The extracted object, then each field with the quote and URL that back it. */
function printExtraction(
  extraction: { data: unknown; fields: ExtractedField[] },
  locate: (url: string) => string,
): void {
  process.stdout.write(`\nExtracted:\n${JSON.stringify(extraction.data, null, 2)}\n\nFields:\n`);
  for (const f of extraction.fields) {
    process.stdout.write(`  ${f.path} = ${JSON.stringify(f.value)}\n`);
    if (f.quote === null || f.url === null) {
      process.stdout.write('      (not found on the pages read)\n');
      continue;
    }
    process.stdout.write(`      "${f.quote.replace(/\s+/g, ' ')}"\n      ${locate(f.url)}\n`);
    // A quote that does not hold the value must not read as its backing.
    if (f.flag) process.stdout.write(`      ! not backed: ${f.flag}\n`);
  }
}

/**
 * Reads a JSON schema file.
 * @throws UsageError when it cannot be read or is not a JSON object
 */
async function readSchema(file: string): Promise<Record<string, unknown>> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new UsageError(`scrape: --schema: cannot read ${file}: ${(error as Error).message}`);
  }
  let schema: unknown;
  try {
    schema = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`scrape: --schema: ${file} is not JSON: ${(error as Error).message}`);
  }
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema)) {
    throw new UsageError(`scrape: --schema: ${file} must hold a JSON schema object`);
  }
  return schema as Record<string, unknown>;
}
