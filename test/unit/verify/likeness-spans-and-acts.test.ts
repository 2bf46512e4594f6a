// Readings of a default given after its value ("(false, default)"), of an order in space ("ahead
// of" / "behind"), of two names whose likeness the claim turns around, of an act negated through
// "perform", and of one unit of time said with an article ("a full minute"): each pair is a true
// claim and a false one on one passage.
import { beforeAll, describe, expect, it } from 'vitest';
import { analyze, extractQuantities } from '../../../src/verify/index.js';
import { expectConflict, expectSupported } from './expect-verdict.js';

beforeAll(() => {
  analyze('Warm up.');
}, 120_000);

describe('verifyClaim: defaults, orders and likenesses', () => {
  it('reads "(false, default)" in an option table as the default', () => {
    const page =
      '| [skipFailed] | boolean | Skip (true) or count (false, default) requests that fail.';
    expectConflict(
      'skipFailed defaults to true, so failed requests are skipped.',
      page,
      'negation',
    );
    expectSupported('skipFailed defaults to false, so failed requests are counted.', page);
  });

  it('reads "behind" as the opposite of "ahead of"', () => {
    const page = 'The local bin folder is placed on the search path ahead of the system folder.';
    expectConflict(
      'The local bin folder sits on the search path behind the system folder.',
      page,
      'comparative',
    );
    expectSupported(
      'On the search path, the local bin folder comes ahead of the system one.',
      page,
    );
  });

  it('takes the order of "A works like B" as the fact when the page states B like A', () => {
    const page =
      'lstat works exactly like stat, except that it reports on the link itself, not the file ' +
      'it refers to.';
    expectConflict(
      'stat behaves exactly like lstat, except that it reports on the link itself rather than its target.',
      page,
      'term',
    );
    expectSupported(
      'lstat behaves exactly like stat, except that it reports on the link itself rather than its target.',
      page,
    );
  });
});

describe('verifyClaim: what a list maps a name to', () => {
  const page =
    'The tool guesses the name of the output as follows: report.gz becomes report ' +
    'report.tgz becomes report.tar anyothername becomes anyothername.out';

  it("contradicts a name mapped to another name's target", () => {
    expectConflict('When unpacked, report.gz becomes report.tar.', page, 'term');
    expectSupported('When unpacked, report.tgz becomes report.tar.', page);
  });
});

describe('verifyClaim: an act negated through "perform"', () => {
  const page = 'The server does not perform any compression; put a proxy in front of it for that.';

  it('reads "does not perform compression" as "does not compress"', () => {
    expectConflict(
      'The server compresses responses itself, so no proxy is needed.',
      page,
      'negation',
    );
    expectSupported('The server does no compression of its own; a proxy in front can do it.', page);
  });
});

describe('extractQuantities: one unit of time with an article', () => {
  it('reads "a full minute" and "an hour" as spans, not "a second request" or "twice a day"', () => {
    expect(extractQuantities('the old tool took a full minute to start')).toMatchObject([
      { value: 60_000, dim: 'ms' },
    ]);
    expect(extractQuantities('a rebuild takes an hour.')).toMatchObject([
      { value: 3_600_000, dim: 'ms' },
    ]);
    expect(extractQuantities('it retries with a second request')).toEqual([]);
    expect(extractQuantities('the job runs twice a day')).toMatchObject([{ unit: 'times' }]);
  });

  it('contradicts a span the page gives otherwise', () => {
    const page = 'The old build system would take ten seconds to notice a changed file.';
    expectConflict(
      'The old build system took a full minute to notice a changed file.',
      page,
      'number',
    );
    expectSupported('The old build system took ten seconds to notice a changed file.', page);
  });
});
