// Conditions: a fact the page states under one case is not supported under the other, nor a
// value other than the one the page gives under the same case.
import { beforeAll, describe, it } from 'vitest';
import { analyze } from '../../../src/verify/index.js';
import { expectConflict, expectSupported } from './expect-verdict.js';

beforeAll(() => {
  analyze('Warm up.');
}, 120_000);

describe('verifyClaim with conditions', () => {
  const page =
    'The depd module emits deprecation errors as events on the process. If there are no listeners for this type, the errors are written to STDERR as normal, but if there are any listeners, nothing will be written to STDERR and instead only emitted.';

  it('contradicts a fact put under the case the page negates', () => {
    expectConflict(
      'Even when something listens for the deprecation event, depd still writes the errors to STDERR.',
      page,
      'negation',
    );
  });

  it('supports the fact under its own case, in either case', () => {
    expectSupported(
      'When there are no listeners for deprecation events, depd writes the errors to STDERR.',
      page,
    );
    expectSupported(
      'If there are any listeners for deprecation events, nothing is written to STDERR by depd.',
      page,
    );
  });

  it('reads a condition that something is undefined or omitted as one with "no"', () => {
    const alloc =
      'Buffer.alloc(size[, fill]) allocates a new Buffer of size bytes. If fill is undefined, the Buffer will be zero-filled.';
    expectSupported(
      'When no fill value is given, Buffer.alloc() returns a zero-filled buffer.',
      alloc,
    );
    expectConflict(
      'When a fill value is given, Buffer.alloc() returns a zero-filled buffer.',
      alloc,
      'negation',
    );
    const deprecate =
      'If the message is omitted, a message is generated for you based on the site of the deprecate() call.';
    expectSupported(
      'If you leave the message out, one is generated from where deprecate() was called.',
      deprecate,
    );
    const omitted = 'If the port is omitted, the server listens on an arbitrary unused port.';
    expectSupported(
      'When no port is passed, the server listens on an arbitrary unused port.',
      omitted,
    );
  });

  it('reads a condition that ends its sentence, and stops at the sentence', () => {
    const after =
      'The errors are written to STDERR by depd if there are no listeners. Listeners get the errors instead.';
    expectConflict(
      'When something listens for the event, depd writes the errors to STDERR.',
      after,
      'negation',
    );
    expectSupported('When there are no listeners, depd writes the errors to STDERR.', after);
  });

  it('reads "unless" as a negated condition', () => {
    const unless = 'The parser caches every compiled template unless the strict option is set.';
    expectConflict(
      'If the strict option is set, the parser caches every compiled template.',
      unless,
      'negation',
    );
    expectSupported(
      'The parser caches every compiled template if the strict option is not set.',
      unless,
    );
  });
});

describe('verifyClaim with a condition on a setting the page gives a default', () => {
  const page =
    'dedupe (default: false) - compatibility with the DEDUPE.md behaviour. If true, then repeated keys in a mapping will cause an error rather than being dropped.';

  it("reads the claim's condition against the page's condition, not against the default", () => {
    expectSupported(
      'If you load with dedupe set to true, repeated keys in a mapping cause an error rather than being dropped.',
      page,
    );
    expectConflict(
      'If you load with dedupe set to false, repeated keys in a mapping cause an error rather than being dropped.',
      page,
      'antonym',
    );
    // A default against a default is the settings check's (a negation of the switch).
    expectConflict('The dedupe option defaults to true.', page, 'negation');
  });
});

describe('verifyClaim pairs a clause with the page clause under the same condition', () => {
  const page =
    'The configuration files are parsed before starting, then HAProxy tries to bind all listening sockets, and refuses to start if anything fails.';

  it('reads "still starts when some of this fails" against "refuses to start if anything fails"', () => {
    expectConflict(
      'HAProxy parses its configuration files and tries to bind its listening sockets before starting, but it still starts when some of this fails.',
      page,
      'negation',
      { claim: 'starts', page: 'refuses to start' },
    );
    expectSupported(
      'HAProxy parses its configuration files and tries to bind its listening sockets before starting, but it refuses to start when some of this fails.',
      page,
    );
  });
});

describe('verifyClaim reads "only if X" as "not unless X"', () => {
  const page =
    'Note that by default, the glob a/**/b will not match the path a/.d/b, unless the dot option is set.';

  it('supports the case put with "only if" in place of "unless"', () => {
    expectSupported(
      "By default, the glob a/**/b doesn't match the path a/.d/b; it only does if the dot option is set.",
      page,
    );
  });

  it('still contradicts the case put the other way', () => {
    expectConflict(
      'By default, the glob a/**/b matches the path a/.d/b unless the dot option is set.',
      page,
      'negation',
    );
  });
});

describe('verifyClaim with two names swapped across a condition', () => {
  const page =
    'pathObject.root is ignored if pathObject.dir is provided. pathObject.ext and pathObject.name are ignored if pathObject.base exists.';

  it('contradicts the name of the condition put in the consequence, either way round', () => {
    expectConflict('pathObject.dir is ignored if pathObject.root is provided.', page, 'term', {
      claim: 'dir if root',
      page: 'root if dir',
    });
    expectConflict('If pathObject.root is provided, pathObject.dir is ignored.', page, 'term');
    expectConflict('pathObject.base is ignored if pathObject.name exists.', page, 'term');
  });

  it('supports the case as the page puts it, in either order', () => {
    expectSupported('If pathObject.dir is provided, pathObject.root is ignored.', page);
    expectSupported(
      'pathObject.ext and pathObject.name are ignored when pathObject.base exists.',
      page,
    );
  });
});

describe('verifyClaim reads "otherwise" within its own sentence', () => {
  const page =
    'If DEBUG is set, log files are restricted to the directories specified by LOG_PATH. This last is a list of directory names, separated by semicolons in Windows or by colons otherwise.';

  it('is no other case of a condition in an earlier sentence', () => {
    expectSupported(
      'Once DEBUG is set, log files may only go to the directories listed in LOG_PATH, which are separated by semicolons on Windows and by colons elsewhere.',
      page,
    );
  });

  it('but an "Otherwise" that opens its sentence is', () => {
    expectConflict(
      'When a value is given, 0 is used as the starting value.',
      'If a value is given, it is used as the starting value. Otherwise, 0 is used.',
      'negation',
    );
  });
});

describe('verifyClaim reads a sentence opening with "In this case" as the case before it', () => {
  const page =
    'When encoding is unset, it assumes an object mode stream and collects values emitted from stream unmodified. In this case maxBuffer refers to the number of items in the array (not the sum of their sizes).';

  it('contradicts the facts of both sentences put under another case', () => {
    expectConflict(
      'When encoding is set to buffer, it assumes an object mode stream, keeps the emitted values unmodified and counts maxBuffer as the number of items, not the sum of their sizes.',
      page,
      'negation',
    );
    expectSupported(
      'When encoding is unset, it assumes an object mode stream, keeps the emitted values unmodified and counts maxBuffer as the number of items, not the sum of their sizes.',
      page,
    );
  });
});

describe('verifyClaim: the value a case gives', () => {
  const page =
    'If the request has no body, even if there is a Content-Type header, then null is returned. ' +
    'If the Content-Type header is invalid or does not match any of the types, then false is ' +
    'returned. Otherwise, a string of the type that matched is returned.';

  it('sets the value the claim gives under a case against the one the page gives there', () => {
    expectConflict(
      'If the Content-Type header is invalid or matches none of the types, it returns null.',
      page,
      'term',
      { claim: 'null', page: 'false' },
    );
    expectSupported(
      'If the Content-Type header is invalid or matches none of the types, it returns false.',
      page,
    );
    expectSupported('If the request has no body, it returns null.', page);
  });
});

describe('verifyClaim: a predicate joined to a condition goes on with its case', () => {
  const page =
    'Content filtering is automatically disabled for inappropriate MIME types, but if you know better than Privoxy what should or should not be filtered you can filter any content you like.';

  it('reads "or should not be filtered" as part of the "if" case, not as a denial of filtering', () => {
    expectSupported(
      'Privoxy automatically turns content filtering off for inappropriate MIME types, but users who know better than Privoxy can still filter any content they like.',
      page,
    );
  });

  it('still contradicts the denial of the consequence, which the case does not echo', () => {
    expectConflict(
      'Users who know what should be filtered cannot filter any content.',
      'If you know what should or should not be filtered, you can filter any content.',
      'negation',
    );
    // The case goes on past a comma before "or".
    expectConflict(
      'Users who know what should be filtered cannot filter any content.',
      'If you know what should be filtered, or should not be filtered, you can filter any content.',
      'negation',
    );
  });
});
