// Facts a passage must state for itself: an item's place in an order, a value in its own slot,
// a word whose opposite the page states, infinities, the case a condition names, switch defaults,
// placeholder versions.
import { beforeAll, describe, expect, it } from 'vitest';
import { analyze, verifyClaim } from '../../../src/verify/index.js';
import { expectConflict, expectSupported, verdictOf } from './expect-verdict.js';

// The tagger and WordNet load once per process: slow on a busy machine, so outside any test.
beforeAll(() => {
  analyze('Warm up.');
}, 120_000);

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

describe('verifyClaim: a bound on a number in words', () => {
  it('reads "more than a hundred" as a bound on the count, not a comparison to state', () => {
    const page =
      'Underscore provides over 100 functions that support both your favorite workaday functional helpers.';
    expectSupported('Underscore ships more than a hundred functions.', page);
    expectConflict('Underscore ships fewer than a hundred functions.', page, 'comparative');
  });
});
