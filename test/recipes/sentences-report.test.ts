import { describe, expect, it } from 'vitest';
import { renderReportHtml, splitSentences, summarize } from '../../recipes/index.js';
import type { CitationCheck } from '../../recipes/index.js';

describe('splitSentences', () => {
  it('keeps a marker before the final punctuation inside its sentence', () => {
    const s = splitSentences('The bridge opened in 1932 [2]. It is 212 m long [1][3].');
    expect(s.map((x) => [x.claim, x.markers])).toEqual([
      ['The bridge opened in 1932.', [2]],
      ['It is 212 m long.', [1, 3]],
    ]);
  });

  it('reads an index glued to a name written as code as part of the claim, not a marker', () => {
    const s = splitSentences(
      'The worker runs process.argv[1] with fn()[0] and `list[2]` [3]. Paris is in France[1][2]. The fence is ``` unless you pick ~~~ [4].',
    );
    expect(s.map((x) => [x.claim, x.markers])).toEqual([
      ['The worker runs process.argv[1] with fn()[0] and list[2].', [3]],
      ['Paris is in France.', [1, 2]],
      ['The fence is unless you pick ~~~.', [4]],
    ]);
  });

  it('does not end a sentence at abbreviations or decimals, and drops reasoning blocks', () => {
    const s = splitSentences(
      '<think>plan [9].</think>Use a pool, e.g. two sessions, for 2.5x speed [1]. Done [2]!',
    );
    expect(s.map((x) => x.markers)).toEqual([[1], [2]]);
    expect(s[0]!.text).toBe('Use a pool, e.g. two sessions, for 2.5x speed [1].');
    // An ellipsis before a lower-case word elides inside its sentence; before a capital it ends one.
    expect(
      splitSentences(
        'Expat consumes the xmlns and xmlns:... attributes [1]. Call f(20, ...) with a parser. Wait... Then go [2].',
      ).map((x) => x.text),
    ).toEqual([
      'Expat consumes the xmlns and xmlns:... attributes [1].',
      'Call f(20, ...) with a parser.',
      'Wait...',
      'Then go [2].',
    ]);
    // A mark standing alone as a word before a lower-case word is named; at the end it ends one.
    expect(
      splitSentences(
        'Dotfiles are skipped unless the pattern contains a . or dot is set [1]. It ends here . Then go.',
      ).map((x) => x.text),
    ).toEqual([
      'Dotfiles are skipped unless the pattern contains a . or dot is set [1].',
      'It ends here .',
      'Then go.',
    ]);
    // An initial before a name ends no sentence; a capital letter before a word that opens
    // sentences does.
    expect(
      splitSentences(
        'The code is maintained by C. Scott Ananian [1]. Written by J. R. R. Tolkien. Use plan B. Then go.',
      ).map((x) => x.text),
    ).toEqual([
      'The code is maintained by C. Scott Ananian [1].',
      'Written by J. R. R. Tolkien.',
      'Use plan B.',
      'Then go.',
    ]);
  });

  it('treats lines as boundaries and strips Markdown from claims', () => {
    const s = splitSentences('## Setup\n- **Install** the `ws` package [1]\n- Start it. [2]');
    expect(s.map((x) => [x.claim, x.markers])).toEqual([
      ['Setup', []],
      ['Install the ws package', [1]],
      ['Start it.', [2]],
    ]);
  });
});

describe('renderReportHtml', () => {
  const check = (over: Partial<CitationCheck>): CitationCheck => ({
    n: 1,
    sentenceIndex: 0,
    sentence: 'x [1].',
    claim: 'x.',
    url: 'https://a.example/',
    title: null,
    verdict: 'supported',
    reason: 'exact match',
    conflicts: [],
    passage: null,
    page: null,
    screenshots: null,
    timings: { waitMs: 0, visitMs: 0, findMs: 0, captureMs: 0 },
    ...over,
  });

  it('links markers to their citation and never emits a script or a javascript: link', () => {
    const citations = [
      check({ claim: '<img src=x onerror=alert(1)>' }),
      check({ n: 2, url: 'javascript:alert(1)', verdict: 'blocked', reason: '"><script>' }),
    ];
    const html = renderReportHtml({
      title: 'T <b>',
      answer: 'First <i>claim</i> [1][2].',
      citations,
      summary: summarize(citations),
    });
    expect(html).toContain('href="#c-0-1"');
    expect(html).toContain('href="#c-0-2"');
    expect(html).not.toMatch(/<script|<img src=x|<i>|href="javascript/i);
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(html).toContain('<td>0.5</td>');
  });
});
