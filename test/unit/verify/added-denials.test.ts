// A denial added to the page's own words, or dropped from them, whatever word it denies ("is not
// much faster", "is not the one", "does not limit"); and a denial the claim adds while rewording
// the verb of a page clause that states the act plainly ("does not produce" / "Generates").
import { beforeAll, describe, expect, it } from 'vitest';
import { analyze, verifyClaim } from '../../../src/verify/index.js';
import { deniedVerbatim } from '../../../src/verify/denied-verbatim.js';
import { expectConflict, expectSupported, verdictOf } from './expect-verdict.js';

beforeAll(() => {
  analyze('Warm up.');
}, 120_000);

describe('a denial added to the words of the page', () => {
  it('contradicts, whichever word the denial stands before', () => {
    expectConflict(
      'Lexing templates with large amounts of whitespace is not much faster.',
      'Lexing templates with large amounts of whitespace is much faster.',
      'negation',
      { claim: 'is not much', page: 'is much' },
    );
    // "not simply" is no "not only": the page says it is simply thrown out.
    expectConflict(
      'The comment is not simply thrown out.',
      'The comment is simply thrown out.',
      'negation',
    );
    // Dropped from the page's words: "is not the one" / "is the one".
    expectConflict(
      'Again the URI to be provided is the one which was used when registering the module.',
      'Again the URI to be provided is not the one which was used when registering the module.',
      'negation',
      { claim: 'is the', page: 'is not the' },
    );
    // "does" only carries the denial: "does not limit" / "limits".
    expectConflict(
      'Undici does not limit the number of content encodings.',
      'Undici limits the number of content encodings.',
      'negation',
    );
  });

  it('leaves the words of the page as they are when no denial differs', () => {
    expectSupported(
      'Lexing templates with large amounts of whitespace is much faster.',
      'Lexing templates with large amounts of whitespace is much faster.',
    );
    // "whether or not" names both cases; it denies nothing.
    expect(
      deniedVerbatim(
        analyze('Whether the cache is set, the pool keeps its sockets open.'),
        analyze('Whether or not the cache is set, the pool keeps its sockets open.'),
      ),
    ).toBeUndefined();
    // Too few words to be the page's own.
    expect(deniedVerbatim(analyze('It is not fast.'), analyze('It is fast.'))).toBeUndefined();
  });
});

describe('a denial added while rewording the verb', () => {
  it('is not stated by a page clause that states the act plainly', () => {
    const r = verifyClaim(
      'generateMap does not produce a version 3 sourcemap.',
      'Generates a version 3 sourcemap.',
      { context: 'generateMap(options)' },
    );
    expect(r.verdict, r.reason).not.toBe('supported');
    expect(r.missing).toContain('not produce');
    // The page's verb shares its stem with a noun of the claim the page states as a noun too.
    const license = 'sprintf.js is licensed under the terms of the 3-clause BSD license.';
    expect(
      verdictOf('sprintf.js is not distributed under the three-clause BSD license.', license),
    ).not.toBe('supported');
    expectSupported('sprintf.js is distributed under the three-clause BSD license.', license);
    expect(
      verifyClaim(
        'The ignore package is not written in pure JavaScript.',
        'ignore is a manager, filter and parser which is implemented in pure JavaScript.',
      ).verdict,
    ).not.toBe('supported');
  });

  it('is not stated by a page clause that only names what the thing is', () => {
    const entry = 'uniquelocal: IPv4 private addresses and IPv6 unique-local addresses.';
    expect(
      verdictOf(
        'The name uniquelocal does not stand for the IPv4 private addresses and the IPv6 unique-local addresses.',
        entry,
      ),
    ).not.toBe('supported');
    expectSupported(
      'The name uniquelocal stands for the IPv4 private addresses and the IPv6 unique-local addresses.',
      entry,
    );
    const definition =
      'bl is a storage object for collections of Node Buffers, exposing them with the main Buffer readable API.';
    expect(verdictOf('bl does not hold a collection of Node Buffers.', definition)).not.toBe(
      'supported',
    );
    expectSupported('bl holds a collection of Node Buffers.', definition);
  });

  it('is stated by a denying verb, and is only a case under a condition', () => {
    expectSupported(
      'The parser does not accept empty containers.',
      'The parser rejects empty containers.',
    );
    expectSupported(
      'If the config file does not exist, the loader creates it with defaults.',
      'The loader creates the config file with defaults.',
    );
    expectSupported(
      'The ignore package is written in pure JavaScript.',
      'ignore is a manager, filter and parser which is implemented in pure JavaScript.',
    );
  });
});
