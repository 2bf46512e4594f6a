import { beforeAll, describe, expect, it } from 'vitest';
import { analyze, extractQuantities, verifyClaim } from '../../../src/verify/index.js';
import { slotSwaps } from '../../../src/verify/slots.js';

// The tagger and WordNet load once per process: slow on a busy machine, so outside any test.
beforeAll(() => {
  analyze('Warm up.');
}, 120_000);

const verdict = (claim: string, page: string): string => verifyClaim(claim, page).verdict;

describe('slotSwaps: ordinary words swapped in the same slot', () => {
  it('names an adjective replaced between the same neighbours', () => {
    expect(
      slotSwaps(
        analyze('Idle sockets are closed after the timeout.'),
        analyze('Busy sockets are closed after the timeout.'),
      ),
    ).toEqual([{ kind: 'term', claim: 'Idle', page: 'Busy' }]);
    expect(
      verdict('The server closes idle connections.', 'The server closes open connections.'),
    ).toBe('contradicted');
  });

  it('finds a noun swapped at the end of the sentence with another word changed before it', () => {
    const r = verifyClaim(
      'The cache stores compiled templates.',
      'The cache stores rendered pages.',
    );
    expect(r.verdict).not.toBe('supported');
    expect(r.conflicts).toContainEqual({ kind: 'term', claim: 'templates', page: 'pages' });
  });

  it('keeps supporting paraphrases whose words are the same or synonyms', () => {
    expect(
      verdict(
        'The request is retried up to three times.',
        'A failed request is attempted again at most 3 times.',
      ),
    ).toBe('supported');
    expect(
      slotSwaps(
        analyze('Idle sockets are closed after the timeout.'),
        analyze('Idle sockets are closed after the timeout.'),
      ),
    ).toEqual([]);
  });

  it('aligns with the sentence that carries the claim, not another sentence of the window', () => {
    expect(
      verdict(
        'Idle sockets are closed after the timeout.',
        'Idle sockets are closed after the timeout expires. Busy ones stay open.',
      ),
    ).toBe('supported');
  });
});

describe('slot swaps need a sentence about the claim', () => {
  it('finds no swap in a sentence that shares only a word with the claim', () => {
    expect(
      slotSwaps(
        analyze('If only the proxy is set, the proxy is used for both plain and secure requests.'),
        analyze('When you use a form as a request body, keep the form and the client together.'),
      ),
    ).toEqual([]);
  });
});

describe('comparatives within their own sentence', () => {
  const page =
    'After all queued requests are completed, the keepalive event moves the client back to the pending state. ' +
    'If the close event fires, the client completes existing requests before firing the done event.';

  it('contradicts before/after even when a later sentence of the window says "before"', () => {
    const r = verifyClaim(
      'Before all queued requests are completed, the keepalive event moves the client back to the pending state.',
      page,
    );
    expect(r.verdict).toBe('contradicted');
    expect(r.conflicts).toContainEqual({ kind: 'comparative', claim: 'Before', page: 'After' });
  });

  it('supports the same direction', () => {
    expect(
      verdict(
        'After all queued requests are completed, the keepalive event moves the client back to the pending state.',
        page,
      ),
    ).toBe('supported');
  });
});

describe('scientific notation with units', () => {
  it('reads 60e3 milliseconds as 60 s, across code quotes and brackets', () => {
    for (const text of [
      'The timeout is 60e3 milliseconds.',
      'Defaults to `60e3` milliseconds.',
      'timeout: 60e3 (milliseconds)',
    ]) {
      const q = extractQuantities(text);
      expect(q, text).toHaveLength(1);
      expect(q[0], text).toMatchObject({ value: 60_000, dim: 'ms' });
    }
    expect(verdict('The timeout is 60 seconds.', 'Defaults to `60e3` milliseconds timeout.')).toBe(
      'supported',
    );
  });

  it('contradicts a different value written in scientific notation', () => {
    expect(verdict('The limit is 2 MB.', 'The limit is `1e6` bytes.')).toBe('contradicted');
    expect(verdict('The limit is 1 MB.', 'The limit is `1e6` bytes.')).toBe('supported');
  });
});
