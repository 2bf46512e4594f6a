import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';

/**
 * Opens (creating if needed) the server's SQLite database in `dataDir`, in WAL mode so the CLI can
 * read and index while a server runs.
 * @throws Error naming the file and the way out when the database is corrupt or not a database
 */
export function openDatabase(dataDir: string): Database.Database {
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const file = path.join(dataDir, 'svc.db');
  let db: Database.Database | undefined;
  try {
    db = new Database(file);
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('busy_timeout = 5000');
    db.pragma('foreign_keys = ON');
    db.prepare('SELECT count(*) FROM sqlite_master').get();
    return db;
  } catch (error) {
    db?.close();
    const code = (error as { code?: string }).code ?? '';
    if (code === 'SQLITE_NOTADB' || code === 'SQLITE_CORRUPT') {
      throw new Error(
        `Data dir database is corrupt: ${file} (${code}). Move it aside (the server then starts with an empty database) or point --data-dir elsewhere.`,
        { cause: error },
      );
    }
    throw error;
  }
}
