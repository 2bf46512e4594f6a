// What a count counts and how far a negation reaches: "ten thousand and thirty million" is two
// numbers (a range after "between", stated by its two ends apart), "zero or one" a range; an
// adjective after a number is not the thing counted, the noun after it is; "one" before a
// preposition is a pronoun; a count the claim gives with its own list is the list's length; a
// count of a noun is answered by the page's count of that noun before a range it falls in.
// "no run-time overhead" denies the overhead, not a run; "no code to load" denies the loading; a
// noun before "how many" is a verb; "untouched" is set against "modifying"; a name that labels a
// sentence holds all of it; "the default evaluation function" states no default, and a switch's
// entry may state its default just past the passage.
// Each true claim comes with the false one it must still catch.
import { beforeAll, describe, expect, it } from 'vitest';
import { analyze, extractQuantities, verifyClaim } from '../../../src/verify/index.js';
import { expectConflict, expectSupported } from './expect-verdict.js';

beforeAll(() => {
  analyze('Warm up.');
}, 120_000);

const range = (text: string) =>
  extractQuantities(text).map((q) => [q.value, q.high, q.bound, q.dim]);

describe('quantities: numbers in words joined by "and" or "or"', () => {
  it('reads two numbers where "and" cannot join one, and a range after "between"', () => {
    expect(range('values between ten thousand and thirty million')).toEqual([
      [10_000, 30_000_000, 'range', 'count'],
    ]);
    expect(range('ten thousand and thirty million')).toEqual([
      [10_000, 10_000, 'eq', 'count'],
      [30_000_000, 30_000_000, 'eq', 'count'],
    ]);
    expect(range('four hundred and ten bytes')[0]?.[0]).toBe(410);
  });

  it('reads "zero or one" as the range between them, counting the noun after an adjective', () => {
    expect(range('Match zero or one consecutive occurrences')).toEqual([
      [0, 1, 'range', 'count:occurrenc'],
    ]);
    expect(range('It matches at most one consecutive occurrence.')).toEqual([
      [1, 1, 'le', 'count:occurrenc'],
    ]);
    expect(range('Only two functions can build one for a document.')).toEqual([
      [2, 2, 'eq', 'count:function'],
    ]);
  });
});

describe('verifyClaim: ranges and counts', () => {
  const page =
    'This option controls the size of the cache. If Helgrind shows only one stack instead of the expected two stacks, try increasing this value. The minimum value is 10,000 and the maximum is 30,000,000.';

  it('finds a range stated by its two ends, and catches an end the page does not give', () => {
    expectSupported(
      'The cache size option accepts values between ten thousand and thirty million.',
      page,
    );
    expectConflict(
      'The cache size option accepts values between ten thousand and forty million.',
      page,
      'number',
    );
  });

  it('reads a count the claim gives with its own list as stated by the list', () => {
    const page =
      'An extension module is defined by: its namespace name, an initialization function, a shutdown function.';
    expectSupported(
      'An extension module is defined by three things: the namespace name, an initialization function and a shutdown function.',
      page,
    );
    const r = verifyClaim(
      'An extension module is defined by four things: the namespace name, an initialization function and a shutdown function.',
      page,
    );
    expect(r.verdict, r.reason).not.toBe('supported');
  });

  it('reads "at most one" as stated by "zero or one"', () => {
    const glob = '?(pattern) Match zero or one consecutive occurrences of the pattern.';
    expectSupported('?(pattern) matches at most one consecutive occurrence of the pattern.', glob);
    expectConflict(
      '?(pattern) matches at least two consecutive occurrences of the pattern.',
      glob,
      'number',
    );
  });

  it('answers a count of a noun with the count of that noun, not a range it falls in', () => {
    const page =
      'Meta-equivalence classes have a moderate performance impact (one or two if tests and ' +
      'one array look-up per character scanned).';
    expectConflict(
      'Meta-equivalence classes cost one or two if tests and two array look-ups per character scanned.',
      page,
      'number',
      { claim: 'two array', page: 'one array' },
    );
    expectSupported(
      'Meta-equivalence classes cost one or two if tests and one array look-up per character scanned.',
      page,
    );
  });
});

describe('verifyClaim: negations and verbs', () => {
  it('reads "no run-time overhead" as denying the overhead, not a run', () => {
    const page =
      'Showing names of stack and global variables carries no run-time overhead once Helgrind has your program up and running. However, it does require Helgrind to spend considerable extra time and memory at program startup to read the relevant debug info. Hence this facility is disabled by default.';
    expectSupported(
      'Helgrind only names the stack and global variables involved in a race if you give it --read-var-info=yes, since reading that debug info costs considerable extra time and memory at startup and is therefore off by default.',
      `${page} To enable it, you need to give the --read-var-info=yes option to Helgrind.`,
    );
    expectConflict('Showing names of variables carries a run-time overhead.', page, 'negation');
  });

  it('reads a noun before "how many" as a verb, no slot of its own', () => {
    const row =
      'nbTopCandidates (number, default 5): the number of top candidates to consider when analysing how tight the competition is among candidates.';
    expectSupported(
      'The nbTopCandidates option defaults to five and sets how many top candidates are considered when judging how tight the competition among candidates is.',
      row,
    );
    expectConflict('The nbTopCandidates option defaults to seven.', row, 'number');
  });
});

describe('verifyClaim: defaults', () => {
  const entry =
    'useGlobal <boolean> If true, specifies that the default evaluation function will use the JavaScript global as the context.';
  const window = `${entry} The node CLI REPL sets this value to true. Default: false.`;

  it('does not read "the default evaluation function" as stating a default', () => {
    const r = verifyClaim('The useGlobal option is true by default.', entry);
    expect(r.verdict, r.reason).not.toBe('supported');
  });

  it("reads a switch's default from its entry just past the passage", () => {
    const claim =
      'The useGlobal option is true by default, so the default evaluation function uses the JavaScript global as the context.';
    expectConflict(claim, entry, 'negation', undefined, { context: window, similarity: 0.8 });
    const r = verifyClaim('The useGlobal option is false by default.', entry, { context: window });
    expect(r.verdict, r.reason).not.toBe('contradicted');
  });
});

describe('verifyClaim: names that label a sentence, and denials that reach further', () => {
  it('does not read a label opening the sentence as one of two things whose facts are swapped', () => {
    const entry =
      'ecmaVersion: Indicates the ECMAScript version to parse. Can be a number, either in year (2022) or plain version number (6) form, or "latest".';
    expectSupported(
      'Of all the options acorn\'s parse() accepts, ecmaVersion can be a year like 2022, a plain version number like 6, or "latest".',
      entry,
    );
    expectConflict(
      'The ecmaVersion option can be a year like 2022, a plain version number like 7, or "latest".',
      entry,
      'number',
    );
  });

  it('reads "no code to load" as denying the loading, and the claim\'s own denial as its own', () => {
    const page =
      'Currently a libxslt module has to be compiled within the application using libxslt. There is no code to load dynamically shared libraries associated to a namespace.';
    expectConflict(
      'libxslt can load extension modules from shared libraries at run time.',
      page,
      'negation',
    );
    expectSupported(
      'Because libxslt has no code to load extension modules from shared libraries, you register a module by linking its code into your application.',
      page,
    );
    // A denial the claim states in a clause that shares less with the page's is no alibi.
    const names =
      'Unprefixed attribute names are never expanded, and unprefixed element names are only expanded when they are in the scope of a default namespace.';
    expectConflict(
      'Unprefixed element names are never expanded, whereas unprefixed attribute names are expanded only when a default namespace is in scope.',
      names,
      'negation',
    );
  });

  it('sets "untouched" and "unchanged" against a change in any word', () => {
    expectConflict(
      'The parse() method leaves the DOM untouched.',
      'The parse() method works by modifying the DOM.',
      'antonym',
    );
    expectSupported(
      'The parse() method modifies the DOM.',
      'The parse() method works by modifying the DOM.',
    );
  });

  it('reads a name opening with a dot as a name, not the end of a sentence', () => {
    const a = analyze('Config files should have no .json or .ini file extension.');
    expect(a.tokens.filter((t) => t.text === '.' && !t.joined)).toHaveLength(1);
    expect(new Set(a.tokens.slice(0, 7).map((t) => t.clause)).size).toBe(1);
  });

  it('reads words glued by hyphens as one name unless each is English ("built-in")', () => {
    const a = analyze('Use gunzip-maybe, a built-in helper.');
    expect(a.tokens.filter((t) => t.compound === 'gunzip-maybe').map((t) => t.text)).toEqual([
      'gunzip',
      'maybe',
    ]);
    expect(a.tokens.find((t) => t.text === 'built')?.compound).toBeUndefined();
  });

  it('pairs no denial with a word that is only part of another name', () => {
    const page =
      "It doesn't gunzip for you, so if you want to extract a .tar.gz with this you'll need to use something like gunzip-maybe in addition to this.";
    expectConflict('tar-fs gunzips for you.', page, 'negation');
    expectSupported(
      'tar-fs does not gunzip for you, so to extract a .tar.gz with it you need something like gunzip-maybe as well.',
      page,
    );
  });

  it("reads a dot opening a name after any word as the name's, so a denial reaches it", () => {
    const a = analyze('If a picture ends with .PF rather than .PE, the position returns.');
    expect(a.tokens.find((t) => t.text === 'PE')?.negated).toBe(true);
    expectSupported(
      'If a picture ends with .PF rather than .PE, the troff position returns to where it was at the start of the picture.',
      'If .PF is used instead of .PE, the troff position is restored to what it was at the picture start.',
    );
    expectConflict(
      'The standard filename extension is .rst rather than .txt, because the sources are meant to be readable as plain text.',
      'Most operating systems already associate .txt with text files, so .txt is the standard filename extension: the sources are meant to be readable as plain text.',
      'negation',
    );
  });
});
