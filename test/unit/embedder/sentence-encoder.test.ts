// The sentence encoder's worker threads: a burst of texts is shared by two workers, and a text's
// vector does not depend on which worker computed it or on the batch it came in.
import { describe, expect, it } from 'vitest';
import { sharedSentenceEncoder } from '../../../src/server/engines/embedder/index.js';

const TEXTS = Array.from(
  { length: 48 },
  (_, i) => `Item ${i}: the request is retried up to ${i % 5} times before the client gives up.`,
);

describe('sentence encoder workers', { timeout: 120_000 }, () => {
  it('starts a second worker while batches wait, with the same vectors as one worker', async () => {
    const one = sharedSentenceEncoder({ workers: 1 });
    const two = sharedSentenceEncoder({ workers: 2 });
    const alone = await one.embed(TEXTS);
    expect(one.workers).toBe(1);
    // Three bursts: the second worker starts during the first (its batches wait) and serves after.
    const bursts = await Promise.all([two.embed(TEXTS), two.embed(TEXTS), two.embed(TEXTS)]);
    expect(two.workers).toBe(2);
    for (const vectors of bursts) {
      expect(vectors).toHaveLength(TEXTS.length);
      vectors.forEach((v, i) => {
        expect(v).toHaveLength(512);
        for (let d = 0; d < 512; d += 64) expect(v[d]).toBeCloseTo(alone[i]![d]!, 4);
      });
    }
  });
});
