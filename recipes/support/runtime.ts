/** What every recipe needs around its work: a client, a session manager and a pool, closed after. */
import { connect, SessionManager, SvcError } from '../../src/index.js';
import type { Client, DriverName, ProviderName, SessionPool } from '../../src/index.js';

/** Options shared by the recipes for where answers and browsers come from. */
export interface RuntimeOptions {
  /**
   * The client to use (not closed by the recipe). @default `connect()`: `SVC_BASE_URL` when set,
   * else the embedded service started for this call
   */
  client?: Client | undefined;
  /** Sessions from here (not closed by the recipe). @default a new manager, closed at the end */
  sessions?: SessionManager<DriverName> | undefined;
  /**
   * Provider of the manager the recipe creates: `api` takes sessions from the client's service.
   * @default from the environment (`SVC_SESSION_PROVIDER`, `SVC_CDP_URL`, `SVC_BASE_URL`), else `local`
   */
  provider?: ProviderName | undefined;
  /** Library attached to each session. @default 'playwright' */
  driver?: DriverName | undefined;
  /** Sessions working at once. @default 2 */
  poolSize?: number | undefined;
  /**
   * Record the pool's sessions (`api` provider: the svc service), so the report links each
   * citation to the moment of the recording where it was captured. @default false
   */
  record?: boolean | undefined;
}

/** A client, a manager and a pool, and the one `close()` that releases what was made here. */
export interface Runtime {
  client: Client;
  manager: SessionManager<DriverName>;
  /** Created on first use, so recipes that end early launch no browser. */
  pool(): SessionPool<DriverName>;
  close(): Promise<void>;
}

/** Defaults of the shared runtime options. */
export const RUNTIME_DEFAULTS = { driver: 'playwright', poolSize: 2 } as const;

/**
 * Opens what a recipe needs; with `needsClient` false and no `client` given, no service is started.
 * @throws SvcError for an invalid pool size or provider options
 */
export async function openRuntime(options: RuntimeOptions, needsClient = true): Promise<Runtime> {
  const poolSize = options.poolSize ?? RUNTIME_DEFAULTS.poolSize;
  if (!Number.isInteger(poolSize) || poolSize < 1) {
    throw new SvcError(`Invalid option poolSize: expected a positive integer, got ${poolSize}`);
  }
  const driver = options.driver ?? RUNTIME_DEFAULTS.driver;
  // A recipe that only drives browsers (sourceBundle) starts no service it would not use.
  const connection = options.client || !needsClient ? undefined : await connect();
  const client = options.client ?? connection?.client;
  const ownManager = !options.sessions;
  // Recordings are made by the svc service: recording selects its sessions unless told otherwise.
  const provider = options.provider ?? (options.record ? 'api' : undefined);
  const manager =
    options.sessions ??
    new SessionManager<DriverName>({
      driver,
      ...(provider ? { provider } : {}),
      ...(provider === 'api' ? { client } : {}),
    });
  let pool: SessionPool<DriverName> | undefined;
  return {
    get client(): Client {
      if (!client) throw new SvcError('openRuntime: this recipe opened no client');
      return client;
    },
    manager,
    pool: () =>
      (pool ??= manager.pool({ size: poolSize, driver, ...(options.record && { record: true }) })),
    async close() {
      const errors: unknown[] = [];
      const attempt = async (step: () => Promise<void> | undefined) => {
        try {
          await step();
        } catch (error) {
          errors.push(error);
        }
      };
      // In order: the pool's sessions, then the manager, then the service they may live on.
      await attempt(() => pool?.close());
      if (ownManager) await attempt(() => manager.close());
      await attempt(() => connection?.close());
      if (errors.length === 1) throw errors[0];
      if (errors.length > 1) throw new AggregateError(errors, 'Closing the recipe runtime failed');
    },
  };
}
