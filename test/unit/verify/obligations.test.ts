// Obligations with what happens otherwise ("must X, or Y") read as the negated condition they are.
import { beforeAll, describe, expect, it } from 'vitest';
import { analyze } from '../../../src/verify/index.js';
import { restateObligations } from '../../../src/verify/obligations.js';
import { expectConflict, expectSupported } from './expect-verdict.js';

beforeAll(() => {
  analyze('Warm up.');
}, 120_000);

describe('restateObligations', () => {
  it('restates "must X, or Y" as "if not X, Y", and leaves lists of what it must be', () => {
    expect(restateObligations('The name must be unique, or an error is thrown.')).toBe(
      'if The name is not unique, an error is thrown.',
    );
    expect(restateObligations('Then it must have the flag set, otherwise the call fails.')).toBe(
      'Then if it does not have the flag set, the call fails.',
    );
    const list = 'The value must be a string, or a number.';
    expect(restateObligations(list)).toBe(list);
  });
});

describe('verifyClaim with obligations', () => {
  const page =
    'If `pattern` is a regex, then it must have the global (`g`) flag set, or a `TypeError` is thrown.';

  it('supports the negated condition and contradicts the plain one', () => {
    expectSupported('When a regex pattern lacks the global flag, a TypeError is thrown.', page);
    expectSupported('Without the global flag, a regex pattern makes it throw a TypeError.', page);
    expectConflict(
      'When a regex pattern has the global flag, a TypeError is thrown.',
      page,
      'negation',
    );
    expectSupported('Then it must have the global (g) flag set, or a TypeError is thrown.', page);
  });
});
