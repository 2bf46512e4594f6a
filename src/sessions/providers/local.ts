// The `local` provider: a Chromium launched by this process, for people without a service.
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { findSessionChromium, launchChromium } from '../../chromium.js';
import type { LaunchedChromium } from '../../chromium.js';
import { sleep } from '../timeout.js';
import type { AcquireParams, ProbeResult, ProviderLease, SessionProvider } from './provider.js';

/** Options of {@link LocalProvider}. */
export interface LocalProviderOptions {
  /**
   * Chromium executable. @default `findSessionChromium()`, as the embedded
   * service's sessions: `SVC_CHROME_PATH`, the `@sparticuz/chromium` headless shell (about three
   * times as fast to start), then a system Chromium; `SVC_CHROME_SOURCE=system` puts it first.
   */
  executablePath?: string | undefined;
  /** Where fresh profiles `svc-session-*` are made. @default os.tmpdir() */
  profileRoot?: string | undefined;
  /** Chromium flags, replacing `CHROMIUM_ARGS`. @default CHROMIUM_ARGS */
  args?: readonly string[] | undefined;
}

/** Prefix of every profile directory the local provider creates (tests count processes by it). */
export const LOCAL_PROFILE_PREFIX = 'svc-session-';

/**
 * Launches one Chromium per session with a fresh profile; release kills its process group and
 * removes the profile.
 */
export class LocalProvider implements SessionProvider {
  readonly name = 'local' as const;
  readonly #options: LocalProviderOptions;

  constructor(options: LocalProviderOptions = {}) {
    this.#options = options;
  }

  async acquire(params: AcquireParams): Promise<ProviderLease> {
    const executablePath = this.#options.executablePath ?? (await findSessionChromium()).path;
    const root = this.#options.profileRoot ?? os.tmpdir();
    const dir = await mkdtemp(path.join(root, LOCAL_PROFILE_PREFIX));
    let chromium: LaunchedChromium;
    try {
      chromium = await launchChromium({
        executablePath,
        userDataDir: dir,
        timeout: params.timeout,
        ...(this.#options.args ? { args: this.#options.args } : {}),
        ...(params.viewport ? { viewport: params.viewport } : {}),
        ...(params.userAgent !== undefined ? { userAgent: params.userAgent } : {}),
      });
    } catch (error) {
      await rm(dir, { recursive: true, force: true, maxRetries: 3 });
      throw error;
    }
    const exited = new Promise<void>((resolve) => {
      const child = chromium.process;
      if (child.exitCode !== null || child.signalCode !== null) resolve();
      else child.once('exit', () => resolve());
    });
    const now = Math.floor(Date.now() / 1000);
    let released: Promise<void> | undefined;
    return {
      provider: 'local',
      record: {
        session_id: randomUUID(),
        status: 'running',
        cdp_url: chromium.wsEndpoint,
        created_at: now,
        expires_at: null,
        tags: [...params.tags],
      },
      wsEndpoint: chromium.wsEndpoint,
      headers: {},
      owned: true,
      pid: chromium.pid,
      release: () =>
        (released ??= (async () => {
          await chromium.kill();
          await rm(dir, { recursive: true, force: true, maxRetries: 5 });
        })()),
      probe: async (timeout): Promise<ProbeResult> => {
        // The socket and the process usually end together; give the exit event a moment to land.
        const dead = await Promise.race([
          exited.then(() => true),
          sleep(Math.min(timeout, 1000)).then(() => false),
        ]);
        return dead ? 'failed' : 'running';
      },
      syncRelease: () => ({ kind: 'kill', pid: chromium.pid, dir }),
    };
  }

  async close(): Promise<void> {}
}
