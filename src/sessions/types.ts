// Shared types of the session manager: drivers, providers, create options, events.
import type {
  Browser as PlaywrightBrowser,
  BrowserContext as PlaywrightContext,
  Page as PlaywrightPage,
} from 'playwright-core';
import type {
  Browser as PuppeteerBrowser,
  BrowserContext as PuppeteerContext,
  Page as PuppeteerPage,
} from 'puppeteer-core';
import type { SessionError, SessionErrorReason } from '../errors.js';
import type { BrowserSession } from '../protocol/index.js';

/** The automation library a session is attached with. */
export type DriverName = 'playwright' | 'puppeteer';

/**
 * Where sessions come from: the svc service, a Chromium we launch, an existing CDP endpoint, or a
 * Selenium Grid 4.
 */
export type ProviderName = 'api' | 'local' | 'cdp' | 'grid';

/** The driver objects a session exposes, per driver. */
export interface DriverTypes {
  playwright: { browser: PlaywrightBrowser; context: PlaywrightContext; page: PlaywrightPage };
  puppeteer: { browser: PuppeteerBrowser; context: PuppeteerContext; page: PuppeteerPage };
}

/** The session record: the service's for `api`, an equivalent one for `local` and `cdp`. */
export type SessionRecord = BrowserSession;

/** Window size in CSS pixels. */
export interface Viewport {
  width: number;
  height: number;
}

/** Options of `manager.create()`. Every field is optional. */
export interface CreateSessionOptions<D extends DriverName = DriverName> {
  /** Library to attach with. @default the manager's `driver` */
  driver?: D | undefined;
  /** Viewport of the session's page. @default the browser's window (1280x720 on the embedded server) */
  viewport?: Viewport | undefined;
  /** User agent of the session's pages. @default the browser's own */
  userAgent?: string | undefined;
  /** Tags stored on the record; `releaseAll({ tag })` selects by them. @default [] */
  tags?: readonly string[] | undefined;
  /** Milliseconds for create + attach together. @default the manager's `connectTimeout` */
  timeout?: number | undefined;
  /**
   * `api` only: the service ends the session after this many ms with no CDP client connected, a
   * backstop when this process is SIGKILLed. Whole seconds on the wire (5 s at least).
   * @default DEFAULTS.idleTimeout
   */
  idleTimeout?: number | undefined;
  /** `api` only: the service ends the session after this many ms whatever happens. @default the service's */
  maxDuration?: number | undefined;
  /**
   * `api` only: start from saved context `id` (cookies, localStorage, IndexedDB; see
   * `client.browser.contexts`); with `persist: true` the service saves the session's state back
   * into it when the session is released or expires.
   */
  context?: { id: string; persist?: boolean | undefined } | undefined;
  /**
   * `api` only: the service records the session (rrweb); the record's `recording_url` is its replay
   * page, and `client.browser.sessions.recording` reads it, also after release. @default false
   */
  record?: boolean | undefined;
  /**
   * `api` only: what a person holding the record's `live_url` may do: `interactive` (click, scroll,
   * type) or `read-only` (watch). @default the service's ('interactive')
   */
  liveView?: 'interactive' | 'read-only' | undefined;
}

/** What `session-lost` listeners and the `onLost` option receive. */
export interface SessionLostEvent {
  /** The session; its page calls now fail with `error`. */
  sessionId: string;
  /** `browser_gone`: the browser died; `expired`: the provider ended it; `disconnected`: the socket dropped. */
  reason: SessionErrorReason;
  error: SessionError;
  /** True when the provider still runs the session and the manager is reconnecting. */
  reconnecting: boolean;
}

/** What `session-reconnected` listeners receive. */
export interface SessionReconnectedEvent {
  sessionId: string;
  /** Attempts it took, 1 for the first. */
  attempts: number;
}

/** What `reconnecting` listeners receive: one attempt about to start, after `delay` ms. */
export interface SessionReconnectingEvent {
  sessionId: string;
  /** 1 for the first attempt. */
  attempt: number;
  /** Backoff before this attempt, in ms. */
  delay: number;
}

/** What `warning` listeners receive: a problem the manager handled and went on (nothing leaked). */
export interface SessionWarningEvent {
  sessionId: string | undefined;
  message: string;
  error: unknown;
}

/** Events of `SessionManager`, with their listener arguments. */
export interface SessionManagerEvents {
  /** A session's CDP connection closed without `release()`. Emitted once per loss, within ~1 s. */
  'session-lost': [event: SessionLostEvent];
  /** A lost session whose browser was still running is attached again. */
  'session-reconnected': [event: SessionReconnectedEvent];
  /** A reconnect attempt is about to start (after its backoff), once per attempt. */
  reconnecting: [event: SessionReconnectingEvent];
  /** The same moment as `session-reconnected`: the page is usable again, as it was left. */
  reconnected: [event: SessionReconnectedEvent];
  /** Reconnecting gave up; `error` says why. The session stays lost: release or replace it. */
  'reconnect-failed': [event: { sessionId: string; error: SessionError }];
  /** A session was released (by you, `releaseAll`, `close`, or process exit handling). */
  'session-released': [event: { sessionId: string; record: SessionRecord }];
  /** A handled problem: a disconnect that timed out during release, a failed release after a task error. */
  warning: [event: SessionWarningEvent];
}
