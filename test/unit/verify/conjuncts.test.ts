// Coordinated items: each item of "A and B" / "A as well as B" is a fact the passage must state.
import { beforeAll, describe, expect, it } from 'vitest';
import { analyze } from '../../../src/verify/index.js';
import { coordinatedItems, distinguishing } from '../../../src/verify/conjuncts.js';
import { expectConflict, expectSupported, verdictOf } from './expect-verdict.js';

beforeAll(() => {
  analyze('Warm up.');
}, 120_000);

/** The words telling each item apart, per coordination of `text`. */
const own = (text: string): string[][][] => {
  const { tokens } = analyze(text);
  return coordinatedItems(tokens, text).map((items) =>
    distinguishing(tokens, items).map((item) => item.map((k) => tokens[k]!.lower)),
  );
};

describe('coordinatedItems', () => {
  it('reads and, or, as well as, and lists with commas, with a shared head', () => {
    expect(own('The pool closes idle and busy sockets.')).toEqual([[['idle'], ['busy']]]);
    expect(own('The server supports active mode as well as passive mode.')).toEqual([
      [['active'], ['passive']],
    ]);
    expect(own('The font covers the Latin, Greek and Cyrillic scripts.')).toEqual([
      [['latin'], ['greek'], ['cyrillic']],
    ]);
  });

  it('keeps a hyphenated compound whole, and leaves out a verb read as a noun and an opening phrase', () => {
    // "traces" is tagged a noun: a plural before another noun is no modifier of it. "By default,"
    // opens the sentence and is no item of the list.
    expect(
      own('By default, Valgrind traces child processes as well as the top-level process.'),
    ).toEqual([[['child'], ['top', 'level']]]);
  });

  it('leaves coordinated clauses and verbs alone', () => {
    expect(own('It reads the file and closes the stream.')).toEqual([]);
  });
});

describe('verifyClaim with coordinated items', () => {
  it('does not support a list the page restricts to one of its items', () => {
    const only = 'First, by default, Valgrind only traces the top-level process.';
    expect(
      verdictOf(
        'By default, Valgrind traces child processes as well as the top-level process.',
        only,
      ),
    ).not.toBe('supported');
    expectSupported('By default, Valgrind traces just the top-level process.', only);
  });

  const page = 'The pool closes idle sockets after five seconds.';

  it('does not support an item the passage leaves out', () => {
    expect(verdictOf('The pool closes idle and busy sockets after five seconds.', page)).not.toBe(
      'supported',
    );
    expect(
      verdictOf(
        'The client supports active mode as well as passive mode.',
        'The client supports passive mode.',
      ),
    ).not.toBe('supported');
  });

  it('contradicts an item the page states the predicate of the other way', () => {
    const page = 'The loader reads JSON and TOML files. YAML files are not read.';
    expectConflict('The loader reads YAML as well as JSON files.', page, 'negation');
    expectSupported('The loader reads TOML as well as JSON files.', page);
  });

  it('reads the verb of a sentence that has no other as a verb, though tagged a plural noun', () => {
    const traces = (text: string) => analyze(text).tokens.find((t) => t.lower === 'traces')?.pos;
    expect(traces('By default, Valgrind traces child processes.')).toBe('VERB');
    expect(traces('The tool traces all threads.')).toBe('VERB');
    // A sentence with a verb of its own keeps the noun.
    expect(traces('The traces are kept in memory.')).toBe('NOUN');
    // The relative pronoun opening a clause is its subject.
    const sets = (text: string) => analyze(text).tokens.find((t) => t.lower === 'sets')?.pos;
    expect(sets('CORS is a middleware for Express that sets CORS response headers.')).toBe('VERB');
    expect(sets('We keep the sets that sets contain.')).toBe('NOUN');
    // In a clause of its own, before another clause with a verb; a function's name is no verb.
    const checks = (text: string) => analyze(text).tokens.find((t) => t.lower === 'checks')?.pos;
    expect(
      checks(
        'The example checks the return value of every deflate() call, because deflate() can fail here.',
      ),
    ).toBe('VERB');
    expectConflict(
      'The example checks the return value of every deflate() call, because deflate() can fail here.',
      'deflate() has a return value that can indicate errors, yet we do not check it here.',
      'negation',
    );
    expectConflict(
      'By default, Valgrind traces child processes as well as the top-level process.',
      'First, by default, Valgrind only traces the top-level process. So if your program spawns children, they will not be traced by Valgrind by default.',
      'negation',
    );
  });

  it('supports every item stated, in other words or another order', () => {
    expectSupported(
      'The pool closes busy and idle sockets after five seconds.',
      'The pool closes idle sockets and busy sockets after five seconds.',
    );
    expectSupported(
      'The font covers the Greek, Cyrillic and Latin scripts.',
      'The bundled font supports Latin, Greek and Cyrillic scripts.',
    );
  });
});
