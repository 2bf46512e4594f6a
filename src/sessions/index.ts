// Public surface of the sessions layer: explicit named exports (no `export *`), for src/index.ts.
export { SessionManager } from './session-manager.js';
export { Session } from './session.js';
export type { ReconnectOptions } from './session.js';
export { SessionPool } from './pool.js';
export type { PoolOptions, PoolStats } from './pool.js';
export { DEFAULTS as SESSION_DEFAULTS, readSessionEnv, selectProvider } from './options.js';
export type { SessionManagerOptions, SessionEnv } from './options.js';
export { ApiProvider, API_PROVIDER_DEFAULTS } from './providers/api.js';
export type { ApiProviderOptions } from './providers/api.js';
export { LocalProvider, LOCAL_PROFILE_PREFIX } from './providers/local.js';
export type { LocalProviderOptions } from './providers/local.js';
export { CdpProvider } from './providers/cdp.js';
export type { CdpProviderOptions } from './providers/cdp.js';
export { GridProvider, GRID_PROVIDER_DEFAULTS } from './providers/grid.js';
export type { GridProviderOptions } from './providers/grid.js';
export type {
  AcquireParams,
  ProbeResult,
  ProviderLease,
  SessionProvider,
  SyncRelease,
} from './providers/provider.js';
export { EXIT_DEFAULTS, exitHooksInstalled } from './exit-hooks.js';
export type {
  CreateSessionOptions,
  DriverName,
  DriverTypes,
  ProviderName,
  SessionLostEvent,
  SessionManagerEvents,
  SessionReconnectedEvent,
  SessionReconnectingEvent,
  SessionRecord,
  SessionWarningEvent,
  Viewport,
} from './types.js';
