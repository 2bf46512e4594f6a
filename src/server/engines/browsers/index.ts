export { BrowserSessions, DEFAULTS as BROWSER_SESSION_DEFAULTS } from './browser-sessions.js';
export type {
  BrowserSessionRecord,
  BrowserSessionsOptions,
  CdpAuthorization,
  CdpCredentials,
  CreateSessionParams,
} from './types.js';
export type { SessionStatus } from './store.js';
export { reapLeftovers, processesUsing, PID_FILE } from './reaper.js';
