import os from 'node:os';
import path from 'node:path';
import type { LlmConfig } from './engines/answerer/index.js';
import { llmConfigFromEnv } from './engines/answerer/index.js';
import { resolveRecycleOptions } from './engines/browsers/recycle.js';
import type { RecycleConfig, RecycleOptions } from './engines/browsers/recycle.js';
import { checkGridUrl } from './engines/browsers/webdriver.js';
import { readEmbedderEnv } from './engines/embedder/index.js';
import type { RemoteEmbedderConfig } from './engines/embedder/index.js';
import type { Logger, LogLevel } from './logger.js';

/** Route groups that share a rate-limit bucket (see `ROUTES[].rateGroup`). */
export type RateGroup = 'chat' | 'async' | 'search' | 'embeddings' | 'browser' | 'auth';

/** A key given to the server up front; a plain string belongs to the user `default`. */
export type ApiKeyInput = string | { key: string; userId: string };

/**
 * Options of {@link startServer}. Every field has a default (see {@link DEFAULTS}); environment
 * variables are read here and nowhere else in the server:
 * `SVC_HOST`, `SVC_PORT`, `SVC_DATA_DIR`, `SVC_API_KEY` (comma-separated keys, all active at once),
 * `SVC_CHROME_PATH`, `SVC_LOG_LEVEL`, `SVC_MAX_SESSIONS`, `SVC_LLM_BASE_URL` (+ `SVC_LLM_API_KEY`,
 * `SVC_LLM_MODEL`: answers written by that OpenAI-compatible model from the retrieved sources),
 * `SVC_EMBED_BASE_URL` (+ `SVC_EMBED_API_KEY`, `SVC_EMBED_MODEL`: embeddings from that endpoint),
 * `SVC_EMBEDDER` (`auto` or `hashing`: the local embedding model, see `localEmbedder`),
 * `SVC_DATABASE_URL` (shared state in PostgreSQL), `SVC_INTERNAL_URL` (see `internalUrl`),
 * `SVC_GRID_URL` (browsers on a Selenium Grid, see `gridUrl`). `SVC_CHROME_SOURCE` is read by
 * `findChromium`, where the browser is found: unset, sessions run the `@sparticuz/chromium` headless
 * shell when it is installed, else a system Chromium; `system` a system Chromium first; `package`
 * the shell only.
 */
export interface ServerOptions {
  /** Interface to bind. Anything but loopback needs `allowRemote: true`. @default '127.0.0.1' */
  host?: string;
  /** TCP port; 0 picks a free one. @default 8787 */
  port?: number;
  /** Where the database, browser profiles and logs live. @default `~/.svc-toolkit` */
  dataDir?: string;
  /** Keys to accept (stored hashed). When none exist at all, one is generated and returned once. */
  apiKeys?: ApiKeyInput[];
  /** Permit binding beyond loopback. @default false */
  allowRemote?: boolean;
  /** Concurrent running browser sessions; past it, create answers 429. @default max(2, 2 x cores) */
  maxSessions?: number;
  /** Pre-launched Chromium processes kept ready. @default 1 */
  warmPoolSize?: number;
  /**
   * Hand the wiped browser of a session its client deleted to the next session of the same user
   * (never another user's), instead of launching one: `true`, or limits (see `RecycleOptions` and
   * the isolation trade-off in docs/sessions.md). @default false
   */
  recycle?: boolean | RecycleOptions;
  /** Chromium executable. @default discovered (SVC_CHROME_PATH, @sparticuz/chromium, system) */
  chromePath?: string;
  /**
   * A Selenium Grid 4 (`http://grid:4444`, credentials allowed in the URL): each browser session
   * is a Grid session (Chromium, headless) driven over its `se:cdp` endpoint instead of a local
   * Chromium. No warm pool and no session files with a Grid; saved contexts restore cookies only
   * (see docs/sessions.md). @default SVC_GRID_URL, else local Chromium
   */
  gridUrl?: string;
  /** Session idle timeout when the create body gives none. @default 300_000 */
  defaultIdleTimeoutMs?: number;
  /** Session lifetime cap when the create body gives none. @default 3_600_000 */
  defaultMaxDurationMs?: number;
  /** Requests per minute per key and route group. @default chat 50, others 600 */
  rateLimits?: Partial<Record<RateGroup, number>>;
  /** Largest accepted request body. @default 10 MiB */
  maxBodyBytes?: number;
  /** Async job workers. @default 2 */
  jobConcurrency?: number;
  /**
   * How long a running async job stays this instance's without renewal (renewed every third of it);
   * with `databaseUrl`, another instance takes over a job whose lease ran out. @default 30_000
   */
  jobLeaseMs?: number;
  /**
   * How long a session recording (`record: true`) is kept after its session ends; older ones are
   * deleted. @default 604_800_000 (7 days)
   */
  recordingRetentionMs?: number;
  /** Size cap of one recording; past it recording stops and it is marked truncated. @default 50 MiB */
  maxRecordingBytes?: number;
  /** Answer with an OpenAI-compatible chat model instead of the extractive composer. @default SVC_LLM_* */
  llm?: LlmConfig;
  /** Embed with an OpenAI-compatible endpoint instead of the local model. @default SVC_EMBED_* */
  embedRemote?: RemoteEmbedderConfig;
  /**
   * Local embedding model: `auto` runs the sentence encoder when its package is installed (else the
   * hashing model); `hashing` always runs the deterministic hashing model. @default 'auto' (or SVC_EMBEDDER)
   */
  localEmbedder?: 'auto' | 'hashing';
  /**
   * Keep keys, session records, saved contexts and idempotency keys in this PostgreSQL
   * (`postgres://user:pass@host/db`), so several instances behind one load balancer act as one
   * service; migrations run at start. @default SVC_DATABASE_URL, else the data dir's SQLite
   */
  databaseUrl?: string;
  /**
   * The URL other instances reach this one at, to forward CDP connections of the sessions whose
   * browsers run here (only used with `databaseUrl`). @default SVC_INTERNAL_URL, else the listen URL
   */
  internalUrl?: string;
  logger?: Logger;
  /** @default 'info' (or SVC_LOG_LEVEL) */
  logLevel?: LogLevel;
  /** Milliseconds since the epoch; injectable for expiry tests. @default Date.now */
  clock?: () => number;
}

/** Options after defaults and environment are applied. */
export interface ServerConfig {
  host: string;
  port: number;
  dataDir: string;
  apiKeys: { key: string; userId: string }[];
  allowRemote: boolean;
  maxSessions: number;
  warmPoolSize: number;
  recycle: RecycleConfig;
  databaseUrl: string | undefined;
  internalUrl: string | undefined;
  chromePath: string | undefined;
  gridUrl: string | undefined;
  defaultIdleTimeoutMs: number;
  defaultMaxDurationMs: number;
  rateLimits: Record<RateGroup, number>;
  maxBodyBytes: number;
  jobConcurrency: number;
  jobLeaseMs: number;
  recordingRetentionMs: number;
  maxRecordingBytes: number;
  llm: LlmConfig | undefined;
  embedRemote: RemoteEmbedderConfig | undefined;
  localEmbedder: 'auto' | 'hashing';
  logLevel: LogLevel;
}

/** Defaults of {@link ServerOptions}, applied once in {@link resolveServerOptions}. */
export const DEFAULTS = {
  host: '127.0.0.1',
  port: 8787,
  dataDir: path.join(os.homedir(), '.svc-toolkit'),
  maxSessions: Math.max(2, os.cpus().length * 2),
  warmPoolSize: 1,
  defaultIdleTimeoutMs: 300_000,
  defaultMaxDurationMs: 3_600_000,
  rateLimits: { chat: 50, async: 600, search: 600, embeddings: 600, browser: 600, auth: 600 },
  maxBodyBytes: 10 * 1024 * 1024,
  jobConcurrency: 2,
  jobLeaseMs: 30_000,
  recordingRetentionMs: 7 * 24 * 3_600_000,
  maxRecordingBytes: 50 * 1024 * 1024,
  localEmbedder: 'auto',
  logLevel: 'info',
} as const satisfies Partial<ServerConfig>;

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

/** True for hosts on the loopback interface (127.0.0.0/8, ::1, localhost). */
export function isLoopback(host: string): boolean {
  return LOOPBACK.has(host) || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/**
 * Applies environment and defaults to `options`.
 * @throws Error naming the option when a value is out of range, or a non-loopback host lacks `allowRemote`
 */
export function resolveServerOptions(
  options: ServerOptions,
  env: NodeJS.ProcessEnv = process.env,
): ServerConfig {
  const envKeys = (env.SVC_API_KEY ?? '')
    .split(',')
    .map((k) => k.trim())
    .filter(Boolean);
  const config: ServerConfig = {
    host: options.host ?? env.SVC_HOST ?? DEFAULTS.host,
    port: options.port ?? numberFrom(env.SVC_PORT, 'SVC_PORT') ?? DEFAULTS.port,
    dataDir: path.resolve(options.dataDir ?? env.SVC_DATA_DIR ?? DEFAULTS.dataDir),
    apiKeys: (options.apiKeys ?? envKeys).map((k) =>
      typeof k === 'string' ? { key: k, userId: 'default' } : k,
    ),
    allowRemote: options.allowRemote ?? false,
    maxSessions:
      options.maxSessions ??
      numberFrom(env.SVC_MAX_SESSIONS, 'SVC_MAX_SESSIONS') ??
      DEFAULTS.maxSessions,
    warmPoolSize: options.warmPoolSize ?? DEFAULTS.warmPoolSize,
    recycle: resolveRecycleOptions(options.recycle),
    databaseUrl: options.databaseUrl ?? (env.SVC_DATABASE_URL || undefined),
    internalUrl: options.internalUrl ?? (env.SVC_INTERNAL_URL || undefined),
    chromePath: options.chromePath ?? env.SVC_CHROME_PATH,
    gridUrl: options.gridUrl ?? (env.SVC_GRID_URL || undefined),
    defaultIdleTimeoutMs: options.defaultIdleTimeoutMs ?? DEFAULTS.defaultIdleTimeoutMs,
    defaultMaxDurationMs: options.defaultMaxDurationMs ?? DEFAULTS.defaultMaxDurationMs,
    rateLimits: { ...DEFAULTS.rateLimits, ...options.rateLimits },
    maxBodyBytes: options.maxBodyBytes ?? DEFAULTS.maxBodyBytes,
    jobConcurrency: options.jobConcurrency ?? DEFAULTS.jobConcurrency,
    jobLeaseMs: options.jobLeaseMs ?? DEFAULTS.jobLeaseMs,
    recordingRetentionMs: options.recordingRetentionMs ?? DEFAULTS.recordingRetentionMs,
    maxRecordingBytes: options.maxRecordingBytes ?? DEFAULTS.maxRecordingBytes,
    llm: options.llm ?? llmConfigFromEnv(env),
    embedRemote: options.embedRemote ?? readEmbedderEnv(env),
    localEmbedder:
      options.localEmbedder ??
      ((env.SVC_EMBEDDER || undefined) as ServerConfig['localEmbedder'] | undefined) ??
      DEFAULTS.localEmbedder,
    logLevel:
      options.logLevel ??
      (env.SVC_LOG_LEVEL as ServerConfig['logLevel'] | undefined) ??
      DEFAULTS.logLevel,
  };
  if (!Number.isInteger(config.port) || config.port < 0 || config.port > 65535) {
    throw new Error(`port: expected an integer from 0 to 65535, got ${config.port}`);
  }
  if (config.localEmbedder !== 'auto' && config.localEmbedder !== 'hashing') {
    throw new Error(
      `localEmbedder (SVC_EMBEDDER): expected auto or hashing, got ${String(config.localEmbedder)}`,
    );
  }
  if (config.gridUrl !== undefined) checkGridUrl(config.gridUrl);
  if (!isLoopback(config.host) && !config.allowRemote) {
    throw new Error(
      `host: refusing to bind ${config.host}, which is not loopback; pass allowRemote: true (svc serve --allow-remote) to expose the server`,
    );
  }
  for (const [name, value] of [
    ['maxSessions', config.maxSessions],
    ['warmPoolSize', config.warmPoolSize],
    ['jobConcurrency', config.jobConcurrency],
    ['jobLeaseMs', config.jobLeaseMs],
    ['recordingRetentionMs', config.recordingRetentionMs],
    ['maxRecordingBytes', config.maxRecordingBytes],
  ] as const) {
    if (!Number.isInteger(value) || value < (name === 'warmPoolSize' ? 0 : 1)) {
      throw new Error(`${name}: expected a positive integer, got ${value}`);
    }
  }
  for (const [group, perMinute] of Object.entries(config.rateLimits)) {
    if (!(perMinute > 0))
      throw new Error(`rateLimits.${group}: expected requests per minute > 0, got ${perMinute}`);
  }
  return config;
}

function numberFrom(value: string | undefined, name: string): number | undefined {
  if (value === undefined || value === '') return undefined;
  const n = Number(value);
  if (!Number.isFinite(n))
    throw new Error(`${name}: expected a number, got ${JSON.stringify(value)}`);
  return n;
}
