// Saved browser contexts: per-user rows (`bs_contexts`), encrypted state archives (files in
// `<dataDir>/contexts/` on SQLite, a column on PostgreSQL: see storage/context-archives.ts), and an
// in-memory lock so one running session at a time holds a context.
import { randomUUID } from 'node:crypto';
import type { ServerContext } from '../../context.js';
import { Conflict, Internal, NotFound } from '../../errors.js';
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

const COLUMNS = 'id, user_id, created_at, updated_at, size_bytes';

interface ContextRow {
  id: string;
  user_id: string;
  created_at: number;
  updated_at: number | null;
  size_bytes: number;
}

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
  private key: Buffer | undefined;
  private readonly locks = new Map<string, Lock>();

  constructor(private readonly ctx: ServerContext) {}

  /** Loads (or creates) the key and the archive store. */
  async start(): Promise<void> {
    await this.ctx.storage.contextArchives.start();
    this.key = this.ctx.storage.contextKey ?? (await loadContextKey(this.ctx.config.dataDir));
  }

  /** A new, empty context of `userId`. */
  async create(userId: string): Promise<BrowserContextRecord> {
    const row: ContextRow = {
      id: randomUUID(),
      user_id: userId,
      created_at: this.ctx.clock(),
      updated_at: null,
      size_bytes: 0,
    };
    await this.ctx.storage.sql.run(
      'INSERT INTO bs_contexts (id, user_id, created_at, updated_at, size_bytes) VALUES (?, ?, ?, ?, ?)',
      [row.id, row.user_id, row.created_at, row.updated_at, row.size_bytes],
    );
    return this.render(row);
  }

  /** @throws NotFound when unknown or another user's */
  async get(userId: string, id: string): Promise<BrowserContextRecord> {
    return this.render(await this.row(userId, id));
  }

  /** The contexts of `userId`, newest first. */
  async list(userId: string): Promise<BrowserContextRecord[]> {
    const { sql } = this.ctx.storage;
    const rows = await sql.all<ContextRow>(
      `SELECT ${COLUMNS} FROM bs_contexts WHERE user_id = ? ORDER BY created_at DESC, ${sql.insertOrder} DESC`,
      [userId],
    );
    return rows.map((r) => this.render(r));
  }

  /**
   * Deletes a context and its state file.
   * @throws NotFound when unknown or another user's; Conflict while a session holds it
   */
  async delete(userId: string, id: string): Promise<void> {
    await this.row(userId, id);
    await this.checkFreeElsewhere(id);
    const lock = this.locks.get(id);
    if (lock) throw inUse(id, lock.lease.sessionId);
    await this.ctx.storage.sql.run('DELETE FROM bs_contexts WHERE id = ?', [id]);
    await this.ctx.storage.contextArchives.remove(id);
  }

  /**
   * Takes context `id` for a new session and reads its state. A save still running from the
   * previous session is awaited (a stop then an immediate create is the normal sequence).
   * @throws NotFound when unknown or another user's; Conflict while a running session holds it;
   * 500 when the state file cannot be decrypted (wrong key, altered file)
   */
  async acquire(userId: string, id: string): Promise<ContextLease> {
    await this.row(userId, id);
    await this.checkFreeElsewhere(id);
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
      throw new Internal(`Browser context ${id} could not be read: ${(error as Error).message}`, {
        code: 'context_unreadable',
        cause: error,
      });
    }
    return lease;
  }

  /** Raw sealed bytes of a context's state (for checks that nothing is stored in clear). */
  async sealedBytes(id: string): Promise<Buffer | undefined> {
    return this.ctx.storage.contextArchives.read(id);
  }

  /** @throws Conflict while a session on another instance (shared database) holds it */
  private async checkFreeElsewhere(id: string): Promise<void> {
    const { sessions, instances } = this.ctx.storage;
    const holder = await sessions.runningElsewhereWith(id, instances.id);
    if (holder) throw inUse(id, holder.id);
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
    const sealed = await this.ctx.storage.contextArchives.read(id);
    if (sealed === undefined) return undefined;
    return unpackState(unseal(this.requireKey(), sealed, aad(userId, id)));
  }

  private async write(userId: string, id: string, state: ContextState): Promise<void> {
    const sealed = seal(this.requireKey(), packState(state), aad(userId, id));
    await this.ctx.storage.contextArchives.write(id, sealed, this.ctx.clock());
  }

  private async row(userId: string, id: string): Promise<ContextRow> {
    const row = await this.ctx.storage.sql.get<ContextRow>(
      `SELECT ${COLUMNS} FROM bs_contexts WHERE id = ? AND user_id = ?`,
      [id, userId],
    );
    if (!row) throw new NotFound(`Browser context not found: ${id}`, { code: 'context_not_found' });
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

  private requireKey(): Buffer {
    if (!this.key) throw new Error('browser contexts are not started');
    return this.key;
  }
}

function aad(userId: string, id: string): string {
  return `svc-context:${userId}:${id}`;
}

function inUse(id: string, sessionId: string | undefined): Conflict {
  return new Conflict(
    `Browser context ${id} is in use by running session ${sessionId ?? '(starting)'}: stop that session first`,
    { code: 'context_in_use' },
  );
}
