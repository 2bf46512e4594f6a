import { beforeAll, describe, expect, it } from 'vitest';
import { analyze, verifyClaim } from '../../../src/verify/index.js';
import { expectConflict, expectSupported } from './expect-verdict.js';

// The tagger and WordNet load once per process: slow on a busy machine, so outside any test.
beforeAll(() => {
  analyze('Warm up.');
}, 120_000);

describe('verifyClaim: numbers with units', () => {
  it('contradicts a changed size and names both values', () => {
    expectConflict('The body limit is 5 MiB.', 'The body size limit is 1 MiB.', 'number', {
      claim: '5 MiB',
      page: '1 MiB',
    });
  });

  it('supports the same duration in other units', () => {
    expectSupported('The default timeout is 30 seconds.', 'The default timeout is 30000 ms.');
  });

  it('reads number words as numbers', () => {
    expectSupported('The ferry carried 90 passengers.', 'The ferry carried ninety passengers.');
    expectConflict(
      'The ferry carried 80 passengers.',
      'The ferry carried ninety passengers.',
      'number',
    );
  });

  it('treats "up to" and "at most" as the same bound, and "at least" as its opposite', () => {
    expectSupported(
      'Requests are retried at most 3 times.',
      'Requests are retried up to three times.',
    );
    expectConflict(
      'Requests are retried at least 3 times.',
      'Requests are retried up to three times.',
      'comparative',
    );
  });

  it('pairs a value the page states as is with the claim value, whatever its unit', () => {
    // "80" states "80 characters": it is no rival for "unlimited".
    expectSupported(
      'The width option defaults to 80 characters, and -1 means unlimited width.',
      'width (default: 80) - set the maximum line width. Set -1 for unlimited width.',
    );
  });

  it('reads "both" as a count of two', () => {
    expectSupported(
      'When Shift and Tab are pressed together, the two keys are reported as separate events.',
      'When Shift and Tab are pressed together, both keys are reported as separate events.',
    );
  });

  it('does not support a number the passage does not state', () => {
    const r = verifyClaim('The cache holds 500 entries.', 'The cache holds entries in memory.');
    expect(r.verdict).toBe('unrelated');
    expect(r.missing).toContain('500 entries');
  });
});

describe('verifyClaim: a value a command line gives a flag', () => {
  const page =
    'You can also run the server by using npm run server: npm run server -- --port=8081 --headless=false';

  it('is an example, not the value a claim about the default states', () => {
    const r = verifyClaim('npm run server listens on port 8080 unless you pass --port.', page);
    expect(r.verdict, r.reason).not.toBe('contradicted');
    expect(r.missing.join(' ')).toContain('8080');
  });

  it('still answers a claim that writes the flag the same way', () => {
    expectConflict('You can run npm run server -- --port=8082 --headless=false.', page, 'number');
  });
});

describe('verifyClaim: dates and versions', () => {
  it('contradicts a changed year and a changed day', () => {
    expectConflict('The tower was rebuilt in 1912.', 'The tower was rebuilt in 1911.', 'date', {
      claim: '1912',
      page: '1911',
    });
    expectConflict(
      'It was released on March 3, 2021.',
      'It was released on March 4, 2021.',
      'date',
    );
  });

  it('supports a year where the page gives the full date', () => {
    expectSupported('It was released in 2021.', 'It was released on March 4, 2021.');
  });

  it('compares versions part by part', () => {
    expectConflict(
      'The fix landed in version 2.4.1.',
      'The fix landed in version 2.5.0.',
      'version',
    );
    expectSupported('The fix landed in v2.4.', 'The fix landed in version 2.4.1.');
  });
});

describe('verifyClaim: negation and polarity', () => {
  it('contradicts an added or a removed negation', () => {
    expectConflict(
      'Redirects are not followed by default.',
      'Redirects are followed by default.',
      'negation',
    );
    expectConflict(
      'Redirects are followed by default.',
      'Redirects are never followed by default.',
      'negation',
    );
  });

  it('contradicts antonyms from WordNet and negating prefixes', () => {
    expectConflict('Caching is enabled by default.', 'Caching is disabled by default.', 'antonym', {
      claim: 'enabled',
      page: 'disabled',
    });
    expectConflict('The option is required.', 'The option is optional.', 'antonym');
    expectConflict('The connection is encrypted.', 'The connection is unencrypted.', 'antonym');
  });

  it('opposes the two ends of a bound, abbreviated or not', () => {
    expectConflict(
      'The width option sets the minimum line width.',
      'width (default: 80) - set max line width.',
      'antonym',
    );
    expectSupported(
      'The width option sets the minimum line width.',
      'width (default: 80) - set the minimum line width.',
    );
  });

  it('supports a negation restated as an antonym or moved in the clause', () => {
    expectSupported('Caching is not enabled by default.', 'Caching is disabled by default.');
    expectSupported(
      'By default the client performs no CORS checks.',
      'The client does not implement CORS checks by default.',
    );
  });

  it('negates the noun of a phrase a cue opens, past its modifiers', () => {
    const page = 'Returns Infinity if the item is stored without a defined TTL.';
    expectSupported('Returns Infinity for an item stored without a TTL.', page);
    const negated = (text: string) =>
      analyze(text).tokens.flatMap((t) => (t.negated ? [t.lower] : []));
    expect(negated(page)).toEqual(['defined', 'ttl']);
    expect(negated('It makes no outgoing requests.')).toEqual(['outgoing', 'requests']);
    expect(negated('It is not enabled by default.')).toEqual(['enabled']);
  });

  it('reads a "not" before the next clause\'s verb as negating a verb left out', () => {
    // "whose signature doesn't [verify] is rejected": the negation is not on "rejected".
    const claim =
      "A token whose issuer is known but whose signature doesn't is rejected with a 401.";
    expectSupported(
      claim,
      'A token from a known issuer whose signature fails to verify is rejected with a 401.',
    );
    expect(analyze(claim).tokens.find((t) => t.lemma === 'reject')?.negated).toBe(false);
    expect(
      analyze('The file must not be opened.').tokens.find((t) => t.lemma === 'open')?.negated,
    ).toBe(true);
  });

  it('keeps the negation of each clause apart', () => {
    expectConflict(
      'The extension is enabled on the server and disabled on the client.',
      'The extension is disabled on the server and enabled on the client.',
      'antonym',
    );
  });
});

describe('verifyClaim: comparatives', () => {
  it('contradicts a flipped comparative', () => {
    expectConflict(
      'InnoDB is faster than MyISAM for writes.',
      'InnoDB is slower than MyISAM for writes.',
      'comparative',
      {
        claim: 'faster',
        page: 'slower',
      },
    );
    expectConflict(
      'The event fires before the response.',
      'The event fires after the response.',
      'comparative',
    );
  });

  it('supports the same comparison with its arguments swapped', () => {
    expectSupported(
      'MyISAM is slower than InnoDB for writes.',
      'InnoDB is faster than MyISAM for writes.',
    );
  });
});

describe('verifyClaim: key terms', () => {
  it('contradicts a swapped name', () => {
    expectConflict(
      'The default engine is InnoDB.',
      'The default storage engine is MyISAM.',
      'term',
      {
        claim: 'InnoDB',
        page: 'MyISAM',
      },
    );
  });

  it('contradicts an identifier put where the page has another', () => {
    expectConflict(
      'If only https_proxy is set, it is used for both HTTP and HTTPS requests.',
      'When http_proxy and https_proxy are set, each is used for its own scheme. If only http_proxy is set, it is used for both HTTP and HTTPS requests.',
      'term',
      { claim: 'https_proxy', page: 'http_proxy' },
    );
  });

  it('does not take a longer class name for the claim\'s ("HTMLElementTagNameMap" / "HTMLElement")', () => {
    const page = 'You can extend HTMLElementTagNameMap with your custom elements.';
    const r = verifyClaim('A custom element falls back to HTMLElement.', page);
    expect(r.verdict).not.toBe('supported');
    expect(r.missing).toContain('HTMLElement');
    expectSupported('You can extend HTMLElementTagNameMap with your custom elements.', page);
  });

  it('reads "the CLI argument --verbose" as naming the --verbose argument, not another', () => {
    const page = 'Use the CLI argument --verbose to have CDP events printed to the console.';
    expectSupported('The --verbose argument gets CDP events printed to the console.', page);
    expectConflict('The --quiet argument gets CDP events printed to the console.', page, 'term');
  });

  it('contradicts an ordinary word swapped in the same frame', () => {
    expectConflict(
      'A client begins in the processing state with no socket.',
      'A client begins in the idle state with no socket.',
      'term',
    );
  });

  it('does not support a claim whose code term the passage lacks', () => {
    const r = verifyClaim(
      'Set `maxRedirections` to follow redirects.',
      'Set the option to follow redirects.',
    );
    expect(r.verdict).toBe('unrelated');
    expect(r.missing).toContain('maxRedirections');
  });

  it('names a pattern operator with its group, and tells the operators apart', () => {
    const page = '@(pattern) Match exactly one occurrence of the pattern.';
    expect(
      analyze('The glob +(pattern) matches one occurrence.').keyTerms.map((k) => k.text),
    ).toContain('+(pattern)');
    expect(
      verifyClaim('The glob +(pattern) matches one occurrence of the pattern.', page).verdict,
    ).not.toBe('supported');
    expectSupported('The glob @(pattern) matches exactly one occurrence of the pattern.', page);
  });

  it('reads a symbol named in words, in the order the page gives the symbols', () => {
    const page = 'The list separator: , in the US : in France';
    expectSupported('The list separator is a comma in the US and a colon in France.', page);
    expect(
      verifyClaim('The list separator is a colon in the US and a comma in France.', page).verdict,
    ).not.toBe('supported');
    // A word that is also a property name of every object names no symbol.
    expectSupported(
      'The FormData constructor throws an error.',
      'An error is thrown by the FormData constructor when given arguments.',
    );
    // A comma that ends a clause names no symbol.
    expect(
      verifyClaim('The list separator is a comma.', 'The list separator, in the US, is fixed.')
        .coverage,
    ).toBeLessThan(1);
  });

  it("reads a word inside an identifier of the entry's heading", () => {
    const claim = 'An async iteration over the interface always consumes the whole input stream.';
    const page = 'Iterating over the interface will always consume the input stream fully.';
    expect(verifyClaim(claim, page, { context: 'Readline', heading: 'Readline' }).verdict).not.toBe(
      'supported',
    );
    expectSupported(claim, page, {
      context: 'rl[Symbol.asyncIterator]()',
      heading: 'rl[Symbol.asyncIterator]()',
    });
    // So is an ordinary word inside an identifier of the passage.
    expect(
      verifyClaim(
        'The header size limit is 16 KiB.',
        'The max_header_size setting bounds it at 16 KiB.',
      ).coverage,
    ).toBe(1);
  });

  it('accepts a key term stated in the page title given as context', () => {
    const claim = 'The default minTimeout of RetryHandler is 500 milliseconds.';
    const passage =
      'minTimeout number - Minimum number of milliseconds to wait before retrying. Default: 500';
    expect(verifyClaim(claim, passage).verdict).not.toBe('supported');
    expectSupported(claim, passage, { context: 'RetryHandler' });
  });
});

describe('verifyClaim: paraphrases and unrelated passages', () => {
  it('supports paraphrases that keep the facts', () => {
    expectSupported(
      'A failed request is attempted again at most 3 times.',
      'The request is retried up to three times.',
    );
    expectSupported(
      'After a socket error, the client reconnects on its own.',
      'The client automatically reconnects after a socket error.',
    );
    expectSupported(
      'Deleting a cache does not make its cached responses unusable.',
      'If a cache is deleted, the cached responses can still be used.',
    );
  });

  it('reads "not a string" as "a non-string", and "a string" against it', () => {
    const row = 'Passing a non-string as the path argument will throw now.';
    expectSupported('The function throws when the path argument is not a string.', row);
    expectConflict('The function throws when the path argument is a string.', row, 'antonym', {
      claim: 'string',
      page: 'non-string',
    });
  });

  it('supports a verbatim passage at once', () => {
    const r = verifyClaim(
      'The market opens at four.',
      'History. The market opens at four. It closes at noon.',
    );
    expect(r).toMatchObject({ verdict: 'supported', coverage: 1 });
  });

  it('takes no text as verbatim that the page turns just before or after it, or cuts in a word', () => {
    const verbatim = (claim: string, page: string): boolean =>
      verifyClaim(claim, page).reason.includes('verbatim');
    expect(verbatim('The market opens at four.', 'The market opens at four, rain or shine.')).toBe(
      true,
    );
    expect(verbatim('But dbus-send currently does.', 'But dbus-send currently does not.')).toBe(
      false,
    );
    expect(verbatim('Use eval() to parse JSON.', 'Never use eval() to parse JSON.')).toBe(false);
    expect(verbatim('Able to read the file.', 'Unable to read the file.')).toBe(false);
    expect(verbatim('It does.', "It doesn't.")).toBe(false);
    expectConflict('Use eval() to parse JSON.', 'Never use eval() to parse JSON.', 'negation');
  });

  it('contradicts a clause the page denies whole by its last words ("does" / "does not")', () => {
    const page = 'D-Bus supports more types than these, but dbus-send currently does not.';
    expectConflict(
      'D-Bus supports more types than these, but dbus-send currently does.',
      page,
      'negation',
      {
        claim: 'does',
        page: 'does not',
      },
    );
    expectSupported(
      'D-Bus supports more types than these, but dbus-send currently does not.',
      page,
    );
  });

  it('calls a passage about something else unrelated, not contradicted', () => {
    const r = verifyClaim(
      'The pool keeps idle sockets open for reuse.',
      'Cider is pressed in the last week of October.',
    );
    expect(r.verdict).toBe('unrelated');
    expect(r.conflicts).toEqual([]);
  });

  it('needs fewer shared words when a semantic step vouches for the passage', () => {
    const claim = 'Requests that failed get attempted again.';
    const passage = 'The dispatcher retries failed requests.';
    const plain = verifyClaim(claim, passage, { minCoverage: 0.9 });
    expect(plain.verdict).toBe('unrelated');
    expectSupported(claim, passage, { minCoverage: 0.9, similarity: 0.9 });
  });
});
