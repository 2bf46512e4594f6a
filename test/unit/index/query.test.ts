import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import type { SearchIndex } from '../../../src/server/engines/index/index.js';
import { queryTerms, toMatchExpression } from '../../../src/server/engines/index/query.js';
import { corpusIndex } from './helpers.js';

let index: SearchIndex;
beforeAll(async () => {
  ({ index } = await corpusIndex());
});

const HOSTILE = [
  '"',
  '""',
  '"unterminated phrase',
  '*',
  'batt*',
  '* OR *',
  'AND OR NOT',
  'battery AND',
  'NOT battery',
  'NEAR(battery grid, 2)',
  '-battery',
  '--',
  'title:battery',
  ':',
  '{title text}: battery',
  '^battery',
  '(battery',
  'battery)',
  "'; DROP TABLE idx_documents; --",
  'ünïcödé Größe café',
  '电池 储能',
  '🔋⚡',
  '\u0000\u0001',
  '   ',
  '',
  'a'.repeat(5000),
];

describe('query sanitising', () => {
  it('quotes every term and ORs them, so operators are plain words', () => {
    expect(toMatchExpression('battery NOT grid')).toBe('"battery" OR "not" OR "grid"');
    expect(toMatchExpression('title:battery* -grid')).toBe('"title" OR "battery" OR "grid"');
    expect(toMatchExpression('"Tesla Megapack"')).toBe('"tesla" OR "megapack"');
    expect(toMatchExpression('*:"()-')).toBeNull();
  });

  it('drops stop words only when other terms remain', () => {
    expect(queryTerms('what is the duck curve')).toEqual(['duck', 'curve']);
    expect(queryTerms('the')).toEqual(['the']);
  });

  it.each(HOSTILE)('never throws for %j', async (query) => {
    await expect(index.search({ query })).resolves.toBeInstanceOf(Array);
  });

  it('treats operator words as search terms rather than syntax', async () => {
    const hits = await index.search({ query: 'NOT battery' });
    expect(hits.some((h) => h.text.toLowerCase().includes('battery'))).toBe(true);
  });

  it('matches words with diacritics regardless of accents', async () => {
    const hits = await index.search({ query: 'reseau electrique' });
    expect(hits[0]!.domain).toBe('lemonde-exemple.fr');
  });

  it('never throws for arbitrary strings', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: 'binary', maxLength: 60 }), async (query) => {
        const hits = await index.search({ query, maxResults: 3 });
        expect(Array.isArray(hits)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});
