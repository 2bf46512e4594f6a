import { describe, expect, it } from 'vitest';
import { countTokens } from '../../../src/protocol/index.js';
import {
  OutputLimiter,
  selectSentences,
  withMarker,
} from '../../../src/server/engines/answerer/index.js';
import type { Passage } from '../../../src/server/engines/answerer/index.js';
import { decompose } from '../../../src/server/engines/answerer/decompose.js';

const passage = (url: string, text: string): Passage => ({
  url,
  title: url,
  date: null,
  lastUpdated: null,
  snippet: '',
  text,
  source: 'web',
});

describe('OutputLimiter', () => {
  it('cuts at the first stop sequence even when it spans two pieces', () => {
    const limiter = new OutputLimiter(null, ['STOP']);
    let out = limiter.push('alpha beta ST');
    out += limiter.push('OP gamma');
    out += limiter.end();
    expect(out).toBe('alpha beta ');
    expect(limiter.finishReason).toBe('stop');
  });

  it('truncates to max_tokens and reports length', () => {
    const limiter = new OutputLimiter(5, []);
    let out = '';
    for (const word of 'one two three four five six seven eight'.split(' '))
      out += limiter.push(word + ' ');
    out += limiter.end();
    expect(countTokens(out)).toBe(5);
    expect(limiter.finishReason).toBe('length');
    expect(out).toBe(limiter.content);
  });

  it('gives the same text whether fed at once or piece by piece', () => {
    const text = 'Chromium starts fast. Sessions end on delete. Keys are hashed.';
    const whole = new OutputLimiter(9, ['hashed']);
    const a = whole.push(text) + whole.end();
    const pieces = new OutputLimiter(9, ['hashed']);
    let b = '';
    for (const ch of text.match(/.{1,3}/gs)!) b += pieces.push(ch);
    b += pieces.end();
    expect(b).toBe(a);
  });
});

describe('selectSentences', () => {
  const sources = [
    passage(
      'a',
      'Chromium is a browser. The warm pool keeps browser processes ready so sessions start fast.',
    ),
    passage(
      'b',
      'Bananas are yellow. A warm pool of browser processes makes session creation fast.',
    ),
    passage('c', 'SQLite stores the index in one file.'),
  ];

  it('picks sentences sharing terms with the question and marks their source', () => {
    const picked = selectSentences('Why do browser sessions start fast?', sources, {
      maxSentences: 3,
      maxPerSource: 1,
    });
    expect(picked.length).toBeGreaterThan(0);
    expect(picked[0]!.text).toMatch(/warm pool/);
    expect(picked.every((s) => s.marker === 1 || s.marker === 2)).toBe(true);
    expect(picked.map((s) => s.text).join(' ')).not.toMatch(/Bananas|SQLite/);
  });

  it('selects nothing when no sentence shares a content word', () => {
    expect(
      selectSentences('quantum chromodynamics', sources, { maxSentences: 3, maxPerSource: 1 }),
    ).toEqual([]);
  });

  it('puts the marker before the final punctuation', () => {
    expect(withMarker('Keys are hashed.', 2)).toBe('Keys are hashed [2].');
    expect(withMarker('No punctuation', 1)).toBe('No punctuation [1]');
  });
});

describe('decompose', () => {
  it('splits facets and widens with terms from the first results, up to the count', () => {
    const queries = decompose('How do sessions and keys work?', 4, [
      passage('a', 'rotation rotation hashing'),
    ]);
    expect(queries[0]).toBe('How do sessions and keys work?');
    expect(queries).toContain('How do sessions');
    expect(queries.length).toBeLessThanOrEqual(4);
    expect(decompose('browser pool', 1, [])).toEqual(['browser pool']);
  });
});
