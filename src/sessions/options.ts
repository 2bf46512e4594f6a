/**
 * Options and defaults of the session manager, and the one place it reads the environment.
 *
 * Environment variables (explicit options win):
 * - `SVC_SESSION_PROVIDER`: `api`, `local`, `cdp` or `grid`.
 * - `SVC_CDP_URL`: the endpoint of the `cdp` provider (`ws://...` or `http://host:port`); setting
 *   it alone selects `cdp`.
 * - `SVC_GRID_URL`: the Selenium Grid of the `grid` provider (`http://host:4444`); setting it alone
 *   selects `grid`.
 * - `SVC_BASE_URL` / `SVC_API_KEY` (read by the client): setting the base URL selects `api`.
 *
 * With none of them set, sessions come from a locally launched Chromium (`local`).
 */
import type { Client, ClientOptions } from '../client/index.js';
import { readClientEnv } from '../client/index.js';
import { SvcError } from '../errors.js';
import type { SessionProvider } from './providers/provider.js';
import type { ReconnectOptions } from './session.js';
import type { DriverName, ProviderName, SessionLostEvent } from './types.js';

/** Defaults of the session manager, applied once with `??`. Durations in ms. */
export const DEFAULTS = {
  driver: 'playwright',
  /** Create + attach of one session. */
  connectTimeout: 30_000,
  /** Each further CDP call the manager makes (open a page, reset it) and each provider probe. */
  callTimeout: 10_000,
  /** The disconnect during release; the provider release (DELETE, kill) happens regardless. */
  closeTimeout: 5_000,
  /** `api`: the service ends a session idle this long with no CDP client, if this process dies hard. */
  idleTimeout: 60_000,
  reconnect: { retries: 5, minDelay: 200, maxDelay: 5_000 } satisfies ReconnectOptions,
} as const;

/** Options of `new SessionManager()`. Every field is optional; see {@link DEFAULTS}. */
export interface SessionManagerOptions<D extends DriverName = 'playwright'> {
  /**
   * `api` (the svc service through the client), `local` (launch Chromium here), `cdp` (an
   * existing endpoint), `grid` (a Selenium Grid 4), or a provider object of your own.
   * @default `SVC_SESSION_PROVIDER`; else `cdp` when `cdpUrl`/`SVC_CDP_URL` is set; else `grid`
   * when `gridUrl`/`SVC_GRID_URL` is; else `api`
   * when a `client`, `clientOptions.baseURL` or `SVC_BASE_URL` is; else `local`
   */
  provider?: ProviderName | SessionProvider | undefined;
  /** Default driver of `create()`. @default 'playwright' */
  driver?: D | undefined;
  /** `api`: the client to use (not closed by the manager). */
  client?: Client | undefined;
  /** `api`: options of the client the manager builds (env fills the gaps). */
  clientOptions?: ClientOptions | undefined;
  /** `api` with `client`: the key, so sessions can be DELETEd from an `exit` handler. */
  apiKey?: string | undefined;
  /** `cdp`: the endpoint. @default `SVC_CDP_URL` */
  cdpUrl?: string | undefined;
  /** `cdp`: headers for the endpoint (a fleet's auth). */
  cdpHeaders?: Record<string, string> | undefined;
  /** `grid`: the Selenium Grid's URL (hub or router). @default `SVC_GRID_URL` */
  gridUrl?: string | undefined;
  /**
   * `grid`: capabilities added to every new-session request's `alwaysMatch` (`platformName`,
   * `browserVersion`, `se:` options...); `goog:chromeOptions.args` is appended to ours. @default {}
   */
  gridCapabilities?: Record<string, unknown> | undefined;
  /** `grid`: headers of every Grid request and of the CDP upgrade (a Grid's auth). */
  gridHeaders?: Record<string, string> | undefined;
  /** `local`: the Chromium executable. @default findSessionChromium() */
  executablePath?: string | undefined;
  /** `local`: where profiles `svc-session-*` are created. @default os.tmpdir() */
  profileRoot?: string | undefined;
  /** `local` and `grid`: Chromium flags. @default CHROMIUM_ARGS */
  chromiumArgs?: readonly string[] | undefined;
  /** @default DEFAULTS.connectTimeout */
  connectTimeout?: number | undefined;
  /** @default DEFAULTS.callTimeout */
  callTimeout?: number | undefined;
  /** @default DEFAULTS.closeTimeout */
  closeTimeout?: number | undefined;
  /** `api`: see {@link DEFAULTS.idleTimeout}. @default DEFAULTS.idleTimeout */
  idleTimeout?: number | undefined;
  /** Reconnection after a dropped socket; `false` disables. @default DEFAULTS.reconnect */
  reconnect?: Partial<ReconnectOptions> | false | undefined;
  /** Called like a `session-lost` listener. */
  onLost?: ((event: SessionLostEvent) => void) | undefined;
  /** Release open sessions on exit, SIGINT, SIGTERM and uncaught errors. @default true */
  handleExit?: boolean | undefined;
}

/** The environment variables the session manager reads, resolved. */
export interface SessionEnv {
  provider: ProviderName | undefined;
  cdpUrl: string | undefined;
  gridUrl: string | undefined;
  baseURL: string | undefined;
}

/**
 * Reads `SVC_SESSION_PROVIDER`, `SVC_CDP_URL`, `SVC_GRID_URL` (and `SVC_BASE_URL` through the
 * client's reader); empty values count as unset.
 * @throws SvcError when `SVC_SESSION_PROVIDER` is not `api`, `local`, `cdp` or `grid`
 */
export function readSessionEnv(env: Record<string, string | undefined> = process.env): SessionEnv {
  const provider = env.SVC_SESSION_PROVIDER?.trim() || undefined;
  if (provider !== undefined && !isProviderName(provider)) {
    throw new SvcError(
      `Invalid SVC_SESSION_PROVIDER: expected api, local, cdp or grid, got ${JSON.stringify(provider)}`,
    );
  }
  return {
    provider,
    cdpUrl: env.SVC_CDP_URL?.trim() || undefined,
    gridUrl: env.SVC_GRID_URL?.trim() || undefined,
    baseURL: readClientEnv(env).baseURL,
  };
}

/** Which provider the options and environment select. */
export function selectProvider(
  options: Pick<
    SessionManagerOptions<DriverName>,
    'provider' | 'cdpUrl' | 'gridUrl' | 'client' | 'clientOptions'
  >,
  env: SessionEnv,
): ProviderName {
  if (typeof options.provider === 'string') return options.provider;
  if (env.provider) return env.provider;
  if (options.cdpUrl ?? env.cdpUrl) return 'cdp';
  if (options.gridUrl ?? env.gridUrl) return 'grid';
  if (options.client ?? options.clientOptions?.baseURL ?? env.baseURL) return 'api';
  return 'local';
}

function isProviderName(value: string): value is ProviderName {
  return value === 'api' || value === 'local' || value === 'cdp' || value === 'grid';
}

/**
 * Checks a duration option.
 * @throws SvcError naming the option when it is not a positive finite number
 */
export function checkMs(name: string, value: number): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
    throw new SvcError(
      `Invalid option ${name}: expected a positive number of ms, got ${String(value)}`,
    );
  }
  return value;
}

/**
 * Checks a driver name.
 * @throws SvcError when it is not `playwright` or `puppeteer`
 */
export function checkDriver(value: unknown): DriverName {
  if (value !== 'playwright' && value !== 'puppeteer') {
    throw new SvcError(
      `Invalid option driver: expected 'playwright' or 'puppeteer', got ${JSON.stringify(value)}`,
    );
  }
  return value;
}

/**
 * Checks the create options only the svc service provides (`record`, `liveView`).
 * @throws SvcError naming the option when its value is invalid, or the provider is not `api`
 */
export function checkServiceOptions(
  options: { record?: unknown; liveView?: unknown },
  provider: string,
): void {
  if (options.record !== undefined && typeof options.record !== 'boolean') {
    throw new SvcError(
      `Invalid option record: expected true or false, got ${JSON.stringify(options.record)}`,
    );
  }
  if (
    options.liveView !== undefined &&
    options.liveView !== 'interactive' &&
    options.liveView !== 'read-only'
  ) {
    throw new SvcError(
      `Invalid option liveView: expected 'interactive' or 'read-only', got ${JSON.stringify(options.liveView)}`,
    );
  }
  for (const name of ['record', 'liveView'] as const) {
    const asked = name === 'record' ? options.record === true : options.liveView !== undefined;
    if (asked && provider !== 'api') {
      throw new SvcError(
        `Invalid option ${name}: recordings and live views are made by the svc service (the api provider), not by the ${provider} provider`,
      );
    }
  }
}
