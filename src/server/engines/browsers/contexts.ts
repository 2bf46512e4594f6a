// Saved browser contexts: per-user rows in SQLite (`bs_contexts`), encrypted state files in
// `<dataDir>/contexts/`, and an in-memory lock so one running session at a time holds a context.
import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { ServerContext } from '../../context.js';
import { HttpError } from '../../http-error.js';
import { packState, unpackState } from './contexts-archive.js';
import type { ContextState } from './contexts-archive.js';
import { loadContextKey, seal, unseal } from './contexts-crypto.js';

/** A context as the API returns it. Times are Unix seconds. */
export interface BrowserContextRecord {
  id: string;
  created_at: number;
  updated_at: number | null;
  size_bytes: number;
  session_id: string | null;
}

interface ContextRow {
  id: string;
  user_id: string;
  created_at: number;
  updated_at: number | null;
  size_bytes: number;
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS bs_contexts (
  id         TEXT PRIMARY KEY,
  user_id    TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  updated_at INTEGER,
  size_bytes INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS bs_contexts_user ON bs_contexts (user_id, created_at);
`;

/** A context held by one session, from create until its state is saved (or not) at its end. */
export interface ContextLease {
  readonly contextId: string;
  /** The saved state, or undefined for a context no session has saved into yet. */
  readonly state: ContextState | undefined;
  /** The session holding it, set once the browser exists. */
  sessionId: string | undefined;
  /** Saves `state` into the context, then frees it. Never rejects: a failure is logged. */
  saveAndRelease(state: ContextState): Promise<void>;
  /** Frees the context without saving. Idempotent. */
  release(): void;
}

interface Lock {
  lease: ContextLease;
  /** Set while a save runs; a create for this context waits for it rather than answering 409. */
  saving?: Promise<void>;
}

/**
 * The saved-context engine. State is sealed with AES-256-GCM under `<dataDir>/context.key` (mode
 * 0600, generated once) with the owner and the context id as associated data; another user's
 * context reads as 404, exactly like an unknown one.
 * @example
 * const contexts = new BrowserContexts(ctx); await contexts.start();
 * const { id } = contexts.create('alice');
 */
export class BrowserContexts {
  private readonly dir: string;
  private key: Buffer | undefined;
  private readonly locks = new Map<string, Lock>();

  constructor(private readonly ctx: ServerContext) {
    ctx.db.exec(SCHEMA);
    this.dir = path.join(ctx.config.dataDir, 'contexts');
  }

  /** Loads (or creates) the key and the state folder. */
  async start(): Promise<void> {
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    this.key = await loadContextKey(this.ctx.config.dataDir);
  }

  /** A new, empty context of `userId`. */
  create(userId: string): BrowserContextRecord {
    const row: ContextRow = {
      id: randomUUID(),
      user_id: userId,
      created_at: this.ctx.clock(),
      updated_at: null,
      size_bytes: 0,
    };
    this.ctx.db
      .prepare(
        'INSERT INTO bs_contexts (id, user_id, created_at, updated_at, size_bytes) VALUES (@id, @user_id, @created_at, @updated_at, @size_bytes)',
      )
      .run(row);
    return this.render(row);
  }

  /** @throws HttpError 404 when unknown or another user's */
  get(userId: string, id: string): BrowserContextRecord {
    return this.render(this.row(userId, id));
  }

  /** The contexts of `userId`, newest first. */
  list(userId: string): BrowserContextRecord[] {
    const rows = this.ctx.db
      .prepare('SELECT * FROM bs_contexts WHERE user_id = ? ORDER BY created_at DESC, rowid DESC')
      .all(userId) as ContextRow[];
    return rows.map((r) => this.render(r));
  }

  /**
   * Deletes a context and its state file.
   * @throws HttpError 404 when unknown or another user's; 409 while a session holds it
   */
  async delete(userId: string, id: string): Promise<void> {
    this.row(userId, id);
    const lock = this.locks.get(id);
    if (lock) throw inUse(id, lock.lease.sessionId);
    this.ctx.db.prepare('DELETE FROM bs_contexts WHERE id = ?').run(id);
    await rm(this.file(id), { force: true });
  }

  /**
   * Takes context `id` for a new session and reads its state. A save still running from the
   * previous session is awaited (a stop then an immediate create is the normal sequence).
   * @throws HttpError 404 when unknown or another user's; 409 while a running session holds it;
   * 500 when the state file cannot be decrypted (wrong key, altered file)
   */
  async acquire(userId: string, id: string): Promise<ContextLease> {
    this.row(userId, id);
    for (let lock = this.locks.get(id); lock; lock = this.locks.get(id)) {
      if (!lock.saving) throw inUse(id, lock.lease.sessionId);
      await lock.saving;
    }
    const lease = this.lease(userId, id);
    // The lock is taken before the state is read, so two creates cannot both pass the check.
    this.locks.set(id, { lease });
    try {
      (lease as { state: ContextState | undefined }).state = await this.read(userId, id);
    } catch (error) {
      this.locks.delete(id);
      throw new HttpError(
        500,
        `Browser context ${id} could not be read: ${(error as Error).message}`,
        {
          code: 'context_unreadable',
          cause: error,
        },
      );
    }
    return lease;
  }

  /** Raw sealed bytes of a context's state file (for checks that nothing is stored in clear). */
  async sealedBytes(id: string): Promise<Buffer | undefined> {
    try {
      return await readFile(this.file(id));
    } catch {
      return undefined;
    }
  }

  private lease(userId: string, id: string): ContextLease {
    const free = (lease: ContextLease): void => {
      if (this.locks.get(id)?.lease === lease) this.locks.delete(id);
    };
    const lease: ContextLease = {
      contextId: id,
      state: undefined,
      sessionId: undefined,
      release: () => free(lease),
      saveAndRelease: (state) => {
        const lock = this.locks.get(id);
        const saving = this.write(userId, id, state)
          .catch((error: unknown) =>
            this.ctx.logger.error('could not save a browser context', {
              contextId: id,
              sessionId: lease.sessionId,
              error: (error as Error).message,
            }),
          )
          .finally(() => free(lease));
        if (lock?.lease === lease) lock.saving = saving;
        return saving;
      },
    };
    return lease;
  }

  private async read(userId: string, id: string): Promise<ContextState | undefined> {
    let sealed: Buffer;
    try {
      sealed = await readFile(this.file(id));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
    return unpackState(unseal(this.requireKey(), sealed, aad(userId, id)));
  }

  private async write(userId: string, id: string, state: ContextState): Promise<void> {
    const sealed = seal(this.requireKey(), packState(state), aad(userId, id));
    // Write then rename: a crash mid-save leaves the previous state, never a torn file.
    const tmp = `${this.file(id)}.${process.pid}.tmp`;
    await writeFile(tmp, sealed, { mode: 0o600 });
    await rename(tmp, this.file(id));
    const info = this.ctx.db
      .prepare('UPDATE bs_contexts SET updated_at = ?, size_bytes = ? WHERE id = ?')
      .run(this.ctx.clock(), sealed.length, id);
    // Deleted while the session ran (impossible through the API, but a racing purge must not
    // leave an orphan file behind).
    if (info.changes === 0) await rm(this.file(id), { force: true });
  }

  private row(userId: string, id: string): ContextRow {
    const row = this.ctx.db
      .prepare('SELECT * FROM bs_contexts WHERE id = ? AND user_id = ?')
      .get(id, userId) as ContextRow | undefined;
    if (!row)
      throw new HttpError(404, `Browser context not found: ${id}`, { code: 'context_not_found' });
    return row;
  }

  private render(row: ContextRow): BrowserContextRecord {
    return {
      id: row.id,
      created_at: Math.floor(row.created_at / 1000),
      updated_at: row.updated_at === null ? null : Math.floor(row.updated_at / 1000),
      size_bytes: row.size_bytes,
      session_id: this.locks.get(row.id)?.lease.sessionId ?? null,
    };
  }

  private file(id: string): string {
    // Ids come from randomUUID and are checked against the database first; never a user path.
    return path.join(this.dir, `${id}.ctx`);
  }

  private requireKey(): Buffer {
    if (!this.key) throw new Error('browser contexts are not started');
    return this.key;
  }
}

function aad(userId: string, id: string): string {
  return `svc-context:${userId}:${id}`;
}

function inUse(id: string, sessionId: string | undefined): HttpError {
  return new HttpError(
    409,
    `Browser context ${id} is in use by running session ${sessionId ?? '(starting)'}: stop that session first`,
    { code: 'context_in_use' },
  );
}
