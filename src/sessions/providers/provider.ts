// The contract between the manager and a session provider (api, local, cdp, grid).
import type { ProviderName, SessionRecord, Viewport } from '../types.js';

/** What a provider is asked for. Durations in ms. */
export interface AcquireParams {
  viewport?: Viewport | undefined;
  userAgent?: string | undefined;
  tags: readonly string[];
  /** Time for the provider's part of create (request, launch, endpoint lookup). */
  timeout: number;
  idleTimeout?: number | undefined;
  maxDuration?: number | undefined;
  /** `api` only: saved context to start from (see `CreateSessionOptions.context`). */
  context?: { id: string; persist?: boolean | undefined } | undefined;
  /** `api` only: record the session (see `CreateSessionOptions.record`). */
  record?: boolean | undefined;
  /** `api` only: what the live view allows (see `CreateSessionOptions.liveView`). */
  liveView?: 'interactive' | 'read-only' | undefined;
}

/**
 * What a provider reports when asked whether a lost session still runs: `running` (reconnect),
 * `failed` (the browser died), `expired` (the provider ended it), `gone` (no such session or
 * browser any more).
 */
export type ProbeResult = 'running' | 'failed' | 'expired' | 'gone';

/**
 * Work that must still happen synchronously when the process exits with the session open: kill a
 * process group and remove its profile, or send an HTTP request (from a short-lived child process,
 * since an `exit` handler cannot await).
 */
export type SyncRelease =
  | { kind: 'kill'; pid: number; dir: string }
  | { kind: 'http'; method: 'DELETE'; url: string; headers: Record<string, string> };

/** One browser obtained from a provider, until {@link ProviderLease.release}. */
export interface ProviderLease {
  readonly provider: ProviderName;
  /** The record; `status` is updated by the manager as the session ends. */
  record: SessionRecord;
  /** The CDP WebSocket URL to attach to. */
  wsEndpoint: string;
  /** Headers for the WebSocket upgrade (a bearer key when the URL carries no token). */
  headers: Record<string, string>;
  /**
   * True when we created the browser (release ends it). False for a browser we only attached to:
   * then we work in a browser context of our own and release only closes it and disconnects.
   */
  owned: boolean;
  /** The local Chromium's pid (`local` only). */
  pid?: number | undefined;
  /**
   * Ends what we own: DELETE (api), kill + remove profile (local), nothing (cdp), WebDriver
   * DELETE (grid). Idempotent.
   * @throws the provider's error when the session may still be running (never for "already gone")
   */
  release(): Promise<void>;
  /** Asks the provider whether the session still runs, within `timeout` ms. */
  probe(timeout: number): Promise<ProbeResult>;
  /** Exit-time release, or undefined when there is nothing to do or no way to do it. */
  syncRelease(): SyncRelease | undefined;
  /**
   * Subscribes to the provider learning by itself that the browser ended, for providers whose CDP
   * proxy keeps the socket open when the browser dies (a Selenium Grid's `se:cdp`): the session
   * then drops its connection and handles the loss like a dropped socket.
   * @returns the unsubscribe function
   */
  onEnded?(listener: () => void): () => void;
}

/** A source of browser sessions. */
export interface SessionProvider {
  readonly name: ProviderName;
  /**
   * Starts (api, local) or locates (cdp) a browser.
   * @throws the provider's error (APIError subclasses for api, launch errors for local)
   */
  acquire(params: AcquireParams): Promise<ProviderLease>;
  /** Frees what the provider holds itself (the client's connection pool). */
  close(): Promise<void>;
}
