// A value the page denies, two denials that swap what they deny, an antonym another clause of the
// claim owns, an antonym beside a single shared word, a phrase a denying verb governs ("leaves
// out the canvas module"), a case opened with "Given", section numbers that are no versions, a
// list that ends at a lone letter, a statement of the claim the passage states a third of, and
// swaps: across a sentence between, of values given for names, not of a word inside a longer one;
// a change "from X to Y", which says "Y instead of X"; an act that "is not something" a project
// does; a corrective "not" before a case (", not when it is invoked"); a subject whose
// predicate follows a relative clause on it; and "disable X" agreeing with "stops from X-ing".
import { beforeAll, describe, expect, it } from 'vitest';
import { analyze, extractQuantities, verifyClaim } from '../../../src/verify/index.js';
import { expectConflict, expectSupported } from './expect-verdict.js';

beforeAll(() => {
  analyze('Warm up.');
}, 120_000);

describe('denied values', () => {
  it('sets no other value against one the page rules out', () => {
    const page =
      'A short poll interval forwards messages faster but uses more resources. We strongly recommend not to set the interval to 0 seconds.';
    const r = verifyClaim(
      'The poll interval is 10 seconds by default, and a shorter one forwards messages faster but uses more resources.',
      page,
    );
    expect(r.conflicts, r.reason).toEqual([]);
    // A value a condition denies still holds.
    expectConflict(
      'By default the handler sends to port 601 over UDP.',
      'By default the handler sends over UDP. Note that if your server is not listening on UDP port 514, the handler may appear not to work.',
      'number',
    );
    // The value the page gives plainly is still compared.
    expectConflict(
      'A short poll interval of 10 seconds forwards messages faster.',
      'A short poll interval of 5 seconds forwards messages faster.',
      'number',
    );
  });
});

describe('denials that swap what they deny', () => {
  const page =
    'The constant equal to -1 gives a good compromise between compression and speed. Level 0 actually does no compression at all, and in fact expands the data slightly.';

  it('contradicts a claim that affirms what the page denies and denies what it affirms', () => {
    expectConflict(
      'Level 0 still compresses the data a little instead of expanding it.',
      page,
      'negation',
      { claim: 'compresses', page: 'no compression' },
    );
  });

  it('supports the same denials put another way', () => {
    expectSupported('Level 0 does no compression at all and expands the data slightly.', page);
  });
});

describe('a change from one thing to another', () => {
  const page =
    'Use SHA-256 instead of MD5 for hashing of authenticators in the replay cache. This helps sites that must build with FIPS 140 conformant libraries that lack MD5.';

  it('reads "switched from X to Y" as "Y instead of X"', () => {
    expectSupported(
      'The replay cache switched the hashing of authenticators from MD5 to SHA-256, which helps sites whose FIPS 140 conformant libraries lack MD5.',
      page,
    );
  });

  it('contradicts the change put the other way round', () => {
    expectConflict(
      'The replay cache switched the hashing of authenticators from SHA-256 to MD5.',
      page,
      'negation',
      { claim: 'from SHA-256 to MD5', page: 'of MD5' },
    );
  });
});

describe('antonyms and the clause they belong to', () => {
  const row = '%O Pretty-print an Object on multiple lines.';
  // A table row under its header, found by meaning.
  const options = {
    context: 'obug Formatters Formatter | Representation',
    heading: 'Formatter | Representation',
    cells: ['%O', 'Pretty-print an Object on multiple lines.'],
    similarity: 0.79,
  };

  it('gives an antonym to the claim clause that states the page word itself', () => {
    const r = verifyClaim(
      "Among obug's formatters, %O pretty-prints an object over multiple lines, %o pretty-prints it on a single line, and %% outputs a single percent sign.",
      row,
      options,
    );
    expect(r.verdict, r.reason).not.toBe('contradicted');
  });

  it('still contradicts the poles swapped', () => {
    expectConflict(
      "Among obug's formatters, %O pretty-prints an object on a single line, and %o over multiple lines.",
      row,
      'antonym',
      undefined,
      options,
    );
  });

  it('takes one shared word and an antonym for no pairing in a longer clause', () => {
    const r = verifyClaim(
      'Any other configured value is ignored with an error message.',
      'Requests with two Content-length headers are fixed if the values are exactly the same, or rejected if they differ.',
    );
    expect(r.conflicts).toEqual([]);
    expect(r.verdict).not.toBe('supported');
    // A short clause is paired by its subject and the antonym.
    expectConflict(
      'By default, footnotes are included in the output.',
      'By default, footnotes are ignored.',
      'antonym',
    );
  });
});

describe('verbs that hold a denial', () => {
  const page =
    'This export works with Web Workers. Please note, this export does not include the canvas module.';

  it('reads "leaves out X" as "does not include X"', () => {
    expectSupported(
      'This export works with Web Workers, but it leaves out the canvas module.',
      page,
    );
    expectConflict(
      'This export works with Web Workers, and it includes the canvas module.',
      page,
      'negation',
    );
    // Only the phrase the verb denies: "canvas" moved elsewhere is still denied.
    expectConflict(
      'This export works with Web Workers, but it leaves out the worker module and takes canvas from the context.',
      'This export works with Web Workers. Please note, this export does not include canvas module, and the worker is retrieved from the context.',
      'negation',
    );
  });
});

describe('an act that "is not something" a project does', () => {
  const page =
    'Sanitizing unsafe content out of the input is explicitly not something we aim to do as part of Readability itself.';

  it('denies the gerund that opens the clause', () => {
    expectConflict(
      'Readability itself sanitizes unsafe content out of the input.',
      page,
      'negation',
    );
    expectSupported('Readability itself does not sanitize unsafe content out of the input.', page);
  });
});

describe('a corrective "not" before a case', () => {
  const page = 'The final handler will also unpipe anything from req when it is invoked.';

  it('denies the act in the case after ", not when" and ", not at the moment"', () => {
    for (const claim of [
      'The final handler unpipes anything from req only after the response has been written, not at the moment it is invoked.',
      'The final handler unpipes anything from req only after the response has been written, not when it is invoked.',
    ])
      expectConflict(claim, page, 'negation');
    expectSupported(
      'The final handler unpipes anything from req when it is invoked, not after the response has been written.',
      page,
    );
  });
});

describe('a subject with a relative clause on it', () => {
  const page =
    'By default, input lines that begin with a period are passed to the postprocessor, embedded at the corresponding point in the output.';

  it('pairs the subject with the predicate after the relative clause', () => {
    expectConflict(
      'Unless told otherwise, pic does not hand input lines that begin with a period to the postprocessor but drops them from the output.',
      page,
      'negation',
    );
    expectSupported(
      'Unless told otherwise, pic hands input lines that begin with a period to the postprocessor.',
      page,
    );
  });
});

describe('a denial the page puts as a verb that turns the act off', () => {
  const page =
    'Specifies the maximum time a job may take to print before it is canceled. Set to "0" to disable cancellation of "stuck" jobs. The default is "10800" (3 hours).';
  const context = 'cupsd.conf MaxJobTime seconds';

  it('agrees with "stops X from doing" the act', () => {
    const r = verifyClaim(
      'A job still printing after 10800 seconds, or three hours, is canceled by default, and setting MaxJobTime to 0 stops cupsd from canceling such stuck jobs.',
      page,
      { context },
    );
    expect(r.verdict, r.reason).toBe('supported');
  });
});

describe('a case opened with "Given"', () => {
  it('reads no act of giving in it', () => {
    const r = verifyClaim(
      'Given a bare address with no mask, the library treats it as a block of one address.',
      'The base address of the block as a string. Base does not give an indication of the size of the block.',
    );
    expect(r.conflicts.filter((c) => c.kind === 'negation')).toEqual([]);
  });
});

describe('names that hold dotted numbers', () => {
  it('reads a section number as no version', () => {
    expect(extractQuantities('(RFC 4291 §2.5.5.2)').filter((q) => q.kind === 'version')).toEqual(
      [],
    );
    expect(extractQuantities('fixed in 1.2.3.4').map((q) => q.text)).toEqual(['1.2.3.4']);
  });

  it('ends a list at a lone letter and its full stop', () => {
    const r = verifyClaim(
      'When the option is on, regexes are rewritten into a flag-independent form, supporting the i flag, m and s.',
      'When this option is true, regexes are rewritten into a flag-independent form. Supported flags: i, m, s',
    );
    expect(r.missing, r.reason).not.toContain('s.');
  });
});

describe('statements the passage leaves out', () => {
  it('keeps a joined statement of which the passage states a third from support', () => {
    const r = verifyClaim(
      'Turning on Emacs keys maps CTRL-P and CTRL-N to the up and down arrows, and it changes the line-editor bindings in the same way.',
      'If set to ON then the CTRL-P and CTRL-N keys will be mapped to up-arrow and down-arrow. Otherwise, they remain mapped to their configured bindings (normally UP_TWO lines and DOWN_TWO lines).',
      { context: 'Emacs keys' },
    );
    expect(r.verdict, r.reason).not.toBe('supported');
  });
});

describe('swapped facts', () => {
  it('reads two parallel sentences with one between them for a swap', () => {
    const page =
      'If the PAD flag is set then the decoder will ignore padding after the data. Upon a successful return the length is set to the number of bytes decoded. If the STRICT flag is set then the decoder will not decode any BER-encoded elements.';
    expectConflict(
      'Setting the PAD flag stops the decoder from decoding any BER-encoded elements, while the STRICT flag makes it ignore padding after the data.',
      page,
      'term',
    );
    expectSupported(
      'Setting the STRICT flag stops the decoder from decoding any BER-encoded elements, while the PAD flag makes it ignore padding after the data.',
      page,
    );
    // Only sentences that open alike: "If ..." and "To ..." give no two cases of one frame.
    const r = verifyClaim(
      "By default SysLogHandler sends to ('localhost', 514) over a UDP socket with the LOG_USER facility; to talk to a newer syslog daemon such as rsyslog over TCP, you pass socktype=socket.SOCK_STREAM.",
      'If facility is not specified, LOG_USER is used. The type of socket opened depends on the socktype argument, which defaults to socket.SOCK_DGRAM and thus opens a UDP socket. To open a TCP socket (for use with the newer syslog daemons such as rsyslog), specify a value of socket.SOCK_STREAM.',
      {
        context:
          "class logging.handlers.SysLogHandler(address=('localhost', SYSLOG_UDP_PORT), facility=LOG_USER, socktype=socket.SOCK_DGRAM)",
      },
    );
    expect(r.conflicts.filter((c) => c.kind === 'term')).toEqual([]);
  });

  it('still reads values given for names the other way round as swapped', () => {
    const page = 'Telnet direct to the server port (110 for POP3, 143 for IMAP).';
    expectConflict(
      'Connect with telnet to the server port, which is 110 for IMAP and 143 for POP3.',
      page,
      'term',
    );
    expectSupported(
      'Connect with telnet to the server port, which is 110 for POP3 and 143 for IMAP.',
      page,
    );
    expectConflict(
      'The prefix has to be between 0 and 32 for IPv6 and between 0 and 128 for IPv4.',
      'The number of prefix bits. For IPv4, this must be a value between 0 and 32. For IPv6, this must be between 0 and 128.',
      'number',
    );
  });

  it('reads a word the page writes inside a longer one as put elsewhere, not swapped', () => {
    const r = verifyClaim(
      'The library is meant to avoid call stack or recursion crashes even under the heaviest conditions.',
      'The library has the following goals: avoid maximum callstack/recursion or crashes, even under heaviest conditions.',
    );
    expect(r.conflicts.filter((c) => c.kind === 'term')).toEqual([]);
  });
});
