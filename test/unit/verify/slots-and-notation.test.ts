import { beforeAll, describe, expect, it } from 'vitest';
import { analyze, extractQuantities, verifyClaim } from '../../../src/verify/index.js';
import { slotSwaps } from '../../../src/verify/slots.js';
import { expectSupported } from './expect-verdict.js';

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

describe('bounds and names in code notation', () => {
  it('reads comparison operators and "before" as bounds of a version', () => {
    const page = 'Note: workers can be pinned only on kernels >= v5.0.0.';
    expect(verdict('Workers can only be pinned on kernels before v5.0.0.', page)).toBe(
      'contradicted',
    );
    expect(verdict('Workers can only be pinned on kernel v5.0.0 or later.', page)).toBe(
      'supported',
    );
  });

  it('takes an HTML tag for a key term that another tag cannot stand in for', () => {
    const page = 'By default, italic text is wrapped in <em> tags.';
    expect(verdict('By default, italic text is wrapped in <i> tags.', page)).toBe('contradicted');
    expect(verdict('Italic text is wrapped in <em> tags by default.', page)).toBe('supported');
  });

  it('takes a call for a key term even when an English word names the function', () => {
    const page = 'Rejected promises should be handled in catch(), as described below.';
    expect(verdict('Rejected promises should be handled in then().', page)).toBe('contradicted');
    expect(verdict('Rejected promises should be handled in catch().', page)).toBe('supported');
  });

  it('takes a status class for a name, not a number', () => {
    const page = 'NOTE: 4xx-5xx responses are treated as errors by the client.';
    expect(verdict('The client treats 4xx to 5xx responses as errors.', page)).toBe('supported');
    expect(verdict('The client treats 2xx responses as errors.', page)).not.toBe('supported');
  });

  it('takes a format directive for a key term', () => {
    const page = '%w Number of times that the program was context-switched voluntarily.';
    expect(verdict('%w counts voluntary context switches.', page)).toBe('supported');
    expect(verdict('%c counts voluntary context switches.', page)).not.toBe('supported');
    expect(analyze('It is 50% faster with %-d.').keyTerms.map((k) => k.text)).toEqual(['%-d']);
    // A list of directives may name each by its letter alone.
    const entry = 'Maximum resident set size of the process, in Kilobytes.';
    const claim =
      'The %M directive gives the maximum resident set size of the process in kilobytes.';
    expect(verifyClaim(claim, entry, { context: 'The Format String M' }).verdict).toBe('supported');
    expect(verifyClaim(claim, entry, { context: 'The Format String K' }).verdict).not.toBe(
      'supported',
    );
  });

  it('takes a path ending in the term for the term itself', () => {
    expect(
      verdict(
        'Set maxRetries to 0 to turn retries off.',
        'To turn retries off, set options.maxRetries to 0.',
      ),
    ).toBe('supported');
    expect(
      verdict(
        'Set maxRetries to 0 to turn retries off.',
        'To turn retries off, set options.maxDelay to 0.',
      ),
    ).toBe('contradicted');
  });
});

describe('a hexadecimal value with a leading digit ("10FFFF")', () => {
  it('is no term set against itself', () => {
    expectSupported(
      'With Unicode support enabled, pressing Meta-V and then typing a six-digit hexadecimal code between 000000 and 10FFFF inserts the character with that value.',
      'Alternatively, if Unicode support is enabled (see section 5.3), you can press Meta-V and then type a six-digit hexadecimal code (from 000000 to 10FFFF, case-insensitive), and the character with the corresponding value will be inserted.',
    );
  });
});
