// Readings of option rows and field lists, of values named as defaults, and of swaps that word
// matching alone calls supported: each pair below is a true claim and a false one on one passage.
import { beforeAll, describe, expect, it } from 'vitest';
import { contrastSwaps } from '../../../src/verify/associations.js';
import { analyze, verifyClaim } from '../../../src/verify/index.js';
import { expectConflict, expectSupported } from './expect-verdict.js';

// The tagger and WordNet load once per process: slow on a busy machine, so outside any test.
beforeAll(() => {
  analyze('Warm up.');
}, 120_000);

const verdict = (claim: string, page: string, context = ''): string =>
  verifyClaim(claim, page, { context, heading: context }).verdict;

describe('verifyClaim: a table row read with its header', () => {
  const header = 'Option | Valid values | Default';
  const row = (claim: string, quote: string, cells: string[]): string =>
    verifyClaim(claim, quote, { heading: header, context: header, cells }).verdict;

  it('reads the cell under Default as the default, whatever the value', () => {
    const cells = ['headingStyle', 'setext or atx', 'setext'];
    const quote = 'headingStyle setext or atx setext';
    expect(
      row('The headingStyle option defaults to setext, the other being atx.', quote, cells),
    ).toBe('supported');
    expect(
      row('The headingStyle option defaults to atx, the other being setext.', quote, cells),
    ).toBe('contradicted');
    // A switch's default, with more than one word in a cell before it.
    const flag = ['preformattedCode', 'false or true', 'false'];
    expect(
      row(
        'The preformattedCode option is false by default.',
        'preformattedCode false or true false',
        flag,
      ),
    ).toBe('supported');
    expect(
      row(
        'The preformattedCode option is true by default.',
        'preformattedCode false or true false',
        flag,
      ),
    ).toBe('contradicted');
  });

  it('counts the words of the header as stated by the row only when its cells are known', () => {
    const claim = 'The preformattedCode option is false by default.';
    const quote = 'preformattedCode false or true false';
    // "option" and "default" are the header's: without the cells, the row states too little.
    expect(row(claim, quote, ['preformattedCode', 'false or true', 'false'])).toBe('supported');
    expect(verifyClaim(claim, quote, { heading: header, context: header }).verdict).not.toBe(
      'supported',
    );
  });
});

describe('verifyClaim: values named as defaults', () => {
  it('contradicts a named default the passage names as another choice', () => {
    expectConflict(
      'Code blocks are fenced by default.',
      'The codeBlockStyle option can be indented or fenced; the default is indented.',
      'term',
    );
    expectSupported(
      'Code blocks are indented by default.',
      'The codeBlockStyle option can be indented or fenced; the default is indented.',
    );
  });

  it('takes "X by default" for a value only after a copula', () => {
    // "window" is what is used, not a value of a setting.
    expectSupported(
      'The client uses a larger window by default than Node.js.',
      'The client uses a window larger than the one of Node.js by default; the default is dynamic.',
    );
  });
});

describe('verifyClaim: names that a longer word or another literal does not state', () => {
  it('does not take "connected" for connect()', () => {
    expect(
      verdict(
        'Calling connect() on a socket that is already connected throws ERR_SOCKET_DGRAM_NOT_CONNECTED.',
        'This method throws an ERR_SOCKET_DGRAM_NOT_CONNECTED exception if the socket is not connected.',
      ),
    ).not.toBe('supported');
    // The head of an identifier still names it: a plural, or the rest of a name.
    expectSupported('PING frames are answered.', 'PINGs are answered as frames arrive.');
  });

  it('takes a name that is also a word in other capitals only before its version', () => {
    expectSupported(
      'Autoseeding without crypto is somewhat slow, taking about twenty to thirty milliseconds on a 2012 Windows 7 laptop.',
      'Autoseeding without crypto is somewhat slow, about 20-30 milliseconds on a 2012 windows 7 1.5ghz i5 laptop, as seen on Firefox 19, IE 10, and Opera.',
    );
    expect(
      verdict(
        'When body is a Stream, node-fetch sets Content-Length automatically.',
        'Content-Length | (automatically calculated, if possible) Transfer-Encoding | chunked (when req.body is a stream) User-Agent | node-fetch',
      ),
    ).not.toBe('supported');
  });

  it('contradicts a call made with another literal', () => {
    const page =
      "Route handlers and middleware can themselves use next('router') at any time to exit the current router instance.";
    expectConflict(
      "Route handlers can call next('route') at any time to exit the current router instance.",
      page,
      'term',
      { claim: 'route', page: 'router' },
    );
    expectSupported(
      "Route handlers can call next('router') at any time to exit the current router instance.",
      page,
    );
  });

  it('does not take a pronoun for a name the page gives the predicate to', () => {
    expectSupported(
      'DHAT records 12 stack frames by default, and lowering that with --num-callers may make it run slightly faster.',
      'Note that stacks by default have 12 frames. This may be more than necessary, in which case the --num-callers flag can be used to reduce the number, which may make DHAT run slightly faster.',
    );
  });
});

describe('verifyClaim: a negated predicate the page states in the next clause', () => {
  const page =
    'Sending a datagram greater than the receiver MTU will not work because the packet will get silently dropped without informing the source that the data did not reach its intended recipient.';

  it('contradicts "is not dropped" against "will not work because ... will get dropped"', () => {
    expectConflict(
      "A datagram bigger than the receiver's MTU isn't silently dropped.",
      page,
      'negation',
    );
    expectSupported("A datagram bigger than the receiver's MTU is silently dropped.", page);
  });

  it('pairs two verbs of clauses that share all else ("does not contain" / "includes")', () => {
    const page =
      'Note: The published NPM package includes the built javascript library. If you cloned this repo and wish to build the library manually use: npm run build';
    expectConflict(
      'The smart-buffer package published on npm does not contain the built JavaScript library.',
      page,
      'negation',
      { claim: 'not contain', page: 'includes' },
    );
    expectSupported(
      'The smart-buffer package published on npm contains the built JavaScript library.',
      page,
    );
    // A verb the page states in another clause is not put otherwise in this one.
    expect(
      verdict(
        'For a new Python 3 version only architecture any packages need to be rebuilt; architecture all packages generally do not.',
        'For Python 3, there is no general need to update architecture all packages for a new Python 3 version. Only architecture any packages need to be rebuilt.',
      ),
    ).toBe('supported');
  });

  it('reads "without" + a gerund as a clause of its own', () => {
    const tokens = analyze('The packet is dropped without informing the source.').tokens;
    const at = (w: string): number => tokens.find((t) => t.lower === w)!.clause;
    expect(at('informing')).not.toBe(at('dropped'));
  });
});

describe('verifyClaim: contrasts and pairs turned round', () => {
  const globs =
    'The glob file is a simple list of lines. It is deprecated in favour of the globs2 file which also lists the weight of the glob rule.';

  it('contradicts "A in favour of B" turned round, even when the page says "it" for A', () => {
    expectConflict(
      'The globs2 file is deprecated in favour of globs, which also lists the weight of each glob rule.',
      globs,
      'term',
    );
    expectSupported(
      'The glob file is deprecated in favour of globs2, which also lists the weight of each glob rule.',
      globs,
    );
  });

  it('does not weigh "A instead of B" against "B in favour of A"', () => {
    expect(
      contrastSwaps(
        analyze('Use the globs2 file instead of the glob file.'),
        analyze('The glob file is deprecated in favour of the globs2 file.'),
      ),
    ).toEqual([]);
  });

  it('contradicts two values traded between two things in a sentence that leaves its verb out', () => {
    const page =
      'If no magic rule matches the data, use the default type of application/octet-stream for binary data, or text/plain for textual data.';
    expectConflict(
      'If no magic rule matches, use text/plain as the default type for binary data and application/octet-stream for textual data.',
      page,
      'term',
    );
    expectSupported(
      'If no magic rule matches, use application/octet-stream as the default type for binary data and text/plain for textual data.',
      page,
    );
  });

  it('does not take a choice the passage leaves open for a preference', () => {
    const claim =
      "When populate-- is enabled, arguments after -- end up in _ instead of under the '--' key; the setting defaults to false.";
    const open = 'default: false. key: populate--. Should unparsed flags be stored in -- or _.';
    expect(verdict(claim, open, 'API populate --')).not.toBe('supported');
    // It keeps nothing from a conflict the passage states.
    expectConflict(
      'If the decode function throws, parse passes the error on to the caller instead of returning the original value.',
      'Note: if an error is thrown from the decode function, parse does not pass it on; the original, non-decoded value is returned.',
      'negation',
    );
    expectSupported(
      claim,
      "default: false. key: populate--. Arguments after -- end up in _, not under the '--' key.",
      { context: 'API populate --' },
    );
  });

  it('contradicts two names traded in a sentence that joins its statements with "and both"', () => {
    const page =
      'When Node.js detects that it is being run with a text terminal attached, process.stdin will, by default, be initialized as an instance of tty.ReadStream and both process.stdout and process.stderr will, by default, be instances of tty.WriteStream.';
    const claim = (a: string, b: string): string =>
      `When Node.js detects an attached text terminal, process.stdin is set up by default as a ${a}, while process.stdout and process.stderr are both ${b} instances.`;
    expect(verdict(claim('tty.WriteStream', 'tty.ReadStream'), page, 'TTY')).toBe('contradicted');
    expect(verdict(claim('tty.ReadStream', 'tty.WriteStream'), page, 'TTY')).toBe('supported');
  });

  it('reads "will be overridden by" as an order', () => {
    const page =
      'Remove filters will be overridden by the keep filters, standard CommonMark rules, and any added rules.';
    expectConflict(
      'Keep filters are overridden by remove filters, the standard CommonMark rules and any added rules.',
      page,
      'comparative',
    );
    expectSupported(
      'Remove filters are overridden by keep filters, the standard CommonMark rules and any added rules.',
      page,
    );
  });
});

describe('verifyClaim: words that read as numbers, comparisons or negations but are none', () => {
  it('does not count "Once a block is reallocated" as one time', () => {
    expect(
      analyze('Once a block is reallocated, DHAT keeps its program point.').quantities,
    ).toEqual([]);
    expect(analyze('It runs once a day.').quantities.map((q) => q.value)).toEqual([1]);
  });

  it('takes a number passed to a call for code, not for a measure', () => {
    expect(
      analyze('Imagine a malloc(100) call followed by a realloc(200) call.').quantities,
    ).toEqual([]);
    const page =
      'Imagine a malloc(100) call followed by a realloc(200) call. This combination is considered to add two to the total block count, and 300 bytes to the total bytes count.';
    const claim = (bytes: number): string =>
      `DHAT counts a malloc(100) followed by a realloc(200) as two blocks and ${bytes} bytes in its totals.`;
    expect(verdict(claim(300), page, 'DHAT')).toBe('supported');
    expect(verdict(claim(200), page, 'DHAT')).toBe('contradicted');
  });

  it('counts the head of a noun compound: "12 stack frames" are frames', () => {
    expect(analyze('DHAT records 12 stack frames.').quantities[0]?.unit).toBe('frames');
  });

  it('does not swap the sides of a comparative before its noun', () => {
    const page =
      'The shade of green, blue or yellow used for a node indicate its significance. Darker shades represent greater significance (in terms of bytes or blocks).';
    const claim = (shade: string): string =>
      `A ${shade} shade of green, blue or yellow on a node in DHAT's PP tree means that node is more significant in terms of bytes or blocks.`;
    const context = 'DHAT PP tree';
    expect(verdict(claim('darker'), page, context)).toBe('supported');
    expect(verdict(claim('lighter'), page, context)).toBe('contradicted');
    // "less significant" measures what "greater significance" does, the other way.
    const less = claim('darker').replace('more significant', 'less significant');
    expect(verdict(less, page, context)).toBe('contradicted');
  });

  it('does not deny one pole of a claim that states both, against a page that leaves a verb out', () => {
    const page = 'In this example, HTML files are not cached, while everything else is for 1 day.';
    expectSupported('HTML files are not cached while everything else is cached for one day.', page);
    expectConflict(
      'HTML files are cached while everything else is cached for one day.',
      page,
      'negation',
    );
  });
});

describe('verifyClaim: an entry read with its heading', () => {
  const page =
    'This option brings backward compatibility with projects which based on ignore@4.x. If options.allowRelativePaths is true, ignore will not check whether the given path to be tested is path.relative()d.';
  const heading = 'ignore(options) options.allowRelativePaths?: boolean since 5.2.0';
  const claim = (version: string): string =>
    `The allowRelativePaths option, added in ${version} for backward compatibility with ignore@4.x, stops ignore from checking that the paths it tests are path.relative()'d.`;

  it("takes the version the entry's heading gives, and contradicts another", () => {
    expect(verdict(claim('5.2.0'), page, heading)).toBe('supported');
    expect(verdict(claim('5.3.0'), page, heading)).toBe('contradicted');
    // A section number is no version, nor the version of the docs in a page title.
    expect(verdict(claim('5.2.0'), page, '10.5.2.0 Options')).not.toBe('supported');
    expect(verdict(claim('5.3.0'), page, 'ignore v5.2.0 Documentation')).not.toBe('contradicted');
  });

  it('reads "stops X from checking" as "X does not check", however the gerund is tagged', () => {
    const makes = claim('5.2.0').replace('stops ignore from checking', 'makes ignore check');
    expect(verdict(makes, page, heading)).not.toBe('supported');
  });

  it("takes a type in brackets for its name, not for an HTML element that's no claim's", () => {
    expectSupported(
      'Node.js suggests URLSearchParams instead of querystring when performance is not critical or when browser compatibility is wanted.',
      'querystring is more performant than <URLSearchParams> but is not a standardized API. Use <URLSearchParams> when performance is not critical or when compatibility with browser code is desirable.',
      { context: 'Query string Node.js' },
    );
  });
});
