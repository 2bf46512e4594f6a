// A denial of the means ("do not use X to Y") against one of the act ("must not Y with X"); a
// thing set aside for another ("used instead of the newer ones"), which denies no act; "exceeds"
// for "longer than"; a noun that says which kind of a stated noun a condition means; words in
// other forms: a participle the tagger leaves as an adjective, one word under two negative
// prefixes, "present" for "exists"; a denial of nouns joined with "or"; a verb that bars a
// hyphenated act ("skips typo-analysis"); and "and then", which opens a statement of its own.
import { beforeAll, describe, expect, it } from 'vitest';
import { analyze, verifyClaim } from '../../../src/verify/index.js';
import { related } from '../../../src/verify/words.js';
import { expectConflict, expectSupported } from './expect-verdict.js';

beforeAll(() => {
  analyze('Warm up.');
}, 120_000);

describe('a denial of the means', () => {
  it('agrees with a denial of the act it serves', () => {
    // One clause of the claim, paired by its words with the page's condition.
    expectSupported(
      'When any of your exit handlers is asynchronous you must not exit with process.exit().',
      'If you use asynchronous exit handlers, DO NOT use process.exit() to exit.',
    );
  });

  it('is in conflict with the act affirmed', () => {
    const page =
      'If the input comes from users, DO NOT use eval() to parse it. Use JSON.parse() instead.';
    expectSupported('If the input comes from users, you must not parse it with eval().', page);
    expectConflict(
      'If the input comes from users, you should parse it with eval().',
      page,
      'negation',
    );
  });
});

describe('a thing set aside for another', () => {
  it('denies no act of the claim', () => {
    expectSupported(
      'Setting SEED_VERSION to 1.0 brings back the outdated seeding algorithms of release 1.0.',
      "SEED_VERSION. If this variable is set to '1.0', the outdated seeding algorithms from release 1.0 are used instead of the newer, better ones.",
    );
  });

  it('while a denied act still keeps a reworded one from being stated', () => {
    const r = verifyClaim(
      'Setting SEED_VERSION to 1.0 brings back the outdated seeding algorithms.',
      "SEED_VERSION. Even if this variable is set to '1.0', the outdated seeding algorithms are never used.",
    );
    expect(r.verdict, r.reason).not.toBe('supported');
  });
});

describe('"exceeds" for a comparison of size', () => {
  const page = 'If a line exceeds this value, the parser throws a LineTooLongError.';
  const context = 'maxLength';

  it('states "longer than"', () => {
    expectSupported(
      'If a line grows longer than maxLength, the parser throws a LineTooLongError.',
      page,
      { context },
    );
  });

  it('states no "shorter than"', () => {
    const r = verifyClaim(
      'If a line is shorter than maxLength, the parser throws a LineTooLongError.',
      page,
      { context },
    );
    expect(r.verdict, r.reason).not.toBe('supported');
  });
});

describe('a noun that says which kind of a stated noun a condition means', () => {
  const page = 'If the file cannot be read, undefined is passed to the callback.';

  it('may be left to the passage', () => {
    expectSupported('If the password file cannot be read, the callback gets undefined.', page);
  });

  it('but a noun of its own is not', () => {
    const r = verifyClaim('If the password cannot be read, the callback gets undefined.', page);
    expect(r.verdict, r.reason).not.toBe('supported');
  });
});

describe('words in other forms', () => {
  const token = (text: string, word: string) => analyze(text).tokens.find((t) => t.lower === word)!;

  it('reads a participle left as an adjective as its verb', () => {
    expectSupported(
      'Unhandled rejections are hooked with onRejection().',
      'You can hook unhandled rejections with onRejection().',
    );
    // Not as a noun of that form: "the merge strategy" is no act of merging.
    expect(
      related(token('the merged object', 'merged'), token('the merge strategy', 'merge')),
    ).toBe(false);
  });

  it('reads one word under two negative prefixes', () => {
    expectSupported(
      'If the decoder throws, the original, undecoded value is returned.',
      'If an error is thrown from the decoder, the original, non-decoded value is returned.',
    );
    const r = verifyClaim(
      'If the decoder throws, the original, decoded value is returned.',
      'If an error is thrown from the decoder, the original, non-decoded value is returned.',
    );
    expect(r.verdict, r.reason).not.toBe('supported');
  });

  it('reads "present" as "exists"', () => {
    expectSupported(
      'If a gc.log file is present, git gc --auto prints its contents.',
      'If the file gc.log exists, then git gc --auto will print its content.',
    );
  });
});

describe('a denial of a noun phrase joined with "or"', () => {
  const page =
    'During an install run, if an untrusted package is being installed, a warning will be displayed and you will have the opportunity to abort the download.';

  it('denies each noun it joins', () => {
    const tokens = analyze('It goes ahead without a warning or any chance to abort.').tokens;
    expect(tokens.find((t) => t.lower === 'chance')?.negated).toBe(true);
  });

  it('is in conflict with a page that gives the second', () => {
    expectConflict(
      'During an install run, aptitude goes ahead silently, without a warning or any chance to abort the download.',
      page,
      'negation',
      { claim: 'without a warning or any chance', page: 'opportunity' },
    );
  });
});

describe('a verb that bars a hyphenated act', () => {
  const page =
    'The bad-spellers mode is tailored more for the bad speller. This mode never performs typo-analysis.';

  it('restates the denial', () => {
    expectSupported(
      'The bad-spellers mode is tailored to poor spellers and skips typo-analysis altogether.',
      page,
    );
    expectConflict(
      'The bad-spellers mode is tailored to poor spellers and always performs typo-analysis.',
      page,
      'negation',
    );
  });
});

describe('"and then" after a statement', () => {
  it('opens a statement of its own, which the passage must state', () => {
    const r = verifyClaim(
      'In a browser you include the downloaded script on your page and then reach the library through the global object fastHash.',
      'To use fastHash in the browser, download the latest version and include it as a script on your page.',
    );
    expect(r.verdict, r.reason).toBe('unrelated');
    expectSupported(
      'In a browser you include the downloaded script on your page and then reach the library through the global object FastHash3.',
      'To use fastHash in the browser, download the latest version and include it as a script on your page. Then access the library through the global object FastHash3.',
    );
  });
});
