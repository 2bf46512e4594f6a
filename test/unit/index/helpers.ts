// Shared set-up for the index tests: an in-memory database and the fixture corpus.
import Database from 'better-sqlite3';
import { fileURLToPath } from 'node:url';
import { createSearchIndex } from '../../../src/server/engines/index/index.js';
import type { IndexReport, SearchIndex } from '../../../src/server/engines/index/index.js';

/** The fixture corpus directory. */
export const CORPUS = fileURLToPath(new URL('../../fixtures/corpus/', import.meta.url));

/** The clock every corpus test uses: the recycling-plant article is from this morning. */
export const NOW = new Date('2025-06-15T12:00:00Z');

/** A fresh index over a fresh in-memory database with the fixed clock. */
export function openIndex(): { db: Database.Database; index: SearchIndex } {
  const db = new Database(':memory:');
  return { db, index: createSearchIndex(db, { now: () => NOW }) };
}

/** A fresh index holding the whole fixture corpus. */
export async function corpusIndex(): Promise<{
  db: Database.Database;
  index: SearchIndex;
  report: IndexReport;
}> {
  const { db, index } = openIndex();
  const report = await index.indexPaths([CORPUS]);
  return { db, index, report };
}
