// Paraphrases that word matching used to call contradicted: "prior to" as a preposition, a
// page naming both values of a switch, "neither ... nor", "to avoid doing", and words software
// prose uses for one thing. Each true claim comes with a false one the change must not excuse.
import { beforeAll, describe, it } from 'vitest';
import { analyze } from '../../../src/verify/index.js';
import { expectConflict, expectSupported } from './expect-verdict.js';

beforeAll(() => {
  analyze('Warm up.');
}, 120_000);

describe('verifyClaim: a comparison put as a preposition', () => {
  const page =
    'zipcheck releases prior to 2.4.0 used 16-bit counters for block numbers, so they could ' +
    'not read archives of more than 65535 blocks.';

  it('reads "prior to 2.4.0" as an argument of its own, not the rest of the clause', () => {
    expectSupported(
      'Before release 2.4.0, zipcheck used 16-bit counters for block numbers, which limited it to archives of at most 65535 blocks.',
      page,
    );
    expectConflict(
      'Since release 2.4.0, zipcheck has used 16-bit counters for block numbers.',
      page,
      'comparative',
    );
  });
});

describe('verifyClaim: a preposition before a gerund', () => {
  const page =
    'The hook reports the caller prior to the loader entering the module it was called from.';

  it('keeps the gerund in the argument of "prior to"', () => {
    expectConflict(
      'The hook reports the caller just after the loader enters the module it was called from.',
      page,
      'comparative',
    );
    expectSupported(
      'The hook reports the caller just before the loader enters the module it was called from.',
      page,
    );
  });
});

describe('verifyClaim: a page that names both values of a switch', () => {
  const page =
    '| [failOpen] | boolean | Serve (true) or reject (false, default) requests when the backend is down.';

  it('leaves the default to the settings check', () => {
    expectSupported(
      'failOpen defaults to false, which means requests are rejected when the backend is down.',
      page,
    );
    expectConflict(
      'failOpen defaults to true, so requests are served when the backend is down.',
      page,
      'negation',
    );
  });
});

describe('verifyClaim: neither ... nor', () => {
  const page = 'pack and unpack will by default not overwrite existing files.';

  it('reads "neither A nor B does X" as one negation of X', () => {
    expectSupported('Neither pack nor unpack overwrites existing files by default.', page);
    expectConflict('Both pack and unpack overwrite existing files by default.', page, 'negation');
  });

  it('reads "does neither A nor B" as one negation', () => {
    const support = 'The library does not support gzip or zstd.';
    expectSupported('The library supports neither gzip nor zstd.', support);
    expectConflict('The library supports both gzip and zstd.', support, 'negation');
  });
});

describe('verifyClaim: "to avoid doing"', () => {
  const page = 'Version 2.1.0 removes the inline script to avoid triggering the page policy.';

  it('negates the act avoided', () => {
    expectSupported(
      'Version 2.1.0 dropped the inline script so as not to trigger the page policy.',
      page,
    );
    expectConflict(
      'Version 2.1.0 added an inline script, which triggers the page policy.',
      page,
      'negation',
    );
  });
});

describe('verifyClaim: words of software prose for one thing', () => {
  it('reads releases/versions, way/method, error/exception as one word', () => {
    expectSupported(
      'The plugin API may change in major releases.',
      'The plugin API is expected to change through major versions.',
    );
    expectSupported(
      'The preferred way to detect a terminal is to check stdout.isTTY.',
      'The preferred method of detecting a terminal is to check stdout.isTTY.',
    );
    expectSupported(
      'parse() throws an exception on a malformed header.',
      'parse() throws an error on a malformed header.',
    );
  });

  it('reads checking and verifying an input as one act, in either polarity', () => {
    const page = 'For better performance, the number should be prime, but this is not checked.';
    expectConflict('It verifies that the number is prime.', page, 'negation');
    expectSupported('It does not verify that the number is prime.', page);
    expectSupported(
      'The server validates the token before every request.',
      'The server checks the token before every request.',
    );
  });

  it('reads a feature that keeps working as the opposite of one disabled', () => {
    const page =
      'You can use the -K option on the command line. However, mouse support will be disabled ' +
      'if you do this.';
    expectConflict('With the -K option, mouse support keeps working.', page, 'antonym', {
      claim: 'working',
      page: 'disabled',
    });
    expectSupported('With the -K option, mouse support no longer works.', page);
  });

  it('reads combining an option with another as using them together', () => {
    const page = 'This option cannot be used with --c++.';
    expectConflict('This option can also be combined with --c++.', page, 'negation', {
      claim: 'combined',
      page: 'not be used',
    });
    expectSupported('This option cannot be combined with --c++.', page);
  });

  it("pairs a denied act with the claim's verb when the heading names the subject", () => {
    const page =
      'Make the internal hash table be num entries big. For better performance, the number ' +
      'should be prime, but this is not checked.';
    const context = { context: 'hashd -H num, --hashsize=num' };
    expectConflict(
      'hashd verifies that the table size you pass is prime.',
      page,
      'negation',
      {
        claim: 'verifies',
        page: 'not checked',
      },
      context,
    );
    expectSupported('hashd does not verify that the table size you pass is prime.', page, context);
  });
});
