// Concessions against "unless", "only" against a coordination, and a condition stated in other
// words.
import { beforeAll, describe, expect, it } from 'vitest';
import { analyze } from '../../../src/verify/index.js';
import { coordinatedItems, distinguishing } from '../../../src/verify/conjuncts.js';
import { expectConflict, expectSupported, verdictOf } from './expect-verdict.js';

beforeAll(() => {
  analyze('Warm up.');
}, 120_000);

describe('a concession against "unless"', () => {
  const page =
    'If the input has no rows, even if there is a header line, then an empty list is returned.';

  it('conflicts: "unless" says the fact fails in the case the concession says changes nothing', () => {
    expectConflict(
      'The parser returns an empty list when the input has no rows, unless the input carries a header line.',
      page,
      'negation',
      { claim: 'unless the input carries a header line', page: 'even if there is a header line' },
    );
  });

  it('agrees with the same concession, and leaves a case of other words alone', () => {
    expectSupported(
      'The parser returns an empty list when the input has no rows, even if there is a header line.',
      page,
    );
    expect(
      verdictOf(
        'The parser returns an empty list when the input has no rows, unless the stream was closed.',
        page,
      ),
    ).not.toBe('contradicted');
  });
});

describe('"only" against a coordination', () => {
  it('reads a preposition both items repeat', () => {
    const { tokens } = analyze(
      'Wildcards are allowed in the actual value as well as in the expected value.',
    );
    const items = coordinatedItems(
      tokens,
      'Wildcards are allowed in the actual value as well as in the expected value.',
    );
    expect(
      items.map((x) => distinguishing(tokens, x).map((k) => k.map((i) => tokens[i]!.lower))),
    ).toEqual([[['actual'], ['expected']]]);
  });

  it('conflicts when the page restricts the fact to one of the items', () => {
    expectConflict(
      'By default, the tracer follows child threads as well as the main thread.',
      'By default, the tracer only follows the main thread.',
      'negation',
      { claim: 'child threads', page: 'only follows the main thread' },
    );
    // A hyphenated word is quoted as written.
    expectConflict(
      'The tracer follows child threads as well as the top-level thread.',
      'The tracer only follows the top-level thread.',
      'negation',
      { claim: 'child threads', page: 'only follows the top-level thread' },
    );
    expectConflict(
      'A placeholder may appear in the source path as well as in the target path.',
      'A placeholder may only appear in the target path (the source path must be literal).',
      'negation',
    );
  });

  it('leaves items joined by "or" alone: the claim names either', () => {
    expect(
      verdictOf(
        'Forwarding payload costs less than parsing request or response headers.',
        'Only complete and valid requests are forwarded, and forwarding payload costs less than parsing headers.',
      ),
    ).not.toBe('contradicted');
  });

  it('agrees when the claim restricts too, or when "only" opens a case', () => {
    expectSupported(
      'By default, the tracer only follows the main thread.',
      'By default, the tracer follows only the main thread.',
    );
    expect(
      verdictOf(
        'The tracer follows child threads as well as the main thread.',
        'The tracer follows child threads as well as the main thread, but only if tracing is enabled.',
      ),
    ).toBe('supported');
  });
});

describe('a condition stated in other words', () => {
  it('needs no noun of its own when the passage states most of the condition', () => {
    expectSupported(
      'When a utility like logrotate or newsyslog rotates the log file, the handler reopens the file.',
      'Programs such as newsyslog and logrotate rotate the log file; when that happens the handler reopens the file.',
    );
  });

  it('still needs the case a condition names when the passage leaves it out', () => {
    expect(
      verdictOf(
        'When you pass a callback, the returned promise rejects if an error occurs.',
        'A promise is returned that is resolved when the connection is established, or rejected when an error occurs.',
      ),
    ).not.toBe('supported');
  });
});
