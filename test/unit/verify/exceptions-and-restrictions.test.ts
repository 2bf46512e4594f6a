// An item the page takes out of a whole ("every platform except Windows") that the claim states
// the fact of: the page says the fact does not hold there. And a claim that restricts to one of
// the items the page names together ("works only on Linux" / "works on Linux and macOS").
import { beforeAll, describe, it } from 'vitest';
import { analyze } from '../../../src/verify/index.js';
import { expectConflict, expectSupported } from './expect-verdict.js';

beforeAll(() => {
  analyze('Warm up.');
}, 120_000);

describe('an item taken out of a whole', () => {
  it('contradicts a claim that states the fact of the item the page excepts', () => {
    expectConflict(
      'The --watch flag works on Windows.',
      'The --watch flag works on every platform except Windows.',
      'negation',
      {
        claim: 'Windows',
        page: 'except Windows',
      },
    );
    expectConflict(
      'The --watch flag works on Windows.',
      'The --watch flag works on all platforms but Windows.',
      'negation',
    );
  });

  it('supports a claim that denies it there, or makes the same exception', () => {
    expectSupported(
      'The --watch flag does not work on Windows.',
      'The --watch flag works on every platform except Windows.',
    );
    expectSupported(
      'The --watch flag works everywhere except on Windows.',
      'The --watch flag works on all platforms except Windows.',
    );
  });
});

describe('a claim restricted to one of the items the page names together', () => {
  it('contradicts the restriction, and supports it when the page restricts too or names either', () => {
    expectConflict(
      'The --watch flag works only on Linux.',
      'The --watch flag works on Linux and macOS.',
      'negation',
    );
    expectSupported(
      'The --watch flag works only on Linux.',
      'The --watch flag works only on Linux; on macOS it is ignored.',
    );
    expectSupported(
      'The --watch flag works on Linux.',
      'The --watch flag works on Linux and macOS.',
    );
  });
});
