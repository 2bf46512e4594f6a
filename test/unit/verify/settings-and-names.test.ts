import { beforeAll, describe, expect, it } from 'vitest';
import { analyze, verifyClaim } from '../../../src/verify/index.js';
import type { ClaimVerdict, ConflictKind } from '../../../src/verify/index.js';
import { statedDefaults } from '../../../src/verify/settings.js';

// The tagger and WordNet load once per process: slow on a busy machine, so outside any test.
beforeAll(() => {
  analyze('Warm up.');
}, 120_000);

function verdictOf(claim: string, page: string, context?: string): ClaimVerdict {
  return verifyClaim(claim, page, { context }).verdict;
}

function expectConflict(claim: string, page: string, kind: ConflictKind): void {
  const r = verifyClaim(claim, page);
  expect(r.verdict, r.reason).toBe('contradicted');
  expect(r.conflicts.map((c) => c.kind)).toContain(kind);
}

function expectSupported(claim: string, page: string, context?: string): void {
  const r = verifyClaim(claim, page, { context });
  expect(r.verdict, `${r.reason} ${JSON.stringify(r.conflicts)}`).toBe('supported');
}

describe('verifyClaim: switch defaults and units stated in words', () => {
  it('reads the ways a default is written', () => {
    expect(statedDefaults('Compression is on by default.').map(([v]) => v)).toEqual([true]);
    expect(statedDefaults('the `strict` option (defaulted to false)').map(([v]) => v)).toEqual([
      false,
    ]);
    expect(statedDefaults('Default: `true`.').map(([v]) => v)).toEqual([true]);
    expect(statedDefaults('Caching is not enabled by default.').map(([v]) => v)).toEqual([false]);
    expect(statedDefaults('Every flag is false unless you set it.').map(([v]) => v)).toEqual([
      false,
    ]);
    // "defaults on Windows" names a platform, not a value.
    expect(statedDefaults('The path defaults on Windows to the user folder.')).toEqual([]);
  });

  it('contradicts a default stated the other way, and supports the same one in other words', () => {
    expectConflict(
      'The strictMode option is on by default, so bad input throws.',
      'You can make the parser throw on bad input with the strictMode option (defaulted to false).',
      'negation',
    );
    expectConflict(
      'Every option of the parser is true unless you turn it off.',
      'All options of the parser are false by default.',
      'negation',
    );
    expectSupported(
      'The strictMode option is off by default.',
      'You can make the parser throw on bad input with the strictMode option (defaulted to false).',
    );
  });

  it('contradicts a value given in another unit of the same dimension, not one in the same unit', () => {
    expect(
      verdictOf(
        'The expiry you pass to cache.put() is given in seconds.',
        'You can pass an expiry to cache.put() in milliseconds.',
      ),
    ).not.toBe('supported');
    expectSupported(
      'The expiry you pass to cache.put() is given in milliseconds.',
      'You can pass an expiry to cache.put() in milliseconds.',
    );
  });
});

describe('verifyClaim: literals and names', () => {
  it('holds a quoted symbol to the symbol, not to an operator that contains it', () => {
    expect(
      verdictOf(
        'A leading "~" character is stripped off and ignored.',
        'A leading "=" character is stripped off and ignored.',
      ),
    ).not.toBe('supported');
    expect(
      verdictOf(
        'A leading "=" character is stripped off and ignored.',
        'A leading "~" character is stripped off; ranges like >=1.2.0 are kept.',
      ),
    ).not.toBe('supported');
    expectSupported(
      'A leading "=" character is removed and ignored.',
      'A leading "=" character is stripped off and ignored.',
    );
  });

  it('reads the word before "event" or "option" as a name the passage must state', () => {
    expect(
      verdictOf(
        'The drain event is emitted whenever an idle socket hits an error.',
        'Emitted whenever an idle socket hits an error.',
        'Events error',
      ),
    ).not.toBe('supported');
    expectSupported(
      'The error event is emitted whenever an idle socket hits an error.',
      'Emitted whenever an idle socket hits an error.',
      'Events error',
    );
    // "the same option" qualifies the kind; it names nothing.
    expectSupported(
      'Pass the same option twice to combine the values.',
      'Passing the same option twice combines the values.',
    );
  });

  it('holds a capitalised name that is also an English word to the name', () => {
    expect(
      verdictOf(
        'The registry keeps its handlers in a Set keyed by name.',
        'When the mode is set to handler, the registry keeps handlers by name.',
      ),
    ).not.toBe('supported');
    expectSupported(
      'The registry keeps its handlers in a Map keyed by name.',
      'The registry stores its handlers in a Map, keyed by name.',
    );
  });
});

describe('verifyClaim: bounds and comparisons', () => {
  it('matches an operator bound against the page bound of that value, not a bare mention', () => {
    expectConflict(
      'The range <=1.4.0 matches 1.4.2 and 2.0.0.',
      'The range >=1.4.0 matches the versions 1.4.0, 1.4.2 and 2.0.0.',
      'comparative',
    );
    expect(
      verdictOf(
        'The range ^1 is the same as >=1.1.0, so it matches 1.1.0.',
        'The range ^1 is equivalent to >=1.0.0 <2.0.0 and matches 1.0.0, but not 2.0.0 or 0.9.0.',
      ),
    ).not.toBe('supported');
    expectSupported(
      'The range >=1.4.0 matches 1.4.2 and 2.0.0.',
      'The range >=1.4.0 matches the versions 1.4.0, 1.4.2 and 2.0.0.',
    );
  });

  it('aligns a bound with the bound of the same thing when the page bounds two by one value', () => {
    expectConflict(
      'Lists hold at most 50 items; an item at an index below 50 becomes a map key instead.',
      'Lists hold a maximum of 50 items. Items with an index of 50 or greater become map keys instead.',
      'comparative',
    );
    expectSupported(
      'Lists hold at most 50 items; an item at an index of 50 or more becomes a map key instead.',
      'Lists hold a maximum of 50 items. Items with an index of 50 or greater become map keys instead.',
    );
  });

  it('does not support a comparison the passage does not state', () => {
    expect(
      verdictOf(
        'The server answers 413 with the code "too_large" when the body is smaller than the limit.',
        'The limit is the byte limit. The status is set to 413 and the code to "too_large".',
      ),
    ).not.toBe('supported');
    expectSupported(
      'The server answers 413 when the body is larger than the limit.',
      'A body larger than the limit is answered with 413.',
    );
  });
});

describe('verifyClaim: polarity through purposes, leave verbs and prose antonyms', () => {
  it('does not read a purpose clause as an assertion', () => {
    expectConflict(
      'By default, footnotes are included in the output.',
      'By default, footnotes are ignored. To include footnotes in the output, add a style rule.',
      'antonym',
    );
    expectSupported(
      'To include footnotes in the output, add a style rule.',
      'By default, footnotes are ignored. To include footnotes in the output, add a style rule.',
    );
  });

  it('reads "will not help you X" and "does not let you X" as not X', () => {
    expectConflict(
      'The library can decrypt protected archives for you.',
      'You can detect a protected archive with isProtected(), but the library will not help you decrypt it.',
      'negation',
    );
    expectSupported(
      'The library cannot decrypt protected archives.',
      'The library does not let you decrypt protected archives.',
    );
  });
});
