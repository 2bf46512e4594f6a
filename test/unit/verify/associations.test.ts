// Association swaps: two things named in one sentence, each given the other's facts.
import { beforeAll, describe, expect, it } from 'vitest';
import { analyze, verifyClaim } from '../../../src/verify/index.js';
import { sentenceRanges } from '../../../src/verify/analyze.js';
import { associationSwaps, contrastSwaps } from '../../../src/verify/associations.js';
import { expectConflict, expectSupported } from './expect-verdict.js';

beforeAll(() => {
  analyze('Warm up.');
}, 120_000);

const swaps = (claim: string, page: string) => associationSwaps(analyze(claim), analyze(page));

describe('associationSwaps', () => {
  it('finds two return codes that trade their conditions', () => {
    const page =
      'uv_open returns UV_EINVAL if the handle is closed, or UV_EBUSY if a request is still pending.';
    expect(
      swaps(
        'uv_open returns UV_EBUSY if the handle is closed, or UV_EINVAL if a request is still pending.',
        page,
      ),
    ).toEqual([{ kind: 'term', claim: 'UV_EBUSY', page: 'UV_EINVAL' }]);
    // "either A if ...; or B if ...": each code keeps its own condition.
    expect(
      swaps(
        'uv_open returns UV_EBUSY when the handle is closed, and UV_EINVAL when a request is still pending.',
        'uv_open returns either UV_EINVAL if the handle is closed; or UV_EBUSY if a request is still pending.',
      ),
    ).toEqual([{ kind: 'term', claim: 'UV_EBUSY', page: 'UV_EINVAL' }]);
    // Conditions put first, codes after: the same facts, no swap.
    expect(
      swaps(
        'If a request is still pending, uv_open returns UV_EBUSY; if the handle is closed, UV_EINVAL.',
        page,
      ),
    ).toEqual([]);
  });

  it('finds two adjectives that trade their roles', () => {
    const page =
      'It returns a pointer to the writable address, and sets *code to the corresponding executable address.';
    expect(
      swaps(
        'It returns the executable address of the block and stores the writable address in *code.',
        page,
      ),
    ).toEqual([{ kind: 'term', claim: 'executable', page: 'writable' }]);
    expect(
      swaps(
        'It returns the writable address of the block and stores the executable address in *code.',
        page,
      ),
    ).toEqual([]);
  });

  it('finds two superlatives that trade their cases, across two sentences', () => {
    const page =
      'In the worst case scenario all the files will be processed. In the best case scenario only a few of them will be processed.';
    expect(
      swaps(
        'In the best case scenario all the files will be processed, and in the worst case only a few of them.',
        page,
      ),
    ).toEqual([{ kind: 'term', claim: 'best', page: 'worst' }]);
    expect(
      swaps(
        'In the worst case all the files are processed, and in the best case only a few of them.',
        page,
      ),
    ).toEqual([]);
  });

  it('takes a statement after a semicolon for one about neither thing', () => {
    expect(
      swaps(
        'When JIT code is overwritten, run with --smc-check=all; the tool then runs slowly but detects the out-of-date code.',
        'If you have the source of the JIT compiler you can mark out-of-date code, saving you from using --smc-check=all.',
      ),
    ).toEqual([]);
  });

  it('keeps a paraphrase that reorders statements or puts the fact before its holder', () => {
    const page = 'Readable streams emit data events, while Writable streams emit drain events.';
    expect(
      swaps('A Writable stream emits drain events, and a Readable stream emits data events.', page),
    ).toEqual([]);
    expect(
      swaps('Drain events come from Writable streams, and data events from Readable ones.', page),
    ).toEqual([]);
  });

  it('leaves contrasts and pairings by position alone', () => {
    const page = 'Readable streams emit data events, while Writable streams emit drain events.';
    expect(
      swaps('Unlike Writable streams, Readable streams emit data events, not drain events.', page),
    ).toEqual([]);
    expect(
      swaps(
        'Readable and Writable streams emit data and drain events, respectively, in that order.',
        page,
      ),
    ).toEqual([]);
  });
});

describe('associationSwaps across two sentences', () => {
  const page =
    'Stores bound with start.bindStore() apply during handler invocation. Stores bound with ' +
    'asyncStart.bindStore() apply during asyncEnd publication when a returned promise settles.';

  it('finds two names that trade the facts the page gives each in a sentence of its own', () => {
    expect(
      swaps(
        'Stores bound with asyncStart.bindStore() apply while the handler is being invoked, whereas stores bound with start.bindStore() apply during asyncEnd publication, when a returned promise settles.',
        page,
      ),
    ).toEqual([{ kind: 'term', claim: 'asyncStart.bindStore', page: 'start.bindStore' }]);
    expect(
      swaps(
        'Stores bound with start.bindStore() apply during handler invocation, whereas stores bound with asyncStart.bindStore() apply during asyncEnd publication.',
        page,
      ),
    ).toEqual([]);
  });

  it('reads two sentences as one only when they share a frame, and leaves enumerations alone', () => {
    expect(
      swaps(
        'When replaceAll is given a regex without the global flag, it throws a TypeError.',
        'If regexpOrString is a regex, then it must have the global (g) flag set, or a TypeError is thrown. Matches the behavior of the builtin String.property.replaceAll.',
      ),
    ).toEqual([]);
    expect(
      swaps(
        'safe-buffer brings the newer Buffer APIs (Buffer.from, Buffer.alloc, Buffer.allocUnsafe and Buffer.allocUnsafeSlow) to every version of Node.js, and uses the built-in implementation whenever it is available.',
        'Use the new Node.js Buffer APIs (Buffer.from, Buffer.alloc, Buffer.allocUnsafe, Buffer.allocUnsafeSlow) in all versions of Node.js.',
      ),
    ).toEqual([]);
  });

  it('leaves out a contrast in an introduction that ends before both names', () => {
    const page =
      'There are equivalents to the zlib options for Brotli-based streams, although these options have different ranges than the zlib ones: ' +
      "zlib's level option matches Brotli's BROTLI_PARAM_QUALITY option. zlib's windowBits option matches Brotli's BROTLI_PARAM_LGWIN option.";
    expect(
      swaps(
        "For Brotli-based streams, zlib's level option corresponds to BROTLI_PARAM_LGWIN and its windowBits option corresponds to BROTLI_PARAM_QUALITY.",
        page,
      ),
    ).toEqual([{ kind: 'term', claim: 'BROTLI_PARAM_LGWIN', page: 'BROTLI_PARAM_QUALITY' }]);
    expect(
      swaps(
        "For Brotli-based streams, zlib's level option corresponds to BROTLI_PARAM_QUALITY and its windowBits option corresponds to BROTLI_PARAM_LGWIN.",
        page,
      ),
    ).toEqual([]);
    // After the colon, a contrast may move a fact between the two names: no swap is read.
    expect(
      swaps(
        "zlib's level option corresponds to BROTLI_PARAM_LGWIN and its windowBits option corresponds to BROTLI_PARAM_QUALITY.",
        "Brotli options: zlib's level option matches BROTLI_PARAM_QUALITY rather than its mode. zlib's windowBits option matches BROTLI_PARAM_LGWIN.",
      ),
    ).toEqual([]);
  });

  it("reads a name's dot as part of the name, not the end of a sentence", () => {
    const a = analyze('Stores bound with asyncStart.bindStore() apply while the handler runs.');
    expect(sentenceRanges(a)).toHaveLength(1);
    // A name that only ends another is a key term of its own.
    expect(
      analyze('asyncStart.bindStore() differs from start.bindStore().').keyTerms.map((k) => k.text),
    ).toEqual(['asyncStart.bindStore', 'start.bindStore']);
  });
});

describe('associationSwaps of numbers', () => {
  const page = 'The largest output width is currently 132. The largest input width is 80.';

  it('finds two values that trade the things they measure, across two sentences', () => {
    expect(
      swaps('The largest input width is 132, while the largest output width is 80.', page),
    ).toEqual([{ kind: 'number', claim: '132', page: '80' }]);
    expect(
      swaps('The largest output width is 132, while the largest input width is 80.', page),
    ).toEqual([]);
  });

  it('pairs a number with a number only', () => {
    expect(
      swaps(
        'Bodies of 5 MB or more already mean a high memory use, so a large limit is discouraged.',
        'A large limit is discouraged: bodies of 5 MB mean a high memory use.',
      ),
    ).toEqual([]);
  });
});

describe('associationSwaps of two plain nouns', () => {
  const page =
    "While failure indicates that the rule didn't match the input tokens, error indicates that the input was invalid in some way.";

  it('finds two subjects that trade what the page says each means', () => {
    expect(
      swaps(
        'An error means that a rule did not match the input tokens, while a failure means that the input was invalid.',
        page,
      ),
    ).toEqual([{ kind: 'term', claim: 'error', page: 'failure' }]);
    expectConflict(
      'In lop an error means a rule did not match the input tokens while a failure means the input was invalid.',
      page,
      'term',
    );
  });

  it('reads the facts before ", so" apart from the consequence that names both nouns again', () => {
    const both = `${page} In general, rules will backtrack when they encounter a failure, but will completely abort when they encounter an error.`;
    expectConflict(
      'In lop an error means a rule did not match the input tokens while a failure means the input was invalid, so rules generally backtrack on an error but abort completely on a failure.',
      both,
      'term',
    );
    expectSupported(
      'In lop a failure means a rule did not match the input tokens while an error means the input was invalid, so rules generally backtrack on a failure but abort completely on an error.',
      both,
    );
  });

  it('keeps each noun with its facts in other words and another order', () => {
    expectSupported(
      'In lop a failure means a rule did not match the input tokens, while an error means the input was invalid.',
      page,
    );
    expectSupported(
      "An error indicates that the input was invalid in some way, while a failure indicates that the rule didn't match the input tokens.",
      page,
    );
  });

  it('needs two nouns that are subjects, not one noun in two numbers or a part of a verb', () => {
    expect(
      swaps(
        'The flag accepts PTX ISA versions 3.1 and 6.0, and without it the used version is the minimal one.',
        'The flag selects the PTX ISA version; permitted values are 3.1 (matches previous GCC versions) and 6.0.',
      ),
    ).toEqual([]);
    expect(
      swaps(
        "An instance can't be garbage collected until disable() is called, although the stores it provides are collected with their resources.",
        'Calling disable() is required before the instance can be garbage collected. This does not apply to stores provided by it, as those objects are garbage collected along with their resources.',
      ),
    ).toEqual([]);
  });
});

describe('verifyClaim with association swaps', () => {
  const page =
    'ffi_make returns FFI_OK if everything worked, FFI_BAD_SIZE if the size is zero, or FFI_BAD_ALIGN if the alignment is not a power of two.';

  it('contradicts the swap and supports the facts in another order', () => {
    expectConflict(
      'ffi_make returns FFI_OK if everything worked, FFI_BAD_ALIGN if the size is zero, or FFI_BAD_SIZE if the alignment is not a power of two.',
      page,
      'term',
    );
    expectSupported(
      'ffi_make returns FFI_BAD_ALIGN if the alignment is not a power of two, FFI_BAD_SIZE if the size is zero, and FFI_OK if everything worked.',
      page,
    );
  });
});

describe('association swaps of names in code spans', () => {
  const page = 'The `server` sends a ping and the `client` replies with a pong.';

  it('reads past the backtick before a name that opens the second clause', () => {
    expect(swaps('The `client` sends a ping and the `server` replies with a pong.', page)).toEqual([
      { kind: 'term', claim: 'client', page: 'server' },
    ]);
    expectSupported('The `server` sends a ping, and the `client` replies with a pong.', page);
  });
});

describe('contrastSwaps', () => {
  const page =
    'chalk.stderr contains a separate instance configured with color support detected for stderr stream instead of stdout.';

  it('finds a preference turned round', () => {
    expect(
      contrastSwaps(
        analyze(
          'chalk.stderr is a separate instance whose color support is detected for the stdout stream instead of stderr.',
        ),
        analyze(page),
      ),
    ).toEqual([{ kind: 'term', claim: 'stdout', page: 'stderr' }]);
    expect(
      contrastSwaps(analyze('It writes to stdout rather than stderr.'), analyze(page)),
    ).toEqual([{ kind: 'term', claim: 'stdout', page: 'stderr' }]);
  });

  it('finds a preference turned round in other inflections', () => {
    expectConflict(
      'Repeated headers in a request throw an error rather than overriding the earlier values.',
      'Repeated headers in a request will override values rather than throwing an error.',
      'term',
    );
  });

  it('supports the same preference in other words', () => {
    expect(
      contrastSwaps(
        analyze('Its color support is detected for the stderr stream instead of stdout.'),
        analyze(page),
      ),
    ).toEqual([]);
    expectSupported(
      'chalk.stderr holds a separate instance, with color support detected for the stderr stream instead of stdout.',
      page,
    );
    expectConflict(
      'chalk.stderr holds a separate instance, with color support detected for the stdout stream instead of stderr.',
      page,
      'term',
    );
  });
});

describe('unstatedPreferences: a contrast the passage names neither side of', () => {
  const short =
    'The urlize filter recognizes mailto: links and takes extra_schemes (or env.policies["urlize.extra_schemes"]) to recognize other schemes. It tries to balance parentheses within a URL instead of ignoring trailing characters.';
  const whole = `${short} The parsing in general has been updated to be more efficient and match more cases. URLs without a scheme are linked as https:// instead of http://.`;
  const options = {
    context: 'Changes \u2014 Jinja Documentation (3.1.x)',
    heading: 'Version 3.0.0',
  };

  it('keeps a passage with a contrast of its own from supporting the claim\u2019s', () => {
    for (const claim of [
      'The urlize filter recognizes mailto: links and links URLs that have no scheme as http:// instead of https://.',
      'The urlize filter recognizes mailto: links and links URLs that have no scheme as https:// instead of http://.',
    ]) {
      const r = verifyClaim(claim, short, options);
      expect(r.verdict, r.reason).toBe('unrelated');
      expect(r.missing.join(' ')).toMatch(/instead of/);
    }
    expectConflict(
      'The urlize filter recognizes mailto: links and links URLs that have no scheme as http:// instead of https://.',
      whole,
      'term',
      { claim: 'http', page: 'https' },
      options,
    );
  });

  it('reads the subject of a release note the claim names itself as the claim\u2019s', () => {
    // The passage's `urlize.extra_schemes` is no other subject: the claim's filter is urlize.
    expectSupported(
      'Since Jinja 3.0.0 the urlize filter recognizes mailto: links and links URLs that have no scheme as https:// instead of http://.',
      whole,
      options,
    );
  });
});
