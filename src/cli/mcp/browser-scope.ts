// The browser sessions one MCP client opened: looked up by handle, released when the client
// closes them, when they sit idle, when the client disconnects, and when the server ends.
import type { CreateSessionOptions, DriverName, Session } from '../../sessions/index.js';
import type { SessionManager } from '../../sessions/index.js';
import { ToolInputError } from './results.js';
import type { RefCounter } from './snapshot.js';

/** One open session of a client. */
export interface ScopedSession {
  session: Session<DriverName>;
  /** Next ref number of the session's snapshots. */
  refs: RefCounter;
}

/** Options of {@link BrowserScope}. */
export interface BrowserScopeOptions {
  /** A session unused this long (ms) is released. */
  idleTimeout: number;
  /** Called after a session was released by the idle timer, with its id. */
  onIdleRelease?: ((sessionId: string) => void) | undefined;
  /** Called when a release failed (the manager's exit handling still covers the session). */
  onError?: ((error: unknown) => void) | undefined;
}

/** Tag every session opened through `svc mcp` carries, to find them in `svc sessions ls`. */
export const MCP_SESSION_TAG = 'mcp';

/** The sessions of one MCP client. */
export class BrowserScope {
  readonly #manager: () => SessionManager<DriverName>;
  readonly #options: BrowserScopeOptions;
  readonly #open = new Map<string, ScopedSession & { timer: NodeJS.Timeout }>();
  #closed = false;

  /** @param manager the session manager, read when a session is opened (it starts with the service) */
  constructor(manager: () => SessionManager<DriverName>, options: BrowserScopeOptions) {
    this.#manager = manager;
    this.#options = options;
  }

  /** Number of open sessions. */
  get size(): number {
    return this.#open.size;
  }

  /**
   * Opens a session for this client.
   * @throws Error when the scope was closed (the client went away while the session was created)
   */
  async open(options: CreateSessionOptions<DriverName>): Promise<ScopedSession> {
    const session = await this.#manager().create(options);
    if (this.#closed) {
      await session.release();
      throw new Error('the client disconnected while its session was being created');
    }
    const entry = { session, refs: { next: 1 }, timer: this.#idleTimer(session.id) };
    this.#open.set(session.id, entry);
    return entry;
  }

  /**
   * The open session `id`, its idle clock restarted.
   * @throws ToolInputError naming `session_id` when this client has no such open session
   */
  get(id: string): ScopedSession {
    const entry = this.#open.get(id);
    if (!entry) {
      throw new ToolInputError(
        'session_id',
        `no open session ${JSON.stringify(id)} for this client (closed, idle too long, or never opened): call browser_open`,
      );
    }
    entry.timer.refresh();
    return entry;
  }

  /**
   * Releases session `id`.
   * @throws ToolInputError naming `session_id` when this client has no such open session
   */
  async close(id: string): Promise<Session<DriverName>> {
    const { session } = this.get(id);
    this.#forget(id);
    await session.release();
    return session;
  }

  /** Releases every session and refuses new ones. Idempotent; never throws. */
  async closeAll(): Promise<void> {
    this.#closed = true;
    const all = [...this.#open.keys()];
    await Promise.all(
      all.map(async (id) => {
        const entry = this.#open.get(id);
        this.#forget(id);
        await entry?.session.release().catch((error: unknown) => this.#options.onError?.(error));
      }),
    );
  }

  #idleTimer(id: string): NodeJS.Timeout {
    const timer = setTimeout(() => {
      const entry = this.#open.get(id);
      if (!entry) return;
      this.#forget(id);
      void entry.session.release().then(
        () => this.#options.onIdleRelease?.(id),
        (error: unknown) => this.#options.onError?.(error),
      );
    }, this.#options.idleTimeout);
    // An idle session must not keep the process alive on its own.
    timer.unref();
    return timer;
  }

  #forget(id: string): void {
    const entry = this.#open.get(id);
    if (entry) clearTimeout(entry.timer);
    this.#open.delete(id);
  }
}
