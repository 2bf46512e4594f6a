// Chromium discovery and launch. A leaf module: node builtins only, so the client side, the
// server and the CLI can all use it.
import { execFile, spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { constants, createReadStream, createWriteStream, readFileSync, readdirSync } from 'node:fs';
import { access, mkdir, readFile, rename, rm, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { getPriority, setPriority, tmpdir } from 'node:os';
import path from 'node:path';
import type { Duplex } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createBrotliDecompress } from 'node:zlib';

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
 *
 * Flags chosen for the cost of a session's first navigation (measured on 2 busy cores, median of 5
 * launches, CPU summed over the browser's process tree; two `newPage` + `goto` of a loopback page
 * cost 560 CPU-ms before, 390 after, and the first load 203 ms before, 157 ms after):
 * - `--disable-field-trial-config`: no field-trial (A/B experiment) config is applied, so every
 *   launch runs the same feature set, and none of the experiments' start-up work. Risk: none for
 *   automation; features under trial stay at their defaults.
 * - `--disable-ipc-flooding-protection`: CDP clients send bursts of commands (one per frame, per
 *   target) that the renderer would otherwise throttle. Risk: a page spamming history or navigation
 *   APIs is not slowed down; that page only hurts its own session.
 * - `--disable-features=` also `PaintHolding` (first paint of a same-origin navigation is not held
 *   back, so load events and screenshots come sooner), `BackForwardCache` (a page navigated away from
 *   is torn down, not kept in memory with its renderer; automation never goes "back" expecting the
 *   cached page), `AcceptCHFrame` (no extra round trip to restart a navigation for client hints),
 *   `HttpsUpgrades` (an `http://` URL is fetched as given, not first tried over https: no extra
 *   connection attempt and no surprise for a test server on loopback), `DestroyProfileOnBrowserClose`,
 *   `DialMediaRouteProvider`, `GlobalMediaControls`, `LensOverlay` (browser UI services a headless
 *   automation browser never shows). Risk: a page relying on client hints sent before its first
 *   response sees them only from its second request.
 *
 * Weighed and left out: `--disable-site-isolation-trials` and `--renderer-process-limit=1` save
 * about 60 CPU-ms per new tab but put every site of a session in one renderer, so a hostile page
 * could read the memory of another site the agent is logged into (Spectre-class attacks);
 * `--in-process-gpu` saves a process but made the launch slower (559 vs 314 ms to ready);
 * `NetworkServiceInProcess` made both launch and first load slower. `--single-process` and
 * `--no-zygote` are unsupported configurations that crash on real pages.
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
  '--disable-field-trial-config',
  '--disable-ipc-flooding-protection',
  '--metrics-recording-only',
  '--password-store=basic',
  '--use-mock-keychain',
  '--disable-features=WebUIOmniboxPopup,WebUIOmniboxAimPopup,Translate,MediaRouter,OptimizationHints,PaintHolding,BackForwardCache,AcceptCHFrame,HttpsUpgrades,DestroyProfileOnBrowserClose,DialMediaRouteProvider,GlobalMediaControls,LensOverlay',
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
  /** Package that ships a Chromium binary. @default '@sparticuz/chromium' */
  packageName?: string;
  /**
   * Which to try first when `SVC_CHROME_SOURCE` is unset: `system` (a system Chromium, then the
   * package) or `package` (the package's headless shell, then a system Chromium). Browser sessions
   * use `package` ({@link findSessionChromium}); everything else `system`.
   * @default 'system'
   */
  prefer?: 'system' | 'package';
  /** Where the package's compressed binary is unpacked. @default `<tmpdir>/svc-toolkit-<uid>` */
  unpackDir?: string;
}

const cache = new Map<string, Promise<ChromiumLocation>>();

/**
 * Finds a Chromium: `SVC_CHROME_PATH`, then a system Chromium or Chrome (well-known paths, then
 * `PATH`), then the optional `@sparticuz/chromium` package. `prefer: 'package'` tries the package
 * before the system browsers, and `SVC_CHROME_SOURCE` overrides the order: `system` as above,
 * `package` the package only. The package's binary is a headless shell (Chromium's build without
 * the browser UI, what Playwright runs for headless too), which starts and renders its first page
 * about three times as fast as a full Chromium in headless mode (`bench/sessions.ts`), but is one
 * version behind a current system install and does not scroll to text-fragment links. It ships
 * compressed: the first use unpacks it (about 3 s, 190 MB) into `unpackDir`, atomically, so
 * processes starting at once neither collide nor run a half-written file. The answer is cached
 * per environment and options.
 * @throws ChromiumNotFoundError when none is found, `SVC_CHROME_PATH` names no executable file, or
 * `SVC_CHROME_SOURCE` is neither `system` nor `package` (or `package` with the package missing)
 * @example const { path } = await findChromium();
 */
export function findChromium(
  env: NodeJS.ProcessEnv = process.env,
  options: FindChromiumOptions = {},
): Promise<ChromiumLocation> {
  const settings: Required<FindChromiumOptions> = {
    systemPaths: options.systemPaths ?? SYSTEM_CHROMIUM_PATHS,
    packageName: options.packageName ?? DEFAULTS.packageName,
    prefer: options.prefer ?? 'system',
    unpackDir: options.unpackDir ?? path.join(tmpdir(), `svc-toolkit-${process.getuid?.() ?? 0}`),
  };
  const key = JSON.stringify([env.SVC_CHROME_PATH, env.SVC_CHROME_SOURCE, env.PATH, settings]);
  let found = cache.get(key);
  if (!found) {
    found = locate(env, settings);
    cache.set(key, found);
    // A failed lookup is not cached: the user may install Chromium and retry in the same process.
    found.catch(() => cache.delete(key));
  }
  return found;
}

/**
 * The Chromium browser sessions run (the embedded service's and the `local` provider's):
 * {@link findChromium} with the packaged headless shell first, since a cold browser is most of a
 * session's cost. `SVC_CHROME_SOURCE=system` puts a system Chromium first.
 */
export function findSessionChromium(
  env: NodeJS.ProcessEnv = process.env,
): Promise<ChromiumLocation> {
  return findChromium(env, { prefer: 'package' });
}

/** Forgets cached {@link findChromium} answers (after installing or removing a browser). */
export function clearChromiumCache(): void {
  cache.clear();
}

async function locate(
  env: NodeJS.ProcessEnv,
  settings: Required<FindChromiumOptions>,
): Promise<ChromiumLocation> {
  const { systemPaths, packageName } = settings;
  const fromEnv = env.SVC_CHROME_PATH?.trim();
  if (fromEnv) {
    const resolved = path.resolve(fromEnv);
    if (await isExecutable(resolved)) return { path: resolved, source: 'env' };
    // An explicit setting that is wrong must not silently fall back to another browser.
    throw new ChromiumNotFoundError(
      `SVC_CHROME_PATH is set to ${resolved}, which is not an executable file: point it at a Chromium or Chrome binary, or unset it to use a system Chromium`,
    );
  }
  const only = env.SVC_CHROME_SOURCE?.trim() || undefined;
  if (only !== undefined && only !== 'system' && only !== 'package')
    throw new ChromiumNotFoundError(
      `SVC_CHROME_SOURCE is set to "${only}": expected "system" (a system Chromium or Chrome, then the ${packageName} package) or "package" (the ${packageName} package only)`,
    );
  const fromPackage = async (): Promise<ChromiumLocation | undefined> => {
    const found = await packagedChromium(packageName, settings.unpackDir);
    return found ? { path: found, source: 'package' } : undefined;
  };
  if (only === 'package') {
    const found = await fromPackage();
    if (found) return found;
    // Asked for by name: no silent fallback to another browser.
    throw new ChromiumNotFoundError(
      `SVC_CHROME_SOURCE is "package" but the ${packageName} package gave no executable: \`npm install ${packageName}\`, or unset SVC_CHROME_SOURCE to use a system Chromium`,
    );
  }
  const packageFirst = only === undefined && settings.prefer === 'package';
  // Preferred, not asked for: a package that fails (no room to unpack, or a binary that cannot
  // start here: a library missing) yields to a system browser, and its error is the answer only
  // when there is none.
  let packageError: unknown;
  if (packageFirst) {
    try {
      const found = await fromPackage();
      if (found) {
        await startsHere(found.path);
        return found;
      }
    } catch (error) {
      packageError = error;
    }
  }
  const found =
    (await fromSystem(env, systemPaths)) ?? (packageFirst ? undefined : await fromPackage());
  if (found) return found;
  if (packageError) throw packageError;
  throw new ChromiumNotFoundError(
    `No Chromium found (looked at SVC_CHROME_PATH, ${systemPaths.join(', ')}, ${CHROMIUM_NAMES.join('/')} on PATH, and the ${packageName} package). ` +
      `Install one: \`apt-get install chromium\` (Debian/Ubuntu), or \`npm install ${packageName}\`, ` +
      'or set SVC_CHROME_PATH to a Chromium or Chrome executable.',
  );
}

/** Resolves when `executable --version` runs (about 35 ms): its shared libraries are all here. */
function startsHere(executable: string): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile(executable, ['--version'], { timeout: 10_000 }, (error, _stdout, stderr) => {
      if (!error) resolve();
      else
        reject(
          new ChromiumNotFoundError(
            `${executable} does not start here: ${stderr.trim() || error.message}`,
            { cause: error },
          ),
        );
    });
  });
}

async function fromSystem(
  env: NodeJS.ProcessEnv,
  systemPaths: readonly string[],
): Promise<ChromiumLocation | undefined> {
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
  return undefined;
}

/**
 * The package's executable: its `bin/chromium.br` unpacked by us when it has one (the package's
 * own `executablePath()` unpacks to a fixed `/tmp/chromium` that a second process may run
 * half-written), else whatever its `executablePath()` answers.
 */
async function packagedChromium(
  packageName: string,
  unpackDir: string,
): Promise<string | undefined> {
  const archive = await compressedBinaryOf(packageName);
  if (archive) return unpack(archive, unpackDir);
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

/** `bin/chromium.br` of the installed package and its version, when it has one. */
async function compressedBinaryOf(
  packageName: string,
): Promise<{ file: string; version: string } | undefined> {
  let dir: string;
  try {
    dir = path.dirname(createRequire(import.meta.url).resolve(packageName));
  } catch {
    return undefined; // not installed, or not a package name (a module URL)
  }
  for (;;) {
    const manifest = await readFile(path.join(dir, 'package.json'), 'utf8').catch(() => undefined);
    const parsed = manifest ? (JSON.parse(manifest) as { name?: string; version?: string }) : {};
    if (parsed.name === packageName) {
      const file = path.join(dir, 'bin', 'chromium.br');
      const found = await stat(file).catch(() => undefined);
      return found?.isFile() ? { file, version: parsed.version ?? 'unknown' } : undefined;
    }
    const up = path.dirname(dir);
    if (up === dir) return undefined;
    dir = up;
  }
}

/**
 * Unpacks `archive` to `<unpackDir>/chromium-<version>` unless it is there: into a private
 * temporary name first, then renamed, so a concurrent start sees no file or a whole one.
 */
async function unpack(
  archive: { file: string; version: string },
  unpackDir: string,
): Promise<string> {
  const target = path.join(unpackDir, `chromium-${archive.version}`);
  if (await isExecutable(target)) return target;
  await mkdir(unpackDir, { recursive: true, mode: 0o700 });
  // A directory another user made in a shared temp dir could hold a binary of their choosing.
  const owner = (await stat(unpackDir)).uid;
  if (process.getuid && owner !== process.getuid())
    throw new ChromiumNotFoundError(
      `${unpackDir} belongs to another user (uid ${owner}): remove it, or set SVC_CHROME_PATH`,
    );
  const partial = `${target}.${randomUUID()}.partial`;
  try {
    await pipeline(
      createReadStream(archive.file),
      createBrotliDecompress(),
      createWriteStream(partial, { mode: 0o755 }),
    );
    // Another process may have finished first: keep its file, which a browser may be running.
    if (await isExecutable(target)) await rm(partial, { force: true });
    else await rename(partial, target);
  } catch (error) {
    await rm(partial, { force: true });
    throw new ChromiumNotFoundError(
      `Unpacking ${archive.file} failed: ${(error as Error).message}`,
      {
        cause: error,
      },
    );
  }
  return target;
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
  /**
   * Nice value of the browser from its first instruction: its threads, zygotes and renderers
   * inherit it, except the threads Chromium gives a priority of its own (as root it runs its
   * display-critical threads at -8, background ones at 10). A pre-launched browser runs at 15 so
   * that it never takes CPU from a session being served; {@link LaunchedChromium.renice} brings
   * it back to 0 when it gets a session.
   * @default 0
   */
  niceness?: number;
  /** Called with the browser's pid as soon as it is spawned, before it is ready. */
  onSpawn?: ((pid: number) => void) | undefined;
}

/** A running Chromium started by {@link launchChromium}. */
export interface LaunchedChromium {
  process: ChildProcess;
  pid: number;
  /** `ws://127.0.0.1:PORT/devtools/browser/<id>`. */
  wsEndpoint: string;
  port: number;
  /**
   * What ends this browser when our process dies: `pipe` (the `--remote-debugging-pipe` lifeline
   * closes) and, on Linux with util-linux `setpriv`, `pdeathsig` (the kernel sends it SIGKILL).
   */
  lifeline: readonly ('pipe' | 'pdeathsig')[];
  /**
   * Kills the browser and its child processes (SIGKILL to its process group); resolves on exit.
   * A browser that ended by itself has had its group killed already, when it exited.
   */
  kill(): Promise<void>;
  /**
   * Sets to `to` the nice value of every thread of the browser and of its child processes whose
   * nice value is `from` (the launch's `niceness`), leaving the priorities Chromium chose itself.
   * @returns false when a thread could not be changed (lowering a nice value needs `CAP_SYS_NICE`
   * or a matching `RLIMIT_NICE`)
   */
  renice(from: number, to: number): boolean;
}

const DEVTOOLS_LINE = /DevTools listening on (ws:\/\/[^\s]+)/;

/** Where util-linux `setpriv` may live; it must support `--pdeathsig` (util-linux 2.33+). */
const SETPRIV_PATHS = ['/usr/bin/setpriv', '/bin/setpriv'];
let setprivFound: Promise<string | undefined> | undefined;

/** The `setpriv` that can set a parent-death signal, checked once per process. */
function findSetpriv(): Promise<string | undefined> {
  setprivFound ??= (async () => {
    if (process.platform !== 'linux') return undefined;
    for (const candidate of SETPRIV_PATHS) {
      if (!(await isExecutable(candidate))) continue;
      const works = await new Promise<boolean>((resolve) =>
        execFile(candidate, ['--pdeathsig', 'KILL', '--', 'true'], (error) => resolve(!error)),
      );
      if (works) return candidate;
    }
    return undefined;
  })();
  return setprivFound;
}

/**
 * True when this process may lower a nice value back to 0 (`CAP_SYS_NICE`, or `RLIMIT_NICE` of 20
 * or more): only then may a browser start niced, since it must run at full priority once it serves.
 */
export function canRestorePriority(): boolean {
  if (process.platform !== 'linux') return false;
  try {
    const capEff = /^CapEff:\s+([0-9a-f]+)/m.exec(readFileSync('/proc/self/status', 'utf8'))?.[1];
    const CAP_SYS_NICE = 23n;
    if (capEff !== undefined && ((BigInt(`0x${capEff}`) >> CAP_SYS_NICE) & 1n) === 1n) return true;
    const limit = /^Max nice priority\s+(\d+)/m.exec(
      readFileSync('/proc/self/limits', 'utf8'),
    )?.[1];
    return limit !== undefined && Number(limit) >= 20;
  } catch {
    return false;
  }
}

/** Thread ids of `pid` and of all its descendants, read from `/proc/<pid>/task/<tid>/children`. */
/**
 * Sets to `to` the nice value of every thread of process `pid` and of its descendants whose nice
 * value is `from` (see {@link LaunchedChromium.renice}); usable before the launch resolves, with
 * the pid from `LaunchChromiumOptions.onSpawn`.
 * @returns false when a thread could not be changed (not permitted)
 */
export function reniceTree(pid: number, from: number, to: number): boolean {
  let ok = true;
  for (const tid of threadsOfTree(pid)) {
    try {
      if (getPriority(tid) === from) setPriority(tid, to);
    } catch (error) {
      // ESRCH: the thread ended meanwhile, which is fine.
      if ((error as { code?: string }).code !== 'ESRCH') ok = false;
    }
  }
  return ok;
}

function threadsOfTree(pid: number): number[] {
  const tids: number[] = [];
  const queue = [pid];
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
    let tasks: string[];
    try {
      tasks = readdirSync(`/proc/${next}/task`);
    } catch {
      continue; // ended while we looked
    }
    for (const tid of tasks) {
      tids.push(Number(tid));
      try {
        const children = readFileSync(`/proc/${next}/task/${tid}/children`, 'utf8').trim();
        if (children) queue.push(...children.split(' ').map(Number));
      } catch {
        // thread ended while we looked
      }
    }
  }
  return tids;
}

/**
 * Launches Chromium with `--remote-debugging-port=0` in its own process group and resolves once it
 * prints its DevTools endpoint.
 *
 * The browser's life is bound to this process, so that no crash of ours (SIGKILL and OOM kill
 * included) can leave it running: it gets `--remote-debugging-pipe` on fds 3 and 4, whose other
 * ends only this process holds; Chromium shuts down when that pipe closes, which the kernel does
 * when we die (measured: the whole process tree is gone about 0.5 s later). On Linux it is also
 * started through util-linux `setpriv --pdeathsig KILL`, so the kernel kills it the moment the
 * thread that launched it exits (its zygotes and renderers follow within about 0.1 s, when their
 * IPC channel to it breaks). The pipe carries no traffic: CDP clients use the WebSocket port, which
 * Chromium serves next to the pipe.
 * @throws Error when the process exits early, fails to spawn, or the timeout passes (the process is killed)
 * @example const chromium = await launchChromium({ executablePath, userDataDir }); await chromium.kill();
 */
export async function launchChromium(options: LaunchChromiumOptions): Promise<LaunchedChromium> {
  const args = [
    ...(options.args ?? CHROMIUM_ARGS),
    `--user-data-dir=${options.userDataDir}`,
    '--remote-debugging-port=0',
    '--remote-debugging-pipe',
  ];
  if (options.viewport)
    args.push(`--window-size=${options.viewport.width},${options.viewport.height}`);
  if (options.userAgent !== undefined) args.push(`--user-agent=${options.userAgent}`);
  args.push('about:blank');
  const timeout = options.timeout ?? DEFAULTS.launchTimeoutMs;
  const setpriv = await findSetpriv();
  const lifeline: ('pipe' | 'pdeathsig')[] = setpriv ? ['pipe', 'pdeathsig'] : ['pipe'];

  // detached: Chromium leads its own process group, so one signal reaches its zygotes and renderers.
  // setpriv execs the browser in place: same pid, same process group.
  const child = setpriv
    ? spawn(setpriv, ['--pdeathsig', 'KILL', '--', options.executablePath, ...args], {
        detached: true,
        stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'],
      })
    : spawn(options.executablePath, args, {
        detached: true,
        stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'],
      });
  // However the browser ends (killed from outside, crashed, closed), its process group goes with
  // it at once: its zygotes and renderers would otherwise linger until they notice (about 0.1 s
  // idle, seconds on a busy machine). The group id stays taken while any member lives.
  child.once('exit', () => {
    if (child.pid === undefined) return;
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      // ESRCH: nothing of the group is left.
    }
  });
  if (options.niceness !== undefined && options.niceness !== 0 && child.pid !== undefined) {
    try {
      // Before the browser starts its threads and zygotes, which all inherit the value.
      setPriority(child.pid, options.niceness);
    } catch {
      // Not permitted here: the browser runs at normal priority.
    }
  }
  // The lifeline: never written to, never closed by us; a write error after the browser exited
  // must not become an uncaught exception.
  for (const fd of [3, 4]) {
    const stream = child.stdio[fd] as Duplex | null | undefined;
    stream?.on('error', () => undefined);
    stream?.resume();
  }
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
  const renice = (from: number, to: number): boolean =>
    child.pid !== undefined && reniceTree(child.pid, from, to);
  if (child.pid !== undefined) options.onSpawn?.(child.pid);

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
        lifeline,
        kill,
        renice,
      });
    });
    // Keep draining stderr after the endpoint is known: a full pipe would block Chromium.
    child.stderr?.resume();
  });
}
