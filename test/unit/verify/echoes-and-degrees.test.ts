// A denial repeated in an aside with its verb left out ("does not, and will not, run strip"):
// the verb after the aside is what both deny. A degree put with "less" or "more" ("less strict")
// is compared with one put with "-er" ("stricter"), as two "-er" degrees are, of a subject of
// one word too ("The API is slower"). A "Not" in a status's title-case name ("405 Method Not
// Allowed") is no denial.
import { beforeAll, describe, expect, it } from 'vitest';
import { analyze } from '../../../src/verify/index.js';
import { expectConflict, expectSupported } from './expect-verdict.js';

beforeAll(() => {
  analyze('Warm up.');
}, 120_000);

describe('verifyClaim: "does not, and will not, VERB"', () => {
  const page = 'The default make install of nano does not, and will not, run strip automatically.';

  it('reads the verb after the aside as denied, once', () => {
    const run = analyze(page).tokens.find((t) => t.lower === 'run');
    expect(run?.negated).toBe(true);
    // "cannot, or will not, connect": any auxiliary, either conjunction.
    const connect = analyze('The client cannot, or will not, connect again.').tokens.find(
      (t) => t.lower === 'connect',
    );
    expect(connect?.negated).toBe(true);
  });

  it('contradicts the claim that states the act, and supports the one that denies it', () => {
    expectConflict(
      'By default make install of nano runs strip on the binary automatically.',
      page,
      'negation',
      { claim: expect.any(String) as string, page: 'not, and will not, run' },
    );
    expectSupported('The default make install of nano does not run strip automatically.', page);
  });

  it('leaves an aside that adds a fact of its own alone', () => {
    // "and, as a rule, runs": no repeated denial, the comma ends the clause as before.
    const tokens = analyze('It does not cache, and it runs strip automatically.').tokens;
    expect(tokens.find((t) => t.lower === 'runs')?.negated).toBe(false);
  });
});

describe('verifyClaim: "less strict" against "stricter"', () => {
  const page =
    "There are no plans to remove .toMatchTypeOf, but there's no reason to continue using it - .toMatchObjectType is stricter, and .toExtend is identical.";

  it('contradicts the degree put the other way with "less"', () => {
    expectConflict(
      'There is no reason to keep using .toMatchTypeOf, since .toMatchObjectType is less strict and .toExtend is identical.',
      page,
      'comparative',
      { claim: 'less strict', page: 'stricter' },
    );
  });

  it('supports the same degree put with "more", and the "-er" form itself', () => {
    expectSupported(
      'There is no reason to keep using .toMatchTypeOf, since .toMatchObjectType is more strict and .toExtend is identical.',
      page,
    );
    expectSupported(
      'There is no reason to keep using .toMatchTypeOf, since .toMatchObjectType is stricter and .toExtend is identical.',
      page,
    );
  });
});

describe('verifyClaim: a degree of a subject named in one word', () => {
  it('contradicts "more complex" against "simpler" of "The API"', () => {
    expectConflict('The API is more complex.', 'The API is simpler.', 'comparative', {
      claim: 'more complex',
      page: 'simpler',
    });
    expectConflict('The API is slower.', 'The API is faster.', 'comparative');
    expectSupported('The API is less complex.', 'The API is simpler.');
  });
});

describe('verifyClaim: "one before X" against "just after X"', () => {
  const page =
    'endAddressExclusive(): Address6 — The address one before endAddress. IPv6 has no broadcast, so it drops exactly one address.';

  it('reads a place counted before a name as "before", not as a bound of the number', () => {
    expectConflict(
      'For IPv6, endAddressExclusive() returns the address just after endAddress, dropping exactly one address.',
      page,
      'comparative',
      { claim: 'after', page: 'before' },
    );
    expectSupported(
      'For IPv6, endAddressExclusive() returns the address one before endAddress, dropping exactly one address.',
      page,
    );
  });
});

describe('verifyClaim: what a check allows against what it rejects', () => {
  const page =
    'static isValid(address: string): boolean — Returns true if the given string is a valid IPv4 address. Host bits in the subnet portion are allowed (e.g. 192.168.1.5/24 is valid).';

  it('reads "rejects" as the opposite of "allowed"', () => {
    expectConflict(
      'Address4.isValid rejects host bits in the subnet portion, such as 192.168.1.5/24.',
      page,
      'antonym',
      { claim: 'rejects', page: 'allowed' },
    );
    expectSupported(
      'Address4.isValid allows host bits in the subnet portion, such as 192.168.1.5/24.',
      page,
    );
  });
});

describe('a status named in title case ("405 Method Not Allowed", "HTTP Not Modified")', () => {
  it('denies nothing', () => {
    const page =
      'This example shows how to implement routes where there is a custom handler to execute when ' +
      'the path matched, but no methods matched. Without any special handling, this would be ' +
      'treated as just a generic non-match by router (which typically results in a 404), but with ' +
      'a custom handler, a 405 Method Not Allowed can be sent.';
    expectSupported(
      "Without special handling, a request whose path matches a route but whose method doesn't is " +
        'just a generic non-match, which typically results in a 404, but a custom handler can send ' +
        'a 405 Method Not Allowed instead.',
      page,
    );
    const not = (text: string) => analyze(text).tokens.find((t) => t.lower === 'not')!;
    expect(not('It prevents serving "HTTP Not Modified" (304) responses.').cue).toBe(false);
    expect(not('The server answers 404 Not Found.').cue).toBe(false);
    // A denial in words is one, capitals or not.
    expect(not('The handler does Not send a 405.').cue).toBe(true);
    expect(not('Sent? Not Always.').cue).toBe(true);
  });
});
