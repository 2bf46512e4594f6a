import type Database from 'better-sqlite3';
import type { Logger } from './logger.js';
import type { ServerConfig } from './options.js';
import type { Storage } from './storage/index.js';

/** The caller behind a request: the user that owns the API key, and which key it was. */
export interface Principal {
  userId: string;
  keyId: string;
}

/** The outcome of checking an `Authorization` header. */
export type AuthResult = { ok: true; principal: Principal } | { ok: false; message: string };

/** What routes and engines share: configuration, storage, logging, time and auth. */
export interface ServerContext {
  config: ServerConfig;
  /** One SQLite database in the data dir (WAL); each engine owns its prefixed tables. */
  db: Database.Database;
  /** Shared state (keys, sessions, contexts, idempotency): SQLite `db`, or PostgreSQL. */
  storage: Storage;
  logger: Logger;
  /** Milliseconds since the epoch. Injectable so expiry and purge can be tested. */
  clock: () => number;
  /** `http://host:port` once the server listens. */
  baseUrl: () => string;
  auth: { authenticateHeader(header: string | undefined): Promise<AuthResult> };
}

/** Hono environment of the app: the auth middleware sets `principal` before any handler runs. */
export type AppEnv = { Variables: { principal: Principal; requestId: string } };
