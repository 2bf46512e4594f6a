// Variables written with a sigil ("$mail_check"), and version bounds written with an operator
// (">= 0.11", "Safari >= 11.3") or after the number ("3.7 and earlier").
import { beforeAll, describe, expect, it } from 'vitest';
import { analyze, extractQuantities, verifyClaim } from '../../../src/verify/index.js';
import { expectConflict, expectSupported, verdictOf } from './expect-verdict.js';

beforeAll(() => {
  analyze('Warm up.');
}, 120_000);

describe('a variable written with its sigil', () => {
  const page =
    'The interval at which the client polls the server can be set with the $poll_interval variable, which defaults to 30 seconds.';

  it('is a key term the passage must name', () => {
    expect(analyze('Set it with the $poll_interval variable.').keyTerms).toEqual([
      { text: '$poll_interval', kind: 'identifier' },
    ]);
    expect(analyze('It costs $5 a month.').keyTerms).toEqual([]);
    expect(
      verdictOf(
        'The client polls the server every 30 seconds by default, as set by the $check_interval variable.',
        page,
      ),
    ).toBe('unrelated');
    expectSupported(
      'The client polls the server every 30 seconds by default, as set by the $poll_interval variable.',
      page,
    );
  });

  it('is the same variable with or without the sigil', () => {
    expectSupported(
      'The client polls the server every 30 seconds by default, as set by the poll_interval variable.',
      page,
    );
    expectSupported(
      'The $poll_interval variable sets how often the client polls, 30 seconds by default.',
      'poll_interval: sets how often the client polls the server, in seconds. The default is 30 seconds.',
    );
  });
});

describe('a version bound written with an operator', () => {
  it('reads "versions >= 0.11" as the version 0.11 or later', () => {
    const page =
      'The @OLDLIBS@ substitution is for gettext.m4 versions <= 0.10.40 and @NEWLIBS@ is for gettext.m4 versions >= 0.11.';
    expectSupported('@NEWLIBS@ belongs to gettext.m4 versions 0.11 and later.', page);
    expectConflict('@NEWLIBS@ belongs to gettext.m4 versions 0.12 and later.', page, 'version');
  });

  it('reads "3.7 and earlier" as an upper bound, against ">= 3.7"', () => {
    const page = 'The synchronous call uses asyncio.run on Python >= 3.7.';
    expectConflict(
      'The synchronous call uses asyncio.run on Python 3.7 and earlier.',
      page,
      'comparative',
    );
    expectSupported('The synchronous call uses asyncio.run on Python 3.7 and later.', page);
  });

  it('reads no unit of a number from the next line', () => {
    expect(
      extractQuantities('Node.js >= 18\nChrome >= 63').map((q) => [q.text, q.dim, q.bound]),
    ).toEqual([
      ['>= 18', 'count', 'ge'],
      ['>= 63', 'count', 'ge'],
    ]);
    expect(extractQuantities('up to 5 connections')[0]!.dim).toBe('count:connection');
  });

  it('reads "Safari >= 11.3" in a list of engines as a version', () => {
    expectSupported(
      'The client supports Safari 11.3 and up.',
      'Supported engines:\n- Chrome >= 63\n- Safari >= 11.3\n- Firefox >= 65',
    );
  });
});

describe('a bound put in words against one written with an operator', () => {
  const page = 'visible - Prints the text only when Chalk has a color level > 0.';

  it('states "greater than 0", "higher than 0" and "larger than 0" by "> 0"', () => {
    for (const words of ['greater than', 'higher than', 'larger than']) {
      expectSupported(
        `The visible modifier prints its text only when Chalk's color level is ${words} 0.`,
        page,
      );
    }
  });

  it('still sets another bound against it', () => {
    expectConflict(
      "The visible modifier prints its text only when Chalk's color level is greater than 2.",
      page,
      'number',
    );
  });
});

describe('a bound the claim names', () => {
  const page =
    'charThreshold (number, default 500): the number of characters an article must have in order to return a result.';

  it('is not stated by a passage that puts no bound that way round', () => {
    const context = { context: '@mozilla/readability Readability options' };
    expect(
      verifyClaim(
        'The charThreshold option defaults to 500, the maximum number of characters an article may have for Readability to return a result.',
        page,
        context,
      ),
    ).toMatchObject({ verdict: 'unrelated', missing: ['maximum'] });
    expectSupported(
      'The charThreshold option defaults to 500, the minimum number of characters an article must have for Readability to return a result.',
      page,
      context,
    );
    // The heading may put the bound ("maxSockets").
    expectSupported(
      'The maximum number of sockets per host defaults to Infinity.',
      'Default: Infinity. Sockets per host.',
      {
        context: 'maxSockets <number> Maximum number of sockets to allow per host.',
      },
    );
  });
});
