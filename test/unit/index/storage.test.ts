import Database from 'better-sqlite3';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createSearchIndex } from '../../../src/server/engines/index/index.js';
import { NOW, openIndex } from './helpers.js';

describe('storage', () => {
  let dir: string;
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('persists in a WAL database file and reopens without recreating tables', async () => {
    dir = await mkdtemp(join(tmpdir(), 'svc-idx-db-'));
    const file = join(dir, 'svc.db');
    const db = new Database(file);
    db.pragma('journal_mode = WAL');
    const index = createSearchIndex(db, { now: () => NOW });
    const { id } = index.addDocument({
      source: 'https://example.org/wal',
      url: 'https://example.org/wal',
      title: 'Write-ahead logging',
      blocks: [{ kind: 'paragraph', text: 'Readers never block the writer in WAL mode.' }],
    });
    db.close();

    const reopened = new Database(file);
    const again = createSearchIndex(reopened);
    expect((await again.search({ query: 'writer readers' })).map((h) => h.docId)).toEqual([id]);
    expect(again.stats()).toMatchObject({
      documents: 1,
      chunks: 1,
      domains: { 'example.org': 1 },
      lastIndexedAt: NOW,
    });
    const tables = reopened
      .prepare<[], { name: string }>(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'idx_chunks_fts_%'",
      )
      .all()
      .map((t) => t.name)
      .sort();
    expect(tables).toEqual(['idx_chunks', 'idx_chunks_fts', 'idx_documents']);
    reopened.close();
  });

  it('finds enough distinct documents when one document dominates the top chunks', async () => {
    dir = await mkdtemp(join(tmpdir(), 'svc-idx-db-'));
    const { index } = openIndex();
    // One long document whose 300 chunks all match strongly, and six that match weakly.
    const strong = Array.from({ length: 300 }, (_, i) => [
      { kind: 'heading' as const, level: 2, text: `Geothermal section ${i}` },
      { kind: 'paragraph' as const, text: `Geothermal geothermal geothermal wells, part ${i}.` },
    ]).flat();
    index.addDocument({
      source: 'gen:strong',
      url: 'https://a.example/strong',
      title: 'Geothermal',
      blocks: strong,
    });
    for (let d = 0; d < 6; d++) {
      index.addDocument({
        source: `gen:weak${d}`,
        url: `https://b.example/weak${d}`,
        title: `Note ${d}`,
        blocks: [
          {
            kind: 'paragraph',
            text: `A long note about many other things, mentioning geothermal once among ${'filler words '.repeat(30)}`,
          },
        ],
      });
    }
    const hits = await index.search({ query: 'geothermal', maxResults: 5 });
    expect(hits).toHaveLength(5);
    expect(new Set(hits.map((h) => h.docId)).size).toBe(5);
    expect(hits[0]!.url).toBe('https://a.example/strong');
    const three = await index.search({ query: 'geothermal', maxResults: 2, chunksPerDocument: 3 });
    expect(three.map((h) => h.url)).toEqual([
      'https://a.example/strong',
      'https://a.example/strong',
      'https://a.example/strong',
      expect.stringMatching(/^https:\/\/b\.example\/weak/),
    ]);
  });
});
