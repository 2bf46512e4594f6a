// A page that gives one value in a case and another "otherwise" states both values and the case's
// words: a claim that pairs the "otherwise" value with the case states every word and the opposite
// fact.
import { beforeAll, describe, expect, it } from 'vitest';
import { analyze } from '../../../src/verify/index.js';
import { branchConflicts } from '../../../src/verify/branches.js';
import { expectConflict, expectSupported } from './expect-verdict.js';

beforeAll(() => {
  analyze('Warm up.');
}, 120_000);

const isBufferList =
  'It will return true if the passed object is an instance of BufferList or BufferListStream and false otherwise.';
const entry = 'BufferList.isBufferList(obj)';
const mode = 'defaults to 0o755 for dirs and 0o644 otherwise';

describe('branches', () => {
  it("contradicts a claim that gives the case the 'otherwise' value", () => {
    expectConflict(
      'BufferList.isBufferList() returns false for a BufferListStream instance.',
      isBufferList,
      'term',
      undefined,
      { context: entry },
    );
    expect(
      branchConflicts("An entry's mode defaults to 0o644 for directories.", mode),
    ).toMatchObject([
      { claim: "An entry's mode defaults to 0o644 for directories", page: '0o755 when dirs' },
    ]);
    expect(
      branchConflicts(
        'Calling it returns undefined when a message is available.',
        'If a message is available, an object is returned; otherwise undefined is returned.',
      ),
    ).toEqual([]);
    expect(
      branchConflicts(
        'Default is false in interactive mode.',
        'Default: True in interactive mode, False otherwise.',
      ),
    ).toMatchObject([{ page: 'True when interactive mode' }]);
    expect(
      branchConflicts(
        'With an empty buffer the function gives 0.',
        'When the buffer is empty, it returns -1; otherwise, 0 is returned.',
      ),
    ).toMatchObject([{ page: '-1 when the buffer is empty' }]);
  });

  it('supports the claim that keeps each value in its case', () => {
    expectSupported(
      'BufferList.isBufferList() returns true for a BufferListStream instance.',
      isBufferList,
      { context: entry },
    );
    const none = (claim: string, page: string) => expect(branchConflicts(claim, page)).toEqual([]);
    none('The mode defaults to 0o755 for directories and 0o644 for everything else.', mode);
    none('It returns false for anything that is not a BufferListStream instance.', isBufferList);
    none(
      'Default is False outside interactive mode.',
      'Default: True in interactive mode, False otherwise.',
    );
    none('It returns false for other objects.', isBufferList);
  });
});
