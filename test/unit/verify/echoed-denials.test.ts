// A denial repeated in an aside with its verb left out ("does not, and will not, run strip"):
// the verb after the aside is what both deny.
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
