// Finds and kills Chromium processes left behind by a server that died without cleaning up.
import { readFile, readdir, rm } from 'node:fs/promises';
import path from 'node:path';

/** Name of the pid file written inside each profile directory. */
export const PID_FILE = 'svc-browser.pid';

/** Arguments of a running process, or undefined when it is gone or unreadable. */
async function cmdlineOf(pid: number): Promise<string[] | undefined> {
  try {
    const raw = await readFile(`/proc/${pid}/cmdline`, 'utf8');
    return raw.split('\0').filter(Boolean);
  } catch {
    return undefined;
  }
}

/** True when the process `pid` runs with `--user-data-dir=` inside `root` (or equal to it). */
function usesProfileUnder(args: readonly string[], root: string): boolean {
  return args.some((a) => {
    if (!a.startsWith('--user-data-dir=')) return false;
    const dir = a.slice('--user-data-dir='.length);
    return dir === root || dir.startsWith(root + path.sep);
  });
}

function killQuietly(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // Already gone: nothing to reap.
  }
}

/** Pids of processes whose command line uses a profile directory under `root`. */
export async function processesUsing(root: string): Promise<number[]> {
  let entries: string[];
  try {
    entries = await readdir('/proc');
  } catch {
    return [];
  }
  const pids: number[] = [];
  for (const name of entries) {
    if (!/^\d+$/.test(name)) continue;
    const pid = Number(name);
    if (pid === process.pid) continue;
    const args = await cmdlineOf(pid);
    if (args && usesProfileUnder(args, root)) pids.push(pid);
  }
  return pids;
}

/**
 * Kills leftover browsers under `browsersDir` and removes their profile directories. A pid from a
 * pid file is killed only if that process still runs with that profile (pids get reused); then any
 * process still using a profile under `browsersDir` is killed as well (renderers, zygotes).
 * @returns the number of processes killed and directories removed
 */
export async function reapLeftovers(
  browsersDir: string,
): Promise<{ killed: number; removed: number }> {
  let dirs: string[];
  try {
    dirs = await readdir(browsersDir);
  } catch {
    return { killed: 0, removed: 0 };
  }
  let killed = 0;
  for (const name of dirs) {
    const profile = path.join(browsersDir, name);
    const pid = Number(
      (await readFile(path.join(profile, PID_FILE), 'utf8').catch(() => '')).trim(),
    );
    if (!Number.isInteger(pid) || pid <= 1) continue;
    const args = await cmdlineOf(pid);
    if (!args || !usesProfileUnder(args, profile)) continue;
    try {
      // The browser leads its process group (launched detached): take its children with it.
      process.kill(-pid, 'SIGKILL');
    } catch {
      killQuietly(pid);
    }
    killed++;
  }
  for (let round = 0; round < 20; round++) {
    const rest = await processesUsing(browsersDir);
    if (rest.length === 0) break;
    rest.forEach(killQuietly);
    killed += round === 0 ? rest.length : 0;
    await new Promise((r) => setTimeout(r, 50));
  }
  await Promise.all(
    dirs.map((name) =>
      rm(path.join(browsersDir, name), { recursive: true, force: true, maxRetries: 3 }),
    ),
  );
  return { killed, removed: dirs.length };
}
