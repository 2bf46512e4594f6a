import { beforeAll, describe, expect, it } from 'vitest';
import { analyze, verifyClaim } from '../../../src/verify/index.js';
import type { ClaimVerdict } from '../../../src/verify/index.js';
import { statedDefaults } from '../../../src/verify/settings.js';
import { expectConflict, expectSupported } from './expect-verdict.js';

// The tagger and WordNet load once per process: slow on a busy machine, so outside any test.
beforeAll(() => {
  analyze('Warm up.');
}, 120_000);

function verdictOf(claim: string, page: string, context?: string): ClaimVerdict {
  return verifyClaim(claim, page, { context }).verdict;
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
      { context: 'Events error' },
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

describe('verifyClaim: what a contradiction must be about', () => {
  it('takes no contradiction from a passage that lacks the term the claim names', () => {
    // The sibling function's passage states another count: about another thing, not against.
    const r = verifyClaim(
      'The iteratee of _.reduce receives four arguments.',
      'The iteratee is passed three arguments: the value, the index and the list.',
      { context: 'Collections map _.map(list, iteratee)' },
    );
    expect(r.verdict, r.reason).toBe('unrelated');
    expectConflict(
      'The iteratee of _.map receives four arguments.',
      'The iteratee of _.map is passed three arguments: the value, the index and the list.',
      'number',
    );
  });

  it('needs a count in words of two or more stated, and half the words even for a close passage', () => {
    expect(
      verdictOf(
        'Package rebuilds are usually done in two phases.',
        'Package rebuilds are done when the default runtime changes.',
      ),
    ).not.toBe('supported');
    const close = verifyClaim(
      'The runtime package supports four kinds of hooks run from maintainer scripts.',
      'The runtime package has special hooks.',
      { similarity: 0.9 },
    );
    expect(close.verdict, close.reason).not.toBe('supported');
  });
});

describe('verifyClaim: roles, particles and the sentence that states the case', () => {
  it('contradicts a rule whose roles the claim swaps', () => {
    const page =
      'If both expires and maxAge are set, then maxAge takes precedence, but not all clients obey it.';
    expectConflict(
      'If both expires and maxAge are set, expires takes precedence, but not all clients obey it.',
      page,
      'term',
    );
    expectSupported(
      'If both expires and maxAge are set, maxAge takes precedence, but not all clients obey it.',
      page,
    );
  });

  it('contradicts a flipped direction particle', () => {
    const page = 'The given number is converted to an integer by rounding down.';
    expectConflict('The given number is converted to an integer by rounding up.', page, 'antonym');
    expectSupported('The given number is rounded down to an integer.', page);
  });

  it('pairs a clause with the sentence that shares the claim case ("by default")', () => {
    const page =
      'When truthy, the Secure attribute is set, otherwise it is not. By default, the Secure attribute is not set.';
    expectConflict('By default, the Secure attribute is set.', page, 'negation');
    expectSupported('When truthy, the Secure attribute is set.', page);
  });

  it('reads a member named without its namespace, and a unit as no swappable word', () => {
    expectSupported(
      'Passing true as the immediate argument makes _.debounce fire on the leading edge.',
      'Pass true for the immediate argument to cause debounce to fire on the leading edge.',
    );
    expect(
      verdictOf(
        'The throttled function runs at most once every wait milliseconds.',
        'The throttled function runs at most once during the wait period.',
      ),
    ).not.toBe('contradicted');
  });

  it('reads "or newer" as a bound, not as an antonym of "older"', () => {
    expectSupported(
      'The client requires Node.js v10.0 or newer; for older Node.js versions use v1.',
      'Node.js v10.0+ (Please use v1 for older versions of Node.js)',
    );
  });
});

describe('verifyClaim: negated subjects and bounded counts', () => {
  it('reads "none of X are Y" as X not Y', () => {
    const page =
      'This section lists the tools that help package modules. Although none of these tools are mandatory, their use is encouraged.';
    expectConflict('The packaging tools are mandatory.', page, 'negation');
    expectSupported('None of the packaging tools are mandatory.', page);
  });

  it('needs a bound on a count stated, even on "once"', () => {
    expect(
      verdictOf(
        'The throttled function runs the original at least once every wait milliseconds.',
        'The throttled function runs the original as soon as you call it, and again when the wait period is over.',
      ),
    ).not.toBe('supported');
  });
});

describe('verifyClaim: values predicated of the subject', () => {
  it('needs a predicated value with an opposite stated, not an attributive one', () => {
    expect(
      verdictOf(
        'It is not safe to call close() twice on an archive.',
        'If close() is never called on an archive, the file is kept open.',
      ),
    ).not.toBe('supported');
    // "an executable file" only describes the file; the passage states the rest.
    expectSupported(
      'The installer downloads an executable file into the cache folder.',
      'The installer downloads the file into the cache folder.',
    );
  });
});

describe('verifyClaim: places in an order and values in their slots', () => {
  it("needs an item's place in an order stated, not a sentence's opening 'First'", () => {
    expect(
      verdictOf(
        'In a proxy chain the first proxy in the array is the one that connects to the destination.',
        'This example makes a proxy chain through two proxies. Once the connection to the destination is established it sends a request.',
      ),
    ).not.toBe('supported');
    expectSupported(
      'The callback receives the error as its first argument.',
      'The callback is called with the error as the first argument.',
    );
    expectSupported(
      'First, the installer downloads the archive into the cache folder.',
      'The installer downloads the archive into the cache folder.',
    );
  });

  it('reads a value the page gives another slot as that slot’s value, not a statement of it', () => {
    const page = 'start, if omitted, defaults to 0; step defaults to 1.';
    expectConflict('start defaults to 1.', page, 'number', { claim: '1', page: '0' });
    expectSupported('step defaults to 1.', page);
    const timeouts =
      'The timeout defaults to 30 seconds; the connect timeout defaults to 10 seconds.';
    expectConflict('The connect timeout is 30 seconds by default.', timeouts, 'number', {
      claim: '30 seconds',
      page: '10 seconds',
    });
    expectSupported('The timeout is 30 seconds by default.', timeouts);
    expectSupported('The connect timeout is 10 seconds by default.', timeouts);
  });
});

describe('verifyClaim: opposites stated plainly and infinities', () => {
  it("needs a word whose opposite the page states plainly stated itself, unless the claim's clause negates it", () => {
    const page = 'Returns a random integer between min and max, inclusive.';
    expect(
      verdictOf(
        '_.random gives back an integer between min and max, with max itself excluded.',
        page,
      ),
    ).not.toBe('supported');
    expectSupported('It returns a random integer between min and max, inclusive of both.', page);
    expectSupported(
      'Deleting a cache does not make its cached responses unusable.',
      'If a cache is deleted, the cached responses can still be used.',
    );
  });

  it('reads a signed Infinity as a value, compared with written values only', () => {
    expectConflict(
      'When the list is empty, _.min returns -Infinity.',
      'Infinity is returned by _.min if list is empty.',
      'number',
      { claim: '-Infinity', page: 'Infinity' },
    );
    const page = 'maxOrigins (optional) - Default: Infinity - Limits the number of origins.';
    expectConflict('By default maxOrigins is 100.', page, 'number');
    expect(
      verifyClaim('Past the maxOrigins limit, one more origin is refused.', page).conflicts,
    ).toEqual([]);
  });
});

describe('verifyClaim: compound prepositions', () => {
  it('takes no word of "in favour of" or "with respect to" for a fact to align', () => {
    expectSupported(
      'insertLeft has been deprecated since 0.17 in favour of appendLeft.',
      'insertLeft(index, content): Deprecated since 0.17 – use appendLeft(index, content) instead.',
    );
    expect(
      analyze('Sizes are given with respect to the viewport.').tokens.find(
        (t) => t.lower === 'respect',
      )?.content,
    ).toBe(false);
  });
});

describe('verifyClaim: a switch default the passage says nothing of', () => {
  it('does not support a default from a passage without one, and reads defaults stated other ways', () => {
    expect(
      verdictOf(
        'With open(), autoClose is off unless you turn it on.',
        'See open() for the meaning of the options and callback. The autoClose option is ignored for this method.',
      ),
    ).not.toBe('supported');
    expectSupported(
      'autoClose is on by default.',
      'autoClose (default true) closes the file when the last entry is read.',
    );
  });
});

describe('verifyClaim: conditions and switches in phrasal verbs', () => {
  it('needs the case a condition names stated, not only the general case', () => {
    const page =
      'A Promise is returned that is resolved when the connection is established, or rejected when an error occurs.';
    expect(
      verdictOf(
        'When you give createConnection a callback, the returned promise still rejects if an error occurs.',
        page,
        'createConnection',
      ),
    ).not.toBe('supported');
    expectSupported(
      'When the list is empty, _.max returns -Infinity.',
      '-Infinity is returned by _.max if list is empty.',
    );
  });

  it('reads "turned off" as disabled and "switch it on" as enable', () => {
    const page = 'The console only shows messages if the Verbose log level is enabled.';
    expectConflict(
      'The console shows messages even when the Verbose log level is turned off.',
      page,
      'antonym',
    );
    expectSupported(
      'The console shows messages only when the Verbose log level is turned on.',
      page,
    );
  });
});

describe('verifyClaim: versions with a placeholder part', () => {
  it('compares "3.Y" and "3.Y+1" as versions with their bounds', () => {
    const page =
      'The version of the python3 package must be greater than or equal to 3.Y and lower than 3.Y+1.';
    expectConflict(
      'The python3 package has to carry a version lower than 3.Y.',
      page,
      'comparative',
    );
    expectSupported('The python3 package version must be at least 3.Y and below 3.Y+1.', page);
  });

  it('does not read a switch set in a condition as its default', () => {
    expect(
      verdictOf(
        'With open(), autoClose is off unless you turn it on.',
        'If the autoClose option is set to true (see open()), this function is called automatically.',
      ),
    ).not.toBe('supported');
  });
});
