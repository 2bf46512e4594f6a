import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NotFoundError } from '../../src/index.js';
import { deepResearch } from '../../recipes/index.js';
import type { ResearchProgress } from '../../recipes/index.js';
import { startHardCases } from './support.js';
import type { HardCases } from './support.js';

describe('deepResearch', () => {
  let w: HardCases;

  beforeAll(async () => {
    w = await startHardCases();
  });
  afterAll(async () => {
    await w?.close();
  });

  it('runs a deep-research job with progress, then checks its citations on their pages', async () => {
    const states: string[] = [];
    const r = await deepResearch('What is known about the Wrenfield harbour?', {
      client: w.client,
      reasoningEffort: 'low',
      pollInterval: 100,
      report: false,
      screenshots: false,
      onProgress: (e: ResearchProgress) => {
        if (e.type === 'job') states.push(e.job.status);
      },
    });
    expect(states.at(-1)).toBe('COMPLETED');
    expect(r.jobId).toMatch(/\S/);
    expect(r.citations.length).toBeGreaterThan(0);
    for (const c of r.citations) {
      const expected =
        c.url === w.urls.customs ? 'blocked' : c.url === w.urls.ferry ? 'unreachable' : 'supported';
      expect([c.url, c.verdict]).toEqual([c.url, expected]);
    }
    expect(r.summary.total).toBe(r.citations.length);
  });

  it('resumes an existing job by id', async () => {
    const job = await w.client.async.chat.completions.create({
      request: {
        model: 'core-deep-research',
        messages: [{ role: 'user', content: 'What does the Calloway orchard do?' }],
        reasoning_effort: 'low',
      },
    });
    const r = await deepResearch('What does the Calloway orchard do?', {
      client: w.client,
      jobId: job.id,
      pollInterval: 100,
      report: false,
      screenshots: false,
    });
    expect(r.jobId).toBe(job.id);
    expect(r.question).toBe('What does the Calloway orchard do?');
    expect(r.citations.some((c) => c.url === w.urls.cider && c.verdict === 'supported')).toBe(true);
  });

  it('rejects an unknown job id with NotFoundError', async () => {
    await expect(
      deepResearch('x', { client: w.client, jobId: 'no-such-job', report: false }),
    ).rejects.toBeInstanceOf(NotFoundError);
  });
});
