import { beforeAll, describe, expect, it } from 'vitest';
import { analyze, loadWordNet, verifyClaim } from '../../../src/verify/index.js';
import { related } from '../../../src/verify/words.js';

const verdict = (claim: string, page: string, context?: string): string =>
  verifyClaim(claim, page, { context }).verdict;

/** The first token of `text` whose lower case is `word`. */
const token = (text: string, word: string) => {
  const t = analyze(text).tokens.find((x) => x.lower === word);
  if (!t) throw new Error(`no token "${word}" in "${text}"`);
  return t;
};

// WordNet and the tagger load once per process: slow on a busy machine, so outside any test.
beforeAll(() => {
  loadWordNet();
  analyze('Warm up.');
}, 120_000);

describe('WordNet relations one link away', () => {
  it('relates an adjective to the head of its cluster, never to an antonym', () => {
    const wn = loadWordNet();
    expect(wn.related('idle', 'inactive')).toBe(true);
    expect(wn.related('inactive', 'idle')).toBe(true);
    expect(wn.related('active', 'inactive')).toBe(false);
    expect(wn.related('idle', 'busy')).toBe(false);
  });

  it('relates derivationally related forms, not unrelated words', () => {
    const wn = loadWordNet();
    expect(wn.related('create', 'creation')).toBe(true);
    expect(wn.related('configure', 'configuration')).toBe(true);
    expect(wn.related('create', 'delete')).toBe(false);
    expect(wn.related('request', 'response')).toBe(false);
  });
});

describe('related: word forms', () => {
  it('matches one stem under different suffixes', () => {
    expect(related(token('It is active.', 'active'), token('It was activated.', 'activated'))).toBe(
      true,
    );
    expect(
      related(token('Pipelining helps.', 'pipelining'), token('The pipeline runs.', 'pipeline')),
    ).toBe(true);
  });

  it('does not match words that only share a short beginning', () => {
    expect(related(token('Open the port.', 'port'), token('A portion of it.', 'portion'))).toBe(
      false,
    );
    expect(related(token('It is active.', 'active'), token('It is inactive.', 'inactive'))).toBe(
      false,
    );
  });
});

describe('paraphrases through related words', () => {
  it('supports a cluster adjective or a derived form in place of the page word', () => {
    expect(
      verdict(
        'Inactive sockets are closed after the timeout.',
        'Idle sockets are closed after the timeout.',
      ),
    ).toBe('supported');
    expect(
      verdict(
        'The agent is active as soon as it is created.',
        'When created, the agent is automatically activated.',
      ),
    ).toBe('supported');
  });

  it('still contradicts an antonym or a word of the other cluster in the same slot', () => {
    expect(
      verdict(
        'Active sockets are closed after the timeout.',
        'Idle sockets are closed after the timeout.',
      ),
    ).toBe('contradicted');
    expect(
      verdict(
        'Busy sockets are closed after the timeout.',
        'Idle sockets are closed after the timeout.',
      ),
    ).toBe('contradicted');
    expect(
      verdict(
        'The agent is not active when it is created.',
        'When created, the agent is automatically activated.',
      ),
    ).toBe('contradicted');
  });
});

describe('key terms named by the page', () => {
  const passage = 'Non-idempotent requests are never pipelined, to avoid indirect failures.';

  it('counts a term in the title, site name or address as stated', () => {
    const claim = 'To avoid indirect failures, Zorbly never pipelines non-idempotent requests.';
    expect(verdict(claim, passage)).toBe('unrelated');
    expect(verdict(claim, passage, 'Dispatcher \n docs zorbly dispatcher')).toBe('supported');
  });

  it('does not let the context stand in for the words of the fact', () => {
    expect(
      verdict(
        'Zorbly keeps cached responses for an hour.',
        passage,
        'Dispatcher \n docs zorbly dispatcher',
      ),
    ).not.toBe('supported');
  });

  it('reads an English word capitalised at a sentence start as no name', () => {
    expect(analyze('Pipelining is used only when enabled.').keyTerms).toEqual([]);
    expect(analyze('Kubernetes is used only when enabled.').keyTerms).toContainEqual({
      text: 'Kubernetes',
      kind: 'proper',
    });
  });
});

describe('negation said another way', () => {
  it('reads "zero X" as "no X", and still contradicts "X"', () => {
    expect(verdict('The client has no dependencies.', 'The client has zero dependencies.')).toBe(
      'supported',
    );
    expect(verdict('The client has zero dependencies.', 'The client has dependencies.')).toBe(
      'contradicted',
    );
  });

  it('reads "keeps X from doing" as "X does not do"', () => {
    expect(
      verdict(
        'The variable keeps the client from using the cache.',
        'The variable forces the client not to use the cache.',
      ),
    ).toBe('supported');
    expect(
      verdict(
        'The variable keeps the client from using the cache.',
        'The variable makes the client use the cache.',
      ),
    ).toBe('contradicted');
  });
});

describe('contradictions need aligned slots', () => {
  it('takes a different number for a conflict only beside the same words', () => {
    const r = verifyClaim(
      'The read timeout is 60 seconds.',
      'Connections are kept for 300 seconds of idle time.',
    );
    expect(r.verdict).not.toBe('supported');
    expect(r.conflicts).toEqual([]);
    expect(
      verifyClaim('The read timeout is 60 seconds.', 'The read timeout is 300 seconds.').conflicts,
    ).toContainEqual({ kind: 'number', claim: '60 seconds', page: '300 seconds' });
  });

  it('aligns no slot across a clause boundary or a reworded phrase', () => {
    expect(
      verdict(
        'On older versions, the client can use optional native modules to speed things up.',
        'On older versions, the client can leverage optional native modules to optimize performance.',
      ),
    ).toBe('supported');
    expect(
      verdict(
        'Because it costs a lot of memory, compression should be enabled only when needed.',
        'It adds overhead in terms of memory consumption, so we suggest to enable compression only when needed.',
      ),
    ).not.toBe('contradicted');
    // A changed modifier beside the slot still leaves the slot in place.
    expect(
      verdict('The cache stores compiled templates.', 'The cache stores rendered pages.'),
    ).toBe('contradicted');
  });

  it('finds no swap in a frame when the sentence states the claimed word elsewhere', () => {
    expect(
      verdict(
        'The default successStatus is 204.',
        'The default configuration is the equivalent of: { "origin": "*", "successStatus": 204 }',
      ),
    ).toBe('supported');
    expect(
      verdict('The default successStatus is 204.', 'The default configuration is 204.'),
    ).not.toBe('supported');
  });

  it('aligns a key term stated only in another sentence of the window with its own slot', () => {
    const page =
      'The framework has zero dependencies and uses only the Web Standard API. It runs on Deno, Bun, or Node.js.';
    expect(verdict('The framework uses only the Node.js API.', page)).toBe('contradicted');
    expect(verdict('The framework uses only the Web Standard API.', page)).toBe('supported');
    expect(verdict('The framework runs on Node.js.', page)).toBe('supported');
  });
});
