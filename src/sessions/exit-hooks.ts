// Process-wide release on exit, SIGINT, SIGTERM and uncaught errors: one set of handlers per
// process however many managers (or copies of this package) exist.
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import type { SyncRelease } from './providers/provider.js';

/** A manager as the exit hooks see it. */
export interface ExitParticipant {
  /** Releases every open session (disconnect, then DELETE / kill). */
  releaseForExit(): Promise<void>;
  /** What must still happen synchronously for the sessions left open. */
  pendingSyncReleases(): SyncRelease[];
}

/** Defaults of the exit hooks. */
export const EXIT_DEFAULTS = {
  /** Longest wait for the async release on a signal before the synchronous fallback. */
  signalReleaseTimeout: 5_000,
  /** Longest wait for the DELETE requests sent from an `exit` handler. */
  syncHttpTimeout: 3_000,
} as const;

const SIGNALS = ['SIGINT', 'SIGTERM'] as const;
type HandledSignal = (typeof SIGNALS)[number];

interface Registry {
  participants: Set<ExitParticipant>;
  installed: boolean;
  signalling: boolean;
}

// Shared through a global symbol: two copies of the package must not install two sets of handlers.
const KEY = Symbol.for('svc-toolkit.sessions.exit-hooks');
const registry: Registry =
  ((globalThis as Record<symbol, unknown>)[KEY] as Registry | undefined) ??
  ((globalThis as Record<symbol, unknown>)[KEY] = {
    participants: new Set(),
    installed: false,
    signalling: false,
  } satisfies Registry);

/**
 * Registers a manager; the handlers are installed with the first and removed with the last.
 * @returns the unregister function
 */
export function registerExitParticipant(participant: ExitParticipant): () => void {
  registry.participants.add(participant);
  if (!registry.installed) install();
  return () => {
    registry.participants.delete(participant);
    if (registry.participants.size === 0) uninstall();
  };
}

/** True while the process-wide handlers are installed (for tests and diagnostics). */
export function exitHooksInstalled(): boolean {
  return registry.installed;
}

function install(): void {
  registry.installed = true;
  process.on('exit', onExit);
  // The monitor observes without changing Node's crash behaviour, as an 'uncaughtException'
  // listener would.
  process.on('uncaughtExceptionMonitor', onUncaught);
  for (const signal of SIGNALS) process.on(signal, onSignal);
}

function uninstall(): void {
  registry.installed = false;
  process.off('exit', onExit);
  process.off('uncaughtExceptionMonitor', onUncaught);
  for (const signal of SIGNALS) process.off(signal, onSignal);
}

function onExit(): void {
  releaseSync();
}

function onUncaught(): void {
  // Someone handles uncaught errors and keeps the process alive: its sessions must survive too.
  if (process.listenerCount('uncaughtException') > 0) return;
  releaseSync();
}

function onSignal(signal: HandledSignal): void {
  if (registry.signalling) {
    // A second Ctrl-C: stop waiting for the graceful release.
    releaseSync();
    reraise(signal);
    return;
  }
  registry.signalling = true;
  const all = [...registry.participants].map((p) => p.releaseForExit());
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, EXIT_DEFAULTS.signalReleaseTimeout);
  });
  void Promise.race([Promise.allSettled(all), deadline]).then(() => {
    clearTimeout(timer);
    releaseSync();
    reraise(signal);
  });
}

/** Restores the default behaviour of `signal` (exit by it) unless the program handles it itself. */
function reraise(signal: HandledSignal): void {
  for (const s of SIGNALS) process.off(s, onSignal);
  registry.signalling = false;
  if (process.listenerCount(signal) === 0) {
    process.kill(process.pid, signal);
    return;
  }
  // The program's own handler decides, and may keep the process alive: stay on guard.
  if (registry.installed) for (const s of SIGNALS) process.on(s, onSignal);
}

function releaseSync(): void {
  const work = [...registry.participants].flatMap((p) => p.pendingSyncReleases());
  const http: Extract<SyncRelease, { kind: 'http' }>[] = [];
  for (const item of work) {
    if (item.kind === 'kill') {
      try {
        process.kill(-item.pid, 'SIGKILL');
      } catch {
        // Already gone: the process group no longer exists.
      }
      try {
        rmSync(item.dir, { recursive: true, force: true, maxRetries: 5 });
      } catch {
        // A profile dir is only disk space; the process is what must not leak.
      }
    } else {
      http.push(item);
    }
  }
  if (http.length > 0) sendSync(http);
}

// An exit handler cannot await: the DELETEs run in a child process we wait for. The bearer key
// travels in the child's environment, never on its command line.
const SEND_SCRIPT = `
const jobs = JSON.parse(process.env.SVC_SYNC_RELEASE);
const ms = Number(process.env.SVC_SYNC_RELEASE_TIMEOUT);
await Promise.allSettled(jobs.map((j) => fetch(j.url, { method: j.method, headers: j.headers, signal: AbortSignal.timeout(ms) })));
`;

function sendSync(jobs: Extract<SyncRelease, { kind: 'http' }>[]): void {
  spawnSync(process.execPath, ['--input-type=module', '-e', SEND_SCRIPT], {
    env: {
      PATH: process.env.PATH ?? '',
      SVC_SYNC_RELEASE: JSON.stringify(jobs),
      SVC_SYNC_RELEASE_TIMEOUT: String(EXIT_DEFAULTS.syncHttpTimeout),
    },
    stdio: 'ignore',
    timeout: EXIT_DEFAULTS.syncHttpTimeout + 2_000,
  });
}
