import { describe, expect, it } from 'vitest';
import {
  compareQuantities,
  extractQuantities,
  loadWordNet,
  verifyClaim,
} from '../../../src/verify/index.js';

const one = (text: string) => {
  const q = extractQuantities(text);
  expect(q, JSON.stringify(q)).toHaveLength(1);
  return q[0]!;
};

describe('extractQuantities', () => {
  it('normalises units to a base: bytes, ms', () => {
    expect(one('a limit of 1 MiB')).toMatchObject({
      kind: 'number',
      value: 1024 ** 2,
      dim: 'bytes',
    });
    expect(one('waits 30000 ms')).toMatchObject({ value: 30_000, dim: 'ms' });
    expect(one('waits 30s')).toMatchObject({ value: 30_000, dim: 'ms' });
  });

  it('reads digits grouped by commas or by the underscores of code', () => {
    expect(one('at most 100,000 expansions')).toMatchObject({ value: 100_000, bound: 'le' });
    expect(one('limited to `100_000` by default')).toMatchObject({ value: 100_000 });
    expect(one('a budget of 20_000_000 steps')).toMatchObject({ value: 20_000_000 });
    // An identifier with digits is no number.
    expect(extractQuantities('set max_1_000 in the config')).toEqual([]);
  });

  it('reads number words, bounds and ranges', () => {
    expect(one('retried up to three times')).toMatchObject({
      value: 3,
      bound: 'le',
      dim: 'count:tim',
    });
    expect(one('at least twelve hundred trees')).toMatchObject({ value: 1200, bound: 'ge' });
    expect(one('between 2 and 5 connections')).toMatchObject({ value: 2, high: 5, bound: 'range' });
    // "once" is a count, or a conjunction before a clause.
    expect(one('called once a day')).toMatchObject({ value: 1, dim: 'count:tim' });
    expect(extractQuantities('true once the counter is above zero').map((q) => q.text)).toEqual([
      'above zero',
    ]);
    // So is "Once compiled, ..." at a sentence start; "Once a day, ..." stays a count.
    expect(extractQuantities('Once compiled, a stylesheet can be reused.')).toEqual([]);
    expect(one('Once a day, the cache is pruned.')).toMatchObject({ value: 1, dim: 'count:tim' });
  });

  it('reads no count in a pronoun "one" or a digit named by its word', () => {
    const texts = (t: string) => extractQuantities(t).map((q) => q.text);
    expect(texts('It runs in two passes: the first one changes the fonts selected.')).toEqual([
      'two passes',
    ]);
    expect(texts('When styles conflict, the later one takes precedence.')).toEqual([]);
    expect(texts('Insert a leading zero for purely fractional values.')).toEqual([]);
    // A chain of numbers names an algorithm; a number before a slash labels a step.
    expect(texts('It implements the 1-2-3 algorithm on the tree obtained at 2/ and 4/.')).toEqual(
      [],
    );
    expect(texts('Between 1-5 items, at 10/s.')).toEqual(['1-5 items', '10']);
    // A counted "one" is still a count.
    expect(one('Only one connection is kept.')).toMatchObject({
      value: 1,
      dim: 'count:connection',
    });
  });

  it('tells years, dates and versions from counts', () => {
    expect(one('rebuilt in 1911')).toMatchObject({ kind: 'date', parts: [1911, 0, 0] });
    expect(one('on March 3, 2021')).toMatchObject({ kind: 'date', parts: [2021, 3, 3] });
    expect(one('since version 2.4.1')).toMatchObject({ kind: 'version', parts: [2, 4, 1] });
    expect(one('planted 1200 pear trees')).toMatchObject({ kind: 'number', value: 1200 });
  });

  it('reads a day in words as part of its date', () => {
    expect(one('as of the first of January 2020')).toMatchObject({
      kind: 'date',
      parts: [2020, 1, 1],
    });
    expect(one('on March the twenty-first, 2019')).toMatchObject({ parts: [2019, 3, 21] });
    // The day word is the date's, not a word the passage must state on its own.
    const verdict = verifyClaim(
      'About 50,000 packages used the library as of the first of January 2020.',
      'The library was used by ~50,000 packages as of January 1, 2020.',
    );
    expect(verdict.verdict, verdict.reason).toBe('supported');
    expect(
      verifyClaim(
        'About 50,000 packages used the library as of the second of January 2020.',
        'The library was used by ~50,000 packages as of January 1, 2020.',
      ).conflicts,
    ).toMatchObject([{ kind: 'date' }]);
  });

  it('reads fractions of a unit', () => {
    expect(one('over roughly a quarter of an hour')).toMatchObject({
      value: 15 * 60_000,
      dim: 'ms',
      bound: 'approx',
    });
    expect(one('half an hour')).toMatchObject({ value: 30 * 60_000, dim: 'ms' });
    expect(one('three quarters of a second')).toMatchObject({ value: 750, dim: 'ms' });
    expect(compareQuantities(one('half an hour'), one('30 minutes'))).toBe('same');
  });

  it('counts no verb or modifier after a number', () => {
    expect(one('Level 0 does no compression')).toMatchObject({ value: 0, dim: 'count' });
    expect(one('Level 9 can be slow')).toMatchObject({ value: 9, dim: 'count' });
    // Nor a modifier before the noun, and "one of" a list is a choice, not a count.
    expect(one('holds about 16 such items')).toMatchObject({ value: 16, dim: 'count' });
    expect(extractQuantities('Set at least one of max, maxSize or ttl.')).toEqual([]);
  });
});

describe('compareQuantities', () => {
  const q = (text: string) => one(text);

  it('equates converted units within 5 % and no more', () => {
    expect(compareQuantities(q('1 MB'), q('1 MiB'))).toBe('same');
    expect(compareQuantities(q('5 MiB'), q('1 MiB'))).toBe('different');
    expect(compareQuantities(q('30 s'), q('30000 ms'))).toBe('same');
    // A count is never converted: a bare number against a counted one is compared exactly.
    expect(compareQuantities(q('section 5.4'), q('the 5.2 Patterns section'))).toBe('different');
  });

  it('calls an upper bound against a lower bound opposite', () => {
    expect(compareQuantities(q('at least 3 times'), q('up to 3 times'))).toBe('opposite');
    expect(compareQuantities(q('at most 3 times'), q('up to 3 times'))).toBe('same');
  });

  it('reads a bound written after its number with an article, and of a year too', () => {
    expect(q('Visual Studio 2013 or an earlier version').bound).toBe('le');
    expect(q('version 3 or a later release').bound).toBe('ge');
    expect(q('Node.js 18 or any newer version').bound).toBe('ge');
    expect(
      compareQuantities(q('Visual Studio 2013 or earlier'), q('Visual Studio 2013 or later')),
    ).toBe('opposite');
    expect(compareQuantities(q('since 2013'), q('Visual Studio 2013 or later'))).toBe('same');
    const r = verifyClaim(
      'The Windows build now requires Visual Studio 2013 or an earlier version.',
      'The Windows build system has been simplified. Visual Studio 2013 or later is now required.',
    );
    expect(r.verdict, r.reason).toBe('contradicted');
    expect(r.conflicts).toContainEqual({
      kind: 'comparative',
      claim: '2013 or an earlier version',
      page: '2013 or later',
    });
  });

  it('reads a decimal compared by age as a release with its bound', () => {
    expect(q('only versions older than 7.0')).toMatchObject({ kind: 'version', bound: 'lt' });
    expect(q('anything newer than 2.1')).toMatchObject({ kind: 'version', bound: 'gt' });
    expect(q('anything from 7.0 should be fine')).toMatchObject({ kind: 'version', bound: 'ge' });
    expect(q('from 2.4 on')).toMatchObject({ kind: 'version', bound: 'ge' });
    expect(q('older than 2.5 seconds')).toMatchObject({ kind: 'number', dim: 'ms' });
    const page =
      'To use this you need a version of GDB that supports Python scripting; anything from 7.0 ' +
      'should be fine.';
    const r = verifyClaim(
      'The macros need a GDB with Python scripting, and only versions older than 7.0 will work.',
      page,
    );
    expect(r.verdict, r.reason).toBe('contradicted');
    expect(r.conflicts).toContainEqual({
      kind: 'comparative',
      claim: 'older than 7.0',
      page: 'from 7.0',
    });
    const ok = verifyClaim('The macros need a GDB with Python scripting, 7.0 or later.', page);
    expect(ok.verdict, ok.reason).toBe('supported');
  });
});

describe('loadWordNet', () => {
  // The first load reads 27 MB of WordNet files: slow on a busy machine.
  it('loads antonym pairs and synonyms once, from the package data', { timeout: 120_000 }, () => {
    const wn = loadWordNet();
    expect(wn.antonyms('enable').has('disable')).toBe(true);
    expect(wn.antonyms('required').has('optional')).toBe(true);
    expect(wn.synonyms('attempt', 'try')).toBe(true);
    expect(wn.knows('undici')).toBe(false);
    expect(loadWordNet()).toBe(wn);
  });
});

describe('multiples in verbs', () => {
  const page = 'This option can quadruple the size of the tables used by your scanner.';

  it('reads "double the", "quadruples its" as counts of times, not "double quotes"', () => {
    expect(one('This option can double the size.')).toMatchObject({ value: 2, unit: 'times' });
    expect(one('It quadruples its memory use.')).toMatchObject({ value: 4, unit: 'times' });
    expect(extractQuantities('Use double quotes around the value.')).toEqual([]);
  });

  it('sets one multiple against another, and against multiples only', () => {
    const r = verifyClaim(
      'This option can double the size of the tables used by your scanner.',
      page,
    );
    expect(r.verdict, r.reason).toBe('contradicted');
    expect(r.conflicts[0]).toMatchObject({ kind: 'number', claim: 'double', page: 'quadruple' });
    const same = verifyClaim(
      'This option can make the tables used by your scanner four times as large.',
      page,
    );
    expect(same.conflicts, same.reason).toEqual([]);
    // A bare number of the page is no multiple: a default of 8 does not answer "doubling".
    const bare = verifyClaim(
      'Doubling the size of the buffer makes the scanner faster.',
      'The default size of the buffer is 8, and a larger buffer makes the scanner faster.',
    );
    expect(bare.verdict, bare.reason).toBe('supported');
  });
});

describe('network prefix lengths', () => {
  it('reads "/24" as a prefix length, not a fraction or a path', () => {
    const of = (text: string): string[] =>
      extractQuantities(text)
        .filter((q) => q.dim === 'prefix')
        .map((q) => q.text);
    expect(of('a /24 prefix, so 192.168.1.5 gives 192.168.1.5/24 and ::1/128.')).toEqual([
      '/24',
      '/24',
      '/128',
    ]);
    expect(of('Half is 1/2 and the path is /usr/lib.')).toEqual([]);
  });

  it('wants a prefix length the claim gives to be stated', () => {
    expect(
      verifyClaim(
        'An IPv6 address with no subnet gets a /128 prefix.',
        'For an address with no explicit subnet the prefix is /32.',
      ).verdict,
    ).not.toBe('supported');
  });
});
