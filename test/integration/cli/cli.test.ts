// The `svc` command end to end: real child processes, each starting the embedded service on one
// shared data dir, so what `svc index` added is what search, ask and research answer from.
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixture, runCli, spawnCli, tempDataDir } from './run-cli.js';
import type { CliResult } from './run-cli.js';

let dataDir: string;
let firstIndex: CliResult;

beforeAll(async () => {
  dataDir = tempDataDir();
  // Every other test reads this index, so it is built once, up front.
  firstIndex = await runCli(
    ['index', fixture('corpus', 'web'), fixture('corpus', 'notes')],
    dataDir,
  );
}, 60_000);

afterAll(() => {
  rmSync(dataDir, { recursive: true, force: true });
});

/** The count in the `outcome count` summary table for one outcome. */
function count(stdout: string, outcome: string): number | undefined {
  const m = new RegExp(`^${outcome}\\s+(\\d+)$`, 'm').exec(stdout);
  return m ? Number(m[1]) : undefined;
}

describe('svc index', () => {
  it('indexes folders, prints progress and a summary table, and exits 0', () => {
    expect(firstIndex.stderr).toContain('indexing [');
    expect(firstIndex.stderr).toMatch(/ 14\/14 100% /);
    expect(count(firstIndex.stdout, 'added')).toBe(14);
    expect(count(firstIndex.stdout, 'unsupported')).toBe(1);
    expect(count(firstIndex.stdout, 'failed')).toBe(0);
    expect(firstIndex.stdout).toContain(`Index: ${dataDir}`);
    expect(firstIndex.code).toBe(0);
  });

  it('exits 1 naming each corrupt file, and still indexes the good inputs beside them', async () => {
    const res = await runCli(
      [
        'index',
        fixture('corpus', 'broken'),
        fixture('corpus', 'reports'),
        fixture('corpus', 'web'),
      ],
      dataDir,
    );
    expect(res.code).toBe(1);
    expect(count(res.stdout, 'added')).toBe(1);
    expect(count(res.stdout, 'skipped')).toBe(12);
    expect(count(res.stdout, 'failed')).toBe(2);
    expect(res.stdout).toMatch(/damaged-report\.pdf\s+cannot read PDF file/);
    expect(res.stdout).toMatch(/truncated-memo\.docx\s+cannot read DOCX file/);

    const search = await runCli(['search', 'thermal runaway containerised storage'], dataDir);
    expect(search.code).toBe(0);
    expect(search.stdout).toMatch(/^1\s+Thermal runaway propagation/m);
    expect(search.stdout).toContain('battery-safety-report.pdf');
  });
});

describe('svc search', () => {
  it('prints a ranked table and, with --json, the parseable response', async () => {
    const [table, json] = await Promise.all([
      runCli(['search', 'battery', 'recycling', 'plant', '--max-results', '3'], dataDir),
      runCli(['search', 'battery recycling plant', '--max-results', '3', '--json'], dataDir),
    ]);
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/^#\s+title\s+url\s+date$/m);
    expect(table.stdout).toMatch(/^1\s+Battery recycling plant opens/m);
    expect(table.stdout).toContain('https://northwind-journal.com/tech/2025/battery-recycling');
    expect(table.stdout).not.toMatch(/^4\s/m);

    expect(json.code).toBe(0);
    const body = JSON.parse(json.stdout) as { results: Array<{ title: string; url: string }> };
    expect(body.results.length).toBeLessThanOrEqual(3);
    expect(body.results[0]?.title).toMatch(/^Battery recycling plant opens/);
  });
});

describe('svc ask', () => {
  it('streams an answer with [n] markers, then the numbered sources', async () => {
    const res = await runCli(
      ['ask', 'what', 'does', 'the', 'battery', 'recycling', 'plant', 'recover'],
      dataDir,
    );
    expect(res.code).toBe(0);
    const [answer, sources] = res.stdout.split('\nSources:\n');
    expect(answer).toMatch(/\[\d+\]/);
    expect(sources).toBeDefined();
    expect(sources).toMatch(/^\[1\] \S/m);
    // Every marker in the answer names a listed source.
    const listed = [...sources!.matchAll(/^\s*\[(\d+)\]/gm)].map((m) => Number(m[1]));
    for (const m of answer!.matchAll(/\[(\d+)\]/g)) expect(listed).toContain(Number(m[1]));
  });

  it('prints the final completion as JSON with --json, and NDJSON events with --stream', async () => {
    const question = 'how do grid batteries affect prices';
    const [res, streamed] = await Promise.all([
      runCli(['ask', question, '--json'], dataDir),
      runCli(['ask', question, '--json', '--stream'], dataDir),
    ]);
    expect(res.code).toBe(0);
    const completion = JSON.parse(res.stdout) as {
      object: string;
      choices: Array<{ message: { content: string } }>;
      citations: string[];
    };
    expect(completion.object).toBe('chat.completion');
    expect(completion.choices[0]?.message.content).toMatch(/\[\d+\]/);
    expect(completion.citations.length).toBeGreaterThan(0);

    expect(streamed.code).toBe(0);
    const events = streamed.stdout
      .trimEnd()
      .split('\n')
      .map(
        (line) =>
          JSON.parse(line) as { object: string; choices: Array<{ delta: { content?: string } }> },
      );
    expect(events.length).toBeGreaterThan(1);
    expect(events.every((e) => e.object === 'chat.completion.chunk')).toBe(true);
    const text = events.map((e) => e.choices[0]?.delta.content ?? '').join('');
    expect(text).toBe(completion.choices[0]?.message.content);
  });
});

describe('usage errors', () => {
  it('exit 2 with a message naming the offending flag', async () => {
    const [range, unknown, choice, missing] = await Promise.all([
      runCli(['search', 'x', '--max-results', '50'], dataDir),
      runCli(['ask', 'x', '--bogus'], dataDir),
      runCli(['ask', 'x', '--model', 'gpt-9'], dataDir),
      runCli(['research'], dataDir),
    ]);
    expect(range.code).toBe(2);
    expect(range.stderr).toMatch(/--max-results: expected an integer from 1 to 20; got '50'/);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/ask: .*--bogus/);
    expect(choice.code).toBe(2);
    expect(choice.stderr).toMatch(/--model: expected one of core, core-pro/);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/research: give a question, or --resume/);
  });
});

describe('svc embed', () => {
  it('prints dims, first values and a symmetric cosine similarity matrix', async () => {
    const res = await runCli(
      ['embed', 'lithium iron phosphate cells', 'LFP battery cells', 'coral reef bleaching'],
      dataDir,
    );
    expect(res.code).toBe(0);
    expect(res.stdout).toContain('1024 dimensions · base64_int8');
    expect(res.stdout).toMatch(/int8: (-?\d+ ){8}…/);
    expect(res.stdout).toContain('Similarity (cosine):');
    const rows = [...res.stdout.matchAll(/^\[(\d)\]((?:\s+-?\d\.\d{3}){3})$/gm)].map((m) =>
      m[2]!.trim().split(/\s+/).map(Number),
    );
    expect(rows).toHaveLength(3);
    for (let i = 0; i < 3; i++) {
      expect(rows[i]![i]).toBeCloseTo(1, 2);
      for (let j = 0; j < 3; j++) expect(rows[i]![j]).toBe(rows[j]![i]);
    }
  });
});

describe('svc sessions', () => {
  it('lists the sessions of the embedded service (none yet)', async () => {
    const res = await runCli(['sessions', 'ls', '--json'], dataDir);
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    expect(JSON.parse(res.stdout)).toEqual({ sessions: [] });
  });

  it('create keeps the embedded service and its session alive until Ctrl-C, then stops it', async () => {
    const cli = spawnCli(['sessions', 'create', '--tag', 'cli-test', '--json'], dataDir);
    try {
      await cli.waitForStdout(/\n\}\n$/);
      const session = JSON.parse(cli.output().stdout) as {
        session_id: string;
        status: string;
        cdp_url: string;
        tags: string[];
      };
      expect(session).toMatchObject({ status: 'running', tags: ['cli-test'] });
      expect(session.cdp_url).toMatch(/^ws:\/\/127\.0\.0\.1:\d+\/v1\/browser\/sessions\//);
      cli.child.kill('SIGINT');
      expect(await cli.exited).toBe(0);
      expect(cli.output().stderr).toContain(`stopped ${session.session_id}`);
    } finally {
      cli.child.kill('SIGKILL');
    }
  });
});

describe('svc research', () => {
  it('runs a deep-research job to completion and prints the answer and sources', async () => {
    const res = await runCli(
      ['research', 'how', 'do', 'grid', 'batteries', 'degrade', '--effort', 'low'],
      dataDir,
    );
    expect(res.code).toBe(0);
    const id = /svc: job ([0-9a-f-]{36})/.exec(res.stderr)?.[1];
    expect(id).toBeDefined();
    expect(res.stderr).toMatch(/completed/);
    expect(res.stdout).toMatch(/\[\d+\]/);
    expect(res.stdout).toMatch(/\nSources:\n\s*\[1\] /);

    // The finished job stays readable by id: --resume returns at once with the same answer.
    const resumed = await runCli(['research', '--resume', id!, '--json'], dataDir);
    expect(resumed.code).toBe(0);
    const job = JSON.parse(resumed.stdout) as { id: string; status: string };
    expect(job).toMatchObject({ id, status: 'COMPLETED' });
  });
});
