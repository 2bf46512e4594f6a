// Absence said with "is omitted", a negation in the claim's condition
// against a plain page statement, and "except when" read as "unless".
import { beforeAll, describe, expect, it } from 'vitest';
import { analyze, verifyClaim } from '../../../src/verify/index.js';
import { expectConflict } from './expect-verdict.js';

beforeAll(() => {
  analyze('Warm up.');
}, 120_000);

describe('absence said with "is omitted"', () => {
  const page =
    'Store the compression ratio (output/input * 100) in the note. This is the default, if the type argument is omitted.';

  it('states a claim’s "given no type argument"', () => {
    const r = verifyClaim(
      'If DeflateFilterNote is given no type argument, it stores the compression ratio (output/input * 100) in the note.',
      page,
      { context: 'DeflateFilterNote Directive' },
    );
    expect(r.conflicts, r.reason).toEqual([]);
    expect(r.verdict, r.reason).toBe('supported');
  });

  it('leaves a claim that the argument is given in conflict', () => {
    expect(
      verifyClaim(
        'If DeflateFilterNote is given a type argument, it stores the compression ratio (output/input * 100) in the note.',
        page,
        { context: 'DeflateFilterNote Directive' },
      ).verdict,
    ).not.toBe('supported');
  });
});

describe('absence said with "is omitted", against other words', () => {
  it('agrees with "is omitted", also beside an apposition that repeats the page’s words', () => {
    const r = verifyClaim(
      "When passing servers to dns.setServers(), you can leave out the port if it's 53, the IANA default DNS port.",
      'The servers argument is an array of RFC 5952 formatted addresses. If the port is the IANA default DNS port (53) it can be omitted.',
      { context: 'dns.setServers(servers)' },
    );
    expect(r.conflicts, r.reason).toEqual([]);
    expect(r.verdict, r.reason).toBe('supported');
  });

  it('reads "left out" as no denial, as the page’s "excluded" is none', () => {
    expect(
      verifyClaim(
        'By default, prerelease versions are left out of range matching, because they tend to be updated quickly.',
        'Prerelease versions frequently are updated very quickly. Therefore, by default, they are excluded from range-matching semantics.',
      ).conflicts,
    ).toEqual([]);
  });
});

describe('a negation in the claim’s condition', () => {
  it('sets a case a plain page statement does not speak of: no conflict', () => {
    expect(
      verifyClaim(
        "getDeclaredVariables() hands back an empty array when the node doesn't declare any variables.",
        'getDeclaredVariables(node) Get variables that are declared by the node.',
      ).conflicts,
    ).toEqual([]);
  });

  it('is in conflict with the page’s condition stated the other way', () => {
    expectConflict(
      'getDeclaredVariables() returns an empty array when the node declares variables.',
      "getDeclaredVariables() returns an empty array when the node doesn't declare any variables.",
      'negation',
    );
  });
});

describe('"except when"', () => {
  const page =
    'Applications MUST match globs case-insensitively, except when the case-sensitive attribute is set to true.';

  it('opens the case "unless" does', () => {
    const r = verifyClaim(
      'Globs must be matched case-insensitively unless the case-sensitive attribute is true.',
      page,
    );
    expect(r.verdict, r.reason).toBe('supported');
  });

  it('is in conflict with the plain condition', () => {
    expect(
      verifyClaim(
        'Globs must be matched case-insensitively when the case-sensitive attribute is true.',
        page,
      ).verdict,
    ).toBe('contradicted');
  });
});
