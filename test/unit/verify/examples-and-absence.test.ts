// Values given as examples, numbers after another name than a version's, terms the page writes
// side by side, common words in a name's place, a value negated by "not", and absence said with
// "omitted" or "missing".
import { beforeAll, describe, expect, it } from 'vitest';
import { analyze } from '../../../src/verify/analyze.js';
import { verifyClaim } from '../../../src/verify/index.js';
import { expectConflict, expectSupported, verdictOf } from './expect-verdict.js';

beforeAll(() => {
  analyze('Warm up.');
}, 120_000);

describe('a value the page gives as an example', () => {
  it('is no value of the claim’s, inside a parenthesis that opens with "eg:"', () => {
    const page =
      '.broadcast: The blocks broadcast address (eg: 192.168.1.0/24 => 192.168.1.255). Always undefined for IPv6.';
    expect(
      verdictOf(
        'For the block 10.0.0.0/12, netmask reports a broadcast address of 10.15.255.255.',
        page,
      ),
    ).not.toBe('contradicted');
  });

  it('leaves a value the page states outside the example in conflict', () => {
    expectConflict(
      'Use a timeout of 20 seconds for slow links.',
      'Use a timeout of 30 seconds for slow links (e.g. 45 or 60 on satellite).',
      'number',
      { claim: '20 seconds', page: '30 seconds' },
    );
  });
});

describe('a bare number and a version', () => {
  const page =
    'v16.7.0 Updated to conform to Performance Timeline Level 2. The buffered option has been added back.';

  it('are no rivals when the number follows another name ("Level 2" / "Node.js v16.0.0")', () => {
    const r = verifyClaim(
      'The buffered option of performanceObserver.observe() was removed in Node.js v16.0.0 and added back in v16.7.0.',
      page,
    );
    expect(r.conflicts).toEqual([]);
  });

  it('are compared when both follow the same name', () => {
    expectConflict('Node.js 16 is required.', 'Requires Node.js v18 or later.', 'number');
  });

  it('a release the title names with another number is another release', () => {
    expectConflict(
      'Support for emitting the STABS debugging format is deprecated in GCC 12.',
      'STABS: Support for emitting the STABS debugging format is deprecated and will be removed in the next release.',
      'number',
      { claim: '12', page: '13' },
      { context: 'GCC 13 Release Series' },
    );
  });
});

describe('names the page writes side by side', () => {
  const page =
    'The mod_deflate module sends a Vary: Accept-Encoding HTTP response header to alert proxies that a cached response should be sent only to clients that send the appropriate Accept-Encoding request header.';

  it('modify one another: "Accept-Encoding HTTP response header" states "Accept-Encoding response header"', () => {
    expectSupported(
      'mod_deflate sends a Vary: Accept-Encoding response header so that proxies only serve a cached response to clients sending the appropriate Accept-Encoding request header.',
      page,
    );
  });

  it('still differ where the claim puts another name in the slot', () => {
    expectConflict(
      'If only http_proxy is set, requests go through it.',
      'If only https_proxy is set, requests go through it; http_proxy is read for plain requests.',
      'term',
    );
  });
});

describe('a common word where the claim has a name', () => {
  const page =
    'The DeflateInflateLimitRequestBody directive specifies the maximum size of an inflated request body. A value of 0 means no limit is applied to the inflated body size (but other limits such as LimitRequestBody may still apply).';

  it('names the name’s kind, not another name ("A value of 0" / "A DeflateInflateLimitRequestBody of 0")', () => {
    expectSupported(
      'A DeflateInflateLimitRequestBody of 0 means no limit is applied to the inflated body size.',
      page,
    );
  });

  it('leaves the value to be compared', () => {
    expectConflict(
      'A DeflateInflateLimitRequestBody of 1 means no limit is applied to the inflated body size.',
      page,
      'number',
    );
  });
});

describe('"not" before a number', () => {
  const page =
    'If the event loop has not yet exited, the property has the value of -1. It can only have a value of not -1 in a handler of the exit event.';

  it('negates the value after a preposition ("a value of not -1"), not the clause', () => {
    const not = analyze('It can only have a value of not -1 in a handler.').tokens.find(
      (t) => t.lower === 'not',
    );
    expect(not?.cue).toBe(false);
    expect(
      verdictOf('The property can only hold another value in a handler of the exit event.', page),
    ).not.toBe('contradicted');
  });

  it('negates the clause after a verb ("is not 0")', () => {
    const not = analyze('The value is not -1 in a handler.').tokens.find((t) => t.lower === 'not');
    expect(not?.cue).toBe(true);
  });
});

describe('absence said with a predicate', () => {
  const page =
    'If port is omitted or is 0, the operating system will assign an arbitrary unused port, which can be retrieved by using server.address().port after the listening event has been emitted.';

  it('states "no port": "if port is omitted" is the case of "given no port"', () => {
    const r = verifyClaim(
      'If server.listen() is given port 0 or no port at all, the operating system assigns an arbitrary unused port.',
      page,
    );
    expect(r.conflicts).toEqual([]);
  });

  it('is the contrary of "given"', () => {
    expectConflict(
      'If the port is given, the operating system will assign an arbitrary unused port.',
      'If port is omitted, the operating system will assign an arbitrary unused port.',
      'negation',
    );
  });
});

describe('a value one side denies', () => {
  const page =
    "A PerformanceMark is a subclass of PerformanceEntry whose performanceEntry.entryType is always 'mark', and whose performanceEntry.duration is always 0.";

  it('contradicts the same value the other states of the same thing ("never 0" / "always 0")', () => {
    expectConflict("A PerformanceMark's duration is never 0.", page, 'negation', {
      claim: 'never 0',
      page: 'always 0',
    });
    expectConflict('The duration is always 0.', 'The duration is never 0.', 'negation');
  });

  it('is stated by the same denial', () => {
    expectSupported("A PerformanceMark's duration is always 0.", page);
    expectSupported('The duration is never 0.', 'In practice the duration is never 0.');
  });
});

describe('"zero" and strict bounds', () => {
  it('"zero" in words is a value the passage must state', () => {
    const r = verifyClaim(
      "os.availableParallelism() can return zero, and it is a small wrapper around libuv's uv_available_parallelism().",
      "This function is a small wrapper about libuv's uv_available_parallelism().",
      { context: 'os.availableParallelism()' },
    );
    expect(r.verdict).toBe('unrelated');
    expect(r.missing).toContain('zero');
  });

  it('a value stated as is differs from a strict bound of it ("zero" / "greater than zero")', () => {
    expectConflict(
      'os.availableParallelism() can return zero.',
      'os.availableParallelism() always returns a value greater than zero.',
      'number',
    );
    expectSupported(
      'os.availableParallelism() returns a value above zero.',
      'os.availableParallelism() always returns a value greater than zero.',
    );
  });
});

describe('defaults', () => {
  it('a claim’s default must be named: allowed values are not the one taken', () => {
    const r = verifyClaim(
      'The default DeflateCompressionLevel is 9.',
      'The value must be between 1 (less compression) and 9 (more compression).',
      { context: 'DeflateCompressionLevel Directive' },
    );
    expect(r.verdict).toBe('unrelated');
    expect(r.missing).toContain('default');
  });

  it('a row of defaults states a measure by its bare number, and no other', () => {
    const row = 'Default: DeflateBufferSize 8096';
    expectSupported('DeflateBufferSize defaults to 8096 bytes.', row);
    expect(verdictOf('DeflateBufferSize defaults to 4096 bytes.', row)).toBe('unrelated');
  });
});

describe('an IPv6 address', () => {
  it('holds no number ("::1")', () => {
    const r = verifyClaim(
      'An IPv6 address such as ::1 is read as a /128 block.',
      'A count of -1 returns the previous block.',
    );
    expect(r.conflicts).toEqual([]);
  });
});

describe('"none of" and a kind named by a verb form', () => {
  it('"none of" denies the predicate, not its noun phrase', () => {
    const tokens = analyze('None of the Python packaging tools are required by the policy.').tokens;
    expect(tokens.find((t) => t.lower === 'python')?.negated).toBe(false);
    expect(tokens.find((t) => t.lower === 'required')?.negated).toBe(true);
    expect(
      verdictOf(
        'None of the Python packaging tools are required by the policy, but their use is strongly encouraged.',
        'This section describes the various tools to help package Python programs and modules for Debian. Although none of these tools are mandatory, their use is strongly encouraged, as the above policy has been designed with them in mind (and vice versa).',
      ),
    ).toBe('supported');
  });

  it('"the deflate encodings" is one noun phrase: the item whose support the page denies', () => {
    const page =
      'The gzip encoding is the only one supported to ensure complete compatibility with old browser implementations. The deflate encoding is not supported, please check the zlib documentation for a complete explanation.';
    const context = 'Apache Module mod_deflate';
    expectConflict(
      'mod_deflate supports both the gzip and the deflate encodings.',
      page,
      'negation',
      undefined,
      { context },
    );
    expect(verdictOf('mod_deflate supports the gzip encoding.', page, context)).toBe('supported');
  });
});

describe('a number with and without its unit', () => {
  const page =
    'It gets truncated to an OS-dependent length of sizeof(sockaddr_un.sun_path) - 1. Typical values are 107 bytes on Linux and 103 bytes on macOS.';

  it('is one number: "- 1 bytes" states "- 1", "107 on Linux" states "107 bytes on Linux"', () => {
    expectSupported(
      'The path is truncated to sizeof(sockaddr_un.sun_path) - 1 bytes, which is typically 107 on Linux and 103 on macOS.',
      page,
    );
  });

  it('leaves another number in conflict', () => {
    expectConflict(
      'The path is truncated to sizeof(sockaddr_un.sun_path) - 1 bytes, which is typically 108 bytes on Linux and 103 on macOS.',
      page,
      'number',
    );
  });
});

describe('a count of the items a claim lists', () => {
  it('is small: "defaults to 511" counts no "such as X and Y"', () => {
    const r = verifyClaim(
      'The backlog defaults to 511, and the real length is decided by sysctl settings such as tcp_max_syn_backlog and somaxconn.',
      'The actual length will be determined by the OS through sysctl settings such as tcp_max_syn_backlog and somaxconn on Linux.',
    );
    expect(r.conflicts).toEqual([]);
  });
});
