import { beforeAll, describe, expect, it } from 'vitest';
import { analyze, verifyClaim } from '../../../src/verify/index.js';
import { statedDefaults } from '../../../src/verify/settings.js';
import { expectConflict, expectSupported, verdictOf } from './expect-verdict.js';

// The tagger and WordNet load once per process: slow on a busy machine, so outside any test.
beforeAll(() => {
  analyze('Warm up.');
}, 120_000);

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

  it('holds a member to its own case, and to its namespace when the page names both', () => {
    const windows = 'For Windows file paths on any operating system, use path.win32.';
    // "POSIX" in the heading and `path.posix` among the page's headings name no member here.
    const context = 'Windows vs. POSIX \n Path path.posix path.win32';
    const r = verifyClaim(
      'For Windows file paths on any operating system, use path.posix.',
      windows,
      {
        context,
      },
    );
    expect(r.verdict).toBe('contradicted');
    expect(r.conflicts).toContainEqual({ kind: 'term', claim: 'path.posix', page: 'path.win32' });
    // A member the heading spells out in its case, under another namespace, is named.
    expectSupported(
      'The value of timer.toPrimitive() can clear the timer.',
      'The primitive can be used to clear the timer.',
      { context: 'Class: Timeout timeout[Symbol.toPrimitive]()' },
    );
  });
});

describe('verifyClaim: whose fact it is', () => {
  it('holds a hyphenated header name to the name, not to its first words', () => {
    expect(
      analyze('cors mirrors the Access-Control-Request-Headers header.').keyTerms.map(
        (k) => k.text,
      ),
    ).toContain('Access-Control-Request-Headers');
    expect(
      verdictOf(
        'When exposedHeaders is left out, cors mirrors whatever headers the request lists in its Access-Control-Request-Headers header.',
        'exposedHeaders: Configures the Access-Control-Expose-Headers CORS header. If not specified, no custom headers are exposed.',
      ),
    ).toBe('unrelated');
  });

  it("does not take a fact the passage states of another name as the claim subject's", () => {
    const page =
      'colors.js used to be the most popular string styling module, but it has serious deficiencies like extending String.prototype which causes all kinds of problems. Chalk is a clean and focused alternative.';
    // The claim's subject is named, but not in the sentence that states the fact.
    expect(verdictOf('Chalk works by extending String.prototype.', page)).toBe('unrelated');
    // Or only by the page's title, under a heading that names another thing.
    const title = (heading: string) => ({ context: `chalk \n ${heading}`, heading });
    const alone = 'colors.js has serious deficiencies like extending String.prototype.';
    const claim = 'Chalk works by extending String.prototype.';
    expect(verifyClaim(claim, alone, title('Origin story')).verdict).toBe('unrelated');
    // A passage under a heading that names the subject is about it (an option's entry under its
    // class), whatever the passage's own subject.
    expect(verifyClaim(claim, alone, title('Chalk internals')).verdict).toBe('supported');
    expect(
      verifyClaim(
        'The Agent throws a MaxOriginsReachedError once its maxOrigins limit is reached.',
        'maxOrigins - Limits the number of origins, throwing a MaxOriginsReachedError when the limit is reached.',
        {
          context: 'undici \n new undici.Agent([options])',
          heading: 'new undici.Agent([options])',
        },
      ).verdict,
    ).toBe('supported');
    // The fact stated of the subject itself, or of a subject the passage leaves unnamed, holds.
    expectSupported(
      'colors.js works by extending String.prototype.',
      'colors.js used to be the most popular string styling module, and it works by extending String.prototype.',
    );
    expect(
      verdictOf(
        'Chalk has no dependencies.',
        'It has no dependencies and a clean and focused API.',
        'chalk',
      ),
    ).toBe('supported');
  });
});

describe('verifyClaim: entries of a list of options', () => {
  const entry = 'completer <Function> An optional function used for Tab autocompletion.';

  it('does not say what one entry is of a name the claim puts in its place', () => {
    expect(
      verdictOf('The prompt is an optional function used for Tab autocompletion.', entry),
    ).toBe('unrelated');
    expectSupported('The completer is an optional function used for Tab autocompletion.', entry);
    expectSupported(
      'The completer function is optional and used for Tab autocompletion.',
      'completer: An optional function used for Tab autocompletion.',
    );
  });

  it("reads what a thing does as its owner's, and a capitalised label as no entry", () => {
    expectSupported(
      'By default the pool keeps at most 1024 sockets.',
      'maxSockets - The maximum number of sockets to keep. Default 1024.',
    );
    expectSupported(
      'The prompt is an optional function used for Tab autocompletion.',
      'Note: the prompt is an optional function used for Tab autocompletion.',
    );
  });
});

describe("verifyClaim: a switch's default in an option table", () => {
  const header = 'Option | Type | Default value | Description';
  const row =
    'fastpaths boolean true To speed up processing, full parsing is skipped for a handful common ' +
    'glob patterns. Disable this behavior by setting this option to false.';

  it("reads the row's Default column, under the table's header", () => {
    const verdict = (claim: string): string =>
      verifyClaim(claim, row, { context: header, heading: header }).verdict;
    expect(verdict('The fastpaths option defaults to true.')).toBe('supported');
    expect(verdict('The fastpaths option is off by default.')).toBe('contradicted');
    // Without the header, the row states no default.
    expect(verifyClaim('The fastpaths option defaults to true.', row).verdict).toBe('unrelated');
    // A cell that is no switch's value is not read as one.
    expect(
      verifyClaim('The flags option defaults to true.', 'flags string undefined Regex flags.', {
        heading: header,
      }).verdict,
    ).toBe('unrelated');
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

describe('verifyClaim: a key set in a block of defaults', () => {
  const page =
    'The default configuration is the equivalent of: { "origin": "*", "preflightContinue": false, "optionsSuccessStatus": 204 }';

  it('contradicts another value of the key, and supports its own', () => {
    expectConflict('preflightContinue is true in the default configuration.', page, 'negation');
    expectSupported('preflightContinue is false in the default configuration.', page);
    expectConflict('By default, optionsSuccessStatus is 200.', page, 'number');
  });

  it('takes a key set in running text for an instruction, not a default', () => {
    const r = verifyClaim(
      'The strict option is false by default.',
      'Pass { strict: true } to reject unknown keys.',
    );
    expect(r.conflicts.map((c) => c.kind)).not.toContain('negation');
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
    // A verb followed by the term's predicate takes it as its object: no role to swap.
    expectSupported(
      'The cors middleware only sets response headers.',
      'CORS is a middleware for Express that sets CORS response headers.',
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

describe("verifyClaim: a value's bracketed type in Node.js's docs", () => {
  const page =
    'value <number> The new default value, which must be a positive number. If the number is ' +
    'less than 10, the value 10 is used instead. The initial default value is 250.';

  it('is no name, to stand against the claim\'s: "<number>" is a type, "<strong>" an element', () => {
    expect(analyze(page).keyTerms.map((k) => k.text)).not.toContain('<number>');
    expect(analyze('Wrap it in <strong> tags.').keyTerms.map((k) => k.text)).toContain('<strong>');
    expect(
      verifyClaim(
        'The default autoSelectFamilyAttemptTimeout is initially 250 milliseconds, and a positive value under 10 is replaced by 10.',
        page,
      ).conflicts,
    ).toEqual([]);
  });
});

describe("verifyClaim: the name an entry's default belongs to", () => {
  const page =
    'keepClasses (boolean, default false): whether to preserve all classes on HTML elements. ' +
    'When set to false only classes specified in the classesToPreserve array are kept.';

  it('sets the entry against another name the claim gives its default', () => {
    expectConflict('classesToPreserve defaults to false.', page, 'term', {
      claim: 'classesToPreserve',
      page: 'keepClasses',
    });
    expectConflict(
      'While classesToPreserve is left at its default of false, only the classes listed in keepClasses are kept on HTML elements.',
      page,
      'term',
    );
  });

  it("supports the entry's own default, and a default the page gives the other name too", () => {
    expectSupported(
      'While keepClasses is left at its default of false, only the classes listed in classesToPreserve are kept on HTML elements.',
      page,
    );
    expectSupported(
      'classesToPreserve defaults to false.',
      'keepClasses (boolean, default false): whether to keep classes. classesToPreserve (boolean, default false): the classes to keep.',
    );
  });
});
