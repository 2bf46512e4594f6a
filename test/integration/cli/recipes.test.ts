// The evidence commands of `svc` end to end: real child processes over one data dir indexed from
// the web fixture corpus (citations are the embedded service's /docs/ links, visited in real
// Chromium while the command runs), and a loopback fixture site for pages given by URL.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureServer } from '../../support/fixture-server.js';
import type { FixtureServer } from '../../support/fixture-server.js';
import { fixture, runCli, tempDataDir } from './run-cli.js';

// Each test starts the embedded service and Chromium in child processes on a shared 2-core
// machine: bounds well above a quiet run (5 to 20 s), so a busy machine slows them, not fails them.
const SLOW = 120_000;
const CLI_TIMEOUT = 110_000;

let dataDir: string;
let out: string;
let site: FixtureServer;

/** What `--json` of ask --capture and verify print, as far as these tests read it. */
interface EvidenceJson {
  answer: string;
  citations: Array<{
    n: number;
    url: string | null;
    verdict: string;
    passage: { quote: string } | null;
    screenshots?: { passagePath: string | null } | null;
  }>;
  summary: { total: number; supported: number; score: number };
  passed?: boolean;
  minScore?: number;
}

beforeAll(async () => {
  dataDir = tempDataDir();
  out = mkdtempSync(path.join(os.tmpdir(), 'svc-cli-recipes-'));
  const [index, server] = await Promise.all([
    runCli(['index', fixture('corpus', 'web')], dataDir, {}, CLI_TIMEOUT),
    startFixtureServer(),
  ]);
  site = server;
  expect(index.code, index.stderr).toBe(0);
}, SLOW);

afterAll(async () => {
  await site?.close();
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(out, { recursive: true, force: true });
});

describe('svc ask --capture', () => {
  it(
    'captures evidence per citation, prints a verdict table, and writes report.html and report.json',
    async () => {
      const dir = path.join(out, 'ask');
      const res = await runCli(
        ['ask', 'what does the battery recycling plant recover', '--capture', '--out', dir],
        dataDir,
        {},
        CLI_TIMEOUT,
      );
      expect(res.code, res.stderr).toBe(0);
      expect(res.stderr).toMatch(/cited page\(s\) while the answer arrives/);
      expect(res.stderr).toMatch(/citations \[#+\] \d+\/\d+ 100%/);
      // The answer first, then one table row per citation, the summary and the report's path.
      expect(res.stdout).toMatch(/\[\d+\]/);
      expect(res.stdout).toMatch(/^#\s+verdict\s+method\s+status\s+url\s+quote \(or reason\)$/m);
      expect(res.stdout).toMatch(
        /^\[\d+\]\s+supported\s+(exact|fuzzy|embedding)\s+200\s+https?:\/\//m,
      );
      expect(res.stdout).toMatch(
        /^supported \d+, not_found \d+, blocked \d+, unreachable \d+ of \d+; score /m,
      );
      expect(res.stdout).toContain(`Report: ${path.join(dir, 'report.html')}`);

      expect(readFileSync(path.join(dir, 'report.html'), 'utf8')).toMatch(/^<!doctype html>/i);
      const report = JSON.parse(
        readFileSync(path.join(dir, 'report.json'), 'utf8'),
      ) as EvidenceJson;
      const supported = report.citations.filter((c) => c.verdict === 'supported');
      expect(supported.length).toBeGreaterThanOrEqual(1);
      expect(supported[0]!.passage!.quote.length).toBeGreaterThan(20);
      // The passage screenshot the report points at was written next to it.
      const shot = supported[0]!.screenshots?.passagePath;
      expect(shot).toBeTruthy();
      expect(existsSync(path.join(dir, shot!))).toBe(true);
    },
    SLOW,
  );
});

describe('svc verify', () => {
  it(
    'prints per-claim verdicts and the score; exit 0 at --min-score 0, exit 1 when the score is below it',
    async () => {
      // One claim its page supports, one behind a challenge page, one on a dead link: score 1/3.
      const article = `${site.url}/article.html`;
      const file = path.join(out, 'answer.json');
      writeFileSync(
        file,
        JSON.stringify({
          answer:
            'The Hollowbrook Bridge opened to traffic on 14 March 1932 after six years of construction [1]. ' +
            'The town keeps a register of ferry crossings [2]. The ferry ran until 1932 [3].',
          citations: [article, `${site.url}/challenge.html`, `${site.url}/status/404`],
        }),
      );
      const [asked, gated] = await Promise.all([
        runCli(
          ['verify', 'what does the battery recycling plant recover', '--min-score', '0'],
          dataDir,
          {},
          CLI_TIMEOUT,
        ),
        runCli(
          ['verify', '--completion', file, '--min-score', '0.5', '--json'],
          dataDir,
          {},
          CLI_TIMEOUT,
        ),
      ]);

      expect(asked.code, asked.stderr).toBe(0);
      expect(asked.stdout).toMatch(
        /^Claims:\n {2}\[\d+\] (supported|not_found|blocked|unreachable) /m,
      );
      expect(asked.stdout).toMatch(/; score (0|1|0\.\d+)$/m);
      expect(asked.stdout).toMatch(/^PASS: score \S+ >= 0$/m);

      expect(gated.code, gated.stderr).toBe(1);
      const result = JSON.parse(gated.stdout) as EvidenceJson;
      expect(result.citations.map((c) => c.verdict)).toEqual([
        'supported',
        'blocked',
        'unreachable',
      ]);
      expect(result.citations[0]!.passage!.quote).toMatch(
        /^The Hollowbrook Bridge opened to traffic/,
      );
      expect(result.summary).toMatchObject({ total: 3, supported: 1, score: 0.333 });
      expect(result).toMatchObject({ passed: false, minScore: 0.5 });
    },
    SLOW,
  );
});

describe('svc scrape', () => {
  it(
    'writes one Markdown file per page read, prints a table, and backs extracted fields with quotes',
    async () => {
      const dir = path.join(out, 'scrape');
      const schema = path.join(out, 'schema.json');
      writeFileSync(
        schema,
        JSON.stringify({
          type: 'object',
          properties: { process: { type: 'string' } },
          required: ['process'],
        }),
      );
      const res = await runCli(
        [
          'scrape',
          'what does the battery recycling plant recover',
          '--max-pages',
          '2',
          '--out',
          dir,
          '--schema',
          schema,
        ],
        dataDir,
        {},
        CLI_TIMEOUT,
      );
      expect(res.code, res.stderr).toBe(0);
      expect(res.stderr).toMatch(/pages \[#+\] 2\/2 100%/);
      expect(res.stdout).toMatch(
        /^#\s+state\s+status\s+chars\s+title\s+file \(or reason\)\s+url$/m,
      );
      expect(res.stdout).toMatch(/^1\s+ok\s+200\s+\d+\s+Battery recycling plant opens/m);
      expect(res.stdout).toContain(`2 Markdown file(s) in ${dir}`);

      const files = readdirSync(dir).sort();
      expect(files).toHaveLength(2);
      expect(files[0]).toMatch(/^1-battery-recycling-plant-opens.*\.md$/);
      const md = readFileSync(path.join(dir, files[0]!), 'utf8');
      expect(md).toMatch(
        /^---\nurl: "https:\/\/northwind-journal\.com\/tech\/2025\/battery-recycling-plant-opens"\n/,
      );
      expect(md).toContain('black mass');

      // The extraction: the object, then each field with the sentence and page it came from.
      expect(res.stdout).toMatch(/\nExtracted:\n\{\n\s+"process": /);
      expect(res.stdout).toMatch(
        /^ {2}process = ".+"\n {6}".+"\n {6}https:\/\/northwind-journal\.com\//m,
      );
    },
    SLOW,
  );
});

describe('svc bundle', () => {
  it(
    'writes a folder with Markdown, HTML, full-page PNG, PDF, HAR and timings for a page',
    async () => {
      const dir = path.join(out, 'bundles');
      const url = `${site.url}/article.html`;
      const res = await runCli(['bundle', url, '--out', dir], dataDir, {}, CLI_TIMEOUT);
      expect(res.code, res.stderr).toBe(0);
      const [folder] = readdirSync(dir);
      expect(folder).toBeDefined();
      const bundle = path.join(dir, folder!);
      const files = readdirSync(bundle);
      for (const name of [
        'page.md',
        'page.html',
        'full.png',
        'page.pdf',
        'page.har',
        'timings.json',
      ]) {
        expect(files).toContain(name);
      }
      expect(readFileSync(path.join(bundle, 'page.md'), 'utf8')).toContain('14 March 1932');
      expect(readFileSync(path.join(bundle, 'full.png')).subarray(1, 4).toString()).toBe('PNG');
      expect(readFileSync(path.join(bundle, 'page.pdf')).subarray(0, 5).toString()).toBe('%PDF-');
      const har = JSON.parse(readFileSync(path.join(bundle, 'page.har'), 'utf8')) as {
        log: { entries: Array<{ request: { url: string } }> };
      };
      expect(har.log.entries[0]?.request.url).toBe(url);

      expect(res.stdout).toContain(`${bundle}\n  ${url}  ok (HTTP 200)`);
      expect(res.stdout).toMatch(/^full\.png\s+[\d.]+ kB\s+full page, \d+ px tall/m);
      expect(res.stdout).toMatch(/^page\.pdf\s+[\d.]+ kB\s+printed/m);
    },
    SLOW,
  );
});

describe('svc research --capture', () => {
  it(
    'runs the job, then captures evidence for its citations and writes the report',
    async () => {
      const dir = path.join(out, 'research');
      const res = await runCli(
        ['research', 'how do grid batteries degrade', '--effort', 'low', '--capture', '--out', dir],
        dataDir,
        {},
        CLI_TIMEOUT,
      );
      expect(res.code, res.stderr).toBe(0);
      expect(res.stderr).toMatch(/svc: job [0-9a-f-]{36}/);
      expect(res.stderr).toMatch(/completed/);
      expect(res.stdout).toMatch(/^\[\d+\]\s+supported\s/m);
      const report = JSON.parse(
        readFileSync(path.join(dir, 'report.json'), 'utf8'),
      ) as EvidenceJson & {
        title: string;
      };
      expect(report.title).toBe('deepResearch');
      expect(report.citations.some((c) => c.verdict === 'supported')).toBe(true);
    },
    SLOW,
  );
});

describe('help and usage errors', () => {
  it(
    'documents the new commands, and exits 2 on bad flags before starting anything',
    async () => {
      const [help, verifyHelp, score, none, notUrl, outAlone, pool] = await Promise.all([
        runCli(['--help'], dataDir),
        runCli(['verify', '--help'], dataDir),
        runCli(['verify', '--completion', 'x.json', '--min-score', '1.01'], dataDir),
        runCli(['verify'], dataDir),
        runCli(['bundle', 'example.com/page'], dataDir),
        runCli(['ask', 'x', '--out', 'dir'], dataDir),
        runCli(['scrape', 'x', '--pool', '0'], dataDir),
      ]);
      expect(help.code).toBe(0);
      for (const name of ['verify', 'scrape', 'bundle']) {
        expect(help.stdout).toMatch(new RegExp(`^ {2}${name}\\s+\\S`, 'm'));
      }
      expect(help.stdout).toContain(
        'svc ask how does the recycling plant recover lithium --capture',
      );
      expect(verifyHelp.code).toBe(0);
      expect(verifyHelp.stdout).toMatch(/1 score below it/);
      expect(verifyHelp.stdout).toContain('--min-score 0.8');

      expect(score.code).toBe(2);
      expect(score.stderr).toMatch(/--min-score: expected a number from 0 to 1; got '1\.01'/);
      expect(none.code).toBe(2);
      expect(none.stderr).toMatch(/verify: give a question, or --completion/);
      expect(notUrl.code).toBe(2);
      expect(notUrl.stderr).toMatch(/bundle: not an http\(s\) URL: 'example\.com\/page'/);
      expect(outAlone.code).toBe(2);
      expect(outAlone.stderr).toMatch(/ask: --out needs --capture/);
      expect(pool.code).toBe(2);
      expect(pool.stderr).toMatch(/scrape: --pool: expected an integer from 1 to 16; got '0'/);
    },
    SLOW,
  );
});
