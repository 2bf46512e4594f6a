export { startServer } from './serve.js';
export type { Engines, RunningServer, ServerPart } from './serve.js';
export { DEFAULTS as SERVER_DEFAULTS, resolveServerOptions, isLoopback } from './options.js';
export type { ServerOptions, ServerConfig, RateGroup, ApiKeyInput } from './options.js';
export { KeyStore } from './auth/key-store.js';
export type { KeyInfo } from './auth/key-store.js';
export { createLogger, redact } from './logger.js';
export type { Logger, LogLevel } from './logger.js';
export type { Principal, ServerContext } from './context.js';
