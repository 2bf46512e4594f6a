import { describe, expect, it } from 'vitest';
import { renderReportHtml } from '../../recipes/index.js';
import type { CitationCheck } from '../../recipes/index.js';

const citation: CitationCheck = {
  n: 1,
  sentenceIndex: 0,
  sentence: 'Retries back off [1].',
  claim: 'Retries back off.',
  url: 'https://a.example/',
  title: 'Retry guide',
  verdict: 'supported',
  conflicts: [],
  reason: 'exact match',
  passage: {
    quote: 'Retries back off exponentially.',
    method: 'exact',
    score: 1,
    domPath: 'html > body > main > p:nth-of-type(3)',
    textFragmentUrl: 'https://a.example/#:~:text=Retries',
  } as unknown as CitationCheck['passage'],
  page: null,
  screenshots: null,
  timings: { waitMs: 0, visitMs: 0, findMs: 0, captureMs: 0 },
};

describe('report for readers', () => {
  it('is titled by its question, not by the recipe that wrote it', () => {
    const html = renderReportHtml({
      title: 'citeAndCapture',
      question: 'How do retries back off?',
      answer: 'Retries back off [1].',
      citations: [citation],
    });
    expect(html).toContain('<title>How do retries back off?</title>');
    expect(html).toContain('<h1>How do retries back off?</h1>');
    expect(html).not.toContain('citeAndCapture');
  });

  it('labels facts and timings in words, without internals such as the DOM path', () => {
    const html = renderReportHtml({
      title: 'citeAndCapture',
      question: 'q',
      citations: [citation],
      timings: { answerMs: 120, firstSourcesMs: 80 },
    });
    expect(html).not.toContain('DOM path');
    expect(html).not.toContain('p:nth-of-type');
    expect(html).toContain('<th>found by</th><td>exact match (score 1)</td>');
    expect(html).toContain('<th>answer</th><td>120</td>');
    expect(html).toContain('<th>first sources</th><td>80</td>');
    expect(html).not.toContain('answerMs');
  });
});
