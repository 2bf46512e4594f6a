// Orders between two things: which wins, which comes first, what becomes what.
import { beforeAll, describe, expect, it } from 'vitest';
import { analyze, verifyClaim } from '../../../src/verify/index.js';
import { ordersOf } from '../../../src/verify/orders.js';
import { expectConflict, expectSupported } from './expect-verdict.js';

beforeAll(() => {
  analyze('Warm up.');
}, 120_000);

describe('ordersOf', () => {
  it('reads precedence verbs, passives, ranges and numbered priority lists', () => {
    expect(
      ordersOf('User-defined style mappings are used in preference to the default style mappings.'),
    ).toEqual([
      {
        kind: 'precedence',
        first: 'user-defined style mappings',
        second: 'the default style mappings',
      },
    ]);
    expect(ordersOf('So the last source will override properties of the same name.')).toEqual([
      { kind: 'precedence', first: 'the last source', second: 'properties of the same name' },
    ]);
    expect(ordersOf('The option does not override the environment variable.')).toEqual([]);
    expect(ordersOf('The option is overridden by the environment variable.')).toEqual([
      { kind: 'precedence', first: 'the environment variable', second: 'the option' },
    ]);
    expect(ordersOf('Keys come in order from least recently used to most recently used.')).toEqual([
      { kind: 'sequence', first: 'least recently used', second: 'most recently used' },
    ]);
    expect(
      ordersOf(
        'They apply in this order of priority: (1) escape, (2) interpolate, (3) evaluate.',
      ).map((o) => [o.kind, o.first, o.second]),
    ).toEqual([
      ['precedence', 'escape', 'interpolate'],
      ['precedence', 'escape', 'evaluate'],
      ['precedence', 'interpolate', 'evaluate'],
    ]);
  });
});

describe('verifyClaim: orders the other way round', () => {
  it('contradicts a precedence or a sequence put the other way round, and supports it kept', () => {
    const page =
      'User-defined style mappings are used in preference to the default style mappings.';
    expectConflict(
      'The default style mappings take precedence over your own style mappings.',
      page,
      'comparative',
    );
    expect(
      verifyClaim('Your own style mappings take precedence over the default style mappings.', page)
        .conflicts,
    ).toEqual([]);
    const keys =
      'Return a generator yielding the keys in the cache, in order from least recently used to most recently used.';
    expect(
      verifyClaim(
        'keys() yields the keys starting with the most recently used one and ending with the least recently used.',
        keys,
      ).verdict,
    ).not.toBe('supported');
    expectSupported(
      'The generator yields the keys in the cache from least recently used to most recently used.',
      keys,
    );
    expectConflict('It converts YAML into JSON.', 'It converts from JSON to YAML.', 'comparative');
  });

  it('ranks the items of a numbered priority list', () => {
    const page =
      'If a template matches several regexes, the first applies by this order of priority: (1) escape, (2) interpolate, (3) evaluate.';
    expectConflict(
      'If a template matches several regexes, evaluate wins over interpolate.',
      page,
      'comparative',
    );
    expect(
      verifyClaim('If a template matches several regexes, escape wins over evaluate.', page)
        .conflicts,
    ).toEqual([]);
  });
});

describe('verifyClaim: a precedence the passage does not rank', () => {
  it('does not support which of two things wins from a passage that only names them', () => {
    expect(
      verifyClaim(
        'The default style mappings take precedence over your own style mappings.',
        'To stop using the default style mappings altogether, set includeDefaultStyleMap to false.',
      ).verdict,
    ).not.toBe('supported');
  });
});

describe('verifyClaim: steps a sentence lists in order', () => {
  const page =
    'This will establish the context, trigger the AsyncHooks before callbacks, call the function, trigger the AsyncHooks after callbacks, and then restore the original execution context.';
  const context = 'asyncResource.runInAsyncScope(fn[, thisArg, ...args])';

  it('contradicts a claim that puts two of the steps the other way round', () => {
    expectConflict(
      'asyncResource.runInAsyncScope() triggers the AsyncHooks after callbacks before it calls the function.',
      page,
      'comparative',
      {
        claim:
          'asyncResource.runInAsyncScope() triggers the AsyncHooks after callbacks before it calls the function',
        page: 'call the function, then trigger the AsyncHooks after callbacks',
      },
      { context },
    );
    expectConflict(
      'runInAsyncScope() restores the original execution context before calling the function.',
      page,
      'comparative',
      undefined,
      { context },
    );
    expectConflict(
      'You extract the archive after running the installer.',
      'To install, download the archive, extract the archive, and run the installer.',
      'comparative',
    );
  });

  it('supports the steps in the order the page gives, and reads no steps in a list of alternatives', () => {
    expectSupported(
      'asyncResource.runInAsyncScope() calls the function before it triggers the AsyncHooks after callbacks.',
      page,
      { context },
    );
    expectSupported(
      'runInAsyncScope() restores the original execution context after calling the function.',
      page,
      { context },
    );
    expect(
      verifyClaim(
        'You may close the file after reading the header.',
        'You may read the header, seek to the data, or close the file.',
      ).conflicts,
    ).toEqual([]);
  });
});

describe('verifyClaim: two dated events put in order', () => {
  const page =
    'In February 2001, nano was declared an official GNU program by Richard Stallman. nano also reached its first production release on March 22, 2001.';

  it('contradicts an order word the page’s own dates deny', () => {
    expectConflict(
      'nano reached its first production release on March 22, 2001, shortly before Richard Stallman declared it an official GNU program in February 2001.',
      page,
      'comparative',
      { claim: 'March 22, 2001 before February 2001', page: 'February 2001, then March 22, 2001' },
    );
  });

  it('supports the order the dates give', () => {
    expectSupported(
      'nano reached its first production release on March 22, 2001, shortly after Richard Stallman declared it an official GNU program in February 2001.',
      page,
    );
  });
});
