// What every MCP client of one `svc mcp` process shares: the service client, one session manager,
// the evidence reports written in this run, and the recordings of the sessions opened here.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Client } from '../../client/index.js';
import { SvcError } from '../../errors.js';
import { readSessionEnv, selectProvider, SessionManager } from '../../sessions/index.js';
import type { DriverName, SessionRecord } from '../../sessions/index.js';
import type { ReportFiles } from '../../../recipes/index.js';
import { BrowserScope } from './browser-scope.js';

/** Options of {@link openRuntime}. */
export interface McpRuntimeOptions {
  /** Where evidence reports go (kept). @default a temporary folder, removed when the server ends */
  reportsDir?: string | undefined;
  /** A browser session unused this long (ms) is released. */
  idleTimeout: number;
  /** Diagnostics (stderr): never protocol output, never a secret. */
  log: (line: string) => void;
}

/** One evidence report written in this run. */
export interface ReportEntry {
  /** Short id, the host of its `report://` URIs. */
  id: string;
  /** The tool that wrote it. */
  tool: string;
  /** What it was about (the question, or the start of the answer). */
  subject: string;
  files: ReportFiles;
  createdAt: string;
}

/** A session opened here with a recording. */
export interface RecordingEntry {
  sessionId: string;
  /** The service's replay page (bearer key), when the record names it. */
  recordingUrl: string | null;
}

/** The shared state of the MCP server. */
export interface McpRuntime {
  /** Settles once the service is up (rejects when it could not start); tools await it. */
  ready: Promise<void>;
  /** The service's client. @throws SvcError before `ready` resolved */
  readonly client: Client;
  /** The one session manager. @throws SvcError before `ready` resolved */
  readonly manager: SessionManager<DriverName>;
  reports: Map<string, ReportEntry>;
  recordings: Map<string, RecordingEntry>;
  /** A fresh folder for the next report. */
  reportDir(id: string): Promise<string>;
  /** The sessions of a newly connected client. */
  newScope(onIdleRelease?: (sessionId: string) => void): BrowserScope;
  /** Notes the recording of a session: asked for (`recorded`), or named by its record. */
  noteRecording(record: SessionRecord, recorded: boolean): RecordingEntry | undefined;
  options: McpRuntimeOptions;
  /** Releases every session of every client and the manager; removes a temporary reports folder. */
  close(): Promise<void>;
}

/**
 * Builds the shared state over the client `client` resolves to, at once: the MCP handshake and
 * `tools/list` need no service, so a client connects while the embedded service still starts.
 * Sessions come from the provider the environment selects (`SVC_SESSION_PROVIDER`,
 * `SVC_CDP_URL`), else from the client's service: the embedded one's Chromium processes, or the
 * hosted service's sessions.
 * @example
 * const runtime = openRuntime(service.then((s) => s.client), { idleTimeout: 600_000, log });
 * try { ... } finally { await runtime.close(); }
 */
export function openRuntime(client: Promise<Client>, options: McpRuntimeOptions): McpRuntime {
  let state: { client: Client; manager: SessionManager<DriverName> } | undefined;
  const ready = client.then((c) => {
    const provider = selectProvider({ client: c }, readSessionEnv());
    const manager = new SessionManager<DriverName>({
      provider,
      ...(provider === 'api' && { client: c }),
    });
    state = { client: c, manager };
  });
  // Tools report a failed start; nothing else waits on it.
  ready.catch(() => undefined);
  const started = (): NonNullable<typeof state> => {
    if (!state) throw new SvcError('The service is not started yet');
    return state;
  };
  const ownDir = options.reportsDir === undefined;
  let root: Promise<string> | undefined;
  const reportsRoot = (): Promise<string> =>
    (root ??= options.reportsDir
      ? Promise.resolve(path.resolve(options.reportsDir))
      : mkdtemp(path.join(os.tmpdir(), 'svc-mcp-reports-')));
  const scopes = new Set<BrowserScope>();
  const recordings = new Map<string, RecordingEntry>();
  return {
    ready,
    get client() {
      return started().client;
    },
    get manager() {
      return started().manager;
    },
    reports: new Map(),
    recordings,
    options,
    reportDir: async (id) => path.join(await reportsRoot(), id),
    newScope(onIdleRelease) {
      const scope = new BrowserScope(() => started().manager, {
        idleTimeout: options.idleTimeout,
        onIdleRelease: (id) => {
          options.log(`released browser session ${id}: unused for ${options.idleTimeout} ms`);
          onIdleRelease?.(id);
        },
        onError: (error) =>
          options.log(`releasing a browser session failed: ${(error as Error).message}`),
      });
      scopes.add(scope);
      return scope;
    },
    noteRecording(record, recorded) {
      const url = typeof record.recording_url === 'string' ? record.recording_url : null;
      const known = recordings.get(record.session_id);
      if (!recorded && url === null && !known) return undefined;
      const entry = {
        sessionId: record.session_id,
        recordingUrl: url ?? known?.recordingUrl ?? null,
      };
      recordings.set(record.session_id, entry);
      return entry;
    },
    async close() {
      // A service still starting would otherwise bring a manager up after this close.
      await ready.catch(() => undefined);
      await Promise.all([...scopes].map((s) => s.closeAll()));
      await state?.manager.close().catch((error: unknown) => {
        options.log(`closing the session manager failed: ${(error as Error).message}`);
      });
      if (ownDir && root) await rm(await root, { recursive: true, force: true });
    },
  };
}
