// Questions state nothing; a question answered "No" or "Yes" states its answer.
import { beforeAll, describe, expect, it } from 'vitest';
import { analyze, verifyClaim } from '../../../src/verify/index.js';
import { restateAnswers } from '../../../src/verify/answers.js';
import { expectConflict, expectSupported } from './expect-verdict.js';

beforeAll(() => {
  analyze('Warm up.');
}, 120_000);

describe('restateAnswers', () => {
  it('restates an answered yes/no question as the statement it makes', () => {
    expect(restateAnswers('Does Valgrind support Windows? No. It runs on Linux.')).toBe(
      'Valgrind does not support Windows. It runs on Linux.',
    );
    expect(restateAnswers('Can the parser read YAML? Yes, since version 2.')).toBe(
      'the parser can read YAML. since version 2.',
    );
    expect(restateAnswers('Is it possible to attach it to a running program? No.')).toBe(
      'you cannot attach it to a running program.',
    );
  });

  it('leaves open questions and other text alone', () => {
    const open = 'Why does the build fail? The compiler is too old.';
    expect(restateAnswers(open)).toBe(open);
    expect(restateAnswers('No. The answer stands alone.')).toBe('No. The answer stands alone.');
  });
});

describe('verifyClaim with questions', () => {
  const faq =
    'Is it possible to attach Valgrind to a program that is already running? No. Valgrind has to have full control from the very start.';

  it('reads a question answered "No" as a negation', () => {
    expectConflict(
      'You can attach Valgrind to a program that is already running.',
      faq,
      'negation',
    );
    expectSupported('Valgrind cannot be attached to a program that is already running.', faq);
  });

  it('supports nothing with a question alone', () => {
    const question = 'Is it possible to attach Valgrind to a program that is already running?';
    expect(
      verifyClaim(
        'It is possible to attach Valgrind to a program that is already running.',
        question,
      ).verdict,
    ).toBe('unrelated');
  });
});
