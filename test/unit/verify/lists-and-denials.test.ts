// A bound with no number ("at least as many colors as count"), what the page denies right after
// its "not" ("i.e. not Brotli", "does not produce any XML formatting"), a list of numbers ("the
// 1, 5 and 15 minute load averages"), a sameness with an exception ("A is the same as B except
// ...") and a release named with its product ("GCC 12") in the page's title: each true claim comes
// with the false one it must catch.
import { beforeAll, describe, expect, it } from 'vitest';
import { analyze, verifyClaim } from '../../../src/verify/index.js';
import { expectConflict, expectSupported } from './expect-verdict.js';

beforeAll(() => {
  analyze('Warm up.');
}, 120_000);

describe('verifyClaim: "at least as many as" against "at most as many as"', () => {
  const page =
    'Returns true if the writeStream supports at least as many colors as provided in count.';
  const context = 'writeStream.hasColors([count][, env])';

  it('reads the two bounds as opposite comparisons', () => {
    const r = verifyClaim(
      'writeStream.hasColors() returns true when the stream supports at most as many colours as count.',
      page,
      { context },
    );
    expect(r.verdict, r.reason).toBe('contradicted');
    expect(r.conflicts).toContainEqual({
      kind: 'comparative',
      claim: 'at most as',
      page: 'at least as',
    });
    expectSupported(
      'writeStream.hasColors() returns true when the stream supports at least as many colours as count.',
      page,
      { context },
    );
  });
});

describe('verifyClaim: a name the page leaves out with "not"', () => {
  const page =
    'The zlib.params() function is only available for zlib-based streams, i.e. not Brotli.';

  it('contradicts a claim that includes it, and supports one that leaves it out too', () => {
    expectConflict(
      'zlib.params() is available for both zlib-based and Brotli streams.',
      page,
      'negation',
      { claim: 'Brotli', page: 'not Brotli' },
    );
    expectSupported(
      'zlib.params() is only available for zlib-based streams and not for Brotli.',
      page,
    );
    expectSupported('zlib.params() works only with zlib-based streams.', page);
  });

  it('needs the claim to speak of the same thing', () => {
    expectSupported(
      'Brotli streams support a quality parameter.',
      'Brotli streams support a quality parameter. The dictionary option is for zlib-based streams, not Brotli.',
    );
  });
});

describe('verifyClaim: what the page denies right after "not"', () => {
  const page =
    'This method calls console.log() passing it the arguments received. This method does not produce any XML formatting.';

  it('contradicts a claim that states it, and supports one that denies it too', () => {
    expectConflict(
      'console.dirxml() applies XML formatting to the arguments it receives before handing them to console.log().',
      page,
      'negation',
      { claim: 'XML formatting', page: 'not produce any XML formatting' },
      { context: 'console.dirxml(...data)' },
    );
    expectSupported(
      'console.dirxml() passes the arguments it receives to console.log() without any XML formatting.',
      page,
      { context: 'console.dirxml(...data)' },
    );
  });

  it('leaves a denial qualified after its noun to the other checks', () => {
    expectSupported(
      'zipcheck could read archives of at most 65535 blocks.',
      'zipcheck could not read archives of more than 65535 blocks.',
    );
  });
});

describe('verifyClaim: what the page denies after a comma, its verb left out', () => {
  const page =
    'If the label is not set explicitly, it is always computed from the request URL, never from the request body. The request body is not stored in the cache.';

  it('contradicts a claim that takes it from the denied source, in the case the page sets', () => {
    expectConflict(
      'A label that is not set explicitly is computed from the request body.',
      page,
      'negation',
      { claim: 'request body', page: 'never from the request body' },
    );
    expectConflict(
      "A label that is not set explicitly is computed from the request's body rather than from its URL.",
      page,
      'negation',
    );
  });

  it('supports one that denies the same source', () => {
    expectSupported(
      'A label that is not set explicitly is computed from the request URL rather than from the request body.',
      page,
    );
  });
});

describe('verifyClaim: a restriction stated on one side and denied on the other', () => {
  const page =
    'If DEBUG is set, log files are restricted to exist in one of the directories specified by LOG_PATH.';

  it('contradicts "not only" against "restricted to" or "only"', () => {
    expectConflict(
      'Once DEBUG is set, log files may still go to any directory, not only to those listed in LOG_PATH.',
      page,
      'negation',
    );
    expectConflict(
      'Log files may be written not only to the listed directories.',
      'Log files may only be written to the listed directories.',
      'negation',
      { claim: 'not only to the listed directories', page: 'only be written to' },
    );
  });

  it('contradicts "only" against "not only ... but also"', () => {
    expectConflict(
      'Log files may only be written to the listed directories.',
      'Log files may be written not only to the listed directories but also to the cache.',
      'negation',
    );
  });

  it('supports a restriction stated on both sides', () => {
    expectSupported(
      'Once DEBUG is set, log files may only go to the directories specified by LOG_PATH.',
      page,
    );
  });
});

describe('verifyClaim: numbers in a list', () => {
  it('reads each number of "1, 5 and 15 minute" on its own', () => {
    const page = 'Returns an array containing the 1, 5, and 15 minute load averages.';
    expectConflict(
      'os.loadavg() returns the 1, 5 and 10 minute load averages.',
      page,
      'number',
      { claim: '10 minute', page: '15 minute' },
      { context: 'os.loadavg()' },
    );
    expectSupported('os.loadavg() returns the 1, 5 and 15 minute load averages.', page, {
      context: 'os.loadavg()',
    });
  });
});

describe('verifyClaim: "the same as ..., except" in the order the page reverses', () => {
  const page =
    'vsprintf is the same as sprintf except that it accepts an array of arguments, rather than a variable number of arguments.';

  it('is a swapped term; the same sameness with no exception is symmetric', () => {
    expectConflict(
      'sprintf does the same thing as vsprintf, except that it takes its arguments as an array.',
      page,
      'term',
      { claim: 'sprintf', page: 'vsprintf' },
    );
    expectSupported(
      'vsprintf does the same thing as sprintf, except that it takes its arguments as an array.',
      page,
    );
    expectSupported('sprintf is the same as vsprintf.', 'vsprintf is the same as sprintf.');
  });
});

describe('verifyClaim: a release named with its product', () => {
  const page =
    'STABS: Support for emitting the STABS debugging format is deprecated and will be removed in the next release. All ports now default to emit DWARF (version 2 or later) debugging info.';

  it('is stated by the title of its release notes, and is no count to set against the page', () => {
    expectSupported(
      'Support for emitting the STABS debugging format is deprecated in GCC 12.',
      page,
      {
        context: 'GCC 12 Release Series',
      },
    );
    expectConflict(
      'Support for emitting the STABS debugging format is deprecated in GCC 12.',
      page,
      'number',
      undefined,
      { context: 'GCC 13 Release Series' },
    );
  });
});

describe('verifyClaim: two denials run into one claim clause', () => {
  const page =
    'If item is not in cache, returns 0. Returns Infinity if item is in cache without a defined TTL.';
  const context = 'getRemainingTTL(key)';

  it('are each echoed by the page clause that states their fact', () => {
    expectSupported(
      'getRemainingTTL returns 0 for a key that is not in the cache and Infinity for an item stored without a TTL.',
      page,
      { context },
    );
  });
});

describe('verifyClaim: a denial in a consequence drawn after the claim', () => {
  const page =
    'The scheduler MUST be restarted manually after making changes to the cupsd.conf file. On Linux this is typically done using the systemctl(8) command, while on macOS the launchctl(8) command is used instead.';

  it('does not make "without" a condition: the denied act is the claim', () => {
    expectConflict(
      'Changes to cupsd.conf take effect without restarting the scheduler by hand, so neither systemctl on Linux nor launchctl on macOS is needed.',
      page,
      'negation',
      { claim: 'without restarting', page: 'restarted' },
    );
  });
});
