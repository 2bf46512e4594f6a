// Cases a page pairs ("A if there is one, or B if there is none"), negations in a page's
// condition, elided predicates ("or None if it wasn't"), exceptions ("include all except X"),
// "not only X", asides between commas ("X=True, an argument added in 3.5, in which case"),
// and forms a word or number is written in: short forms ("dirs"), code literals ("new Date()"),
// numbers in another base ("0o644"), format tokens (":percent"), "defaulting to", product
// releases ("Python 3.7") and a docs title's release.
import { beforeAll, describe, expect, it } from 'vitest';
import { analyze, extractQuantities, verifyClaim } from '../../../src/verify/index.js';
import { slotSwaps } from '../../../src/verify/slots.js';

beforeAll(() => {
  analyze('Warm up.');
}, 120_000);

describe('cases a page pairs', () => {
  const page =
    "This handler routes the exception asynchronously to the Symbol.for('nodejs.rejection') method if there is one, or to 'error' event handler if there is none.";

  it('reads "or B if there is none" as the second case, which "otherwise" states', () => {
    const r = verifyClaim(
      "An EventEmitter routes a rejection to its Symbol.for('nodejs.rejection') method if it has one, and otherwise to the 'error' event handler.",
      page,
    );
    expect(r.conflicts, r.reason).toEqual([]);
  });
});

describe("a negation in the page's condition", () => {
  const page =
    'If the IP source address does not match any entry, a new entry is created and inserted first, possibly discarding the last entry if the list is full.';

  it('sets a case a plain claim statement does not speak of', () => {
    const r = verifyClaim('A matching entry is moved to the front of the list.', page);
    expect(r.conflicts, r.reason).toEqual([]);
  });

  it('still answers a claim that puts the act under the opposite case', () => {
    const r = verifyClaim(
      'If the address matches an entry, a new entry is created and inserted first.',
      page,
    );
    expect(r.verdict, r.reason).toBe('contradicted');
  });
});

describe('an elided predicate', () => {
  const page = 'Returns: the old stream, if the stream was changed, or None if it wasn’t.';

  it('restates "if it wasn’t" with what it denies, so a claim that says it agrees', () => {
    const r = verifyClaim(
      "StreamHandler.setStream() returns the old stream, or None if the stream wasn't changed.",
      page,
    );
    expect(r.conflicts, r.reason).toEqual([]);
  });

  it('leaves the case the claim turns round in conflict', () => {
    const r = verifyClaim(
      "StreamHandler.setStream() returns the old stream if the stream wasn't changed.",
      page,
    );
    expect(r.conflicts.map((c) => c.kind)).toContain('negation');
  });
});

describe('an exception after an antonym', () => {
  it('reads "would include all debuggers except those" as excluding those', () => {
    const r = verifyClaim(
      'Putting a minus sign in front of a name in DEBUG excludes that debugger, so DEBUG=*,-connect:* turns on everything except the connect: debuggers.',
      'You can also exclude specific debuggers by prefixing them with a "-" character. For example, DEBUG=*,-connect:* would include all debuggers except those starting with "connect:".',
    );
    expect(r.conflicts, r.reason).toEqual([]);
  });

  it('still pairs an antonym with no exception after it', () => {
    const r = verifyClaim(
      'DEBUG=*,-connect:* excludes all debuggers.',
      'For example, DEBUG=*,-connect:* would include all debuggers.',
    );
    expect(r.verdict, r.reason).toBe('contradicted');
  });
});

describe('"until" opens a clause of its own', () => {
  const page =
    "Pass a maxBufferSize (in characters) to createParser to cap this. If the combined size exceeds the limit, the parser emits a ParseError with type: 'max-buffer-size-exceeded' and becomes terminated: subsequent calls to feed() will throw until reset() is called.";

  it('so two names swapped across it are a swap', () => {
    const r = verifyClaim(
      "When maxBufferSize is exceeded, the parser emits a ParseError of type 'max-buffer-size-exceeded' and is terminated, so further reset() calls throw until feed() is called.",
      page,
    );
    expect(r.verdict, r.reason).toBe('contradicted');
  });

  it('and the names in their places agree', () => {
    const r = verifyClaim(
      "When maxBufferSize is exceeded, the parser emits a ParseError of type 'max-buffer-size-exceeded' and is terminated, so further feed() calls throw until reset() is called.",
      page,
    );
    expect(r.verdict, r.reason).toBe('supported');
  });
});

describe('"not only" and an aside between commas', () => {
  it('reads "not only X" as adding to X, not denying it', () => {
    const page =
      'Note that invalid-field errors will usually be called for any invalid data - not only data shaped as field: value. This is because the EventSource specification says to treat anything prior to a : as the field name.';
    const r = verifyClaim(
      "eventsource-parser reports 'invalid-field' errors for almost any invalid data, not only lines shaped like field: value, because the EventSource specification treats everything before a colon as the field name.",
      page,
    );
    expect(r.conflicts, r.reason).toEqual([]);
    expect(
      verifyClaim('The cache is not used for reads.', 'The cache is not only used for reads.')
        .verdict,
    ).toBe('contradicted');
  });

  it('gives what follows an aside (", an argument added in Python 3.5,") to the word before it', () => {
    const r = verifyClaim(
      "A QueueListener hands every message to every one of its handlers unless you create it with respect_handler_level=True, an argument added in Python 3.5, in which case each handler's level is compared with the message's level first.",
      'If respect_handler_level is True, a handler’s level is respected (compared with the level for the message) when deciding whether to pass messages to that handler; otherwise, the behaviour is as in previous Python versions - to always pass each message to each handler.',
    );
    expect(r.conflicts, r.reason).toEqual([]);
  });
});

describe('a name holding a negation word', () => {
  it('denies nothing: "NO" of NO_DEPRECATION leaves "suppresses" against "will not suppress"', () => {
    const r = verifyClaim(
      'NO_DEPRECATION also suppresses the deprecations given to "deprecation" event listeners, not just the output to STDERR.',
      'NOTE This will not suppress the deperecations given to any "deprecation" event listeners, just the output to STDERR.',
    );
    expect(r.conflicts, r.reason).toEqual([
      { kind: 'negation', claim: 'suppresses', page: 'not suppress' },
    ]);
    expect(analyze('NO_DEPRECATION suppresses it.').tokens.some((t) => t.cue)).toBe(false);
  });
});

describe('written forms', () => {
  const entry =
    'mode: 0o644, // entry mode. defaults to to 0o755 for dirs and 0o644 otherwise mtime: new Date(), // last modified date for entry. defaults to now.';

  it('reads a short form, a pronoun and a code literal as no other word', () => {
    const r = verifyClaim(
      "An entry's mode defaults to 0o755 for directories and 0o644 for everything else, and its mtime defaults to the current time.",
      entry,
    );
    expect(r.conflicts, r.reason).toEqual([]);
    expect(r.verdict, r.reason).toBe('supported');
    expect(analyze('0o644 for everything else').keyTerms.map((k) => k.text)).not.toContain(
      'everything',
    );
  });

  it('compares numbers in another base by value, and their owners', () => {
    expect(extractQuantities('0o755 for dirs, 0x1F, 0b101').map((q) => q.value)).toEqual([
      493, 31, 5,
    ]);
    const mode = 'mode: 0o644, // entry mode. defaults to to 0o755 for dirs and 0o644 otherwise';
    const changed = verifyClaim(
      "An entry's mode defaults to 0o755 for directories and 0o600 for everything else.",
      mode,
    );
    expect(changed.verdict, changed.reason).toBe('contradicted');
    const swapped = verifyClaim(
      "An entry's mode defaults to 0o644 for directories and 0o755 for everything else.",
      mode,
    );
    expect(swapped.verdict, swapped.reason).toBe('contradicted');
  });

  it('still swaps a common word for a common word that is no code', () => {
    expect(
      slotSwaps(
        analyze('The mtime defaults to the current time.'),
        analyze('mtime: new Date(), // defaults to the current user.'),
      ),
    ).toEqual([{ kind: 'term', claim: 'time', page: 'user' }]);
  });

  it('reads a gerund the tagger calls a noun as a verb, which fills no slot', () => {
    expect(
      slotSwaps(
        analyze(
          'The MRU list keeps one entry per distinct client IP address, recording the address, the input counter and the process time of the last packet; a matching entry is moved to the front, and an unknown address gets a new entry at the front, which may push the last entry out when the list is full.',
        ),
        analyze(
          'As each packet arrives, the IP source address is compared to the IP address in each entry in turn. If a match is found the entry is removed and inserted first on the list. If the IP source address does not match any entry, a new entry is created and inserted first, possibly discarding the last entry if the list is full.',
        ),
      ),
    ).toEqual([]);
  });

  it('keeps a format token whole (":percent" is no emoticon and "ercent")', () => {
    expect(
      analyze('such as :bar, :current and :percent').tokens.some((t) => t.lower === 'percent'),
    ).toBe(true);
  });

  it('reads the defaults a call signature gives its parameters', () => {
    const page =
      "class logging.handlers.RotatingFileHandler(filename, mode='a', maxBytes=0, backupCount=0, encoding=None, delay=False, errors=None) Returns a new instance of the RotatingFileHandler class.";
    expect(
      verifyClaim("RotatingFileHandler's maxBytes and backupCount both default to 0.", page)
        .verdict,
    ).toBe('supported');
    expect(
      verifyClaim("RotatingFileHandler's maxBytes and backupCount both default to 5.", page)
        .verdict,
    ).toBe('contradicted');
  });

  it('reads "defaulting to false" as a default', () => {
    const page = 'clear option to clear the bar on completion defaulting to false';
    expect(
      verifyClaim('The clear option, which clears the bar on completion, defaults to true.', page)
        .verdict,
    ).toBe('contradicted');
    expect(
      verifyClaim('The clear option, which clears the bar on completion, defaults to false.', page)
        .verdict,
    ).toBe('supported');
  });
});

describe('releases', () => {
  it('reads a decimal number after a product name in mid-sentence as its version', () => {
    expect(
      extractQuantities('It was added in Python 3.7. Default 0.5 applies.').map((q) => q.kind),
    ).toEqual(['version', 'number']);
  });

  it('takes an earlier release under a docs title as history, a later one as another', () => {
    const page = 'Returns: the old stream, if the stream was changed, or None if it wasn’t.';
    const context = 'logging.handlers — Logging handlers — Python 3.11.2 documentation';
    const earlier = verifyClaim('setStream() was added in Python 3.7.', page, { context });
    expect(earlier.conflicts, earlier.reason).toEqual([]);
    const later = verifyClaim('setStream() was added in Python 3.12.', page, { context });
    expect(later.conflicts.map((c) => c.page)).toContain('3.11.2');
  });

  it('counts the head noun of a compound after a number', () => {
    expect(extractQuantities('run 1000 SMTP client processes').map((q) => q.unit)).toEqual([
      'processes',
    ]);
    const r = verifyClaim(
      'By default a single SMTP client may have up to 50 simultaneous connections.',
      'Although Postfix can be configured to run 1000 SMTP client processes at the same time, it is rarely desirable that it makes 1000 simultaneous connections to the same remote system.',
    );
    expect(r.verdict, r.reason).not.toBe('contradicted');
  });
});
