// The session manager: create sessions from a provider, attach a driver, and never leak them.
import { EventEmitter } from 'node:events';
import { SessionError, SvcError } from '../errors.js';
import { attachPlaywright } from './attach/playwright.js';
import { attachPuppeteer } from './attach/puppeteer.js';
import type { Attachment } from './attach/attachment.js';
import { registerExitParticipant } from './exit-hooks.js';
import type { ExitParticipant } from './exit-hooks.js';
import {
  DEFAULTS,
  checkDriver,
  checkMs,
  checkServiceOptions,
  readSessionEnv,
  selectProvider,
} from './options.js';
import type { SessionManagerOptions } from './options.js';
import { SessionPool } from './pool.js';
import type { PoolOptions } from './pool.js';
import { ApiProvider } from './providers/api.js';
import { CdpProvider } from './providers/cdp.js';
import { GridProvider } from './providers/grid.js';
import { LocalProvider } from './providers/local.js';
import type { ProviderLease, SessionProvider, SyncRelease } from './providers/provider.js';
import { Session } from './session.js';
import { withTimeout } from './timeout.js';
import type { ReconnectOptions, SessionHooks } from './session.js';
import type { CreateSessionOptions, DriverName, SessionManagerEvents } from './types.js';

/**
 * Creates browser sessions from a provider (`api`, `local`, `cdp`, `grid`), attaches Playwright or
 * Puppeteer over CDP, and releases them: on `release()`, at the end of `withSession()`, on
 * `releaseAll()`/`close()`, and on process exit, SIGINT, SIGTERM and uncaught errors.
 *
 * Events: `session-lost`, `reconnecting` (each attempt), `session-reconnected` / `reconnected`,
 * `reconnect-failed`, `session-released`, `warning` (see {@link SessionManagerEvents}). A dropped
 * CDP socket of a session the provider still runs is reattached by itself, with backoff, to the
 * same browser: its pages are found as they were left.
 * @throws SvcError at construction when an option (or `SVC_SESSION_PROVIDER`) is invalid, or the
 * `api` provider has no API key / base URL
 * @example
 * const manager = new SessionManager({ provider: 'api' }); // SVC_BASE_URL + SVC_API_KEY
 * const title = await manager.withSession({ driver: 'playwright' }, async ({ page }) => {
 *   await page.goto('https://example.com');
 *   return page.title();
 * });
 * await manager.close();
 */
export class SessionManager<
  DD extends DriverName = 'playwright',
> extends EventEmitter<SessionManagerEvents> {
  /** The provider sessions come from. */
  readonly provider: SessionProvider;
  /** The driver `create()` uses when none is given. */
  readonly driver: DD;
  readonly #connectTimeout: number;
  readonly #callTimeout: number;
  readonly #closeTimeout: number;
  readonly #idleTimeout: number;
  readonly #reconnect: ReconnectOptions | false;
  readonly #sessions = new Set<Session>();
  readonly #leases = new Set<ProviderLease>();
  readonly #unregister: (() => void) | undefined;
  #closing: Promise<void> | undefined;

  constructor(options: SessionManagerOptions<DD> = {}) {
    super();
    this.driver = checkDriver(options.driver ?? DEFAULTS.driver) as DD;
    this.#connectTimeout = checkMs(
      'connectTimeout',
      options.connectTimeout ?? DEFAULTS.connectTimeout,
    );
    this.#callTimeout = checkMs('callTimeout', options.callTimeout ?? DEFAULTS.callTimeout);
    this.#closeTimeout = checkMs('closeTimeout', options.closeTimeout ?? DEFAULTS.closeTimeout);
    this.#idleTimeout = checkMs('idleTimeout', options.idleTimeout ?? DEFAULTS.idleTimeout);
    this.#reconnect =
      options.reconnect === false ? false : { ...DEFAULTS.reconnect, ...options.reconnect };
    this.provider = buildProvider(options);
    if (options.onLost) this.on('session-lost', options.onLost);
    if (options.handleExit ?? true) {
      const participant: ExitParticipant = {
        releaseForExit: () => this.releaseAll().then(() => undefined),
        pendingSyncReleases: () =>
          [...this.#leases].flatMap((l): SyncRelease[] => {
            const job = l.syncRelease();
            return job ? [job] : [];
          }),
      };
      this.#unregister = registerExitParticipant(participant);
    }
  }

  /** The open sessions, in creation order. */
  get sessions(): readonly Session[] {
    return [...this.#sessions];
  }

  /**
   * Creates a session and attaches the driver to it.
   * @throws SessionError (reason `attach_failed`) when attaching fails (the session is released)
   * @throws the provider's error when create fails (APIError subclasses for `api`)
   * @throws SvcError when the manager is closed or an option is invalid
   * @example
   * const session = await manager.create({ driver: 'puppeteer', viewport: { width: 1280, height: 800 } });
   * try { await session.page.goto(url); } finally { await session.release(); }
   */
  async create<D extends DriverName = DD>(
    options: CreateSessionOptions<D> = {},
  ): Promise<Session<D>> {
    this.#assertOpen();
    if (options.context !== undefined && this.provider.name !== 'api')
      throw new SvcError(
        `Invalid option context: saved contexts are kept by the svc service (the api provider), not by the ${this.provider.name} provider`,
      );
    checkServiceOptions(options, this.provider.name);
    const driver = checkDriver(options.driver ?? this.driver) as D;
    const timeout = checkMs('timeout', options.timeout ?? this.#connectTimeout);
    const started = Date.now();
    const lease = await withTimeout(
      this.provider.acquire({
        tags: options.tags ?? [],
        timeout,
        viewport: options.viewport,
        userAgent: options.userAgent,
        idleTimeout: options.idleTimeout ?? this.#idleTimeout,
        maxDuration: options.maxDuration,
        context: options.context,
        record: options.record,
        liveView: options.liveView,
      }),
      timeout,
      `Creating a ${this.provider.name} session`,
      // Created after we gave up (retries of a slow service): end it rather than leak it.
      (late) =>
        void late.release().catch((error: unknown) =>
          this.emit('warning', {
            sessionId: late.record.session_id,
            message: 'Releasing a session created after its create timed out failed',
            error,
          }),
        ),
    );
    this.#leases.add(lease);
    const attach = (connectTimeout: number, previous?: Attachment<D>): Promise<Attachment<D>> => {
      const attachOptions = {
        reuseContextId:
          previous?.driver === 'puppeteer' && !lease.owned
            ? (previous as Attachment<'puppeteer'>).context.id
            : undefined,
        wsEndpoint: lease.wsEndpoint,
        headers: lease.headers,
        isolate: !lease.owned,
        viewport: options.viewport,
        userAgent: options.userAgent,
        connectTimeout,
        callTimeout: this.#callTimeout,
      };
      return (
        driver === 'playwright' ? attachPlaywright(attachOptions) : attachPuppeteer(attachOptions)
      ) as Promise<Attachment<D>>;
    };
    let attachment: Attachment<D>;
    try {
      attachment = await attach(Math.max(1_000, timeout - (Date.now() - started)));
    } catch (error) {
      await this.#dropLease(lease);
      throw new SessionError(
        `Attaching ${driver} to browser session ${lease.record.session_id} failed: ${(error as Error).message}`,
        { reason: 'attach_failed', sessionId: lease.record.session_id, cause: error },
      );
    }
    const session = new Session<D>({
      lease,
      attachment,
      reattach: (previous) => attach(this.#connectTimeout, previous),
      hooks: this.#hooks(lease),
      callTimeout: this.#callTimeout,
      closeTimeout: this.#closeTimeout,
      reconnect: this.#reconnect,
    });
    this.#sessions.add(session as unknown as Session);
    if (this.#closing) {
      // close() ran while we attached: this session must not outlive the manager.
      await session.release();
      throw new SvcError('SessionManager is closed');
    }
    return session;
  }

  /**
   * Runs `fn` with a fresh session and releases it whatever happens in `fn`. When `fn` throws,
   * its error is rethrown; a release failure after that is emitted as `warning`.
   * @throws what `fn` throws, what `create()` throws, or the release error after a successful `fn`
   * @example
   * const title = await manager.withSession(async ({ page }) => { await page.goto(url); return page.title(); });
   */
  withSession<T>(fn: (session: Session<DD>) => Promise<T> | T): Promise<T>;
  withSession<T, D extends DriverName = DD>(
    options: CreateSessionOptions<D>,
    fn: (session: Session<D>) => Promise<T> | T,
  ): Promise<T>;
  async withSession<T>(
    optionsOrFn: CreateSessionOptions | ((session: Session<DD>) => Promise<T> | T),
    maybeFn?: (session: Session) => Promise<T> | T,
  ): Promise<T> {
    const [options, fn] =
      typeof optionsOrFn === 'function'
        ? [{}, optionsOrFn as unknown as (session: Session) => Promise<T> | T]
        : [optionsOrFn, maybeFn];
    if (typeof fn !== 'function') throw new SvcError('withSession: expected a function');
    const session = (await this.create(options)) as Session;
    let result: T;
    try {
      result = await fn(session);
    } catch (error) {
      await session.release().catch((releaseError: unknown) =>
        this.emit('warning', {
          sessionId: session.id,
          message: `Releasing session ${session.id} after an error in withSession failed`,
          error: releaseError,
        }),
      );
      throw error;
    }
    await session.release();
    return result;
  }

  /**
   * A pool of up to `size` sessions leased to concurrent tasks, reusing each page between tasks.
   * @throws SvcError when `size` is not a positive integer
   */
  pool<D extends DriverName = DD>(options: PoolOptions<D>): SessionPool<D> {
    this.#assertOpen();
    return new SessionPool<D>(this as unknown as SessionManager<DriverName>, options);
  }

  /**
   * Releases the open sessions, or those carrying `tag`. Every release is attempted.
   * @returns the number of sessions released
   * @throws AggregateError of the release errors, after attempting all
   */
  async releaseAll(filter: { tag?: string } = {}): Promise<number> {
    const chosen = [...this.#sessions].filter(
      (s) => filter.tag === undefined || s.tags.includes(filter.tag),
    );
    const results = await Promise.allSettled(chosen.map((s) => s.release()));
    const errors = results.flatMap((r) => (r.status === 'rejected' ? [r.reason as unknown] : []));
    if (errors.length > 0)
      throw new AggregateError(
        errors,
        `Releasing ${errors.length} of ${chosen.length} sessions failed`,
      );
    return chosen.length;
  }

  /**
   * Releases every session, frees the provider (and the client it built) and removes the exit
   * handlers when this was the last manager. Idempotent.
   * @throws AggregateError of the release errors
   */
  close(): Promise<void> {
    return (this.#closing ??= (async () => {
      try {
        await this.releaseAll();
      } finally {
        this.#unregister?.();
        await this.provider.close();
      }
    })());
  }

  #hooks(lease: ProviderLease): SessionHooks {
    return {
      lost: (event) => this.emit('session-lost', event),
      reconnecting: (event) => this.emit('reconnecting', event),
      reconnected: (event) => {
        this.emit('session-reconnected', event);
        this.emit('reconnected', event);
      },
      reconnectFailed: (event) => this.emit('reconnect-failed', event),
      warning: (event) => this.emit('warning', event),
      released: (session) => {
        this.#sessions.delete(session);
        this.#leases.delete(lease);
        this.emit('session-released', { sessionId: session.id, record: session.record });
      },
    };
  }

  async #dropLease(lease: ProviderLease): Promise<void> {
    await lease.release();
    this.#leases.delete(lease);
  }

  #assertOpen(): void {
    if (this.#closing) throw new SvcError('SessionManager is closed: create a new one');
  }
}

function buildProvider(options: SessionManagerOptions<DriverName>): SessionProvider {
  if (typeof options.provider === 'object') return options.provider;
  const env = readSessionEnv();
  const name = selectProvider(options, env);
  if (name === 'api') {
    return new ApiProvider({
      client: options.client,
      clientOptions: options.clientOptions,
      apiKey: options.apiKey,
    });
  }
  if (name === 'cdp') {
    const endpoint = options.cdpUrl ?? env.cdpUrl;
    if (endpoint === undefined) {
      throw new SvcError('The cdp provider needs an endpoint: pass { cdpUrl } or set SVC_CDP_URL');
    }
    return new CdpProvider({ endpoint, headers: options.cdpHeaders });
  }
  if (name === 'grid') {
    const gridUrl = options.gridUrl ?? env.gridUrl;
    if (gridUrl === undefined) {
      throw new SvcError(
        'The grid provider needs a Selenium Grid: pass { gridUrl } or set SVC_GRID_URL',
      );
    }
    return new GridProvider({
      gridUrl,
      capabilities: options.gridCapabilities,
      headers: options.gridHeaders,
      args: options.chromiumArgs,
    });
  }
  return new LocalProvider({
    executablePath: options.executablePath,
    profileRoot: options.profileRoot,
    args: options.chromiumArgs,
  });
}
