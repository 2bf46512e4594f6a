// One attached browser session: its driver objects, loss detection, reconnection and release.
import { SessionError } from '../errors.js';
import type { SessionErrorReason } from '../errors.js';
import { FAST_RESET_MS } from './attach/attachment.js';
import type { Attachment } from './attach/attachment.js';
import { pageProxy } from './page-proxy.js';
import type { ProbeResult, ProviderLease } from './providers/provider.js';
import { backoff, sleep, withTimeout } from './timeout.js';
import type {
  DriverName,
  DriverTypes,
  ProviderName,
  SessionLostEvent,
  SessionRecord,
  SessionReconnectedEvent,
  SessionReconnectingEvent,
  SessionWarningEvent,
} from './types.js';

/** Reconnection after a dropped socket, when the provider still runs the session. */
export interface ReconnectOptions {
  /** Attempts before giving up. @default 5 */
  retries: number;
  /** First delay in ms; doubles each attempt, with jitter. @default 200 */
  minDelay: number;
  /** Longest delay in ms. @default 5_000 */
  maxDelay: number;
}

/** How a session talks back to its manager. Internal. */
export interface SessionHooks {
  lost(event: SessionLostEvent): void;
  reconnecting(event: SessionReconnectingEvent): void;
  reconnected(event: SessionReconnectedEvent): void;
  reconnectFailed(event: { sessionId: string; error: SessionError }): void;
  released(session: Session): void;
  warning(event: SessionWarningEvent): void;
}

/** What the manager gives a session. Internal. */
export interface SessionInit<D extends DriverName> {
  lease: ProviderLease;
  attachment: Attachment<D>;
  /** Attaches again after a loss; `previous` is the lost attachment. */
  reattach(previous: Attachment<D>): Promise<Attachment<D>>;
  hooks: SessionHooks;
  /** Time of each CDP call and provider probe. */
  callTimeout: number;
  /** Time the disconnect may take during release. */
  closeTimeout: number;
  reconnect: ReconnectOptions | false;
}

/**
 * A browser session attached with Playwright or Puppeteer. Get one from `manager.create()`;
 * always `release()` it (or use `manager.withSession()`).
 *
 * When the CDP connection drops, `page` calls reject with {@link SessionError} and the manager
 * emits `session-lost`; if the provider still runs the browser, the session reconnects with
 * backoff and `page` (the same object) works again.
 */
export class Session<D extends DriverName = DriverName> {
  /** The session id (the service's for `api`; generated for `local` and `cdp`). */
  readonly id: string;
  /** The library attached to the session. */
  readonly driver: D;
  /** Where the session comes from. */
  readonly provider: ProviderName;
  /** The session's page; stays valid across reconnects. */
  readonly page: DriverTypes[D]['page'];
  readonly #lease: ProviderLease;
  readonly #init: SessionInit<D>;
  #attachment: Attachment<D>;
  #unsubscribe: () => void;
  readonly #unwatchLease: () => void;
  #lost: SessionError | undefined;
  #releasing: Promise<void> | undefined;

  /** @internal Use `manager.create()`. */
  constructor(init: SessionInit<D>) {
    this.#init = init;
    this.#lease = init.lease;
    this.#attachment = init.attachment;
    this.id = init.lease.record.session_id;
    this.driver = init.attachment.driver;
    this.provider = init.lease.provider;
    this.#unsubscribe = this.#watch(init.attachment);
    // The provider saw the browser end while the socket stayed open: close it, so the loss is
    // handled (probe, session-lost) as for a dropped socket.
    this.#unwatchLease =
      init.lease.onEnded?.(() => void this.#attachment.disconnect().catch(() => undefined)) ??
      (() => undefined);
    this.page = pageProxy<DriverTypes[D]['page']>({
      current: () => this.#attachment.page,
      lostError: (cause) => {
        if (this.#lost) return this.#withCause(this.#lost, cause);
        if (this.#releasing) return this.#error('released', 'disconnected', cause);
        if (!this.#attachment.isConnected()) return this.#error('lost', 'disconnected', cause);
        return undefined;
      },
    });
  }

  /** The session record; `status` turns `stopped` on release and `failed`/`expired` on loss. */
  get record(): SessionRecord {
    return this.#lease.record;
  }

  /** The driver's browser (a new object after a reconnect). */
  get browser(): DriverTypes[D]['browser'] {
    return this.#attachment.browser;
  }

  /** The driver's browser context holding `page`. */
  get context(): DriverTypes[D]['context'] {
    return this.#attachment.context;
  }

  /** Tags of the session. */
  get tags(): readonly string[] {
    return this.#lease.record.tags;
  }

  /** The Chromium pid (`local` provider only). */
  get pid(): number | undefined {
    return this.#lease.pid;
  }

  /** Why the session is unusable, while it is lost (cleared by a successful reconnect). */
  get lost(): SessionError | undefined {
    return this.#lost;
  }

  /** True once `release()` was called. */
  get released(): boolean {
    return this.#releasing !== undefined;
  }

  /** True while the CDP connection is up and the session not released. */
  get connected(): boolean {
    return !this.#releasing && !this.#lost && this.#attachment.isConnected();
  }

  /**
   * Disconnects the driver (bounded by `closeTimeout`) and, at the same time, ends what the
   * provider created: `DELETE` (api), kill + profile removal (local), nothing (cdp: we only close
   * our context). Idempotent: every call returns the same promise. A disconnect that hangs or
   * fails is reported as a `warning` event; the provider release happens regardless.
   * @throws the provider's error when the DELETE failed (the session may still run)
   */
  release(): Promise<void> {
    return (this.#releasing ??= this.#release());
  }

  /** Readies `page` for the next task (pool use): dialogs cleared, `about:blank`. @internal */
  async reset(): Promise<void> {
    try {
      await withTimeout(
        this.#attachment.resetPage(this.#init.callTimeout),
        this.#init.callTimeout + FAST_RESET_MS,
        `Resetting the page of session ${this.id}`,
      );
    } catch (error) {
      throw (
        this.#lost ??
        (this.#attachment.isConnected() ? error : this.#error('lost', 'disconnected', error))
      );
    }
  }

  async #release(): Promise<void> {
    this.#unsubscribe();
    this.#unwatchLease();
    const attachment = this.#attachment;
    const disconnect = attachment.isConnected()
      ? withTimeout(attachment.disconnect(), this.#init.closeTimeout, `Disconnecting ${this.id}`)
      : Promise.resolve();
    const [closed, ended] = await Promise.allSettled([disconnect, this.#lease.release()]);
    if (closed.status === 'rejected') {
      this.#init.hooks.warning({
        sessionId: this.id,
        message: `Disconnecting session ${this.id} failed; the provider release went ahead`,
        error: closed.reason,
      });
    }
    if (ended.status === 'rejected') {
      // The manager keeps the lease for exit handling; a later release() may retry.
      this.#releasing = undefined;
      throw ended.reason;
    }
    if (this.#lease.owned && this.#lease.record.status === 'running')
      this.#lease.record = { ...this.#lease.record, status: 'stopped' };
    this.#init.hooks.released(this as unknown as Session);
  }

  #watch(attachment: Attachment<D>): () => void {
    return attachment.onDisconnected(() => void this.#onDisconnected());
  }

  async #onDisconnected(): Promise<void> {
    if (this.#releasing) return;
    // Page calls fail with SessionError from this moment; the reason is refined below.
    this.#lost = this.#error('lost', 'disconnected');
    const state = await this.#probe();
    if (this.#releasing) return;
    const reason = reasonOf(state);
    this.#lost = this.#error('lost', reason);
    if (state !== 'running') this.#markEnded(state);
    const reconnecting = state === 'running' && this.#init.reconnect !== false;
    this.#init.hooks.lost({ sessionId: this.id, reason, error: this.#lost, reconnecting });
    if (reconnecting) await this.#reconnect();
  }

  async #reconnect(): Promise<void> {
    const options = this.#init.reconnect as ReconnectOptions;
    let lastError: unknown;
    for (let attempt = 0; attempt < options.retries; attempt++) {
      const delay = backoff(attempt, options.minDelay, options.maxDelay);
      this.#init.hooks.reconnecting({ sessionId: this.id, attempt: attempt + 1, delay });
      await sleep(delay);
      if (this.#releasing) return;
      const state = await this.#probe();
      if (state !== 'running') {
        this.#lost = this.#error('lost', reasonOf(state));
        this.#markEnded(state);
        this.#init.hooks.reconnectFailed({ sessionId: this.id, error: this.#lost });
        return;
      }
      try {
        const attachment = await this.#init.reattach(this.#attachment);
        if (this.#releasing) {
          await withTimeout(attachment.disconnect(), this.#init.closeTimeout, 'Disconnecting');
          return;
        }
        this.#attachment = attachment;
        this.#lost = undefined;
        this.#unsubscribe = this.#watch(attachment);
        this.#init.hooks.reconnected({ sessionId: this.id, attempts: attempt + 1 });
        return;
      } catch (error) {
        lastError = error;
      }
    }
    this.#lost = this.#error(
      `could not be reattached after ${options.retries} attempts`,
      'disconnected',
      lastError,
    );
    this.#init.hooks.reconnectFailed({ sessionId: this.id, error: this.#lost });
  }

  async #probe(): Promise<ProbeResult> {
    try {
      return await withTimeout(
        this.#lease.probe(this.#init.callTimeout),
        this.#init.callTimeout,
        `Checking session ${this.id}`,
      );
    } catch {
      // The provider cannot say (unreachable): not something to reconnect to.
      return 'gone';
    }
  }

  #markEnded(state: ProbeResult): void {
    const status = state === 'expired' ? 'expired' : 'failed';
    this.#lease.record = { ...this.#lease.record, status };
  }

  #error(what: string, reason: SessionErrorReason, cause?: unknown): SessionError {
    const why: Record<SessionErrorReason, string> = {
      browser_gone: 'its browser is gone',
      expired: 'the provider ended it',
      disconnected: 'its CDP connection closed',
      attach_failed: 'attaching failed',
    };
    return new SessionError(`Browser session ${this.id} ${what}: ${why[reason]}`, {
      reason,
      sessionId: this.id,
      ...(cause === undefined ? {} : { cause }),
    });
  }

  #withCause(error: SessionError, cause: unknown): SessionError {
    return new SessionError(error.message, { reason: error.reason, sessionId: this.id, cause });
  }
}

function reasonOf(state: ProbeResult): SessionErrorReason {
  if (state === 'running') return 'disconnected';
  if (state === 'expired') return 'expired';
  return 'browser_gone';
}
