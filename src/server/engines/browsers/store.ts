// SQLite persistence of browser session records (table `bs_sessions`). Times are ms since the epoch.
import type Database from 'better-sqlite3';

/** Final and live states of a session. */
export type SessionStatus = 'running' | 'stopped' | 'expired' | 'failed';

/** One row of `bs_sessions`. */
export interface SessionRow {
  id: string;
  user_id: string;
  key_id: string;
  status: SessionStatus;
  token_hash: Buffer;
  created_at: number;
  expires_at: number | null;
  ended_at: number | null;
  end_reason: string | null;
  tags: string;
  profile_dir: string;
  pid: number | null;
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS bs_sessions (
  id          TEXT PRIMARY KEY,
  user_id     TEXT NOT NULL,
  key_id      TEXT NOT NULL,
  status      TEXT NOT NULL,
  token_hash  BLOB NOT NULL,
  created_at  INTEGER NOT NULL,
  expires_at  INTEGER,
  ended_at    INTEGER,
  end_reason  TEXT,
  tags        TEXT NOT NULL,
  profile_dir TEXT NOT NULL,
  pid         INTEGER
);
CREATE INDEX IF NOT EXISTS bs_sessions_user ON bs_sessions (user_id, created_at);
`;

/** Typed statements over `bs_sessions`. */
export class SessionStore {
  private readonly db: Database.Database;

  /** Creates the table and index when missing. */
  constructor(db: Database.Database) {
    this.db = db;
    db.exec(SCHEMA);
  }

  /** Stores a new session. */
  insert(row: SessionRow): void {
    this.db
      .prepare(
        `INSERT INTO bs_sessions (id, user_id, key_id, status, token_hash, created_at, expires_at, ended_at, end_reason, tags, profile_dir, pid)
         VALUES (@id, @user_id, @key_id, @status, @token_hash, @created_at, @expires_at, @ended_at, @end_reason, @tags, @profile_dir, @pid)`,
      )
      .run(row);
  }

  /** Marks a running session ended; returns false when it had already ended. */
  end(id: string, status: Exclude<SessionStatus, 'running'>, reason: string, at: number): boolean {
    const info = this.db
      .prepare(
        `UPDATE bs_sessions SET status = ?, end_reason = ?, ended_at = ? WHERE id = ? AND status = 'running'`,
      )
      .run(status, reason, at, id);
    return info.changes > 0;
  }

  /** A session of `userId`, unless it ended before `visibleSince`. */
  get(userId: string, id: string, visibleSince: number): SessionRow | undefined {
    return this.db
      .prepare(
        `SELECT * FROM bs_sessions WHERE id = ? AND user_id = ? AND (ended_at IS NULL OR ended_at >= ?)`,
      )
      .get(id, userId, visibleSince) as SessionRow | undefined;
  }

  /** Any session by id, whoever owns it (for the CDP upgrade). */
  byId(id: string): SessionRow | undefined {
    return this.db.prepare(`SELECT * FROM bs_sessions WHERE id = ?`).get(id) as
      SessionRow | undefined;
  }

  /** Sessions of `userId`, newest first, without those that ended before `visibleSince`. */
  list(userId: string, visibleSince: number): SessionRow[] {
    return this.db
      .prepare(
        `SELECT * FROM bs_sessions WHERE user_id = ? AND (ended_at IS NULL OR ended_at >= ?) ORDER BY created_at DESC, rowid DESC`,
      )
      .all(userId, visibleSince) as SessionRow[];
  }

  /** Deletes rows that ended before `before`. */
  purge(before: number): number {
    return this.db
      .prepare(`DELETE FROM bs_sessions WHERE ended_at IS NOT NULL AND ended_at < ?`)
      .run(before).changes;
  }

  /** Ends every row still `running` (after a restart nothing can be running). */
  failRunning(reason: string, at: number): number {
    return this.db
      .prepare(
        `UPDATE bs_sessions SET status = 'failed', end_reason = ?, ended_at = ? WHERE status = 'running'`,
      )
      .run(reason, at).changes;
  }
}
