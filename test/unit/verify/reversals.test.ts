// Two things a claim joins by the same words as the page, the other way round ("the pax format
// with support for USTAR headers" / "USTAR with support for pax headers"): a swap no word count
// sees. A passive, a coordination or a symmetric relation reads the same both ways. Names written
// as code ("fs.statSync()", "emitter.off()") reverse, and turn a preference round, as words do.
import { beforeAll, describe, expect, it } from 'vitest';
import { analyze } from '../../../src/verify/index.js';
import { reversals } from '../../../src/verify/reversals.js';
import { expectConflict, expectSupported } from './expect-verdict.js';

beforeAll(() => {
  analyze('Warm up.');
}, 120_000);

const page =
  'It implementes USTAR with additional support for pax extended headers. It should be ' +
  'compatible with all popular tar distributions out there (gnutar, bsdtar etc)';

describe('reversals', () => {
  it('contradicts a claim that joins the two things the other way round', () => {
    expectConflict(
      'tar-stream implements the pax format with additional support for USTAR extended headers.',
      page,
      'term',
      { claim: 'pax', page: 'USTAR' },
    );
    expectConflict(
      'The converter turns YAML into JSON.',
      'The converter turns JSON into YAML, keeping comments.',
      'term',
    );
  });

  it('supports the claim that keeps the order', () => {
    expectSupported(
      'tar-stream implements USTAR with additional support for pax extended headers.',
      page,
    );
  });

  it('reads a passive, a coordination and a symmetric relation as the same both ways', () => {
    const none = (claim: string, passage: string) =>
      expect(reversals(analyze(claim), analyze(passage))).toEqual([]);
    none('zlib is used by pako for inflation.', 'pako uses zlib for inflation.');
    none('It reads JSON and YAML files.', 'It reads YAML and JSON files.');
    none('Espree is compatible with Acorn.', 'Acorn is compatible with Espree.');
    // Across statements: "A ..., B ..." says nothing of a link between them.
    none('The parser runs first, then the printer.', 'The printer waits, then the parser runs.');
    // Nouns alone between the two make a compound, whose order is free.
    none(
      'The cache size option accepts large values.',
      'This option controls the size of the cache.',
    );
    // Pieces of one compound name are not two things.
    none(
      'The new -ffold-simple-inlines option folds calls.',
      'A new option -ffold-simple-inlines folds calls.',
    );
  });
});

describe('reversals of names written as code', () => {
  const page =
    'fs.statSync() is an alias for fs.lstatSync(). ReadStream inherits from stream.Readable.';

  it('reads past the dot of a qualified name and the brackets of a call', () => {
    expectConflict('fs.lstatSync() is an alias for fs.statSync().', page, 'term', {
      claim: 'lstatSync',
      page: 'statSync',
    });
    expectConflict('stream.Readable inherits from ReadStream.', page, 'term');
  });

  it('supports the names in their own order', () => {
    expectSupported('fs.statSync() is an alias for fs.lstatSync().', page);
    expectSupported('ReadStream inherits from stream.Readable.', page);
  });
});

describe('a preference between names written as code, turned round', () => {
  const page =
    'Use Buffer.alloc() instead of new Buffer(). Call emitter.off() instead of emitter.removeListener().';

  it('reads the whole name on each side of "instead of"', () => {
    expectConflict('Use new Buffer() instead of Buffer.alloc().', page, 'term');
    expectConflict('Call emitter.removeListener() instead of emitter.off().', page, 'term', {
      claim: 'removeListener',
      page: 'off',
    });
  });

  it('supports the preference as the page puts it', () => {
    expectSupported('Use Buffer.alloc() instead of new Buffer().', page);
    expectSupported('Call emitter.off() instead of emitter.removeListener().', page);
  });
});
