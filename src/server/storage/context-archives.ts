// Where the sealed archive of a saved browser context lives: a file per context in the data dir
// (SQLite, one machine), or a column of its row (PostgreSQL, so every instance can restore it).
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Sql } from './sql.js';

/** The sealed archives of saved contexts (the bytes are already encrypted by the caller). */
export interface ContextArchives {
  /** Prepares the store (creates the folder). */
  start(): Promise<void>;
  /** The archive of context `id`, or undefined when none was saved yet. */
  read(id: string): Promise<Buffer | undefined>;
  /**
   * Stores the archive of context `id` and sets its row's `updated_at` and `size_bytes`.
   * @returns false when the row no longer exists (nothing is kept then)
   */
  write(id: string, sealed: Buffer, at: number): Promise<boolean>;
  /** Removes the archive of context `id`, if any. */
  remove(id: string): Promise<void>;
}

/** Archives as files `<dir>/<id>.ctx` (mode 0600), replaced atomically. */
export class FileContextArchives implements ContextArchives {
  constructor(
    private readonly sql: Sql,
    private readonly dir: string,
  ) {}

  async start(): Promise<void> {
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
  }

  async read(id: string): Promise<Buffer | undefined> {
    try {
      return await readFile(this.file(id));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }

  async write(id: string, sealed: Buffer, at: number): Promise<boolean> {
    // Write then rename: a crash mid-save leaves the previous state, never a torn file.
    const tmp = `${this.file(id)}.${process.pid}.tmp`;
    await writeFile(tmp, sealed, { mode: 0o600 });
    await rename(tmp, this.file(id));
    const info = await this.sql.run(
      'UPDATE bs_contexts SET updated_at = ?, size_bytes = ? WHERE id = ?',
      [at, sealed.length, id],
    );
    // Deleted while the session ran: a racing delete must not leave an orphan file behind.
    if (info.changes === 0) await this.remove(id);
    return info.changes > 0;
  }

  async remove(id: string): Promise<void> {
    await rm(this.file(id), { force: true });
  }

  private file(id: string): string {
    // Ids come from randomUUID and are checked against the database first; never a user path.
    return path.join(this.dir, `${id}.ctx`);
  }
}

/** Archives in `bs_contexts.archive`, written with the row in one statement. */
export class ColumnContextArchives implements ContextArchives {
  constructor(private readonly sql: Sql) {}

  async start(): Promise<void> {}

  async read(id: string): Promise<Buffer | undefined> {
    const row = await this.sql.get<{ archive: Buffer | null }>(
      'SELECT archive FROM bs_contexts WHERE id = ?',
      [id],
    );
    return row?.archive ?? undefined;
  }

  async write(id: string, sealed: Buffer, at: number): Promise<boolean> {
    const info = await this.sql.run(
      'UPDATE bs_contexts SET archive = ?, updated_at = ?, size_bytes = ? WHERE id = ?',
      [sealed, at, sealed.length, id],
    );
    return info.changes > 0;
  }

  async remove(id: string): Promise<void> {
    await this.sql.run('UPDATE bs_contexts SET archive = NULL WHERE id = ?', [id]);
  }
}
