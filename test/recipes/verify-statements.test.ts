// A claim that joins facts the page states in several places ("X, which does Y, is Z" where Y
// and Z are under two headings): each statement is located and verified on its own.
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyAnswer } from '../../recipes/index.js';
import { LOCATE_CHANNEL, locateAll, replaySource } from '../../recipes/support/locate.js';
import type { LocateRecord } from '../../recipes/support/locate.js';
import type { CitationCheck } from '../../recipes/index.js';
import { Client, statementsOf } from '../../src/index.js';
import { startTestServer } from '../support/server.js';
import type { TestServer } from '../support/server.js';
import { startSites } from './support.js';
import type { Sites } from './support.js';

const JOINED = readFileSync(new URL('../fixtures/claims/joined.html', import.meta.url));

describe('verifyAnswer: a claim joining statements of several passages', () => {
  let server: TestServer;
  let client: Client;
  let sites: Sites;
  let checks: CitationCheck[];
  const records: LocateRecord[] = [];
  const keep = (record: unknown): void => void records.push(record as LocateRecord);
  const verdictOf = (start: string): CitationCheck => {
    const c = checks.find((x) => x.claim.startsWith(start));
    if (!c) throw new Error(`no check for ${start}`);
    return c;
  };

  beforeAll(async () => {
    server = await startTestServer();
    client = new Client({ baseURL: server.url, apiKey: server.apiKey });
    sites = await startSites();
    sites.set('/joined.html', { body: JOINED });
    const answer = [
      'gzipper.bytesRead is an alias for gzipper.bytesWritten, which counts the bytes written to the engine before they are compressed [1].',
      'gzipper.bytesRead is an alias for gzipper.bytesWritten, which counts the bytes written to the engine after they are compressed [1].',
      'gzipper.params() dynamically updates the compression level and strategy and is only available for deflate streams [1].',
      'gzipper.params(), which dynamically updates the compression level and strategy, is available for both deflate and Brotli streams [1].',
      'gzipper.bytesRead is an alias for gzipper.bytesWritten, which is reset every hour [1].',
      'Each deflate stream keeps a window of 32 KiB, and the output buffer of a stream is flushed every 16 KiB [1].',
      'Each deflate stream keeps a window of 32 KiB, and the output buffer of a stream is flushed every 64 KiB [1].',
    ].join(' ');
    subscribe(LOCATE_CHANNEL, keep);
    try {
      const r = await verifyAnswer(
        { answer, citations: [`${sites.url}/joined.html`] },
        { client, poolSize: 1, screenshots: false, embeddings: false },
      );
      checks = r.citations;
    } finally {
      unsubscribe(LOCATE_CHANNEL, keep);
    }
  });
  afterAll(async () => {
    await client?.close();
    await sites?.close();
    await server?.dispose();
  });

  it('supports the claim when every statement is stated, each by its own passage', () => {
    const alias = verdictOf(
      'gzipper.bytesRead is an alias for gzipper.bytesWritten, which counts the bytes written to the engine before',
    );
    expect(alias.verdict, alias.reason).toBe('supported');
    expect(alias.reason).toContain('each statement of the claim is stated');
    expect(verdictOf('gzipper.params() dynamically').verdict).toBe('supported');
    expect(
      verdictOf(
        'Each deflate stream keeps a window of 32 KiB, and the output buffer of a stream is flushed every 16',
      ).verdict,
    ).toBe('supported');
  });

  it('contradicts the claim when one statement states another fact', () => {
    const after = verdictOf(
      'gzipper.bytesRead is an alias for gzipper.bytesWritten, which counts the bytes written to the engine after',
    );
    expect(after.verdict, after.reason).toBe('contradicted');
    expect(after.conflicts.map((c) => c.kind)).toContain('comparative');
    const both = verdictOf('gzipper.params(), which');
    expect(both.verdict, both.reason).toBe('contradicted');
    expect(both.conflicts).toContainEqual({
      kind: 'negation',
      claim: 'Brotli',
      page: 'not Brotli',
    });
    const size = verdictOf(
      'Each deflate stream keeps a window of 32 KiB, and the output buffer of a stream is flushed every 64',
    );
    expect(size.verdict, size.reason).toBe('contradicted');
    expect(size.conflicts).toContainEqual({ kind: 'number', claim: '64 KiB', page: '16 KiB' });
  });

  it('finds nothing when one statement is stated nowhere', () => {
    expect(
      verdictOf('gzipper.bytesRead is an alias for gzipper.bytesWritten, which is reset').verdict,
    ).toBe('not_found');
  });

  it('publishes the candidates it judged, which give the same verdicts judged again', async () => {
    expect(records).toHaveLength(1);
    const [page] = records;
    expect(page!.url).toBe(`${sites.url}/joined.html`);
    expect(page!.claims).toEqual(checks.map((c) => c.claim));
    // The joined claims' statements were searched too, each on its own.
    const reset = checks.find((c) => c.claim.includes('reset every hour'))!.claim;
    const statements = statementsOf(reset);
    expect(statements.length).toBeGreaterThan(1);
    for (const s of statements) expect(page!.searches.map((x) => x.claim)).toContain(s);
    const source = replaySource(page!.searches);
    const again = await locateAll(source, page!.claims, page!.context, page!.semantic);
    expect(source.misses).toBe(0);
    expect(again.map((l) => (l.judged.match ? l.judged.verdict : 'not_found'))).toEqual(
      checks.map((c) => c.verdict),
    );
  });
});
