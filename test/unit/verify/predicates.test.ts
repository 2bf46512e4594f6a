import { beforeAll, describe, expect, it } from 'vitest';
import { analyze, verifyClaim } from '../../../src/verify/index.js';
import type { VerifyClaimOptions } from '../../../src/verify/index.js';
import { exceptionConflicts } from '../../../src/verify/predicates.js';

// The tagger and WordNet load once per process: slow on a busy machine, so outside any test.
beforeAll(() => {
  analyze('Warm up.');
}, 120_000);

function verdict(claim: string, page: string, options: VerifyClaimOptions = {}): string {
  const r = verifyClaim(claim, page, options);
  return `${r.verdict}: ${r.reason} ${JSON.stringify(r.conflicts)}`;
}

describe('predicate polarity', () => {
  it('contradicts a predicate the passage negates wherever it states it, even in another clause', () => {
    const page =
      'Parsing does not distinguish between upper and lower case keys. Both are stored in lower case.';
    expect(
      verdict(
        'When parsing, the library distinguishes upper case keys from lower case keys.',
        page,
      ),
    ).toMatch(/^contradicted: negation/);
    expect(
      verdict(
        'When parsing, the library does not tell upper case keys from lower case keys.',
        page,
      ),
    ).toMatch(/^supported/);
  });

  it('reads "no X-ing" as the negated verb, and agrees with a negated verb', () => {
    const page = 'There is no automatic compression of responses by default.';
    expect(verdict('The server compresses responses by default.', page)).toMatch(
      /^contradicted: negation/,
    );
    expect(verdict('The server does not compress responses by default.', page)).toMatch(
      /^supported/,
    );
  });

  it('takes two negations in one sentence for a condition, not a negated fact', () => {
    const page = 'Without setting a region, the client will not reach the regional endpoint.';
    expect(verdict('Setting a region lets the client reach the regional endpoint.', page)).toMatch(
      /^supported/,
    );
    expect(
      verdict(
        'The client reaches the regional endpoint.',
        'The client will not reach the regional endpoint.',
      ),
    ).toMatch(/^contradicted: negation/);
  });
});

describe('predicate polarity: what is no evidence', () => {
  it('reads a participle tagged as a noun after "be" as the predicate', () => {
    const page =
      'Unlike most settings, the encoder may not be replaced by passing an option to render(), for speed.';
    expect(verdict('The encoder can be replaced per call when calling render().', page)).toMatch(
      /^contradicted: negation/,
    );
    expect(verdict('The encoder cannot be replaced per call of render().', page)).not.toMatch(
      /^contradicted/,
    );
  });

  it('takes "rather than X" for a contrast with the default, not for "X never happens"', () => {
    const page =
      'By default, results are kept in memory. If a directory is given by --cache-dir, results are stored on disk instead.';
    expect(
      verdict('With --cache-dir, results are stored on disk rather than kept in memory.', page),
    ).toMatch(/^supported/);
    expect(verdict('Results are never kept in memory.', page)).toMatch(/^contradicted: negation/);
  });

  it('reads "prefer A over B" as "A instead of B", on either side', () => {
    const page =
      'When SOURCE_DATE_EPOCH is set, the tool will prefer this value over using the modification times of the input files.';
    expect(
      verdict(
        'When SOURCE_DATE_EPOCH is set, the tool uses it instead of the modification times of the input files.',
        page,
      ),
    ).toMatch(/^supported/);
    expect(
      verdict(
        'When SOURCE_DATE_EPOCH is set, the tool uses the modification times of the input files.',
        page,
      ),
    ).toMatch(/^contradicted: negation/);
    // "over" without a verb of preference is no contrast.
    expect(
      verdict(
        'The loop iterates over the keys of the map.',
        'The loop iterates over the keys of the map.',
      ),
    ).toMatch(/^supported/);
    expect(analyze('The loop iterates over the keys.').tokens.some((t) => t.cue)).toBe(false);
  });
});

describe('predicate polarity: negation moved or aligned', () => {
  it('lets the negation move from the verb to its object', () => {
    const page = 'The tool has zero dependencies and uses only the standard library.';
    expect(verdict('The tool depends on no other package.', page)).toMatch(/^supported/);
    expect(
      verdict(
        'The tool uses only the standard library.',
        'The tool does not use the standard library.',
      ),
    ).toMatch(/^contradicted: negation/);
  });

  it('does not read a negation inside a modifier of the object as negating the verb', () => {
    const page = 'The parser does not distinguish between flags with and without values.';
    expect(
      verdict('The parser distinguishes a flag with no value from an empty one.', page),
    ).toMatch(/^contradicted: negation/);
  });

  it('aligns two negated conditions instead of cancelling the double negation', () => {
    const page = 'When a key is not found, a default value is returned.';
    expect(verdict('When a key is not found, no default value is returned.', page)).toMatch(
      /^contradicted/,
    );
    expect(verdict('If a key is not found, a default value is returned.', page)).toMatch(
      /^supported/,
    );
  });
});

describe('key terms named by the context', () => {
  it('does not excuse a term when the passage puts another term in its place', () => {
    const context = 'Stream events: drain, finish';
    expect(
      verdict(
        'The `drain` event fires when the write buffer empties.',
        'The `finish` event fires when the write buffer empties.',
        { context },
      ),
    ).toMatch(/^contradicted: term/);
    expect(
      verdict(
        'The `drain` event fires when the write buffer empties.',
        'Fires when the write buffer empties.',
        {
          context,
        },
      ),
    ).toMatch(/^supported/);
  });
});

describe('negation said another way', () => {
  it('reads "rather than" and "instead of" as negation cues', () => {
    const page = 'The output is a partial report, rather than a full report, written as JSON.';
    expect(verdict('The exporter writes a partial report, not a complete report.', page)).toMatch(
      /^supported/,
    );
    expect(verdict('The exporter writes a full report.', page)).toMatch(/^contradicted/);
    expect(
      verdict(
        'The exporter writes a complete report.',
        'The exporter writes a summary instead of a complete report.',
      ),
    ).toMatch(/^contradicted: negation/);
    const opposed = 'The loader checks the file size, as opposed to reading the whole file.';
    expect(
      verdict('The loader checks the file size instead of reading the whole file.', opposed),
    ).toMatch(/^supported/);
    expect(verdict('The loader reads the whole file.', opposed)).toMatch(/^contradicted: negation/);
  });

  it('reads "does not need to X" as negating X', () => {
    const page =
      'Note that while the return value must be padded, arguments should exactly match their type.';
    expect(verdict('Arguments do not need to match their type exactly.', page)).toMatch(
      /^contradicted: negation/,
    );
    expect(verdict('Arguments need to match their type exactly.', page)).toMatch(/^supported/);
    expect(
      verdict(
        "For such a handle you don't need to call close() on it.",
        'For such a handle, calling close() is not necessary.',
      ),
    ).toMatch(/^supported/);
  });

  it('lets one agreeing clause answer when tied clauses state the same words', () => {
    // "no cache" ties "the cache size, which is a number in the range of 1 to 512" on "cache"
    // and "size" alike.
    const page =
      'open() is called with the cache size, which is a number in the range of 1 to 512. ' +
      'Larger cache sizes use more memory. A size of 0 actually means no cache at all.';
    expect(verdict('Cache sizes go from 1 to 512.', page)).toMatch(/^supported/);
  });
});

describe('semantic closeness', () => {
  it('lowers the coverage needed only for a very close passage', () => {
    // Sentence encoders give 0.7-0.8 to any two sentences on one topic.
    const claim = 'Requests that failed get attempted again.';
    const passage = 'The dispatcher retries failed requests.';
    const strict = { minCoverage: 0.9 };
    expect(verifyClaim(claim, passage, { ...strict, similarity: 0.78 }).verdict).toBe('unrelated');
    expect(verifyClaim(claim, passage, { ...strict, similarity: 0.9 }).verdict).toBe('supported');
  });
});

describe('exceptions to a negation', () => {
  const page =
    'Fontconfig has orthographies for several languages built into the library. No provision has been made for adding new ones aside from rebuilding the library.';

  it('contradicts doing without the one way the page leaves', () => {
    const r = verifyClaim(
      'New orthographies can be added to fontconfig without rebuilding the library.',
      page,
    );
    expect(r.verdict).toBe('contradicted');
    expect(r.conflicts[0]).toMatchObject({ kind: 'negation', claim: 'without rebuilding' });
  });

  it('supports the one way, and reads no exception without a negation', () => {
    expect(
      verifyClaim(
        'Adding a new orthography to fontconfig means rebuilding the library; no other provision exists.',
        page,
      ).verdict,
    ).toBe('supported');
    // "aside from" with no negation names no sole way.
    expect(
      exceptionConflicts(
        analyze('The cache is cleared without restarting the server.'),
        analyze('Aside from restarting the server, clearing the cache also resets the counters.'),
      ),
    ).toEqual([]);
  });
});

describe('a denied object and a denied list of subjects', () => {
  it('reads "performs no X" as "does not perform X" against a list run into one clause', () => {
    // A page's bullet list flattened into one clause: two denials before "performed".
    const page =
      'Unlike browsers, Undici does not implement CORS checks by default. This means: No preflight requests are sent for cross-origin requests No validation of Access-Control-Allow-Origin headers is performed Requests to any origin are allowed';
    expect(verdict('By default undici performs no CORS checks.', page)).toMatch(/^supported/);
    // The verb reads denied against a plain one too.
    expect(
      verdict(
        'The client makes no requests to the proxy.',
        'The client makes requests to the proxy.',
      ),
    ).toMatch(/^contradicted: negation/);
  });

  it('reads "no X, Y or Z is needed" as denying the need, whatever commas split the list', () => {
    const page = 'No extra build step, cli tool, IDE extension, or lint plugin is needed.';
    expect(verdict('Using it needs no extra build step or lint plugin.', page)).toMatch(
      /^supported/,
    );
    expect(verdict('Using it needs an extra build step and a lint plugin.', page)).toMatch(
      /^contradicted: negation/,
    );
  });
});

describe('a property named with "-only"', () => {
  it('reads "read-only" as a property, not as the verb "read" in the slot of another', () => {
    expect(
      verdict(
        'The name property cannot be changed after creation.',
        'The name property is read-only after creation.',
      ),
    ).not.toMatch(/^contradicted/);
  });

  it('reads "read-only" as the opposite of what can be changed, and as "readonly"', () => {
    const page = 'The size property is read-only and is set when the buffer is created.';
    expect(verdict('The size property can be changed after the buffer is created.', page)).toMatch(
      /^contradicted: antonym/,
    );
    expect(verdict('The size property is writable.', page)).toMatch(/^contradicted: antonym/);
    expect(
      verdict('The size property cannot be changed after the buffer is created.', page),
    ).toMatch(/^supported/);
    expect(verdict('The size property is readonly.', page)).toMatch(/^supported/);
  });
});

describe('a relative clause on the subject', () => {
  it('keeps its negation from the main verb', () => {
    const { tokens } = analyze('Formats that have no output file left are written to stdout.');
    const clause = (word: string) => tokens.find((t) => t.lower === word)!.clause;
    expect(clause('output')).not.toBe(clause('formats'));
    expect(clause('written')).not.toBe(clause('output'));
  });

  it('so a negated restriction of the subject is no denial of what is said of it', () => {
    const page =
      'If there are more formats than files, the remaining formats are written to stdout.';
    expect(
      verdict(
        'When there are more formats than files, the formats that have no file left are written to stdout.',
        page,
      ),
    ).toMatch(/^supported/);
    expect(
      verdict(
        'When there are more formats than files, the formats that have no file left are not written to stdout.',
        page,
      ),
    ).toMatch(/^contradicted: negation/);
  });

  it('but "Note that" opens no relative clause', () => {
    expect(
      verdict(
        'Attaching a note to an object keeps that object alive.',
        'Note that a note attached to an object does not contribute in keeping the object alive.',
      ),
    ).toMatch(/^contradicted: negation/);
  });
});
