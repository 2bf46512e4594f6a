// Amounts compared with nothing after them ("uses less memory", "needs fewer allocations"), a
// verb of change read by its subject ("the value is increased"), a direction particle after a
// verb the tagger reads otherwise ("is rounded up"), and a preference between two names joined by
// underscores ("an fftw3_threads library instead of fftw3_omp").
import { beforeAll, describe, it } from 'vitest';
import { analyze } from '../../../src/verify/index.js';
import { expectConflict, expectSupported } from './expect-verdict.js';

beforeAll(() => {
  analyze('Warm up.');
}, 120_000);

describe('amounts and verbs of change', () => {
  it('contradicts an amount or a change the page states the other way', () => {
    expectConflict(
      'The new parser uses less memory.',
      'The new parser uses more memory.',
      'comparative',
      {
        claim: 'less memory',
        page: 'more memory',
      },
    );
    expectConflict(
      'The new parser needs fewer allocations.',
      'The new parser needs more allocations, but it parses twice as fast.',
      'comparative',
    );
    expectConflict(
      'Without a proxy facade the code is less performant.',
      'Without a proxy facade the code is not only simpler, but also more performant.',
      'comparative',
    );
    expectConflict(
      'The retry delay is increased by one second.',
      'The retry delay is decreased by one second.',
      'comparative',
    );
  });

  it('supports the amount or the change the page states', () => {
    expectSupported(
      'The new parser needs fewer allocations.',
      'The new parser needs fewer allocations than the old one.',
    );
    expectSupported(
      'The retry delay is increased by one second.',
      'After each failure, the retry delay is increased by one second.',
    );
  });
});

describe('direction particles', () => {
  it('contradicts a particle flipped after a verb the tagger reads as an adjective or a noun', () => {
    expectConflict('The quotient is rounded up.', 'The quotient is rounded down.', 'antonym');
    expectConflict(
      'Scroll up to see older entries.',
      'Scroll down to see older entries.',
      'antonym',
    );
    expectSupported(
      'The quotient is rounded up.',
      'The quotient is rounded up to the next integer.',
    );
  });
});

describe('preferences between names joined by underscores', () => {
  it('contradicts the preference turned round, and supports it kept', () => {
    expectConflict(
      'With --enable-openmp, configure installs an fftw3_threads library instead of fftw3_omp.',
      '--enable-openmp: installing an fftw3_omp library rather than an fftw3_threads library.',
      'term',
      { claim: 'fftw3_threads', page: 'fftw3_omp' },
    );
    expectSupported(
      'With --enable-openmp, configure installs an fftw3_omp library instead of fftw3_threads.',
      'With --enable-openmp, configure installs an fftw3_omp library rather than an fftw3_threads library.',
    );
  });
});
