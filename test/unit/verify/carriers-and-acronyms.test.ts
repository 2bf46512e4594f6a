// Negations a carrying verb passes on, added and taken-away amounts, class names a word longer,
// a name's predicate said of its phrase, and acronyms of the claim's words.
import { beforeAll, describe, expect, it } from 'vitest';
import { analyze } from '../../../src/verify/index.js';
import { extractQuantities } from '../../../src/verify/quantities.js';
import { expectConflict, expectSupported, verdictOf } from './expect-verdict.js';

beforeAll(() => {
  analyze('Warm up.');
}, 120_000);

describe('a negated verb that carries a state', () => {
  it('denies the state: "not kept consistent" against "are consistent"', () => {
    const page = 'Report version definitions are consistent across LTS releases.';
    expectConflict(
      'Report version definitions are not kept consistent across LTS releases.',
      page,
      'negation',
    );
    expectSupported('Report version definitions are kept consistent across LTS releases.', page);
  });

  it('denies the act it leads to: "does not contribute in keeping the object alive"', () => {
    const page =
      'Note that a note (of the kind created by git notes) attached to an object does not contribute in keeping the object alive.';
    expectConflict(
      'Attaching a note made with git notes to an object keeps that object alive.',
      page,
      'negation',
    );
    expectSupported(
      'Attaching a note made with git notes to an object does nothing to keep that object alive.',
      page,
    );
  });
});

describe('an amount added where the page takes it away', () => {
  const page =
    'This is the sum of the lengths of all of the buffers contained in the list, minus any initial offset for a semi-consumed buffer at the beginning.';

  it('contradicts "plus" against "minus" before the same amount', () => {
    expectConflict(
      'bl.length is the sum of the lengths of all the buffers in the list, plus any initial offset left by a partly consumed first buffer.',
      page,
      'comparative',
      { claim: 'plus any initial offset', page: 'minus any initial offset' },
      { context: 'bl.length' },
    );
    expectSupported(
      'bl.length is the sum of the lengths of all the buffers in the list, minus any initial offset left by a partly consumed first buffer.',
      page,
      { context: 'bl.length' },
    );
  });
});

describe('a class name a word longer', () => {
  it('is another class: "BufferListStream" does not state "BufferList"', () => {
    const page =
      "For backwards compatibility reasons, BufferListStream is the default export when you require('bl'):";
    expectConflict(
      "For backwards compatibility, BufferList is what require('bl') returns as its default export.",
      page,
      'term',
      { claim: 'BufferList', page: 'BufferListStream' },
    );
    expectSupported(
      "For backwards compatibility, BufferListStream is what require('bl') returns as its default export.",
      page,
    );
  });
});

describe('a predicate said of a phrase that names the term', () => {
  it('is no swap: "Esprima 1.2.2 counts" keeps "Esprima counts"', () => {
    expectSupported(
      'Whereas Esprima 1.2.2 counts trailing whitespace as part of every AST node, Espree does not.',
      'Esprima counts trailing whitespace as part of each AST node while Espree does not.',
      { context: 'Espree Known differences from Esprima 1.2.2' },
    );
    expectSupported(
      'Espree started as a fork of Esprima v1.2.2, the last stable Esprima release before work on ECMAScript 6 began.',
      'Espree started out as a fork of Esprima v1.2.2, the last stable published released of Esprima before work on ECMAScript 6 began.',
    );
  });
});

describe('words the page writes as an acronym', () => {
  const page = 'The default filename includes the date, time, PID, and a sequence number.';

  it('are stated: "the process ID" by "PID", not "the user ID"', () => {
    expectSupported(
      "A report's default filename is built from the date, the time, the process ID and a sequence number.",
      page,
    );
    expect(
      verdictOf(
        "A report's default filename is built from the date, the time, the user ID and a sequence number.",
        page,
      ),
    ).not.toBe('supported');
  });
});

describe('an act the page denies, reworded without the negation', () => {
  const page =
    'Specifically, Buffer.alloc(size, fill) will never use the internal Buffer pool, while Buffer.allocUnsafe(size).fill(fill) will use the internal Buffer pool if size is less than or equal to half Buffer.poolSize.';

  it('is not stated: "draws on the pool" where the page says "will never use the pool"', () => {
    expect(
      verdictOf(
        'Buffer.alloc(size, fill) draws on the internal Buffer pool, just as Buffer.allocUnsafe(size).fill(fill) does.',
        page,
      ),
    ).not.toBe('supported');
    expectSupported('Buffer.alloc(size, fill) never draws on the internal Buffer pool.', page);
  });

  it('is denied the same when the tagger reads the verb after "does not" as a noun', () => {
    const page = 'Express does not force you to use any specific ORM or template engine.';
    expect(verdictOf('Express makes you use a particular ORM and template engine.', page)).not.toBe(
      'supported',
    );
    expectSupported('Express does not make you use a particular ORM or template engine.', page);
  });

  it('may be restated by a word that denies ("skips the pool", "keeps scripts from seeing it")', () => {
    expectSupported('Buffer.alloc(size, fill) skips the internal Buffer pool.', page);
    expectSupported(
      'Setting httpOnly to true keeps client-side JavaScript from seeing the cookie in document.cookie on compliant clients.',
      'Be careful when setting this to true, as compliant clients will not allow client-side JavaScript to see the cookie in document.cookie.',
      { context: 'httpOnly' },
    );
  });
});

describe('counts and spans written otherwise', () => {
  it('reads "a single larger pack" as one, and "0 turns this off" as no count of turns', () => {
    const page =
      'When there are more than this many packs that are not marked with *.keep file in the repository, git gc --auto consolidates them into one larger pack. The default value is 50. Setting this to 0 disables it.';
    const claim = (n: string) =>
      `Once there are more than 50 packs that aren't marked with a .keep file, git gc --auto merges them into ${n} larger pack, and setting gc.autoPackLimit to 0 turns this off.`;
    expectSupported(claim('a single'), page, { context: 'gc.autoPackLimit' });
    expectConflict(
      'git gc --auto merges them into a single larger pack.',
      'git gc --auto consolidates them into two larger packs.',
      'number',
    );
    // "a single data reference" counts references: a count of another thing is not set against it.
    expect(
      verdictOf(
        'If a memory reference straddles two cache lines and both blocks miss, Cachegrind counts a single miss rather than two.',
        'Instructions that modify a memory location (e.g. inc and dec) are counted as doing just a read, i.e. a single data reference.',
      ),
    ).not.toBe('contradicted');
  });

  it('reads "more than this many packs" with the entry\'s default as its bound', () => {
    const page =
      'When there are more than this many packs that are not marked with *.keep file in the repository, git gc --auto consolidates them into one larger pack. The default value is 50.';
    const claim = (bound: string) =>
      `Once there are ${bound} packs that aren't marked with a .keep file, git gc --auto merges them into a single larger pack.`;
    const options = { context: 'gc.autoPackLimit' };
    expectSupported(claim('more than 50'), page, options);
    expectConflict(claim('fewer than 50'), page, 'comparative', undefined, options);
    expectConflict(claim('more than 40'), page, 'number', undefined, options);
  });

  it('reads "1.day" as a day, the way git writes dates', () => {
    expect(
      extractQuantities('Default is "1.day"; use "2.weeks.ago" or file.1.txt.').map((q) => [
        q.text,
        q.dim,
        q.value,
      ]),
    ).toEqual([
      ['1.day', 'ms', 86_400_000],
      ['2.weeks', 'ms', 1_209_600_000],
    ]);
  });
});
