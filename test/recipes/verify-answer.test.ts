import { execFile } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyAnswer } from '../../recipes/index.js';
import { FACTS, startHardCases } from './support.js';
import type { HardCases } from './support.js';

const run = promisify(execFile);
const claim = (fact: string, n: number): string => `${fact.slice(0, -1)} [${n}].`;

describe('verifyAnswer', () => {
  let w: HardCases;
  const dir = path.join(os.tmpdir(), `svc-recipes-verify-${process.pid}`);

  beforeAll(async () => {
    w = await startHardCases();
  });
  afterAll(async () => {
    await w?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('scores a real completion per claim without taking screenshots', async () => {
    const completion = await w.client.chat.completions.create({
      model: 'core-pro',
      messages: [{ role: 'user', content: 'What does the Calloway orchard do?' }],
    });
    const strict = await verifyAnswer(completion, { client: w.client, minScore: 0.8 });
    const verdicts = Object.fromEntries(strict.citations.map((c) => [c.url, c.verdict]));
    expect(verdicts).toEqual({
      [w.urls.pears]: 'supported',
      [w.urls.cider]: 'supported',
      [w.urls.mill]: 'not_found',
    });
    expect(strict.summary.score).toBe(0.667);
    expect(strict.passed).toBe(false);
    expect(strict.citations.every((c) => c.screenshots === null)).toBe(true);
    expect(strict.report).toBeNull();
  });

  it('never counts a challenge page as support', async () => {
    const r = await verifyAnswer(
      {
        answer: `${claim(FACTS.market, 1)} ${claim(FACTS.customs, 2)}`,
        citations: [w.urls.market, w.urls.customs],
      },
      { client: w.client, minScore: 0.5, poolSize: 1 },
    );
    expect(r.citations.map((c) => c.verdict)).toEqual(['supported', 'blocked']);
    expect(r.summary.score).toBe(0.5);
    expect(r.passed).toBe(true);
  });

  it('rejects a minScore outside 0..1', async () => {
    await expect(
      verifyAnswer({ answer: 'x', citations: [] }, { client: w.client, minScore: 2 }),
    ).rejects.toThrow(/minScore/);
  });

  it('exits 1 as a script when the score is below --min-score, 0 when it is not', async () => {
    const file = path.join(dir, 'answer.json');
    const { mkdirSync } = await import('node:fs');
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      file,
      JSON.stringify({
        answer: `${claim(FACTS.market, 1)} ${claim(FACTS.ferry, 2)}`,
        citations: [w.urls.market, w.urls.ferry],
      }),
    );
    const env = { ...process.env, SVC_BASE_URL: w.server.url, SVC_API_KEY: w.server.apiKey };
    const script = path.resolve('recipes/verify-answer.ts');
    const tsx = path.resolve('node_modules/.bin/tsx');
    const failed = await run(tsx, [script, file, '--min-score', '0.9'], { env }).then(
      () => ({ code: 0, stdout: '' }),
      (e: { code: number; stdout: string }) => e,
    );
    expect(failed.code).toBe(1);
    expect(failed.stdout).toMatch(/FAIL: score 0\.5 < 0\.9/);
    const passed = await run(tsx, [script, file, '--min-score', '0.5', '--json'], { env });
    const out = JSON.parse(passed.stdout);
    expect(out.summary).toMatchObject({ supported: 1, unreachable: 1, score: 0.5 });
    expect(out.passed).toBe(true);
    // Two script processes, each compiling the recipe with tsx: slow on a busy machine.
  }, 180_000);
});
