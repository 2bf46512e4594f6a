import type { Database } from 'better-sqlite3';

/**
 * Bumped when extraction or chunking changes, so re-indexing an unchanged file still rebuilds it.
 */
export const SCHEMA_VERSION = 2;

/**
 * Creates the index tables (all prefixed `idx_`) if they do not exist. Idempotent.
 *
 * Dates are stored as epoch milliseconds; `heading_path` and `images` as JSON. The FTS5 table keeps
 * its own copy of title, heading and text with `rowid = idx_chunks.id`, maintained by the writer in
 * the same transaction as the chunk rows.
 *
 * @param db - An open better-sqlite3 database (the server's, WAL mode).
 * @throws SqliteError when the SQLite build lacks FTS5.
 */
export function ensureIndexSchema(db: Database): void {
  db.exec(`
    CREATE TABLE IF NOT EXISTS idx_documents (
      id TEXT PRIMARY KEY,
      url TEXT NOT NULL,
      source TEXT NOT NULL,
      source_kind TEXT NOT NULL,
      title TEXT NOT NULL,
      domain TEXT NOT NULL,
      language TEXT,
      category TEXT NOT NULL,
      published_at INTEGER,
      updated_at INTEGER,
      content_hash TEXT NOT NULL,
      images TEXT NOT NULL,
      text TEXT NOT NULL,
      html TEXT NOT NULL,
      indexed_at INTEGER NOT NULL
    );
    CREATE INDEX IF NOT EXISTS idx_documents_domain ON idx_documents(domain);
    CREATE INDEX IF NOT EXISTS idx_documents_published ON idx_documents(published_at);
    CREATE TABLE IF NOT EXISTS idx_chunks (
      id INTEGER PRIMARY KEY,
      doc_id TEXT NOT NULL REFERENCES idx_documents(id) ON DELETE CASCADE,
      ordinal INTEGER NOT NULL,
      heading_path TEXT NOT NULL,
      heading_level INTEGER NOT NULL,
      char_start INTEGER NOT NULL,
      char_end INTEGER NOT NULL,
      tokens INTEGER NOT NULL,
      text TEXT NOT NULL,
      UNIQUE (doc_id, ordinal)
    );
    CREATE VIRTUAL TABLE IF NOT EXISTS idx_chunks_fts USING fts5(
      title, heading, text,
      tokenize = 'porter unicode61 remove_diacritics 2'
    );
  `);
}
