// Chromium discovery and launch. A leaf module: node builtins only, so the client side, the
// server and the CLI can all use it.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import path from 'node:path';

/** Where a Chromium executable was found. */
export interface ChromiumLocation {
  /** Absolute path of the executable. */
  path: string;
  /** `env`: `SVC_CHROME_PATH`; `system`: a system install or `PATH`; `package`: `@sparticuz/chromium`. */
  source: 'env' | 'system' | 'package';
}

/** Raised when no Chromium can be found; the message says what to install. */
export class ChromiumNotFoundError extends Error {
  /** Stable code for programs. */
  readonly code = 'chromium_not_found';

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ChromiumNotFoundError';
  }
}

/** Well-known install locations of a system Chromium or Chrome, tried in this order. */
export const SYSTEM_CHROMIUM_PATHS: readonly string[] = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
  '/usr/bin/google-chrome-stable',
  '/opt/google/chrome/chrome',
];

/** Executable names looked up on `PATH` after {@link SYSTEM_CHROMIUM_PATHS}. */
export const CHROMIUM_NAMES: readonly string[] = [
  'chromium',
  'chromium-browser',
  'google-chrome',
  'google-chrome-stable',
  'chrome',
];

/**
 * Flags that work offline and headless on a server: no GPU, no sandbox, no background traffic, no
 * throttling of background tabs (automation drives them), and none of the browser UI that headless
 * mode still preloads: the omnibox popup WebUI alone costs a renderer and about half of the CPU of
 * a launch.
 */
export const CHROMIUM_ARGS: readonly string[] = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--no-first-run',
  '--no-default-browser-check',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
  '--disable-breakpad',
  '--disable-crash-reporter',
  '--disable-extensions',
  '--disable-component-extensions-with-background-pages',
  '--disable-default-apps',
  '--disable-client-side-phishing-detection',
  '--disable-hang-monitor',
  '--disable-background-timer-throttling',
  '--disable-backgrounding-occluded-windows',
  '--disable-renderer-backgrounding',
  '--disable-search-engine-choice-screen',
  '--metrics-recording-only',
  '--password-store=basic',
  '--use-mock-keychain',
  '--disable-features=WebUIOmniboxPopup,WebUIOmniboxAimPopup,Translate,MediaRouter,OptimizationHints',
  '--remote-debugging-address=127.0.0.1',
];

/** Defaults of {@link findChromium} and {@link launchChromium}. */
export const DEFAULTS = {
  /** Optional package that ships a Chromium binary inside npm. */
  packageName: '@sparticuz/chromium',
  /** How long a launch may take to print its DevTools endpoint. */
  launchTimeoutMs: 30_000,
} as const;

/** Options of {@link findChromium}, for embedding and tests. */
export interface FindChromiumOptions {
  /** Absolute paths tried after `SVC_CHROME_PATH`. @default SYSTEM_CHROMIUM_PATHS */
  systemPaths?: readonly string[];
  /** Package imported as the last resort. @default '@sparticuz/chromium' */
  packageName?: string;
}

const cache = new Map<string, Promise<ChromiumLocation>>();

/**
 * Finds a Chromium: `SVC_CHROME_PATH`, then a system Chromium or Chrome (well-known paths, then
 * `PATH`), then the optional `@sparticuz/chromium` package. The answer is cached per environment.
 * @throws ChromiumNotFoundError when none is found, or `SVC_CHROME_PATH` names no executable file
 * @example const { path } = await findChromium();
 */
export function findChromium(
  env: NodeJS.ProcessEnv = process.env,
  options: FindChromiumOptions = {},
): Promise<ChromiumLocation> {
  const systemPaths = options.systemPaths ?? SYSTEM_CHROMIUM_PATHS;
  const packageName = options.packageName ?? DEFAULTS.packageName;
  const key = JSON.stringify([env.SVC_CHROME_PATH, env.PATH, systemPaths, packageName]);
  let found = cache.get(key);
  if (!found) {
    found = locate(env, systemPaths, packageName);
    cache.set(key, found);
    // A failed lookup is not cached: the user may install Chromium and retry in the same process.
    found.catch(() => cache.delete(key));
  }
  return found;
}

/** Forgets cached {@link findChromium} answers (after installing or removing a browser). */
export function clearChromiumCache(): void {
  cache.clear();
}

async function locate(
  env: NodeJS.ProcessEnv,
  systemPaths: readonly string[],
  packageName: string,
): Promise<ChromiumLocation> {
  const fromEnv = env.SVC_CHROME_PATH?.trim();
  if (fromEnv) {
    const resolved = path.resolve(fromEnv);
    if (await isExecutable(resolved)) return { path: resolved, source: 'env' };
    // An explicit setting that is wrong must not silently fall back to another browser.
    throw new ChromiumNotFoundError(
      `SVC_CHROME_PATH is set to ${resolved}, which is not an executable file: point it at a Chromium or Chrome binary, or unset it to use a system Chromium`,
    );
  }
  for (const candidate of systemPaths) {
    if (await isExecutable(candidate)) return { path: candidate, source: 'system' };
  }
  for (const dir of (env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue;
    for (const name of CHROMIUM_NAMES) {
      const candidate = path.join(dir, name);
      if (await isExecutable(candidate)) return { path: candidate, source: 'system' };
    }
  }
  const fromPackage = await fromOptionalPackage(packageName);
  if (fromPackage) return { path: fromPackage, source: 'package' };
  throw new ChromiumNotFoundError(
    `No Chromium found (looked at SVC_CHROME_PATH, ${systemPaths.join(', ')}, ${CHROMIUM_NAMES.join('/')} on PATH, and the ${packageName} package). ` +
      `Install one: \`apt-get install chromium\` (Debian/Ubuntu), or \`npm install ${packageName}\`, ` +
      'or set SVC_CHROME_PATH to a Chromium or Chrome executable.',
  );
}

async function fromOptionalPackage(packageName: string): Promise<string | undefined> {
  let mod: {
    default?: { executablePath?: () => Promise<string> };
    executablePath?: () => Promise<string>;
  };
  try {
    mod = (await import(packageName)) as typeof mod;
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') return undefined;
    throw new ChromiumNotFoundError(`Loading ${packageName} failed: ${(error as Error).message}`, {
      cause: error,
    });
  }
  const executablePath = mod.default?.executablePath ?? mod.executablePath;
  if (typeof executablePath !== 'function') return undefined;
  const found = await executablePath.call(mod.default ?? mod);
  return found && (await isExecutable(found)) ? found : undefined;
}

async function isExecutable(file: string): Promise<boolean> {
  try {
    if (!(await stat(file)).isFile()) return false;
    await access(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Options of {@link launchChromium}. */
export interface LaunchChromiumOptions {
  executablePath: string;
  /** A fresh, private profile directory (created by Chromium if missing). */
  userDataDir: string;
  /** Replaces {@link CHROMIUM_ARGS}. @default CHROMIUM_ARGS */
  args?: readonly string[];
  /** Window size of every page, applied at launch so every CDP client sees it. */
  viewport?: { width: number; height: number };
  /** User agent of every page, applied at launch. */
  userAgent?: string;
  /** Milliseconds to wait for the DevTools endpoint. @default 30_000 */
  timeout?: number;
}

/** A running Chromium started by {@link launchChromium}. */
export interface LaunchedChromium {
  process: ChildProcess;
  pid: number;
  /** `ws://127.0.0.1:PORT/devtools/browser/<id>`. */
  wsEndpoint: string;
  port: number;
  /** Kills the browser and its child processes (SIGKILL to its process group); resolves on exit. */
  kill(): Promise<void>;
}

const DEVTOOLS_LINE = /DevTools listening on (ws:\/\/[^\s]+)/;

/**
 * Launches Chromium with `--remote-debugging-port=0` in its own process group and resolves once it
 * prints its DevTools endpoint.
 * @throws Error when the process exits early, fails to spawn, or the timeout passes (the process is killed)
 */
export function launchChromium(options: LaunchChromiumOptions): Promise<LaunchedChromium> {
  const args = [
    ...(options.args ?? CHROMIUM_ARGS),
    `--user-data-dir=${options.userDataDir}`,
    '--remote-debugging-port=0',
  ];
  if (options.viewport)
    args.push(`--window-size=${options.viewport.width},${options.viewport.height}`);
  if (options.userAgent !== undefined) args.push(`--user-agent=${options.userAgent}`);
  args.push('about:blank');
  const timeout = options.timeout ?? DEFAULTS.launchTimeoutMs;

  // detached: Chromium leads its own process group, so one signal reaches its zygotes and renderers.
  const child = spawn(options.executablePath, args, {
    detached: true,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
  const kill = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null && child.pid !== undefined) {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    }
    await exited;
  };

  return new Promise<LaunchedChromium>((resolve, reject) => {
    let stderr = '';
    let settled = false;
    const fail = (message: string, cause?: unknown): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      const tail = stderr.split('\n').filter(Boolean).slice(-5).join('\n');
      void kill().then(() =>
        reject(
          new Error(`${message} (${options.executablePath})${tail ? `:\n${tail}` : ''}`, { cause }),
        ),
      );
    };
    const timer = setTimeout(
      () => fail(`Chromium did not print its DevTools endpoint within ${timeout} ms`),
      timeout,
    );
    child.once('error', (error) => fail(`Chromium failed to start: ${error.message}`, error));
    child.once('exit', (code, signal) =>
      fail(`Chromium exited before it was ready (code ${code}, signal ${signal})`),
    );
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (chunk: string) => {
      if (settled) return;
      stderr = (stderr + chunk).slice(-16_384);
      const match = DEVTOOLS_LINE.exec(stderr);
      if (!match?.[1] || child.pid === undefined) return;
      settled = true;
      clearTimeout(timer);
      const wsEndpoint = match[1];
      resolve({
        process: child,
        pid: child.pid,
        wsEndpoint,
        port: Number(new URL(wsEndpoint).port),
        kill,
      });
    });
    // Keep draining stderr after the endpoint is known: a full pipe would block Chromium.
    child.stderr?.resume();
  });
}
