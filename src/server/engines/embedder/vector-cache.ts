import { createHash } from 'node:crypto';
import type { Database, Statement } from 'better-sqlite3';

/** Defaults of {@link VectorCache}. */
export const VECTOR_CACHE_DEFAULTS = {
  /** Vectors kept in memory (512 floats each: about 2 KB). @default 20_000 */
  memoryEntries: 20_000,
  /** Rows kept in SQLite before the oldest are dropped (about 2 KB each). @default 100_000 */
  storedEntries: 100_000,
} as const;

/** Options of {@link VectorCache}. */
export interface VectorCacheOptions {
  /** Persist vectors in this database (table `embed_vectors`); memory only without it. */
  db?: Database | undefined;
  /** @default VECTOR_CACHE_DEFAULTS.memoryEntries */
  memoryEntries?: number;
  /** @default VECTOR_CACHE_DEFAULTS.storedEntries */
  storedEntries?: number;
}

/**
 * Encoder vectors by text: an LRU in memory in front of an optional SQLite table, so a chunk that
 * was embedded once (by search rerank or passage location) is never embedded again, across
 * requests and restarts. Keys are a SHA-256 of the encoder id and the text: a new encoder version
 * never reads an old vector, and the table holds no text.
 */
export class VectorCache {
  private readonly memory = new Map<string, Float32Array>();
  private readonly memoryEntries: number;
  private readonly storedEntries: number;
  private readonly get: Statement<[string], { vector: Buffer }> | undefined;
  private readonly put: Statement<[string, Buffer]> | undefined;
  private readonly trim: Statement<[number]> | undefined;
  private readonly putMany: ((rows: [string, Float32Array][]) => void) | undefined;
  private writes = 0;
  private readonly db: Database | undefined;

  constructor(
    private readonly encoderId: string,
    options: VectorCacheOptions = {},
  ) {
    this.memoryEntries = options.memoryEntries ?? VECTOR_CACHE_DEFAULTS.memoryEntries;
    this.storedEntries = options.storedEntries ?? VECTOR_CACHE_DEFAULTS.storedEntries;
    const db = options.db;
    this.db = db;
    if (!db) return;
    db.exec(
      'CREATE TABLE IF NOT EXISTS embed_vectors (id INTEGER PRIMARY KEY, key TEXT NOT NULL UNIQUE, vector BLOB NOT NULL)',
    );
    this.get = db.prepare('SELECT vector FROM embed_vectors WHERE key = ?');
    this.put = db.prepare('INSERT OR IGNORE INTO embed_vectors (key, vector) VALUES (?, ?)');
    this.trim = db.prepare(
      'DELETE FROM embed_vectors WHERE id <= (SELECT max(id) FROM embed_vectors) - ?',
    );
    const put = this.put;
    this.putMany = db.transaction((rows: [string, Float32Array][]) => {
      for (const [key, v] of rows) put.run(key, Buffer.from(v.buffer, v.byteOffset, v.byteLength));
    });
  }

  /** The cache key of `text`. */
  keyOf(text: string): string {
    return createHash('sha256')
      .update(this.encoderId)
      .update('\0')
      .update(text)
      .digest('base64url');
  }

  /** The cached vector of `key`, or `undefined`. */
  lookup(key: string): Float32Array | undefined {
    const hit = this.memory.get(key);
    if (hit) {
      // Re-insert: Map order is recency order, the first key is the least recently used.
      this.memory.delete(key);
      this.memory.set(key, hit);
      return hit;
    }
    const row = this.db?.open ? this.get?.get(key) : undefined;
    if (!row) return undefined;
    const b = row.vector;
    const v = new Float32Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength));
    this.remember(key, v);
    return v;
  }

  /** Stores fresh vectors in memory and, when persistent, in one transaction. */
  store(rows: [string, Float32Array][]): void {
    for (const [key, v] of rows) this.remember(key, v);
    // A server closing its database may still receive the vectors of a request in flight.
    if (!this.putMany || rows.length === 0 || !this.db?.open) return;
    this.putMany(rows);
    this.writes += rows.length;
    // Trimming scans the index: only once in a while.
    if (this.writes >= 1_000) {
      this.writes = 0;
      this.trim!.run(this.storedEntries);
    }
  }

  private remember(key: string, v: Float32Array): void {
    if (this.memory.size >= this.memoryEntries) {
      this.memory.delete(this.memory.keys().next().value!);
    }
    this.memory.set(key, v);
  }
}
