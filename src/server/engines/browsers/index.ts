export { BrowserSessions, DEFAULTS as BROWSER_SESSION_DEFAULTS } from './browser-sessions.js';
export type {
  BrowserSessionRecord,
  BrowserSessionsOptions,
  CdpAuthorization,
  CdpCredentials,
  CreateSessionParams,
} from './types.js';
export type { SessionStatus } from './store.js';
export type { BrowserCapacity, CreateSessionOptions } from './browser-sessions.js';
export { IDEMPOTENCY } from './idempotency.js';
export { reapLeftovers, processesUsing, PID_FILE } from './reaper.js';
