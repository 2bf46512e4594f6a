import { beforeAll, describe, expect, it } from 'vitest';
import { analyze, extractQuantities, verifyClaim } from '../../../src/verify/index.js';
import type { ConflictKind } from '../../../src/verify/index.js';

// The tagger and WordNet load once per process: slow on a busy machine, so outside any test.
beforeAll(() => {
  analyze('Warm up.');
}, 120_000);

/** Each rule has a true pair (a rewording the page supports) and a false pair (another fact). */
function supported(claim: string, page: string): void {
  const r = verifyClaim(claim, page);
  expect(r.verdict, `${r.reason} ${JSON.stringify(r.conflicts)}`).toBe('supported');
}

function contradicted(claim: string, page: string, kind: ConflictKind): void {
  const r = verifyClaim(claim, page);
  expect(r.verdict, r.reason).toBe('contradicted');
  expect(r.conflicts.map((c) => c.kind)).toContain(kind);
}

describe('clauses joined by "and" with a subject of their own', () => {
  it('keeps the negation of each clause apart', () => {
    contradicted(
      'The session is not persistent and the token is still valid.',
      'The session is persistent and the token is no longer valid.',
      'negation',
    );
    supported(
      'The log file is rotated daily and the old file is not deleted.',
      'Every day the log file is rotated, and the old file is not deleted.',
    );
  });
});

describe('a negation that bounds a number or a comparison', () => {
  it('reads "cannot be longer than" and "must not exceed" as upper bounds', () => {
    supported('Header values are limited to 8 KiB.', 'A header value cannot be longer than 8 KiB.');
    supported('A request body must be at most 10 MB.', 'A request body must not exceed 10 MB.');
    expect(extractQuantities('It must not exceed 10 MB.')[0]?.bound).toBe('le');
    contradicted(
      'A header value can be longer than 8 KiB.',
      'A header value cannot be longer than 8 KiB.',
      'comparative',
    );
  });

  it('reads "not as fast as" as "slower than"', () => {
    supported(
      'The polling transport is not as fast as WebSockets.',
      'The polling transport is slower than WebSockets.',
    );
    contradicted(
      'The polling transport is not as fast as WebSockets.',
      'The polling transport is faster than WebSockets.',
      'comparative',
    );
  });
});

describe('numbers in other words', () => {
  it('reads a minus sign before a number', () => {
    supported('Use -1 to disable the limit.', 'Set the limit to -1 to disable it.');
    contradicted(
      'Set the limit to -1 to disable it.',
      'Set the limit to 0 to disable it.',
      'number',
    );
  });

  it('reads "upward of" as "more than", and a count after "of" as no year', () => {
    supported(
      'The server handles more than 3000 requests per second.',
      'The server handles upward of 3000 requests per second.',
    );
    contradicted(
      'The server handles fewer than 3000 requests per second.',
      'The server handles upward of 3000 requests per second.',
      'comparative',
    );
  });

  it('reads a four-digit value in a value slot as a number, whatever its size', () => {
    const page =
      'escapeCodeTimeout <number> The duration readline will wait for a character. Default: 500.';
    expect(extractQuantities('It has a default of 1000.').map((q) => q.kind)).toEqual(['number']);
    expect(extractQuantities('Default: 2000.').map((q) => q.kind)).toEqual(['number']);
    expect(extractQuantities('in the summer of 1999').map((q) => q.kind)).toEqual(['date']);
    contradicted('escapeCodeTimeout has a default of 1000.', page, 'number');
    supported('escapeCodeTimeout has a default of 500.', page);
  });

  it("pits a claim's value against the value in its slot, not the nearest in characters", () => {
    const page =
      'crlfDelay <number> If the delay between CR and LF exceeds crlfDelay milliseconds, both are ' +
      'treated as separate end-of-line input. crlfDelay will be coerced to a number no less than ' +
      '100. It can be set to Infinity, in which case CR followed by LF will always be considered ' +
      'a single newline (which may be reasonable for reading files with CRLF line delimiter). ' +
      'Default: 100.';
    contradicted('crlfDelay defaults to 250 milliseconds.', page, 'number');
    supported('crlfDelay defaults to 100 milliseconds.', page);
  });

  it('reads a bare four-digit value outside modern years as a number', () => {
    const page = 'maxSockets - The maximum number of sockets to keep. Default 1024.';
    expect(extractQuantities(page).map((q) => q.kind)).toEqual(['number']);
    supported('By default the pool keeps at most 1024 sockets.', page);
    contradicted('By default the pool keeps at most 2048 sockets.', page, 'number');
  });

  it('reads "unlimited" and "no limit" as a count without a bound', () => {
    supported(
      'The pool has no limit on the number of clients.',
      'The pool creates an unlimited number of clients.',
    );
    contradicted(
      'The pool creates at most 10 clients.',
      'The pool creates an unlimited number of clients.',
      'number',
    );
  });

  it('reads a number joined to its unit by a hyphen ("a two-byte header") as that measure', () => {
    expect(extractQuantities('a two-byte header and a 10-second wait').map((q) => q.dim)).toEqual([
      'bytes',
      'ms',
    ]);
    // A hyphen before a word that is no unit states no unit.
    expect(extractQuantities('a two-step process').map((q) => q.dim)).toEqual(['count']);
    const page =
      'The zlib format has a very small header of only two bytes to identify it as a zlib stream and to provide decoding information, and a four-byte trailer with a fast check value to verify the integrity of the uncompressed data after decoding.';
    supported(
      'The zlib format has a tiny two-byte header and a four-byte trailer with a check value for the uncompressed data.',
      page,
    );
    contradicted(
      'The zlib format has a tiny two-byte header and an eight-byte trailer with a check value for the uncompressed data.',
      page,
      'number',
    );
  });

  it('takes a page value the claim states as written, Infinity too, for no rival of another', () => {
    const r = verifyClaim(
      'getRemainingTTL returns 0 for a key that is not in the cache and Infinity for an item stored without a TTL.',
      'If item is not in cache, returns 0. Returns Infinity if item is in cache without a defined TTL.',
    );
    expect(r.conflicts.map((c) => c.kind)).not.toContain('number');
  });

  it('gives a value in a list of options to the option named last before it', () => {
    const page =
      'maxSockets: the maximum number of sockets. Default: 100. maxFreeSockets: the maximum number of free sockets. Default: 256.';
    supported('The default value of maxSockets is 100.', page);
    supported('By default maxFreeSockets is 256.', page);
    contradicted('The default value of maxSockets is 256.', page, 'number');
  });

  it('compares a number after a name with a version, "v18+" with "18 or later"', () => {
    expect(extractQuantities('Node.js v18+').map((q) => q.bound)).toEqual(['ge']);
    supported('The module requires Node.js 18 or later.', 'The module requires Node.js v18+.');
    contradicted(
      'The module requires Node.js 16 or later.',
      'The module requires Node.js v18+.',
      'number',
    );
  });
});

describe('negations of one page clause stated in two claim clauses', () => {
  it('pairs each negated word with the page word negated, not the clause-wide count', () => {
    const page =
      "features() gets a description of supported features. If the FTP server doesn't support this request you'll still get an empty Map instead of an error response.";
    supported(
      "If the server doesn't support the request, features() gives you an empty Map instead of an error.",
      page,
    );
    contradicted(
      'If the server supports the request, features() gives you an empty Map instead of an error.',
      page,
      'negation',
    );
  });
});

describe('an aside in brackets', () => {
  it('is a statement of its own when it has a verb, and a gloss when it has none', () => {
    const page =
      "You may then get space leak reports for glibc allocations (please don't report these to the glibc people, since they are not real leaks), but at least the program runs.";
    supported('You may then see glibc leak reports that are not real leaks.', page);
    contradicted('You may then see glibc leak reports that are real leaks.', page, 'negation');
    // "(g)" glosses "global": the negation before it still reaches "flag".
    contradicted(
      'The pattern has the global flag set.',
      'The pattern does not have the global (g) flag set.',
      'negation',
    );
  });
});

describe('quoted literals', () => {
  it('takes a quoted value as a key term, not an apostrophe', () => {
    expect(analyze("It returns the string 'ok' if it can't fail.").keyTerms).toContainEqual({
      text: 'ok',
      kind: 'code',
    });
    supported(
      "On success the function returns the string 'ok'.",
      "The function returns the string 'ok' when it succeeds.",
    );
    contradicted(
      "The function returns the string 'ok' on success.",
      "The function returns the string 'done' on success.",
      'term',
    );
  });
});

describe('words swapped in a frame', () => {
  it('reads a word between a determiner and a noun as a modifier, even one the claim repeats', () => {
    contradicted(
      'The retry interceptor caches DNS lookups.',
      'The dns interceptor caches DNS lookups.',
      'term',
    );
    supported(
      'The dns interceptor caches DNS lookups for a while.',
      'The dns interceptor caches DNS lookups for some time.',
    );
  });

  it('takes no hedging adverb or plural quantifier for a swapped fact', () => {
    supported('Compression is usually worth enabling.', 'Compression is generally worth enabling.');
    supported('The agent can connect to many hosts.', 'The agent can connect to multiple hosts.');
    contradicted(
      'The agent can connect to a single host.',
      'The agent can connect to multiple hosts.',
      'antonym',
    );
  });

  it('reads "ones" as a pronoun for the page noun', () => {
    supported(
      'If both the old and new keys are present, the new ones are used.',
      'If both the old and the new keys are present, the new keys are used.',
    );
    contradicted(
      'If both the old and new keys are present, the new ones are not used.',
      'If both the old and the new keys are present, the new keys are used.',
      'negation',
    );
  });

  it('swaps adjectives only between values of two-pole attributes, or two capabilities', () => {
    supported(
      'Entries are kept for a configurable period.',
      'Entries are kept for a given period.',
    );
    contradicted(
      'Entries are kept in the primary cache.',
      'Entries are kept in the secondary cache.',
      'antonym',
    );
    contradicted('The button is red.', 'The button is blue.', 'term');
    // Two capabilities are two facts.
    contradicted(
      'The function takes the executable address that the allocator returned.',
      'The argument is the writable address that the allocator returned.',
      'term',
    );
  });

  it('takes a broader or narrower name of the same thing for a rewording, not a swap', () => {
    const page = 'You should allocate at least 512 MB of RAM to your instance.';
    supported('Give your instance at least 512 MB of memory.', page);
    // Two kinds of one thing are a swap.
    contradicted(
      'The proxy forwards each request to the client.',
      'The proxy forwards each request to the server.',
      'term',
    );
  });

  it('finds no slot of one claim clause in the sentence that states the other', () => {
    const page =
      'The systems that measure most or all of the resources are based on 4.3BSD. Later BSD releases use different memory management code that measures fewer resources.';
    supported(
      'Systems that measure most or all of these resources are based on 4.3BSD, and later BSD releases measure fewer of them.',
      page,
    );
    // A parallel sentence, or one without the claim's condition, is no alibi for the swap.
    contradicted(
      'The bar option enables the cache for reads.',
      'The foo option enables the cache for reads. The bar option enables the cache for writes.',
      'term',
    );
    supported(
      'With the bar option, the cache is enabled for writes.',
      'The foo option enables the cache for reads. The bar option enables the cache for writes.',
    );
    contradicted(
      'If the number of connections on the mock agent is set to 1, a MockPool instance is returned.',
      'If the number of connections on the mock agent is set to 1, a MockClient instance is returned. Otherwise a MockPool instance is returned.',
      'term',
    );
    // A sentence stating the word with less than most of its clause is no alibi for the swap.
    expect(
      verifyClaim(
        'Idle sockets are closed after the timeout.',
        'Busy sockets are closed after the timeout. Idle sockets are kept open.',
      ).verdict,
    ).not.toBe('supported');
  });

  it('takes a word the passage states elsewhere as missing where the claim puts it', () => {
    const r = verifyClaim(
      'Uppercase proxy variables are also read.',
      'The agent reads the proxy settings. Uppercase environment variables are also read.',
    );
    expect(r.verdict).toBe('unrelated');
    expect(r.missing).toContain('proxy');
    contradicted(
      'Uppercase proxy variables are also read.',
      'Uppercase environment variables are also read.',
      'term',
    );
  });
});

describe('negation grounded in the same statement', () => {
  it('takes a negation about another case for no contradiction', () => {
    const r = verifyClaim(
      'The client retries a request at most 3 times.',
      'The client does not retry requests with streamed bodies.',
    );
    expect(r.verdict).toBe('unrelated');
    contradicted('The client does not retry requests.', 'The client retries requests.', 'negation');
  });

  it('pairs each page word with one claim word only', () => {
    contradicted(
      'If both the old and new keys are present, the new keys are not used.',
      'If both the old and the new keys are present, the new keys are used.',
      'negation',
    );
    supported(
      'If both the old and new keys are present, the new keys are not used.',
      'If both the old and the new keys are present, the new keys are ignored.',
    );
  });

  it('counts a negated antonym as stating the word', () => {
    supported(
      'Authentication is optional for local requests.',
      'Authentication is not required for local requests.',
    );
    contradicted(
      'Authentication is optional for local requests.',
      'Authentication is required for local requests.',
      'antonym',
    );
  });
});

describe('amounts, notation and conversions in other words', () => {
  it('takes an amount reworded for the same amount, and two scales for two', () => {
    supported(
      'The change would break thousands of packages.',
      'But that would break 1000s of packages.',
    );
    supported(
      'The option keeps the symbols at the cost of more memory.',
      'The option keeps the symbols, at the price of increased memory.',
    );
    contradicted(
      'That change would break hundreds of packages.',
      'That change would break thousands of packages.',
      'term',
    );
    contradicted(
      "If a response's body is less than this, the response is not cached.",
      "If a response's body is greater than or equal to this, the response is not cached.",
      'term',
    );
  });

  it('takes a unit without a number for a word the passage must state', () => {
    expect(
      verifyClaim(
        'The tool reports the elapsed time in milliseconds.',
        'The tool reports the elapsed real time used by the process.',
      ).verdict,
    ).toBe('unrelated');
  });

  it('reads "minutes:seconds" as words, not an emoticon and a stray word', () => {
    supported(
      'The E format reports the elapsed time as [hours:]minutes:seconds.',
      'The E format reports the elapsed real time used by the process, in [hours:]minutes:seconds.',
    );
  });

  it('reads "is converted to X" as naming the result, not what is converted first', () => {
    supported(
      'If a property is a data descriptor, the call converts it into an accessor descriptor so it can display the message.',
      'If the property is a data descriptor, it will be converted to an accessor descriptor in order to display the message.',
    );
  });

  it('reads "as zero values" as a value, "zero dependencies" as none', () => {
    supported(
      'The tool reports the unavailable values as zeros.',
      'The tool reports unavailable information as zero values.',
    );
    contradicted('The package has dependencies.', 'The package has zero dependencies.', 'negation');
  });
});

describe('negation carried by an antonym or stated twice', () => {
  it('takes "little" for "not much" on a predicate the page negates', () => {
    const page = 'Some systems do not provide much information about program resource use.';
    supported('Some systems provide little information about resource use.', page);
    contradicted('Some systems provide much information about resource use.', page, 'negation');
  });

  it('pairs a negated word with the page clause that negates it too', () => {
    const page =
      'Instead of just warning on the first invocation of a deprecated function and never ' +
      'again, this module will warn on the first invocation of a deprecated function per unique ' +
      'call site.';
    supported(
      'Rather than warning only the first time a deprecated function is called and never again, this module warns on the first call from each unique call site.',
      page,
    );
  });
});

describe('names and frames that are no swap', () => {
  it("takes a comparative of a known adjective for no rare term, nor for a name's holder", () => {
    supported(
      'The package brings the newer Buffer APIs to every version of Node.js.',
      'Use the new Node.js Buffer APIs in all versions of Node.js.',
    );
  });

  it("takes a page word in the slot for a swap when the claim's like word is stated as written", () => {
    const page = 'Mobile is supported (need to install stream module to enable Streaming API).';
    contradicted(
      'Mobile is supported, but you have to install the buffer module to get the Streaming API.',
      page,
      'term',
    );
    supported(
      'Mobile is supported, but you have to install the stream module to get the Streaming API.',
      page,
    );
  });

  it('takes no word before a comma for a slot the page fills otherwise', () => {
    supported(
      'In Nordic mythology, Valgrind is the name of the main entrance to Valhalla.',
      'Keeping with the Nordic theme, Valgrind was chosen. Valgrind is the name of the main entrance to Valhalla.',
    );
    contradicted('The button is red.', 'The button is blue.', 'term');
  });
});

describe('comparisons of the same subject', () => {
  it('judges a comparison by the page sentence about its subject', () => {
    const page =
      'Lower cache levels result in faster startup, but less caching. Higher levels result in ' +
      'greater caching, but slower startup.';
    contradicted('Lower cache levels give slower startup.', page, 'comparative');
    contradicted('Lower cache levels start slower.', page, 'comparative');
    supported('Lower cache levels give faster startup.', page);
  });

  it('pairs each comparison of a claim stating both cases with the page clause of its case', () => {
    const page =
      'Lower compression levels result in faster execution, but less compression. Higher levels ' +
      'result in greater compression, but slower execution.';
    supported(
      'Lower compression levels run faster but compress less, while higher levels compress more but run slower.',
      page,
    );
    contradicted(
      'Lower compression levels run slower but compress more, while higher levels compress less but run faster.',
      page,
      'comparative',
    );
  });
});
