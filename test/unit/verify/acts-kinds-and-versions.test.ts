// An act the page says is not supported is denied ("constructing X directly is not supported"
// against "you can construct X yourself"); a noun's kind changed ("arithmetic coding" for the
// page's "Huffman coding") or two nouns' modifiers swapped ("zero-based line and one-based
// column" for the page's "one-based line and zero-based column") is a swapped term; a version an
// entry's metadata gives under its heading ("Added in: v22.0.0", "Deprecated since: v10.0.0") is
// stated for its text, and one its History table names is no changed one.
// Each true claim comes with the false one it must still catch.
import { beforeAll, describe, expect, it } from 'vitest';
import { analyze, verifyClaim } from '../../../src/verify/index.js';
import { expectConflict, expectSupported, verdictOf } from './expect-verdict.js';

beforeAll(() => {
  analyze('Warm up.');
}, 120_000);

describe('an act the page does not support', () => {
  const page =
    'Channels are created with diagnostics_channel.channel(name), constructing a channel ' +
    'directly with new Channel(name) is not supported.';

  it('contradicts a claim that the act can be done, past an "instead of" of its own', () => {
    expectConflict(
      'You can build a channel yourself with new Channel(name) instead of going through diagnostics_channel.channel(name).',
      page,
      'negation',
    );
    expectConflict(
      'A channel can be constructed directly with new Channel(name).',
      page,
      'negation',
    );
  });

  it('keeps one clause for a fact turned round with "instead of"', () => {
    expectConflict(
      "The REPL's reverse-i-search keeps duplicated history entries instead of skipping them.",
      'Duplicated history entries will be skipped.',
      'negation',
      undefined,
      { context: 'REPL' },
    );
  });

  it('supports the claim that it cannot, and the other way stated plainly', () => {
    expectSupported(
      'Channels are made with diagnostics_channel.channel(name); you cannot construct one directly with new Channel(name).',
      page,
    );
    expectSupported('Channels are created with diagnostics_channel.channel(name).', page);
  });
});

describe("a noun's kind changed, or two nouns' modifiers swapped", () => {
  const bzip2 =
    'bzip2 compresses files using the Burrows-Wheeler block-sorting text compression algorithm, and Huffman coding.';

  it('contradicts another kind of the same noun, the page naming neither in the claim', () => {
    expectConflict(
      'bzip2 combines Burrows-Wheeler block-sorting compression with arithmetic coding.',
      bzip2,
      'term',
      {
        claim: 'arithmetic',
        page: 'Huffman',
      },
    );
    expectSupported(
      'bzip2 combines Burrows-Wheeler block-sorting compression with Huffman coding.',
      bzip2,
    );
    // "other" refers; it names no kind.
    expectSupported(
      'Unless you pass other streams, the REPL writes its output to process.stdout.',
      'output <stream.Writable> The Writable stream to which REPL output will be written. Default: process.stdout.',
    );
  });

  const loc =
    'locations: When true, each node has a loc object attached with start and end subobjects, ' +
    'each of which contains the one-based line and zero-based column numbers in {line, column} form.';

  it('contradicts modifiers moved from one noun to the other', () => {
    expectConflict(
      'Each loc object holds zero-based line numbers and one-based column numbers.',
      loc,
      'term',
      {
        claim: 'zero-based line',
        page: 'one-based line',
      },
    );
    expectSupported(
      'Each loc object holds one-based line numbers and zero-based column numbers.',
      loc,
    );
    expectSupported('Each loc object has a one-based line and a zero-based column.', loc);
  });
});

describe('versions in the metadata under an entry heading', () => {
  const text =
    'This is a helper method available on a TracingChannel instance to check if any of the ' +
    'TracingChannel Channels have subscribers.';
  const heading = 'tracingChannel.hasSubscribers Added in: v22.0.0';
  const verdict = (claim: string, h = heading) =>
    verifyClaim(claim, text, { heading: h, context: h }).verdict;

  it('states the version the entry was added in, and sets another against it', () => {
    expect(
      verdict(
        'tracingChannel.hasSubscribers, added in v22.0.0, checks whether any TracingChannel Channels have subscribers.',
      ),
    ).toBe('supported');
    expect(
      verdict(
        'tracingChannel.hasSubscribers, added in v21.0.0, checks whether any TracingChannel Channels have subscribers.',
      ),
    ).toBe('contradicted');
  });

  it('reads every version of a list and a "Deprecated since:" line', () => {
    const h =
      'tracingChannel.hasSubscribers Added in: v20.10.0, v18.19.0 Deprecated since: v22.1.0';
    expect(
      verdict(
        'Since v18.19.0, tracingChannel.hasSubscribers checks whether any TracingChannel Channels have subscribers.',
        h,
      ),
    ).toBe('supported');
    expect(
      verdict(
        'Deprecated since v22.1.0, tracingChannel.hasSubscribers checks whether any TracingChannel Channels have subscribers.',
        h,
      ),
    ).toBe('supported');
  });

  it('reads them only for a version of the entry the heading names', () => {
    const timer =
      'Use the same label when calling console.timeEnd() to stop the timer and output the ' +
      'elapsed time in suitable time units to stdout.';
    const h = 'console.time([label]) Added in: v0.1.104';
    const r = verifyClaim(
      'Since v13.0.0, console.timeEnd() shows the elapsed time in a suitable unit.',
      timer,
      { heading: h, context: h },
    );
    expect(r.verdict, r.reason).not.toBe('contradicted');
    expect(r.missing).toContain('13.0.0');
    // A fact of the entry said of the name it stands beside is not stated by its version.
    const alias = 'Deprecated alias for zlib.bytesWritten.';
    const bytes = 'zlib.bytesRead Added in: v8.1.0 Deprecated since: v10.0.0';
    const read = { heading: bytes, context: bytes };
    const claim = (a: string, b: string) =>
      `${a} has been deprecated since v10.0.0 and is just an alias for ${b}.`;
    expect(verifyClaim(claim('zlib.bytesRead', 'zlib.bytesWritten'), alias, read).verdict).toBe(
      'supported',
    );
    expect(verifyClaim(claim('zlib.bytesWritten', 'zlib.bytesRead'), alias, read).verdict).not.toBe(
      'supported',
    );
  });

  it("takes a version of the entry's History for no changed one, nor for a stated one", () => {
    const h = 'tracingChannel.hasSubscribers History Version Changes v23.0.0 Added in: v22.0.0';
    const r = verifyClaim(
      'Since v23.0.0, tracingChannel.hasSubscribers checks whether any TracingChannel Channels have subscribers.',
      text,
      { heading: h, context: h },
    );
    expect(r.verdict).not.toBe('supported');
    expect(r.verdict).not.toBe('contradicted');
    expect(r.missing).toContain('23.0.0');
  });
});

describe("an entry's fact said of the name it refers to", () => {
  const text =
    'Arguments are the same as for CSSselect.selectAll(query, elems). Only returns the first ' +
    'match, or null if there was no match.';
  const heading = 'CSSselect.selectOne(query, elems, options)';
  const read = { heading, context: heading };

  it("contradicts a claim whose subject is the other name, the entry's name its object", () => {
    const r = verifyClaim(
      'CSSselect.selectAll() accepts the same arguments as selectOne() but gives back only the first match.',
      text,
      read,
    );
    expect(r.verdict, r.reason).toBe('contradicted');
    expect(r.conflicts).toContainEqual({
      kind: 'term',
      claim: 'CSSselect.selectAll',
      page: 'selectOne',
    });
  });

  it("supports the claim whose subject is the entry's name, or an option of the entry's class", () => {
    const h = 'new RetryHandler(dispatchOptions, retryHandlers) Parameter: RetryOptions';
    expectSupported(
      'The default minTimeout of RetryHandler is 500 milliseconds, half a second.',
      'minTimeout number (optional) - Minimum number of milliseconds to wait before retrying. Default: 500 (half a second)',
      { heading: h, context: h },
    );
    expectSupported(
      'CSSselect.selectOne() accepts the same arguments as selectAll() but gives back only the first match.',
      text,
      read,
    );
  });
});

describe('a name in capitals inside, written apart on the page', () => {
  const page =
    'A very small single JS file (~7KiB gzipped) that includes inlined Web Assembly for very fast source analysis of ECMAScript module syntax only.';

  it('is stated, so a changed number beside it is a contradiction', () => {
    const claim = (size: string) =>
      `es-module-lexer ships as one very small JS file, about ${size} gzipped, with inlined WebAssembly for fast analysis of ECMAScript module syntax.`;
    expectSupported(claim('7KiB'), page, { context: 'es-module-lexer' });
    expectConflict(claim('17KiB'), page, 'number', undefined, { context: 'es-module-lexer' });
  });
});

describe('a name by its initials, a compound with or without its hyphen', () => {
  const page =
    'Comprehensively handles the JS language grammar while remaining small and fast. - ~10ms per MB of JS cold and ~5ms per MB of JS warm.';

  it('states "JavaScript" with "JS", so a changed number beside it is a contradiction', () => {
    const claim = (ms: string) =>
      `es-module-lexer takes about ${ms} per MB of JavaScript cold and about 5ms per MB warm.`;
    expectSupported(claim('10ms'), page, { context: 'es-module-lexer' });
    expectConflict(claim('20ms'), page, 'number', undefined, { context: 'es-module-lexer' });
  });

  it('does not read initials that spell a word ("AbortSignal" is not "as")', () => {
    expect(
      verdictOf(
        'The AbortSignal is returned as soon as possible.',
        'It is returned as soon as possible.',
      ),
    ).not.toBe('supported');
  });

  it('states "predefined" with "pre-defined" and the other way round', () => {
    const lead =
      'As a convenience, this module also takes certain pre-defined names in addition to IP addresses, which expand into IP addresses:';
    const item = 'loopback: IPv4 and IPv6 loopback addresses (like ::1 and 127.0.0.1).';
    expectSupported(
      'The predefined name loopback stands for the IPv4 and IPv6 loopback addresses, such as ::1 and 127.0.0.1.',
      item,
      { context: lead },
    );
    expectSupported(
      'A multi-threaded program must lock the table.',
      'A multithreaded program must lock the table.',
    );
    // A name is not a compound: `cacheControl` is not the Cache-Control header.
    expect(
      verdictOf(
        'Turning cacheControl off stops send from setting the response header.',
        'Turning it off stops send from setting the Cache-Control response header.',
      ),
    ).not.toBe('supported');
  });
});

describe('"not big enough" as "too small"', () => {
  const page =
    "ASN1_MEM_ERROR if The value vector isn't big enough to store the result, and in this case len will contain the number of bytes needed.";

  it('reads the negation on the adjective before "enough", so its antonym agrees', () => {
    expectSupported(
      'If the value vector is too small to store the result, the function returns ASN1_MEM_ERROR.',
      page,
    );
    expectConflict(
      'If the value vector is big enough to store the result, the function returns ASN1_MEM_ERROR.',
      page,
      'negation',
    );
  });
});

describe('"keeps X from being done"', () => {
  const page =
    "If relativeSelector is set to false, selectors won't be absolutized and selectors can test for parent elements outside of the context.";

  it('negates the passive participle after "from being"', () => {
    expectSupported(
      'Setting relativeSelector to false keeps selectors from being absolutized, so they can test for parent elements outside the context.',
      page,
    );
    expectConflict(
      'Setting relativeSelector to false lets selectors be absolutized, so they can test for parent elements outside the context.',
      page,
      'negation',
    );
  });
});

describe('a negation over two participles joined by "and"', () => {
  const page =
    'Memory for quite a number of destructed objects is not immediately freed and given back to the OS, but kept in the pool(s) for later re-use.';

  it('reaches the second, so "instead of giving it back" agrees and "is given back" does not', () => {
    expectSupported(
      'Memory pool allocators keep the memory of destructed objects for later reuse instead of giving it back to the OS.',
      page,
    );
    expectConflict(
      'Memory of destructed objects is immediately given back to the OS.',
      page,
      'negation',
    );
  });
});

describe('a negation over two verbs joined by "or"', () => {
  const page =
    'The scanner does not follow symbolic links or read hidden files, so a dotfile is never indexed.';

  it('denies the second too ("not A or B" is neither), with or without its own "to"', () => {
    expectSupported('The scanner does not read hidden files.', page);
    expectConflict('The scanner reads hidden files.', page, 'negation');
    const failing =
      'A fallback type is used instead of Element when the selector fails to parse or to look up.';
    expectSupported('A fallback type is used when the selector fails to look up.', failing);
  });
});

describe('a denied guarantee over its "that" clause', () => {
  const page =
    "Note that it doesn't guarantee that it can detect every kind of syntax error, since such a parser would be very complex.";

  it('asserts nothing of the clause: a claim of the guarantee is contradicted, its denial stated', () => {
    expectConflict('Strict mode guarantees to catch every kind of syntax error.', page, 'negation');
    expectSupported(
      'Strict mode does not guarantee that every kind of syntax error is detected.',
      page,
    );
  });
});

describe('"impossible to" and "unable to" before a verb', () => {
  it('deny the verb as "cannot" does', () => {
    const lists =
      'In reStructuredText, it would be impossible to unambiguously mark up lists without blank lines before and after.';
    expectSupported('Lists could not be marked up unambiguously without blank lines.', lists);
    expectConflict('Lists can be marked up unambiguously without blank lines.', lists, 'negation');
    const port =
      'The daemon is unable to bind to a privileged port when it runs as an ordinary user.';
    expectSupported(
      'When it runs as an ordinary user, the daemon cannot bind to a privileged port.',
      port,
    );
    expectConflict(
      'When it runs as an ordinary user, the daemon binds to a privileged port.',
      port,
      'negation',
    );
  });
});

describe('a page that says a thing may happen', () => {
  const page = 'The server may compress responses when the client accepts gzip.';

  it('neither supports nor contradicts a claim that it does not', () => {
    const r = verifyClaim('The server does not compress responses.', page);
    expect(r.verdict, r.reason).toBe('unrelated');
    expect(r.missing).toContain('not compress');
    expectConflict(
      'The server does not compress responses.',
      'The server compresses responses when the client accepts gzip.',
      'negation',
    );
    // What may happen is what a claim says cannot.
    expectConflict(
      'Memory from Buffer.allocUnsafe() is zeroed, so it cannot hold sensitive data.',
      'The memory of Buffer.allocUnsafe() is not initialized and may contain sensitive data.',
      'negation',
    );
  });
});

describe('adverbs that oppose through their adjectives', () => {
  it('sets "synchronously" against "asynchronously"', () => {
    expectConflict(
      'You can call parse() synchronously.',
      'You can call parse asynchronously.',
      'antonym',
      {
        claim: 'synchronously',
        page: 'asynchronously',
      },
    );
    expectSupported('You can call parse() asynchronously.', 'You can call parse asynchronously.');
  });
});
