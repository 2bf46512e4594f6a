// Persistence of browser session records (table `bs_sessions`, SQLite or PostgreSQL). Times are ms since the epoch.
import type { Sql } from '../../storage/sql.js';

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
  /** The instance whose process holds the browser (null in rows made before instances). */
  instance_id: string | null;
  /** That instance's internal URL, where other instances forward CDP upgrades. */
  instance_url: string | null;
  /** The saved context the session started from, if any. */
  context_id: string | null;
}

/** Typed statements over `bs_sessions` (its schema: `storage/migrations.ts`). */
export class SessionStore {
  constructor(private readonly sql: Sql) {}

  /** Stores a new session. */
  async insert(row: SessionRow): Promise<void> {
    await this.sql.run(
      `INSERT INTO bs_sessions (id, user_id, key_id, status, token_hash, created_at, expires_at, ended_at, end_reason, tags, profile_dir, pid, instance_id, instance_url, context_id)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [
        row.id,
        row.user_id,
        row.key_id,
        row.status,
        row.token_hash,
        row.created_at,
        row.expires_at,
        row.ended_at,
        row.end_reason,
        row.tags,
        row.profile_dir,
        row.pid,
        row.instance_id,
        row.instance_url,
        row.context_id,
      ],
    );
  }

  /** Marks a running session ended; returns false when it had already ended. */
  async end(
    id: string,
    status: Exclude<SessionStatus, 'running'>,
    reason: string,
    at: number,
  ): Promise<boolean> {
    const info = await this.sql.run(
      `UPDATE bs_sessions SET status = ?, end_reason = ?, ended_at = ? WHERE id = ? AND status = 'running'`,
      [status, reason, at, id],
    );
    return info.changes > 0;
  }

  /** A session of `userId`, unless it ended before `visibleSince`. */
  get(userId: string, id: string, visibleSince: number): Promise<SessionRow | undefined> {
    return this.sql.get<SessionRow>(
      `SELECT * FROM bs_sessions WHERE id = ? AND user_id = ? AND (ended_at IS NULL OR ended_at >= ?)`,
      [id, userId, visibleSince],
    );
  }

  /** The running session of context `contextId` on an instance other than `instanceId`, if any. */
  runningElsewhereWith(contextId: string, instanceId: string): Promise<SessionRow | undefined> {
    return this.sql.get<SessionRow>(
      `SELECT * FROM bs_sessions WHERE context_id = ? AND status = 'running' AND instance_id <> ?`,
      [contextId, instanceId],
    );
  }

  /** Any session by id, whoever owns it (for the CDP upgrade). */
  byId(id: string): Promise<SessionRow | undefined> {
    return this.sql.get<SessionRow>(`SELECT * FROM bs_sessions WHERE id = ?`, [id]);
  }

  /** Sessions of `userId`, newest first, without those that ended before `visibleSince`. */
  list(userId: string, visibleSince: number): Promise<SessionRow[]> {
    return this.sql.all<SessionRow>(
      `SELECT * FROM bs_sessions WHERE user_id = ? AND (ended_at IS NULL OR ended_at >= ?) ORDER BY created_at DESC, ${this.sql.insertOrder} DESC`,
      [userId, visibleSince],
    );
  }

  /** Deletes rows that ended before `before`. */
  async purge(before: number): Promise<number> {
    return (
      await this.sql.run(`DELETE FROM bs_sessions WHERE ended_at IS NOT NULL AND ended_at < ?`, [
        before,
      ])
    ).changes;
  }

  /**
   * Ends the `running` rows whose browser profile is under `profileRoot`: the sessions of a
   * previous server on this data dir (one live server per data dir), found at the next start.
   */
  async failRunningUnder(profileRoot: string, reason: string, at: number): Promise<number> {
    const prefix = profileRoot.endsWith('/') ? profileRoot : `${profileRoot}/`;
    const info = await this.sql.run(
      `UPDATE bs_sessions SET status = 'failed', end_reason = ?, ended_at = ? WHERE status = 'running' AND substr(profile_dir, 1, ?) = ?`,
      [reason, at, prefix.length, prefix],
    );
    return info.changes;
  }

  /**
   * Ends every row still `running` (after a restart nothing can be running), or with
   * `instanceIds`, only those of these instances (instances found dead).
   */
  async failRunning(reason: string, at: number, instanceIds?: readonly string[]): Promise<number> {
    if (instanceIds === undefined) {
      return (
        await this.sql.run(
          `UPDATE bs_sessions SET status = 'failed', end_reason = ?, ended_at = ? WHERE status = 'running'`,
          [reason, at],
        )
      ).changes;
    }
    let changes = 0;
    for (const instance of instanceIds) {
      changes += (
        await this.sql.run(
          `UPDATE bs_sessions SET status = 'failed', end_reason = ?, ended_at = ? WHERE status = 'running' AND instance_id = ?`,
          [reason, at, instance],
        )
      ).changes;
    }
    return changes;
  }
}
