// The `api` provider: sessions of the svc service (hosted or embedded) through the client.
import { Client, readClientEnv } from '../../client/index.js';
import type { ClientOptions } from '../../client/index.js';
import { NotFoundError } from '../../errors.js';
import { routePath } from '../../protocol/index.js';
import type { BrowserSessionCreateRequest } from '../../protocol/index.js';
import { sleep } from '../timeout.js';
import type {
  AcquireParams,
  ProbeResult,
  ProviderLease,
  SessionProvider,
  SyncRelease,
} from './provider.js';

/** Defaults of {@link ApiProvider}. */
export const API_PROVIDER_DEFAULTS = {
  /** Time of each DELETE and probe request, in ms. */
  requestTimeout: 10_000,
  /** A second look before trusting `running` after a lost socket, in ms. */
  recheckDelay: 150,
} as const;

/** Options of {@link ApiProvider}. */
export interface ApiProviderOptions {
  /** A client to use (not closed by the provider). @default a client built from `clientOptions` */
  client?: Client | undefined;
  /** Options of the client the provider builds; `SVC_API_KEY`/`SVC_BASE_URL` fill the gaps. */
  clientOptions?: ClientOptions | undefined;
  /**
   * The API key, when `client` is given: needed only to DELETE sessions from an `exit` handler.
   * @default `clientOptions.apiKey`, then `SVC_API_KEY`
   */
  apiKey?: string | undefined;
  /** Time of each DELETE and probe request, in ms. @default API_PROVIDER_DEFAULTS.requestTimeout */
  requestTimeout?: number | undefined;
}

/**
 * Creates sessions with `POST /v1/browser/sessions`, attaches to their `cdp_url` (or the client's
 * `cdpUrlTemplate` when a hosted record has none, with the bearer key on the upgrade) and releases
 * them with `DELETE`.
 * @throws SvcError at construction when no API key or base URL is configured
 */
export class ApiProvider implements SessionProvider {
  readonly name = 'api' as const;
  readonly client: Client;
  readonly #ownsClient: boolean;
  readonly #apiKey: string | undefined;
  readonly #requestTimeout: number;

  constructor(options: ApiProviderOptions = {}) {
    this.#ownsClient = options.client === undefined;
    this.client = options.client ?? new Client(options.clientOptions);
    this.#apiKey =
      options.apiKey ??
      options.clientOptions?.apiKey ??
      (options.client ? undefined : readClientEnv().apiKey);
    this.#requestTimeout = options.requestTimeout ?? API_PROVIDER_DEFAULTS.requestTimeout;
  }

  async acquire(params: AcquireParams): Promise<ProviderLease> {
    const body: BrowserSessionCreateRequest = { tags: [...params.tags] };
    if (params.viewport) body.viewport = { ...params.viewport };
    if (params.userAgent !== undefined) body.user_agent = params.userAgent;
    if (params.idleTimeout !== undefined)
      body.idle_timeout_s = Math.max(5, Math.ceil(params.idleTimeout / 1000));
    if (params.maxDuration !== undefined)
      body.max_duration_s = Math.max(10, Math.ceil(params.maxDuration / 1000));
    if (params.context !== undefined)
      body.context = {
        id: params.context.id,
        ...(params.context.persist !== undefined && { persist: params.context.persist }),
      };
    if (params.record !== undefined) body.record = params.record;
    if (params.liveView !== undefined) body.live_view = params.liveView;
    const record = await this.client.browser.sessions.create(body, { timeout: params.timeout });
    const sessions = this.client.browser.sessions;
    const wsEndpoint = sessions.cdpUrl(record);
    const id = record.session_id;
    // A template URL has no per-session token: the upgrade then carries the bearer key instead.
    const headers: Record<string, string> =
      !/[?&]token=/.test(wsEndpoint) && this.#apiKey !== undefined
        ? { authorization: `Bearer ${this.#apiKey}` }
        : {};
    const requestTimeout = this.#requestTimeout;
    const apiKey = this.#apiKey;
    const deleteUrl =
      this.client.baseURL + routePath('browser.sessions.delete', { session_id: id });
    let released: Promise<void> | undefined;
    return {
      provider: 'api',
      record,
      wsEndpoint,
      headers,
      owned: true,
      release: () =>
        (released ??= sessions.delete(id, { timeout: requestTimeout }).catch((error: unknown) => {
          // Already ended and purged on the service: nothing is left to release.
          if (error instanceof NotFoundError) return;
          released = undefined;
          throw error;
        })),
      probe: (timeout) => probe(this.client, id, timeout),
      syncRelease: (): SyncRelease | undefined =>
        apiKey === undefined
          ? undefined
          : {
              kind: 'http',
              method: 'DELETE',
              url: deleteUrl,
              headers: { authorization: `Bearer ${apiKey}` },
            },
    };
  }

  async close(): Promise<void> {
    if (this.#ownsClient) await this.client.close();
  }
}

async function probe(client: Client, id: string, timeout: number): Promise<ProbeResult> {
  const status = async (): Promise<ProbeResult> => {
    try {
      const record = await client.browser.sessions.get(id, { timeout, maxRetries: 0 });
      return record.status === 'stopped' ? 'gone' : record.status;
    } catch (error) {
      if (error instanceof NotFoundError) return 'gone';
      throw error;
    }
  };
  const first = await status();
  if (first !== 'running') return first;
  // The proxy may close our socket a moment before the service notices its browser exited.
  await sleep(API_PROVIDER_DEFAULTS.recheckDelay);
  return status();
}
