import type { Database } from 'better-sqlite3';
import type { LaidOutText } from './chunk.js';
import type {
  ChunkRecord,
  DocumentCategory,
  IndexImage,
  IndexedDocument,
  SourceKind,
} from './types.js';

/** A fully prepared document, ready to write: the stored fields, with its text laid out. */
export interface DocumentRow extends Omit<IndexedDocument, 'images' | 'text' | 'chunks'> {
  laidOut: LaidOutText;
}

interface RawDoc {
  id: string;
  url: string;
  source: string;
  source_kind: string;
  title: string;
  domain: string;
  language: string | null;
  category: string;
  published_at: number | null;
  updated_at: number | null;
  content_hash: string;
  images: string;
  text: string;
  html: string;
  indexed_at: number;
}

/** A chunk row as read from SQLite. */
export interface RawChunk {
  id: number;
  doc_id: string;
  ordinal: number;
  heading_path: string;
  heading_level: number;
  char_start: number;
  char_end: number;
  tokens: number;
  text: string;
}

const toDate = (ms: number | null): Date | null => (ms === null ? null : new Date(ms));

/** Maps a chunk row to its public shape. */
export function chunkFromRow(r: RawChunk): ChunkRecord {
  return {
    id: r.id,
    docId: r.doc_id,
    ordinal: r.ordinal,
    headingPath: JSON.parse(r.heading_path) as string[],
    headingLevel: r.heading_level,
    charStart: r.char_start,
    charEnd: r.char_end,
    text: r.text,
    tokens: r.tokens,
  };
}

/** Prepared statements over the `idx_` tables. Create once per database. */
export class IndexStore {
  readonly #db: Database;
  readonly #hashOf;
  readonly #deleteFts;
  readonly #deleteChunks;
  readonly #deleteDoc;
  readonly #insertDoc;
  readonly #insertChunk;
  readonly #insertFts;
  readonly #getDoc;
  readonly #getChunks;
  readonly #replace;

  constructor(db: Database) {
    this.#db = db;
    this.#hashOf = db.prepare<[string], { content_hash: string }>(
      'SELECT content_hash FROM idx_documents WHERE id = ?',
    );
    this.#deleteFts = db.prepare(
      'DELETE FROM idx_chunks_fts WHERE rowid IN (SELECT id FROM idx_chunks WHERE doc_id = ?)',
    );
    this.#deleteChunks = db.prepare('DELETE FROM idx_chunks WHERE doc_id = ?');
    this.#deleteDoc = db.prepare('DELETE FROM idx_documents WHERE id = ?');
    this.#insertDoc = db.prepare(`INSERT INTO idx_documents
      (id, url, source, source_kind, title, domain, language, category, published_at, updated_at,
       content_hash, images, text, html, indexed_at)
      VALUES (@id, @url, @source, @source_kind, @title, @domain, @language, @category, @published_at,
       @updated_at, @content_hash, @images, @text, @html, @indexed_at)`);
    this.#insertChunk = db.prepare(`INSERT INTO idx_chunks
      (doc_id, ordinal, heading_path, heading_level, char_start, char_end, tokens, text)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?)`);
    this.#insertFts = db.prepare(
      'INSERT INTO idx_chunks_fts (rowid, title, heading, text) VALUES (?, ?, ?, ?)',
    );
    this.#getDoc = db.prepare<[string], RawDoc>('SELECT * FROM idx_documents WHERE id = ?');
    this.#getChunks = db.prepare<[string], RawChunk>(
      'SELECT * FROM idx_chunks WHERE doc_id = ? ORDER BY ordinal',
    );
    this.#replace = db.transaction((row: DocumentRow) => {
      this.#removeTx(row.id);
      this.#insertDoc.run({
        id: row.id,
        url: row.url,
        source: row.source,
        source_kind: row.sourceKind,
        title: row.title,
        domain: row.domain,
        language: row.language,
        category: row.category,
        published_at: row.publishedAt?.getTime() ?? null,
        updated_at: row.updatedAt?.getTime() ?? null,
        content_hash: row.contentHash,
        images: JSON.stringify(row.laidOut.images),
        text: row.laidOut.text,
        html: row.html,
        indexed_at: row.indexedAt.getTime(),
      });
      for (const c of row.laidOut.chunks) {
        const info = this.#insertChunk.run(
          row.id,
          c.ordinal,
          JSON.stringify(c.headingPath),
          c.headingLevel,
          c.charStart,
          c.charEnd,
          c.tokens,
          c.text,
        );
        this.#insertFts.run(info.lastInsertRowid, row.title, c.headingPath.join(' '), c.text);
      }
    });
  }

  #removeTx(id: string): number {
    this.#deleteFts.run(id);
    this.#deleteChunks.run(id);
    return this.#deleteDoc.run(id).changes;
  }

  /** The stored content hash of document `id`, or `null` when it is not indexed. */
  contentHash(id: string): string | null {
    return this.#hashOf.get(id)?.content_hash ?? null;
  }

  /** Writes a document and its chunks, replacing any previous version, in one transaction. */
  replace(row: DocumentRow): void {
    this.#replace(row);
  }

  /** Removes a document and its chunks; returns whether it existed. */
  remove(id: string): boolean {
    return this.#db.transaction(() => this.#removeTx(id))() > 0;
  }

  /** Reads one document with its chunks, or `null`. */
  get(id: string): IndexedDocument | null {
    const r = this.#getDoc.get(id);
    if (!r) return null;
    return {
      id: r.id,
      url: r.url,
      source: r.source,
      sourceKind: r.source_kind as SourceKind,
      title: r.title,
      domain: r.domain,
      language: r.language,
      category: r.category as DocumentCategory,
      publishedAt: toDate(r.published_at),
      updatedAt: toDate(r.updated_at),
      contentHash: r.content_hash,
      images: JSON.parse(r.images) as IndexImage[],
      text: r.text,
      html: r.html,
      indexedAt: new Date(r.indexed_at),
      chunks: this.#getChunks.all(id).map(chunkFromRow),
    };
  }
}
