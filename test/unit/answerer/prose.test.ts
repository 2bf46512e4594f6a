// Extractive answers read as prose: sentences come from running text, never from headings,
// definition-like lines or code glued together. The passages are chunks exactly as the index
// lays out a Markdown document.
import { describe, expect, it } from 'vitest';
import { selectSentences } from '../../../src/server/engines/answerer/index.js';
import type { Passage } from '../../../src/server/engines/answerer/index.js';
import { proseSentences } from '../../../src/server/engines/answerer/text.js';
import { layoutAndChunk } from '../../../src/server/engines/index/chunk.js';
import { readMarkdown } from '../../../src/server/engines/index/formats/markdown.js';

const DOC = `# Class: RetryAgent

Extends: \`undici.Dispatcher\`

A \`undici.Dispatcher\` that allows to automatically retry a request.
Wraps a \`undici.RetryHandler\`.

## \`new RetryAgent(dispatcher, [options])\`

Arguments:

* **dispatcher** \`undici.Dispatcher\` (required) - the dispatcher to wrap
* **options** \`RetryHandlerOptions\` (optional) - the options

Returns: \`ProxyAgent\`

### Parameter: \`RetryHandlerOptions\`

- **maxRetries** \`number\` (optional) - Maximum number of retries. Default: \`5\`
- **minTimeout** \`number\` (optional) - Minimum number of milliseconds to wait before retrying. Default: \`500\`

## Retrying failed requests

The agent retries a failed request with exponential backoff until maxRetries is reached.
Each retry waits at least minTimeout milliseconds, and idempotent methods are retried by default.

Example:

\`\`\`js
import { Agent, RetryAgent } from 'undici'

const agent = new RetryAgent(new Agent())
const res = await agent.request({ method: 'GET', origin: 'http://example.com', path: '/' })
console.log(res.statusCode)
\`\`\`

Note: a request with a body stream cannot be retried once the stream was read.
`;

/** The document's paragraphs of running text, as a reader sees them. */
const PROSE = [
  'A undici.Dispatcher that allows to automatically retry a request. Wraps a undici.RetryHandler.',
  'The agent retries a failed request with exponential backoff until maxRetries is reached. Each retry waits at least minTimeout milliseconds, and idempotent methods are retried by default.',
  'Note: a request with a body stream cannot be retried once the stream was read.',
];

function passages(): Passage[] {
  const doc = readMarkdown(DOC, 'RetryAgent');
  const { chunks } = layoutAndChunk(doc.blocks, { minTokens: 40, maxTokens: 120 });
  return chunks.map((c) => ({
    url: `https://docs.example/retry-agent#c${c.ordinal}`,
    title: doc.title,
    date: null,
    lastUpdated: null,
    snippet: '',
    text: c.text,
    source: 'web',
    headingPath: c.headingPath,
  }));
}

describe('prose answers', () => {
  const questions = [
    'How do I retry failed requests with undici?',
    'What does RetryAgent extend and what does it return?',
    'How long does a retry wait with RetryAgent?',
    'Can a request with a body stream be retried?',
  ];

  it.each(questions)('answers %j only with whole sentences of running text', (question) => {
    const picked = selectSentences(question, passages(), { maxSentences: 6, maxPerSource: 6 });
    // What RetryAgent extends and returns is stated only in label lines: no prose answers it.
    if (!question.startsWith('What does')) expect(picked.length).toBeGreaterThan(0);
    for (const { text } of picked) {
      expect(
        PROSE.some((p) => p.includes(text)),
        text,
      ).toBe(true);
      expect(text).toMatch(/^[A-Z0-9"'(]/);
      expect(text).toMatch(/[.!?…]["')\]]?$/);
    }
  });

  it('counts heading words as context: a sentence under a matching heading is chosen', () => {
    const picked = selectSentences('How long does a retry wait with RetryAgent?', passages(), {
      maxSentences: 1,
      maxPerSource: 1,
    });
    expect(picked.map((p) => p.text)).toEqual([
      'Each retry waits at least minTimeout milliseconds, and idempotent methods are retried by default.',
    ]);
  });

  it('never glues a heading into the sentence that follows it', () => {
    const all = passages().flatMap((p) => proseSentences(p.text));
    expect(all.join('\n')).not.toMatch(/Class: RetryAgent|Extends:|Returns:|Arguments:/);
    expect(all).toContain('A undici.Dispatcher that allows to automatically retry a request.');
  });

  it('drops code, definition lists and label lines', () => {
    const all = passages().flatMap((p) => proseSentences(p.text));
    expect(all.join('\n')).not.toMatch(/const agent|console\.log|import \{|\(optional\)|Default:/);
  });

  it('keeps a label sentence that is a real sentence', () => {
    expect(
      proseSentences('Note: a request with a body stream cannot be retried once read.'),
    ).toEqual(['Note: a request with a body stream cannot be retried once read.']);
  });

  it('keeps sentences full of numbers and versions', () => {
    const text = 'The limit is 1048576 bytes (1 MiB) since v5.2.0, up from 65536.';
    expect(proseSentences(text)).toEqual([text]);
  });

  it('reads hard-wrapped plain text as one paragraph', () => {
    const text =
      'The pool keeps sockets open\nbetween requests to one origin.\nIt saves a handshake.';
    expect(proseSentences(text)).toEqual([
      'The pool keeps sockets open between requests to one origin.',
      'It saves a handshake.',
    ]);
  });
});
