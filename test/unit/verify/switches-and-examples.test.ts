// Readings of switches put off, of acts done by default, of values and names given as examples,
// and of claims that join two statements: each pair below is a true claim and a false one on one
// passage, or a paraphrase that word matching used to call contradicted.
import { beforeAll, describe, expect, it } from 'vitest';
import { analyze, extractQuantities, verifyClaim } from '../../../src/verify/index.js';
import { expectConflict, expectSupported, verdictOf as verdict } from './expect-verdict.js';

// The tagger and WordNet load once per process: slow on a busy machine, so outside any test.
beforeAll(() => {
  analyze('Warm up.');
}, 120_000);

describe('verifyClaim: what is done by default, and a switch put off', () => {
  const page = 'By default, template caching is off as it uses a lot of memory.';

  it('reads "X does Y by default" as on, against a default that is off', () => {
    expectConflict(
      'The engine caches templates by default, even though that uses memory.',
      page,
      'negation',
    );
    expectSupported(
      'The engine does not cache templates by default, because that uses memory.',
      page,
    );
    expectSupported(
      'By default the engine leaves template caching off, since it uses memory.',
      page,
    );
  });

  it('reads "is off" as a negation, so a negated claim agrees with it', () => {
    expectSupported('Templates are not cached by default, as caching uses a lot of memory.', page);
    expectConflict('Template caching is on by default.', page, 'negation');
  });

  it('reads a value given to an option ("--cache=no") as no negation', () => {
    const options =
      'Collects cache statistics. By default this is disabled as it slows the tool down by 25%. ' +
      'Note that you cannot give --cache-sim=no and --branch-sim=no together.';
    expectSupported(
      'Branch simulation is disabled by default since it slows the tool down by 25%, and you turn it on with --branch-sim=yes.',
      options,
    );
  });
});

describe('verifyClaim: verbs in the slot of a clause', () => {
  const page =
    'When using worker threads, setDefaultOrder() from the main thread will not affect the default orders in workers.';

  it('pairs the finite verb of a clause whose subject is a gerund', () => {
    expectConflict(
      'Calling setDefaultOrder() on the main thread also changes the default order in worker threads.',
      page,
      'negation',
    );
    expectSupported(
      'When using worker threads, calling setDefaultOrder() from the main thread does not change the default order in workers.',
      page,
    );
  });

  it('takes a verb put otherwise after a name or a preposition as a rewording, not a swap', () => {
    expectSupported(
      'Like Massif, DHAT tracks program progress by counting instructions.',
      'As with Massif, DHAT measures program progress by counting instructions.',
    );
    expectSupported(
      'The tool never discovers ignore rules by walking directories.',
      'The tool never tries to find ignore rules by traversing directories.',
    );
  });
});

describe('verifyClaim: examples', () => {
  it('does not pit a claim value against a value the page gives as an example', () => {
    const page =
      'Print N lines of context around each annotated line. Use a large number (e.g. 100000) to show all source lines.';
    expect(
      verifyClaim(
        'By default the tool prints eight lines of context around each annotated line.',
        page,
      ).conflicts,
    ).toEqual([]);
  });

  it('does not take a name the claim gives as an example for a swapped name', () => {
    const page =
      'Wildcard parameters match one or more characters across multiple segments. They are prefixed with an asterisk (*foo).';
    expect(
      verifyClaim(
        'A wildcard such as *splat matches one or more characters across multiple segments.',
        page,
      ).conflicts,
    ).toEqual([]);
  });

  it('reads "every tenth" as a count, stated by "every 10th" and changed by "every fifth"', () => {
    expect(extractQuantities('every tenth snapshot is detailed')[0]?.value).toBe(10);
    expect(extractQuantities('it runs every second')).toEqual([]);
    const page =
      'By default, every 10th snapshot is detailed, although --detailed-freq changes this.';
    expectSupported(
      'By default every tenth snapshot is detailed, which --detailed-freq changes.',
      page,
    );
    expectConflict(
      'By default every fifth snapshot is detailed, which --detailed-freq changes.',
      page,
      'number',
    );
  });
});

describe('verifyClaim: comparisons and both poles', () => {
  const levels =
    'The speed of compression is affected most dramatically by the level setting. A higher level will result in better compression, but will take longer to complete. A lower level will result in less compression, but will be much faster.';

  it('reads "most dramatically" as no amount, and a comparison by the page\'s own words', () => {
    expectSupported(
      'A higher compression level gives better compression but takes longer, while a lower level compresses less but is much faster.',
      levels,
    );
    expectConflict(
      'A lower level gives better compression but takes longer.',
      levels,
      'comparative',
    );
  });

  it('takes a word the claim states both ways as a contrast, not a denial', () => {
    const page =
      'Note that the miss rate is computed relative to the total number of memory accesses, not the number of L1 misses.';
    expect(
      verifyClaim(
        'The miss rate is computed relative to the total number of memory accesses, not relative to the number of L1 misses.',
        page,
      ).conflicts,
    ).toEqual([]);
  });

  it('takes a value the claim states with its opposite as no antonym of the page', () => {
    const entry =
      'Type: Boolean Default: false Break a word between any two letters when the word is longer than the specified width.';
    expectSupported(
      'Setting cut to true lets it break a word between any two letters when the word is longer than the width; the option is false by default.',
      entry,
      { context: 'options.cut' },
    );
    // The option the claim names is not the entry's.
    expect(
      verdict(
        'Setting trim to true lets it break a word between any two letters when the word is longer than the width; the option is false by default.',
        entry,
        'options.cut',
      ),
    ).toBe('unrelated');
  });

  it("takes an antonym in a tied clause as that clause's own word when the other states the claim's", () => {
    const page =
      "Though the call to lookup() will be asynchronous from JavaScript's perspective, it is implemented as a synchronous call to getaddrinfo(3) that runs on the threadpool.";
    expectSupported(
      "Although it is asynchronous from JavaScript's point of view, lookup() is implemented as a synchronous getaddrinfo(3) call running on the threadpool.",
      page,
    );
    expectConflict(
      "Although it is synchronous from JavaScript's point of view, lookup() is implemented as an asynchronous getaddrinfo(3) call running on the threadpool.",
      page,
      'antonym',
    );
  });

  it('keeps apart two names a parenthesis with a comma stands between', () => {
    expect(
      verifyClaim(
        'Cachegrind predicts conditional branches with an array of counters and indirect branches with a 512-entry array.',
        'For indirect branches (that is, jumps to unknown destinations) Cachegrind uses a simple branch target address predictor with a 512-entry array.',
      ).conflicts,
    ).toEqual([]);
  });
});

describe('verifyClaim: a claim that joins two statements', () => {
  const page = "delimiter The default delimiter for path segments. (default: '/')";

  it('does not support it from a passage that states one statement only', () => {
    expect(
      verdict(
        "The sensitive and trailing options both default to true and the default path segment delimiter is '/'.",
        page,
      ),
    ).toBe('unrelated');
    expect(verdict("The default path segment delimiter is '/'.", page)).toBe('supported');
    const may =
      "An implementation MAY also get a file's MIME type from the user.mime_type extended attribute.";
    expect(
      verdict(
        "An implementation may read a file's MIME type from the user.mime_type extended attribute and can rely on that method being available.",
        may,
      ),
    ).toBe('unrelated');
    expect(
      verdict(
        "An implementation may read a file's MIME type from the user.mime_type extended attribute.",
        may,
      ),
    ).toBe('supported');
  });
});

describe('verifyClaim: the default of one switch in a list of options', () => {
  const list =
    'sensitive Regexp will be case sensitive. (default: false) end Validate the match reaches the end of the string. (default: true) trailing Allows optional trailing delimiter to match. (default: true)';

  it("reads the default right after the switch's name, not its neighbours'", () => {
    expect(verdict('The sensitive option is true by default.', list)).toBe('contradicted');
    expect(verdict('The end option is false by default.', list)).toBe('contradicted');
    expect(verdict('The end option is true by default.', list)).toBe('supported');
  });
});

describe('verifyClaim: two defaults compared once', () => {
  it("leaves a default against a neighbour's default to the settings check", () => {
    const list =
      "sensitive Regexp will be case sensitive. (default: false) end Validate the match reaches the end of the string. (default: true) delimiter The default delimiter for segments, e.g. [^/] for :named parameters. (default: '/') trailing Allows optional trailing delimiter to match. (default: true)";
    expect(
      verifyClaim(
        "pathToRegexp's sensitive option is false by default, so the generated regular expression is not case-sensitive.",
        list,
      ).conflicts.filter((c) => c.kind === 'antonym'),
    ).toEqual([]);
  });
});

describe('verifyClaim: a value marked as the default in parentheses', () => {
  it('reads "set to true (the default value)" as the default', () => {
    const page =
      'The matcher is case insensitive if options.ignorecase is set to true (the default value), otherwise case sensitive.';
    expect(verdict('options.ignorecase defaults to false.', page)).toBe('contradicted');
    expect(verdict('options.ignorecase defaults to true.', page)).toBe('supported');
  });
});
