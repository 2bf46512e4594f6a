// Two names a claim and its passage both state, each in the other's place ("the Node.js variable
// in DEBUG" / "the DEBUG variable in Node.js"): every word is there, so only the words right
// beside each name tell the swap. A reworded sentence, the items of one list and a sentence that
// moves facts about ("unlike") give no evidence either way.
import { beforeAll, describe, expect, it } from 'vitest';
import { analyze } from '../../../src/verify/index.js';
import { neighbourSwaps } from '../../../src/verify/neighbours.js';
import { analyzeClaim } from '../../../src/index.js';
import { expectConflict, expectSupported } from './expect-verdict.js';

beforeAll(() => {
  analyze('Warm up.');
}, 120_000);

const swaps = (claim: string, page: string) => neighbourSwaps(analyzeClaim(claim), analyze(page));

describe('neighbourSwaps', () => {
  it('contradicts a claim whose two names stand each beside the words of the other', () => {
    const page =
      'The loader reads its settings from the LOADER_CONFIG file under XDG_CONFIG_HOME, or from ' +
      'built-in defaults when there is none.';
    expectConflict(
      'The loader reads its settings from the XDG_CONFIG_HOME file under LOADER_CONFIG.',
      page,
      'term',
    );
    expect(
      swaps(
        'Since Deno does not ship its own WebGPU implementation, the demo relies on a polyfill.',
        'Since WebGPU does not ship its own Deno implementation, the demo relies on a polyfill.',
      ),
    ).toEqual([{ kind: 'term', claim: 'WebGPU', page: 'Deno' }]);
  });

  it('reads two names written side by side as one compound name', () => {
    expect(
      swaps(
        'On Node.js Windows follows the concept of a per-drive working directory.',
        'On Windows Node.js follows the concept of a per-drive working directory.',
      ),
    ).toHaveLength(1);
    expectConflict(
      'The exporter writes a Schema JSON document for each model.',
      'The exporter writes a JSON Schema document for each model, next to its sources.',
      'term',
    );
  });

  it('supports the claim that keeps each name beside its words', () => {
    expectSupported(
      'The loader reads its settings from the LOADER_CONFIG file under XDG_CONFIG_HOME.',
      'The loader reads its settings from the LOADER_CONFIG file under XDG_CONFIG_HOME, or from ' +
        'built-in defaults when there is none.',
    );
  });

  it('finds nothing in a reworded sentence, a list, a sentence that moves facts about, or a passage that repeats a name', () => {
    expect(
      swaps(
        'Always give inflate() a Uint8Array, or the call throws.',
        'Be sure to pass a Uint8Array to inflate(), otherwise the call throws.',
      ),
    ).toEqual([]);
    expect(
      swaps(
        'Command-line clients such as Postman, curl or other servers ignore CORS entirely.',
        'Command-line clients (curl, Postman, other servers) ignore CORS entirely.',
      ),
    ).toEqual([]);
    expect(
      swaps(
        'Unlike Rollup, esbuild bundles CSS imports on its own.',
        'Unlike esbuild, Rollup bundles CSS imports only through a plugin.',
      ),
    ).toEqual([]);
    expect(
      swaps(
        'obug reads namespaces from the Node.js environment variable in DEBUG.',
        'Set DEBUG to a list of namespaces. obug reads namespaces from the DEBUG environment ' +
          'variable in Node.js.',
      ),
    ).toEqual([]);
  });
});
