import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { collectDocs } from '../../recipes/demo.js';

const run = promisify(execFile);

describe('demo', () => {
  const out = mkdtempSync(path.join(os.tmpdir(), 'svc-recipes-demo-'));
  afterAll(() => rmSync(out, { recursive: true, force: true }));

  it('collects a real document collection from the installed dependencies', () => {
    const files = collectDocs();
    expect(files.length).toBeGreaterThanOrEqual(50);
    expect(files.length).toBeLessThanOrEqual(200);
    expect(files.some((f) => f.endsWith(path.join('undici', 'README.md')))).toBe(true);
    expect(files.every((f) => f.endsWith('.md') && existsSync(f))).toBe(true);
  });

  it('answers from the docs, checks every citation and writes the report in under a minute', async () => {
    const started = Date.now();
    const { stdout } = await run(
      path.resolve('node_modules/.bin/tsx'),
      [path.resolve('recipes/demo.ts'), '--temp', '--out', out],
      { timeout: 60_000 },
    );
    expect(Date.now() - started).toBeLessThan(60_000);
    expect(stdout).toMatch(
      /supported \d+, contradicted 0, not_found \d+, blocked 0, unreachable 0 of [1-9]/,
    );
    const report = JSON.parse(readFileSync(path.join(out, 'report.json'), 'utf8'));
    expect(report.citations.length).toBeGreaterThan(0);
    expect(report.summary.supported).toBeGreaterThan(0);
    expect(readFileSync(path.join(out, 'report.html'), 'utf8')).toContain('data:image/png;base64,');
  }, 90_000);
});
