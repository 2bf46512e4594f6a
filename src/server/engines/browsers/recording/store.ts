// SQLite index of recordings (table `bs_recordings`); the events live in one NDJSON file per
// recording beside it. Times are ms since the epoch.
import { randomBytes } from 'node:crypto';
import type Database from 'better-sqlite3';

/** One row of `bs_recordings`. */
export interface RecordingRow {
  session_id: string;
  user_id: string;
  started_at: number;
  ended_at: number | null;
  bytes: number;
  events: number;
  /** 1 when the size cap stopped the recording early. */
  truncated: number;
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS bs_recordings (
  session_id TEXT PRIMARY KEY,
  user_id    TEXT NOT NULL,
  started_at INTEGER NOT NULL,
  ended_at   INTEGER,
  bytes      INTEGER NOT NULL DEFAULT 0,
  events     INTEGER NOT NULL DEFAULT 0,
  truncated  INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS bs_recordings_ended ON bs_recordings (ended_at);
`;

/** Typed statements over `bs_recordings`. */
export class RecordingStore {
  /** Creates the table and index when missing. */
  constructor(private readonly db: Database.Database) {
    db.exec(SCHEMA);
  }

  /** Stores a new, running recording. */
  insert(sessionId: string, userId: string, startedAt: number): void {
    this.db
      .prepare(`INSERT INTO bs_recordings (session_id, user_id, started_at) VALUES (?, ?, ?)`)
      .run(sessionId, userId, startedAt);
  }

  /** Records the final size of a recording and when it ended (once). */
  finish(sessionId: string, at: number, bytes: number, events: number, truncated: boolean): void {
    this.db
      .prepare(
        `UPDATE bs_recordings SET ended_at = ?, bytes = ?, events = ?, truncated = ?
         WHERE session_id = ? AND ended_at IS NULL`,
      )
      .run(at, bytes, events, truncated ? 1 : 0, sessionId);
  }

  /** The recording of session `sessionId`, whoever owns it (for signed links). */
  byId(sessionId: string): RecordingRow | undefined {
    return this.db.prepare(`SELECT * FROM bs_recordings WHERE session_id = ?`).get(sessionId) as
      RecordingRow | undefined;
  }

  /** The secret that signs replay links, created on first use and kept in `server_meta`. */
  linkSecret(): Buffer {
    this.db.exec(
      'CREATE TABLE IF NOT EXISTS server_meta (key TEXT PRIMARY KEY, value BLOB NOT NULL)',
    );
    const row = this.db
      .prepare("SELECT value FROM server_meta WHERE key = 'recording_link_secret'")
      .get() as { value: Buffer } | undefined;
    if (row) return row.value;
    const secret = randomBytes(32);
    this.db
      .prepare("INSERT INTO server_meta (key, value) VALUES ('recording_link_secret', ?)")
      .run(secret);
    return secret;
  }

  /** The recording of session `sessionId` when it belongs to `userId`. */
  get(userId: string, sessionId: string): RecordingRow | undefined {
    return this.db
      .prepare(`SELECT * FROM bs_recordings WHERE session_id = ? AND user_id = ?`)
      .get(sessionId, userId) as RecordingRow | undefined;
  }

  /** Deletes one row; false when there was none. */
  delete(sessionId: string): boolean {
    return (
      this.db.prepare(`DELETE FROM bs_recordings WHERE session_id = ?`).run(sessionId).changes > 0
    );
  }

  /** Ids of recordings that ended before `before`. */
  expired(before: number): string[] {
    return (
      this.db
        .prepare(`SELECT session_id FROM bs_recordings WHERE ended_at IS NOT NULL AND ended_at < ?`)
        .all(before) as { session_id: string }[]
    ).map((r) => r.session_id);
  }

  /** Ends every recording still open (after a restart none can be); returns how many. */
  finishOpen(at: number): number {
    return this.db.prepare(`UPDATE bs_recordings SET ended_at = ? WHERE ended_at IS NULL`).run(at)
      .changes;
  }
}
