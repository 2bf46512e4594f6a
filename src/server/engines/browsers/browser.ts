// One browser owned by one pool slot or session, wherever it runs (a local Chromium process or a
// Selenium Grid session, see backend.ts), the local launch, and the rendering of session records.
//
// No orphan, ever: every local browser is bound to the server's life by `launchChromium` (the
// `--remote-debugging-pipe` lifeline, plus `setpriv --pdeathsig KILL` on Linux), so a server that
// dies in any way, SIGKILL and OOM kill included, takes its browsers with it without a restart.
// The pid file written here lets the next start reap anything left anyway (a browser wedged in
// shutdown, a platform without the lifeline): the second line of defence.
import { randomUUID } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { launchChromium } from '../../../chromium.js';
import type { LaunchedChromium } from '../../../chromium.js';
import { WebSocket } from 'ws';
import type { Logger } from '../../logger.js';
import { PID_FILE } from './reaper.js';
import type { SessionRow } from './store.js';
import type { BrowserSessionRecord } from './types.js';

/** Window size in CSS pixels. */
export type Viewport = { width: number; height: number };

/** What tells the engine a browser ended: a local `ChildProcess`, or a Grid session's watcher. */
export interface ExitSource {
  readonly exitCode: number | null;
  readonly signalCode: NodeJS.Signals | null;
  once(
    event: 'exit',
    listener: (code: number | null, signal: NodeJS.Signals | null) => void,
  ): unknown;
  off(
    event: 'exit',
    listener: (code: number | null, signal: NodeJS.Signals | null) => void,
  ): unknown;
}

/**
 * A running Chromium as the engine drives it, whatever the backend: every server-side CDP client
 * (contexts, files, live view, recording, the `/cdp` relay) connects to `wsEndpoint`, a
 * browser-level DevTools WebSocket (the local port, or the Grid session's `se:cdp`).
 * `LaunchedChromium` is one.
 */
export interface BrowserHandle {
  /** The local process id; undefined for a browser on a Grid (its pid is on another machine). */
  readonly pid: number | undefined;
  /** Browser-level DevTools WebSocket URL. May carry the Grid's credentials: never log it. */
  readonly wsEndpoint: string;
  /** Emits `exit` once when the browser ends, whoever ended it. */
  readonly process: ExitSource;
  /** Why the browser ended, when the code and signal do not say it (a Grid session that vanished). */
  readonly exitReason?: string | undefined;
  /** Ends the browser (SIGKILL to a local process group, WebDriver delete on a Grid). Never rejects. */
  kill(): Promise<void>;
  /** Local priority change (see `LaunchedChromium.renice`); true and nothing to do on a Grid. */
  renice(from: number, to: number): boolean;
  /**
   * Asks at once whether the browser is still there, when a sign says it may be gone (a CDP
   * connection to it closed); one found gone ends with `exit`. Absent where an end is seen at once
   * (a local process).
   */
  probe?(): void;
}

/** A browser owned by exactly one pool slot or session; `id` names its profile dir. */
export interface Browser {
  id: string;
  /** Where it runs. */
  backend: 'local' | 'grid';
  /**
   * The local profile dir. On a Grid the profile lives on the node: this dir is never created, so
   * reading it finds nothing and removing it is a no-op.
   */
  profileDir: string;
  chromium: BrowserHandle;
  alive(): boolean;
}

/** Options of {@link launchBrowser}. */
export interface LaunchBrowserOptions {
  viewport?: Viewport | undefined;
  userAgent?: string | undefined;
  /** Nice value at launch (see `LaunchChromiumOptions.niceness`). @default 0 */
  niceness?: number | undefined;
  /** Called with the browser's pid once spawned, before it is ready (to renice a launch under way). */
  onSpawn?: ((pid: number) => void) | undefined;
  /** Wait until the first page's renderer answers before resolving. @default false */
  warm?: boolean | undefined;
  /** Fills the fresh profile before the browser starts (a saved context's storage). */
  seed?: ((profileDir: string) => Promise<void>) | undefined;
}

/** Limits of the warm-up. */
export const WARM_UP = {
  /** Longest wait for the first page to answer; past it the browser is handed out as it is. */
  timeoutMs: 10_000,
} as const;

/**
 * Launches Chromium with a fresh profile `<browsersDir>/<uuid>` and writes its pid file there, so a
 * later start can reap it if this server dies. With `warm`, resolves only once the browser's first
 * page (the `about:blank` tab every session starts with) has a live renderer that evaluated a
 * script, so a session's first navigation does not pay for the renderer's start.
 * @throws the launch error (the profile dir is removed first)
 */
export async function launchBrowser(
  browsersDir: string,
  executablePath: string,
  options: LaunchBrowserOptions = {},
): Promise<Browser> {
  const id = randomUUID();
  const profileDir = path.join(browsersDir, id);
  await mkdir(profileDir, { recursive: true });
  let chromium: LaunchedChromium;
  try {
    await options.seed?.(profileDir);
    chromium = await launchChromium({
      executablePath,
      userDataDir: profileDir,
      ...(options.viewport ? { viewport: options.viewport } : {}),
      ...(options.userAgent !== undefined ? { userAgent: options.userAgent } : {}),
      ...(options.niceness ? { niceness: options.niceness } : {}),
      onSpawn: options.onSpawn,
    });
  } catch (error) {
    await rm(profileDir, { recursive: true, force: true, maxRetries: 3 });
    throw error;
  }
  try {
    await writeFile(path.join(profileDir, PID_FILE), String(chromium.pid));
    if (options.warm) await warmUp(chromium.wsEndpoint, WARM_UP.timeoutMs);
  } catch (error) {
    await chromium.kill();
    await rm(profileDir, { recursive: true, force: true, maxRetries: 3 });
    throw error;
  }
  return localBrowser(id, profileDir, chromium);
}

/** A launched local Chromium as a {@link Browser}. */
export function localBrowser(id: string, profileDir: string, chromium: LaunchedChromium): Browser {
  const { process } = chromium;
  return {
    id,
    backend: 'local',
    profileDir,
    chromium,
    alive: () => process.exitCode === null && process.signalCode === null,
  };
}

/**
 * Waits until the browser's first page target exists and its renderer evaluates `1`, then detaches.
 * A timeout is not an error: the browser still works, only its first navigation is slower.
 * @throws Error when the browser refuses the connection or answers a command with an error
 */
export async function warmUp(wsEndpoint: string, timeoutMs: number): Promise<void> {
  const ws = new WebSocket(wsEndpoint, { perMessageDeflate: false });
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  let nextId = 0;
  ws.on('message', (data) => {
    const msg = JSON.parse(String(data)) as {
      id?: number;
      result?: unknown;
      error?: { message: string };
    };
    const waiter = msg.id === undefined ? undefined : pending.get(msg.id);
    if (!waiter || msg.id === undefined) return;
    pending.delete(msg.id);
    if (msg.error) waiter.reject(new Error(`warm-up: ${msg.error.message}`));
    else waiter.resolve(msg.result);
  });
  const send = <T>(method: string, params: object = {}, sessionId?: string): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const id = ++nextId;
      pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      ws.send(JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) }));
    });
  const closed = new Promise<never>((_, reject) => {
    ws.once('close', () => reject(new Error('warm-up: the browser closed the connection')));
    ws.once('error', reject);
  });
  closed.catch(() => undefined);
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs)));
  const work = async (): Promise<void> => {
    await Promise.race([new Promise((r) => ws.once('open', r)), closed]);
    for (;;) {
      const { targetInfos } = await Promise.race([
        send<{ targetInfos: { targetId: string; type: string }[] }>('Target.getTargets'),
        closed,
      ]);
      const page = targetInfos.find((t) => t.type === 'page');
      if (page) {
        const { sessionId } = await Promise.race([
          send<{ sessionId: string }>('Target.attachToTarget', {
            targetId: page.targetId,
            flatten: true,
          }),
          closed,
        ]);
        await Promise.race([send('Runtime.evaluate', { expression: '1' }, sessionId), closed]);
        await Promise.race([send('Target.detachFromTarget', { sessionId }), closed]);
        return;
      }
      // The first tab appears a few ms after the DevTools endpoint.
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  try {
    await Promise.race([work(), deadline]);
  } finally {
    clearTimeout(timer);
    ws.terminate();
  }
}

/** Ends the browser (a local process group killed, a Grid session deleted) and removes its profile. Never rejects. */
export async function disposeBrowser(browser: Browser, logger: Logger): Promise<void> {
  await browser.chromium.kill();
  await removeProfile(browser, logger);
}

/** Removes a dead browser's profile dir; a failure is logged, not thrown. */
export async function removeProfile(browser: Browser, logger: Logger): Promise<void> {
  try {
    await rm(browser.profileDir, { recursive: true, force: true, maxRetries: 3 });
  } catch (error) {
    logger.warn('could not remove a browser profile', {
      dir: browser.profileDir,
      error: (error as Error).message,
    });
  }
}

/**
 * The API record of a row: times in Unix seconds; `cdp_url` carries `?token=` only while the
 * session runs (the token is kept in memory, the database holds its hash).
 */
export function renderRecord(
  row: SessionRow,
  baseUrl: string,
  token: string | undefined,
): BrowserSessionRecord {
  const url = `${baseUrl.replace(/^http/, 'ws')}/v1/browser/sessions/${row.id}/cdp`;
  const record: BrowserSessionRecord = {
    session_id: row.id,
    status: row.status,
    cdp_url: token === undefined ? url : `${url}?token=${token}`,
    created_at: Math.floor(row.created_at / 1000),
    expires_at: row.expires_at === null ? null : Math.floor(row.expires_at / 1000),
    tags: JSON.parse(row.tags) as string[],
  };
  if (row.ended_at !== null) record.ended_at = Math.floor(row.ended_at / 1000);
  if (row.end_reason !== null) record.end_reason = row.end_reason;
  return record;
}
