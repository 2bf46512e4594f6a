import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { spawnSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import {
  CHROMIUM_ARGS,
  ChromiumNotFoundError,
  DEFAULTS,
  clearChromiumCache,
  findChromium,
  launchChromium,
} from '../../src/chromium.js';
import { waitFor } from '../support/wait.js';

const root = mkdtempSync(path.join(os.tmpdir(), 'svc-chromium-unit-'));
let n = 0;

/** A fresh directory holding one executable shell script `name`. */
function script(body: string, name = 'chromium'): string {
  const dir = path.join(root, String(n++));
  mkdirSync(dir);
  const file = path.join(dir, name);
  writeFileSync(file, `#!/bin/sh\n${body}\n`);
  chmodSync(file, 0o755);
  return file;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return !/^State:\s+Z/m.test(readFileSync(`/proc/${pid}/status`, 'utf8'));
  } catch {
    return false;
  }
}

const none = { systemPaths: [], packageName: 'svc-no-such-package-for-tests' };

/** A stand-in for the package: a module whose `executablePath()` answers `exe`; its import URL. */
function fakePackage(name: string, exe: string): string {
  const file = path.join(root, `${name}.mjs`);
  writeFileSync(
    file,
    `export default { async executablePath() { return ${JSON.stringify(exe)}; } };\n`,
  );
  return pathToFileURL(file).href;
}

beforeEach(() => clearChromiumCache());
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('findChromium', () => {
  it('uses SVC_CHROME_PATH first, before any system browser', async () => {
    const exe = script('exit 0');
    const other = script('exit 0');
    await expect(
      findChromium({ SVC_CHROME_PATH: exe, PATH: '' }, { systemPaths: [other] }),
    ).resolves.toEqual({ path: exe, source: 'env' });
  });

  it('refuses an SVC_CHROME_PATH that is not an executable file instead of falling back', async () => {
    const other = script('exit 0');
    const error = await findChromium(
      { SVC_CHROME_PATH: path.join(root, 'missing') },
      { systemPaths: [other] },
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ChromiumNotFoundError);
    expect((error as ChromiumNotFoundError).code).toBe('chromium_not_found');
    expect((error as Error).message).toMatch(
      /SVC_CHROME_PATH is set to .*missing, which is not an executable file/,
    );
  });

  it('takes the first executable system path, skipping files that are not executable', async () => {
    const notExecutable = script('exit 0');
    chmodSync(notExecutable, 0o644);
    const exe = script('exit 0');
    await expect(
      findChromium({ PATH: '' }, { systemPaths: [notExecutable, exe] }),
    ).resolves.toEqual({
      path: exe,
      source: 'system',
    });
  });

  it('looks chromium, chrome and google-chrome up on PATH', async () => {
    const exe = script('exit 0', 'google-chrome');
    const dir = path.dirname(exe);
    await expect(
      findChromium({ PATH: `/nonexistent${path.delimiter}${dir}` }, none),
    ).resolves.toEqual({
      path: exe,
      source: 'system',
    });
  });

  it('falls back to the package, calling its executablePath()', async () => {
    const exe = script('exit 0');
    await expect(
      findChromium(
        { PATH: '' },
        { systemPaths: [], packageName: fakePackage('fake-sparticuz', exe) },
      ),
    ).resolves.toEqual({ path: exe, source: 'package' });
  });

  it('takes the package before any system browser with SVC_CHROME_SOURCE=package, and never falls back', async () => {
    const exe = script('exit 0');
    const system = script('exit 0');
    const packageName = fakePackage('fake-sparticuz-first', exe);
    await expect(
      findChromium(
        { PATH: '', SVC_CHROME_SOURCE: 'package' },
        { systemPaths: [system], packageName },
      ),
    ).resolves.toEqual({ path: exe, source: 'package' });
    await expect(
      findChromium(
        { PATH: '', SVC_CHROME_SOURCE: 'system' },
        { systemPaths: [system], packageName },
      ),
    ).resolves.toEqual({ path: system, source: 'system' });
    const missing = await findChromium(
      { PATH: '', SVC_CHROME_SOURCE: 'package' },
      { ...none, systemPaths: [system] },
    ).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(ChromiumNotFoundError);
    expect((missing as Error).message).toContain(`npm install ${none.packageName}`);
    const wrong = await findChromium(
      { PATH: '', SVC_CHROME_SOURCE: 'bundled' },
      { systemPaths: [system] },
    ).catch((e: unknown) => e);
    expect(wrong).toBeInstanceOf(ChromiumNotFoundError);
    expect((wrong as Error).message).toMatch(
      /SVC_CHROME_SOURCE is set to "bundled": expected "system" .* or "package"/,
    );
  });

  it("tries the package first with prefer: 'package', then a system browser; SVC_CHROME_SOURCE=system overrides it", async () => {
    const exe = script('exit 0');
    const system = script('exit 0');
    const packageName = fakePackage('fake-sparticuz-preferred', exe);
    const prefer = 'package' as const;
    await expect(
      findChromium({ PATH: '' }, { systemPaths: [system], packageName, prefer }),
    ).resolves.toEqual({ path: exe, source: 'package' });
    await expect(
      findChromium({ PATH: '' }, { ...none, systemPaths: [system], prefer }),
    ).resolves.toEqual({ path: system, source: 'system' });
    await expect(
      findChromium(
        { PATH: '', SVC_CHROME_SOURCE: 'system' },
        { systemPaths: [system], packageName, prefer },
      ),
    ).resolves.toEqual({ path: system, source: 'system' });
    // A package that fails yields to a system browser, and is the error when there is none.
    const file = path.join(root, 'failing-sparticuz.mjs');
    writeFileSync(
      file,
      "export default { async executablePath() { throw new Error('no room to unpack'); } };\n",
    );
    const failing = pathToFileURL(file).href;
    await expect(
      findChromium({ PATH: '' }, { systemPaths: [system], packageName: failing, prefer }),
    ).resolves.toEqual({ path: system, source: 'system' });
    await expect(
      findChromium({ PATH: '' }, { systemPaths: [], packageName: failing, prefer }),
    ).rejects.toThrow('no room to unpack');
    // So does a binary that cannot start here (a shared library missing).
    const broken = fakePackage(
      'broken-sparticuz',
      script('echo "error while loading shared libraries: libnss3.so" >&2; exit 127'),
    );
    await expect(
      findChromium({ PATH: '' }, { systemPaths: [system], packageName: broken, prefer }),
    ).resolves.toEqual({ path: system, source: 'system' });
    await expect(
      findChromium({ PATH: '' }, { systemPaths: [], packageName: broken, prefer }),
    ).rejects.toThrow(/does not start here: error while loading shared libraries: libnss3\.so/);
  });

  it('unpacks the installed package binary once, whole, even when processes start at once', async () => {
    const unpackDir = path.join(root, 'unpacked');
    const options = { systemPaths: [], prefer: 'package' as const, unpackDir };
    // Three lookups that share no cache entry (PATH differs) race to unpack the same binary.
    const found = await Promise.all(
      ['', '/nonexistent-a', '/nonexistent-b'].map((PATH) => findChromium({ PATH }, options)),
    );
    const { version } = JSON.parse(
      readFileSync(path.join('node_modules', DEFAULTS.packageName, 'package.json'), 'utf8'),
    ) as { version: string };
    const binary = path.join(unpackDir, `chromium-${version}`);
    expect(found).toEqual(Array(3).fill({ path: binary, source: 'package' }));
    expect(readdirSync(unpackDir)).toEqual([`chromium-${version}`]);
    const run = spawnSync(binary, ['--version'], { encoding: 'utf8' });
    expect(run.stdout).toMatch(new RegExp(`Chromium ${version.split('.')[0]}\\.`));
  }, 60_000);

  it('says exactly what to install when nothing is found', async () => {
    // The real package may be installed here, so a stand-in name plays its part.
    const error = await findChromium({ PATH: '' }, none).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ChromiumNotFoundError);
    const message = (error as Error).message;
    expect(DEFAULTS.packageName).toBe('@sparticuz/chromium');
    expect(message).toContain('apt-get install chromium');
    expect(message).toContain(`npm install ${none.packageName}`);
    expect(message).toContain('set SVC_CHROME_PATH');
  });

  it('caches a found browser until the cache is cleared, but not a failure', async () => {
    const exe = script('exit 0');
    const env = { PATH: path.dirname(exe) };
    await expect(findChromium(env, none)).resolves.toMatchObject({ path: exe });
    unlinkSync(exe);
    await expect(findChromium(env, none)).resolves.toMatchObject({ path: exe });
    clearChromiumCache();
    await expect(findChromium(env, none)).rejects.toBeInstanceOf(ChromiumNotFoundError);
    writeFileSync(exe, '#!/bin/sh\n');
    chmodSync(exe, 0o755);
    await expect(findChromium(env, none)).resolves.toMatchObject({ path: exe });
  });
});

describe('launchChromium', () => {
  it('passes the offline flags, a debugging port of 0, the profile, viewport and user agent', async () => {
    const argsFile = path.join(root, 'args.txt');
    const exe = script(
      `printf '%s\\n' "$@" > ${argsFile}\necho 'noise' >&2\necho 'DevTools listening on ws://127.0.0.1:45678/devtools/browser/abc' >&2\nexec sleep 30`,
    );
    const launched = await launchChromium({
      executablePath: exe,
      userDataDir: path.join(root, 'profile'),
      viewport: { width: 1280, height: 720 },
      userAgent: 'agent/1 (test)',
    });
    expect(launched.wsEndpoint).toBe('ws://127.0.0.1:45678/devtools/browser/abc');
    expect(launched.port).toBe(45678);
    const args = readFileSync(argsFile, 'utf8').trim().split('\n');
    expect(args).toEqual(
      expect.arrayContaining([
        ...CHROMIUM_ARGS,
        '--remote-debugging-port=0',
        '--remote-debugging-address=127.0.0.1',
        `--user-data-dir=${path.join(root, 'profile')}`,
        '--window-size=1280,720',
        '--user-agent=agent/1 (test)',
      ]),
    );
    expect(alive(launched.pid)).toBe(true);
    await launched.kill();
    expect(alive(launched.pid)).toBe(false);
  });

  it('kills the process and rejects when no endpoint appears before the timeout', async () => {
    const pidFile = path.join(root, 'slow.pid');
    const exe = script(`echo $$ > ${pidFile}\nexec sleep 30`);
    const started = Date.now();
    await expect(
      launchChromium({ executablePath: exe, userDataDir: path.join(root, 'p2'), timeout: 300 }),
    ).rejects.toThrow(/did not print its DevTools endpoint within 300 ms/);
    expect(Date.now() - started).toBeLessThan(3000);
    expect(alive(Number(readFileSync(pidFile, 'utf8')))).toBe(false);
  });

  it('takes the process group with it when the browser is killed from outside', async () => {
    const helperPidFile = path.join(root, 'helper.pid');
    // A helper in the browser's process group that would outlive it, as a busy renderer can.
    const exe = script(
      `sleep 30 &\necho $! > ${helperPidFile}\necho 'DevTools listening on ws://127.0.0.1:45679/devtools/browser/x' >&2\nexec sleep 30`,
    );
    const launched = await launchChromium({
      executablePath: exe,
      userDataDir: path.join(root, 'p4'),
    });
    const helper = Number(readFileSync(helperPidFile, 'utf8'));
    expect(alive(helper)).toBe(true);
    const exited = new Promise((resolve) => launched.process.once('exit', resolve));
    process.kill(launched.pid, 'SIGKILL');
    await exited;
    expect(await waitFor(() => !alive(helper), 2_000)).toBe(true);
  });

  it('rejects with the exit status and the last stderr lines when the browser exits early', async () => {
    const exe = script(`echo 'error while loading shared libraries: libnss3.so' >&2\nexit 3`);
    await expect(
      launchChromium({ executablePath: exe, userDataDir: path.join(root, 'p3') }),
    ).rejects.toThrow(/exited before it was ready \(code 3[\s\S]*libnss3\.so/);
  });
});
