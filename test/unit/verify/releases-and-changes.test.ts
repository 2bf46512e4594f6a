// Changelogs: the release a section's heading names ("Version 3.1.0") is stated for the items under
// it; a product's version may open a claim ("Jinja 2.8 increased ..."); a change written to its end
// first ("increased to 400 from a low 50") is the same change as "from a low 50 to 400"; a loosely
// near passage found by meaning must state most of the claim; two comparisons of one word in a
// sentence each have their own sides.
import { beforeAll, describe, expect, it } from 'vitest';
import { analyze, extractQuantities, verifyClaim } from '../../../src/verify/index.js';
import { expectConflict, expectSupported } from './expect-verdict.js';

beforeAll(() => {
  analyze('Warm up.');
}, 120_000);

const INDENT = 'indent filter will not indent blank lines by default. #685';

/** The options the judge gives a passage under `heading` on Jinja's changelog page. */
const under = (heading: string) => ({
  heading,
  context: `Changes — Jinja Documentation (3.1.x) \n ${heading}`,
});

describe('a release named by the heading', () => {
  it('states a version the claim calls a release, whatever names the claim gives after it', () => {
    // MIT Kerberos's feature list: each release's changes under a "Release 1.13" label.
    const options = {
      heading: 'Feature list\u00b6 Release 1.13',
      context: 'MIT Kerberos features \n Feature list\u00b6 Release 1.13',
    };
    const page = 'The KDC listens for TCP connections by default.';
    expectSupported(
      'Starting with release 1.13, the MIT Kerberos KDC listens for TCP connections by default.',
      page,
      options,
    );
    expectConflict(
      'Starting with release 1.13, the MIT Kerberos KDC does not listen for TCP connections by default.',
      page,
      'negation',
      undefined,
      options,
    );
  });

  it('states the version of a claim on an item under it', () => {
    expectSupported(
      'Since Jinja 2.10 the indent filter no longer indents blank lines by default.',
      INDENT,
      under('Version 2.10¶'),
    );
    expectSupported(
      'Since Jinja 3.1.0 the groupby filter is case-insensitive by default, and a new case_sensitive parameter controls this.',
      'The groupby filter is case-insensitive by default. Added the case_sensitive parameter to control this.',
      under('Version 3.1.0'),
    );
  });

  it('reads a version alone with its date, and one written with fewer parts, as the release', () => {
    expectSupported(
      'In Jinja 2.10 the indent filter no longer indents blank lines by default.',
      INDENT,
      under('2.10.0 (2017-11-08)'),
    );
  });

  it('leaves another release unstated, not contradicted, and a section number no release', () => {
    const other = verifyClaim(
      'Since Jinja 2.10 the indent filter no longer indents blank lines by default.',
      INDENT,
      under('Version 2.11.0'),
    );
    expect(other.verdict).toBe('unrelated');
    expect(other.missing).toContain('2.10');
    const section = verifyClaim(
      'Since Jinja 7.2 the indent filter no longer indents blank lines by default.',
      INDENT,
      under('7.2. Binary Dependencies'),
    );
    expect(section.verdict).not.toBe('supported');
  });
});

describe('a version that opens the claim', () => {
  it('is a version after a capitalised name, not an amount', () => {
    const [q] = extractQuantities('Jinja 2.8 increased the default cache size.');
    expect(q).toMatchObject({ kind: 'version', text: '2.8' });
  });
});

describe('a change written to its end first', () => {
  const page = 'Default cache size was increased to 400 from a low 50.';

  it('is the change the claim writes from its start', () => {
    expectSupported(
      'Jinja 2.8 increased the default cache size from a low 50 to 400.',
      page,
      under('Version 2.8'),
    );
  });

  it('contradicts the change the other way round', () => {
    expectConflict(
      'Jinja 2.8 reduced the default cache size from 400 to a low 50.',
      page,
      'comparative',
      { claim: '400 before a low 50', page: 'a low 50 before 400' },
      under('Version 2.8'),
    );
  });
});

describe('a passage found by meaning, only loosely near the claim', () => {
  const claim =
    'tar-stream gunzips .tar.gz data by itself, so you do not need to decompress it first.';
  const page =
    'Note that you still need to gunzip your data if you have a .tar.gz. We recommend using gunzip-maybe in conjunction with this.';

  it('must state most of the claim: on its topic is no proof of its fact', () => {
    const loose = verifyClaim(claim, page, { similarity: 0.79 });
    expect(loose.coverage).toBeLessThan(0.7);
    expect(loose.verdict).not.toBe('supported');
    expect(loose.reason).toContain('< 0.7');
  });

  it('keeps the usual coverage for a close passage, and for one found by words', () => {
    const close = verifyClaim(claim, page, { similarity: 0.81 });
    const byWords = verifyClaim(claim, page);
    expect(close.reason).not.toContain('< 0.7');
    expect(byWords.reason).not.toContain('< 0.7');
    expect(close.verdict).toBe(byWords.verdict);
  });
});

describe('two comparisons of one word in a sentence', () => {
  const page =
    'This script is executed before the package it belongs to is unpacked from its Debian archive (".deb") file. Many preinst scripts stop services for packages which are being upgraded.';

  it("gives each its own sides: the first clause is not the second one's left", () => {
    const r = verifyClaim(
      'A Debian preinst script runs before its package is unpacked from the .deb file, while a prerm script runs before the files of the package are removed.',
      page,
    );
    expect(r.conflicts).toEqual([]);
    expectSupported(
      'This script is executed before the package is unpacked from its Debian archive file, and it runs before the package files are removed.',
      page,
    );
  });

  it('still sets a flipped one against the page', () => {
    expectConflict(
      'This script is executed after the package it belongs to is unpacked from its Debian archive file.',
      page,
      'comparative',
    );
  });
});
