// The pure halves of the page actions: no browser, kept beside the browser tests they support.
import { describe, expect, it } from 'vitest';
import { judgeBlock, normalizeText, stripCitationMarkers } from '../../../src/page/index.js';
import {
  contentWords,
  normalizeSegments,
  rawText,
  splitSentences,
  stem,
  toRange,
} from '../../../src/page/text.js';

const signals = {
  title: 'Article',
  text: 'Plain text.',
  textLength: 11,
  password: false,
  captcha: null,
};

describe('text normalisation', () => {
  it('strips citation markers of every common shape', () => {
    expect(stripCitationMarkers('It opened in 1932 [1]. It is long [2, 3][4-6].')).toBe(
      'It opened in 1932. It is long.',
    );
    expect(stripCitationMarkers('Fact【3†source】 here [^7].')).toBe('Fact here.');
    expect(stripCitationMarkers('It runs process.argv[1] and this_list[0] [2].')).toBe(
      'It runs process.argv[1] and this_list[0].',
    );
  });

  it('folds case, quotes, dashes, invisible characters and whitespace', () => {
    expect(normalizeText('  “Rock‑solid”\u00a0—\tit’s\u00adfine…  ')).toBe(
      '"rock-solid" - it\'sfine...',
    );
  });

  it('maps every normalised character back to its node and offset', () => {
    const segments = { texts: ['Hello  ', 'Wörld', ' again.'], blocks: [0, 1, 1] };
    const norm = normalizeSegments(segments);
    expect(norm.text).toBe('hello wörld again.');
    const at = norm.text.indexOf('wörld again');
    const range = toRange(norm, segments, { start: at, end: at + 'wörld again'.length });
    expect(range).toEqual({ start: { node: 1, offset: 0 }, end: { node: 2, offset: 6 } });
    expect(rawText(segments, range)).toBe('Wörld again');
  });

  it('keeps the mapping past characters of two code units (an emoji in a heading)', () => {
    const segments = { texts: ['🐘 Postgres 🍎', 'Defaults to ./data/db'], blocks: [0, 1] };
    const norm = normalizeSegments(segments);
    expect(norm.node).toHaveLength(norm.text.length);
    const at = norm.text.indexOf('defaults');
    const range = toRange(norm, segments, { start: at, end: norm.text.length });
    expect(rawText(segments, range)).toBe('Defaults to ./data/db');
    const elephant = toRange(norm, segments, { start: 0, end: 2 });
    expect(rawText(segments, elephant)).toBe('🐘');
    // The block break falls at the text's own index, the space before "defaults".
    expect([...norm.breaks]).toEqual([at - 1]);
  });

  it('splits sentences at end punctuation and block boundaries', () => {
    const norm = normalizeSegments({ texts: ['One. Two!', 'Three'], blocks: [0, 1] });
    expect(
      splitSentences(norm.text, norm.breaks).map((s) => norm.text.slice(s.start, s.end)),
    ).toEqual(['one.', 'two!', 'three']);
  });

  it('stems plurals and verb forms alike', () => {
    expect(stem('walking')).toBe(stem('walks'));
    expect(stem('reduced')).toBe(stem('reduces'));
    expect(stem('studies')).toBe(stem('study'));
  });

  it('gives small numbers written as words as their digits', () => {
    expect(contentWords('It defaults to one millisecond.')).toEqual([
      'default',
      '1',
      'millisecond',
    ]);
    expect(contentWords('Twelve retries, not 12.')).toEqual(['12', 'retry', '12']);
    expect(contentWords('A zero-filled buffer.')).toEqual(['zero', 'fill', 'buffer']);
  });
});

describe('judgeBlock', () => {
  it('does not flag an ordinary page', () => {
    expect(judgeBlock(signals, 200)).toBeNull();
  });

  it('does not flag a long article that mentions a challenge phrase', () => {
    const text = `Just a moment, said the mayor. ${'Long story. '.repeat(300)}`;
    expect(judgeBlock({ ...signals, text, textLength: text.length }, 200)).toBeNull();
  });

  it('flags a challenge by its title even when its body is long', () => {
    expect(
      judgeBlock({ ...signals, title: 'Attention Required! | Cloudflare', textLength: 9_000 }, 200)
        ?.kind,
    ).toBe('challenge');
  });
});
