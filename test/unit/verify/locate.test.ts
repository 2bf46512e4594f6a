import { beforeAll, describe, expect, it } from 'vitest';
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import {
  LOCATE_CHANNEL,
  locateAll,
  locateChannel,
  recording,
  replaySource,
  verdictOf,
} from '../../../recipes/support/locate.js';
import type { RecordedSearch } from '../../../recipes/support/locate.js';
import { analyze } from '../../../src/verify/index.js';
import type { PassageMatch } from '../../../src/index.js';
import { match } from './passage-match.js';

const search = (
  claim: string,
  methods: RecordedSearch['methods'],
  matches: PassageMatch[],
  scrolled = false,
): RecordedSearch => ({ claim, methods, scrolled, matches });

const LEXICAL = ['exact', 'fuzzy'] as const;

beforeAll(() => {
  analyze('Warm up.');
}, 120_000);

describe('replaySource: recorded searches answered again', () => {
  it('answers a search with the candidates recorded at the same scroll state first', async () => {
    const before = match('fuzzy', 0.7, 'Before scrolling.');
    const after = match('fuzzy', 0.9, 'After scrolling.');
    const source = replaySource([
      search('c', LEXICAL, [before]),
      search('c', LEXICAL, [after], true),
    ]);
    expect(await source.find('c', LEXICAL)).toEqual([before]);
    await source.scroll();
    expect(await source.find('c', LEXICAL)).toEqual([after]);
    expect(source.misses).toBe(0);
  });

  it('counts a search it has no record of as a miss, with no candidate', async () => {
    const source = replaySource([search('c', LEXICAL, [match('exact', 1, 'c')])]);
    expect(await source.find('c', ['embedding'])).toEqual([]);
    expect(await source.find('other claim', LEXICAL)).toEqual([]);
    expect(source.misses).toBe(2);
  });

  it('fails a search that failed when recorded, with its message', async () => {
    const source = replaySource([{ ...search('c', LEXICAL, []), error: 'Timed out after 15 s' }]);
    await expect(source.find('c', LEXICAL)).rejects.toThrow('Timed out after 15 s');
  });
});

describe('locateAll over recorded candidates', () => {
  const limit = 'The body size limit is 1 MiB by default.';

  it('judges each claim by its candidates: support, contradiction, nothing', async () => {
    const claims = [
      'The body size limit is 1 MiB by default.',
      'The body size limit is 5 MiB by default.',
      'Cookies are sent with every redirect.',
    ];
    const source = replaySource([
      search(claims[0]!, LEXICAL, [match('exact', 1, limit)]),
      search(claims[1]!, LEXICAL, [match('fuzzy', 0.85, limit)]),
      search(claims[2]!, LEXICAL, []),
      search(claims[2]!, LEXICAL, [], true),
    ]);
    const located = await locateAll(source, claims, '', false);
    expect(located.map(verdictOf)).toEqual(['supported', 'contradicted', 'not_found']);
    expect(located[1]!.judged.conflicts).toContainEqual({
      kind: 'number',
      claim: '5 MiB',
      page: '1 MiB',
    });
    expect(source.misses).toBe(0);
  });

  it('searches by meaning only with `semantic`, and only for claims the words left open', async () => {
    const claim = 'A failed request is attempted again at most 3 times.';
    const retried = match('embedding', 0.82, 'A failed request is retried up to 3 times.');
    const searches = [
      search(claim, LEXICAL, []),
      search(claim, LEXICAL, [], true),
      search(claim, ['embedding'], [retried], true),
    ];
    const without = replaySource(searches);
    expect((await locateAll(without, [claim], '', false)).map(verdictOf)).toEqual(['not_found']);
    const withMeaning = replaySource(searches);
    const located = await locateAll(withMeaning, [claim], '', true);
    expect(located[0]!.judged.match?.quote).toBe(retried.quote);
    expect(withMeaning.misses).toBe(0);
  });

  it('records the searches it makes, so a replay of them gives the same verdicts', async () => {
    const claims = ['The body size limit is 5 MiB by default.', 'Nothing states this here.'];
    const recorded: RecordedSearch[] = [];
    const page = replaySource([
      search(claims[0]!, LEXICAL, [match('fuzzy', 0.85, limit)]),
      search(claims[1]!, LEXICAL, []),
      search(claims[1]!, LEXICAL, [], true),
    ]);
    const live = await locateAll(recording(page, recorded), claims, '', false);
    expect(recorded.map((s) => [s.claim, s.scrolled])).toEqual([
      [claims[0], false],
      [claims[1], false],
      [claims[1], true],
    ]);
    const again = await locateAll(replaySource(recorded), claims, '', false);
    expect(again.map(verdictOf)).toEqual(live.map(verdictOf));
    expect(again.map(verdictOf)).toEqual(['contradicted', 'not_found']);
  });
});

describe('the locate channel', () => {
  it('is a node:diagnostics_channel that publishes only while someone subscribes', () => {
    expect(locateChannel.hasSubscribers).toBe(false);
    const seen: unknown[] = [];
    const keep = (m: unknown): void => void seen.push(m);
    subscribe(LOCATE_CHANNEL, keep);
    try {
      expect(locateChannel.hasSubscribers).toBe(true);
      locateChannel.publish({ url: 'u' });
    } finally {
      unsubscribe(LOCATE_CHANNEL, keep);
    }
    expect(seen).toEqual([{ url: 'u' }]);
  });
});
