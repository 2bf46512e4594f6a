// A page's typing slips ("privledges"), a value given to a word right before it ("alpha = 0"), a
// prevention over examples in brackets ("stops brace sets like {a,b} from being expanded"), an
// order that opens a sentence with no comma after it, access granted or denied, denials put as
// verbs of exclusion, a claim's default case judged by the page's, a dash between clauses, and
// what a thing is said to be ("is noted as fully compliant").
import { beforeAll, describe, expect, it } from 'vitest';
import { analyze } from '../../../src/verify/index.js';
import { misspelt } from '../../../src/verify/words.js';
import { expectConflict, expectSupported, verdictOf } from './expect-verdict.js';

beforeAll(() => {
  analyze('Warm up.');
}, 120_000);

describe('typing slips on the page', () => {
  it('reads a mistyped word as the word', () => {
    expectSupported(
      'slocate runs its update process with higher privileges than locate.',
      'The slocate package runs its update process with higher privledges than locate.',
    );
    expectSupported(
      'With affix compression in use the modes mean slightly different things.',
      'When afffix compression is used the modes mean slightly different things.',
    );
  });

  it('keeps apart real words, prefixed words and irregular forms', () => {
    expect(misspelt('privileges', 'privledges')).toBe(true);
    expect(misspelt('affix', 'afffix')).toBe(true);
    // Both are words.
    expect(misspelt('inline', 'online')).toBe(false);
    // A prefix, not a slip.
    expect(misspelt('synchronously', 'asynchronously')).toBe(false);
    expect(misspelt('scope', 'escope')).toBe(false);
    // An irregular past WordNet does not list.
    expect(misspelt('overwrite', 'overwrote')).toBe(false);
    // A comparative is its adjective.
    expect(misspelt('newer', 'never')).toBe(false);
    // Names a letter apart are two names.
    expect(misspelt('setuid', 'setgid')).toBe(false);
    expectConflict('The setuid call is made first.', 'The setgid call is made first.', 'term');
  });
});

describe('a value given to a word', () => {
  it('contradicts a value the page gives the word, though the number is elsewhere', () => {
    expectConflict(
      'White comes out as red, green and blue all at 255 with an alpha of 255 as well.',
      'For white, red = 255, green = 255, blue = 255, and alpha = 0.',
      'number',
      { claim: '255', page: '0' },
    );
    expectSupported(
      'White has an alpha of 0.',
      'For white, red = 255, green = 255, blue = 255, and alpha = 0.',
    );
  });
});

describe('prevention over examples', () => {
  it('reads "stops X like {a,b} from being expanded" as "not expanded"', () => {
    expect(
      verdictOf(
        'nobrace stops brace sets like {a,b} and {1..3} from being expanded.',
        'nobrace: Do not expand {a,b} and {1..3} brace sets.',
      ),
    ).not.toBe('contradicted');
    expectConflict(
      'nobrace stops brace sets like {a,b} and {1..3} from being expanded.',
      'nobrace: Expand {a,b} and {1..3} brace sets.',
      'negation',
    );
  });
});

describe('an order that opens a sentence', () => {
  it('does not read a whole sentence with no comma as the order’s other side', () => {
    expectSupported(
      'After an interruption many POP servers restore the whole mail queue after about 10 minutes.',
      'Many POP servers, if an interruption occurs, will restore the whole mail queue after about 10 minutes.',
    );
  });
});

describe('access granted or denied', () => {
  it('contradicts a default the page states as permitted', () => {
    expectConflict(
      'By default the server denies every request.',
      'By default every request is permitted.',
      'antonym',
    );
    expectConflict(
      'The policy grants access to the MPEG delegate.',
      'The policy denies access to the MPEG delegate.',
      'antonym',
    );
  });
});

describe('a slot read past an abbreviation', () => {
  it('does not end the slot of a value at "e.g."', () => {
    expect(
      verdictOf(
        "Resource policies are per-instance maximums: if the policy's memory limit is 1GB, running with -limit 2GB doesn't raise it, and the memory limit stays at 1GB.",
        'Define arguments for the memory, map, and disk resources with SI prefixes (.e.g 100MB). In addition, resource policies are maximums for each instance of ImageMagick (e.g. policy memory limit 1GB, the -limit 2GB option exceeds policy maximum so memory limit is 1GB).',
      ),
    ).not.toBe('contradicted');
  });
});

describe('denials put as verbs of exclusion', () => {
  it('agrees with "not" put as "exclude"', () => {
    expectSupported(
      "Losing data that was in memory because of a crash doesn't count as data loss.",
      'We exclude loss of data in memory due to a crash.',
    );
    expectSupported(
      'Only corrupted data in storage, or data silently not written, qualifies.',
      'Only corruption of data in storage, or silent failure to write data, qualifies.',
    );
  });

  it('does not let a claim state an act the page leaves out', () => {
    expect(
      verdictOf(
        'Losing data that was in memory because of a crash counts as data loss.',
        'We exclude loss of data in memory due to a crash.',
      ),
    ).not.toBe('supported');
    expect(
      verdictOf('Comments in the file are processed.', 'Comments in the file are ignored.'),
    ).not.toBe('supported');
    expectSupported('Comments in the file are not processed.', 'Comments in the file are ignored.');
  });
});

describe("a claim's default case", () => {
  const page =
    'G_MESSAGES_DEBUG. A space-separated list of log domains for which informational and debug messages should be printed. By default, these messages are not printed.';

  it('is judged by the page sentence that states the default', () => {
    expectConflict(
      'GLib prints informational and debug messages by default.',
      page,
      'negation',
      undefined,
      { context: 'GLib Running GLib Applications' },
    );
    expectSupported('GLib does not print informational and debug messages by default.', page, {
      context: 'GLib Running GLib Applications',
    });
  });

  it('reads two modifiers of one noun as one clause', () => {
    const clauses = (text: string): number =>
      new Set(analyze(text).tokens.map((t) => t.clause)).size;
    expect(clauses('GLib prints informational and debug messages.')).toBe(
      clauses('GLib prints informational messages.'),
    );
  });
});

describe('a dash between clauses', () => {
  it('ends a clause at a dash set off by spaces, not at the dash of an option', () => {
    expectSupported(
      'It makes no sense to combine -Cf with -Cm.',
      'The options -Cf and -Cm do not make sense together - there is no opportunity for meta-equivalence classes.',
    );
    const clauseOf = (text: string, word: string): number =>
      analyze(text).tokens.find((t) => t.text === word)!.clause;
    expect(clauseOf('Use -Cf with -Cm.', 'Cm')).toBe(clauseOf('Use -Cf with -Cm.', 'Use'));
    const dashed = 'They do not make sense together - there is no opportunity.';
    expect(clauseOf(dashed, 'there')).not.toBe(clauseOf(dashed, 'They'));
  });
});

describe('what a thing is said to be', () => {
  it('reads "is noted as X" as a predicate, as "is X" is', () => {
    expectConflict(
      'The punycode.js by Ben Noordhuis is noted as fully compliant.',
      'punycode.js by Ben Noordhuis (note: not fully compliant)',
      'negation',
    );
    expectSupported('The tool is described as stable.', 'The tool is stable.');
  });
});
