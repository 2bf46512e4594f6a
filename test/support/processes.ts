import { readdirSync, readFileSync } from 'node:fs';

/** State letter of process `pid` from /proc (`Z` = zombie), or undefined when it is gone. */
function stateOf(pid: number | string): string | undefined {
  try {
    return /^State:\s+(\w)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  } catch {
    return undefined; // ended while we looked
  }
}

/** True while process `pid` exists and is not a zombie (zombies hold nothing but a pid). */
export function alive(pid: number): boolean {
  const state = stateOf(pid);
  return state !== undefined && state !== 'Z';
}

/** Parent pid of `pid` (field 4 of `/proc/<pid>/stat`), or undefined when it is gone. */
function parentOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return undefined; // ended while we looked
  }
}

/**
 * Pids of live (non-zombie) processes whose command line contains `needle` (a data dir), and of
 * their descendants: a headless shell's helper processes (zygotes, renderers, the network
 * service) do not repeat the browser's `--user-data-dir`, so they are found by ancestry.
 */
export function processesMentioning(needle: string): number[] {
  const parents = new Map<number, number | undefined>();
  const mentioning = new Set<number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    let cmdline: string;
    try {
      cmdline = readFileSync(`/proc/${name}/cmdline`, 'utf8');
    } catch {
      continue; // ended while we looked
    }
    const pid = Number(name);
    parents.set(pid, parentOf(pid));
    if (cmdline.includes(needle)) mentioning.add(pid);
  }
  const underMentioning = (pid: number): boolean => {
    for (let at: number | undefined = pid; at !== undefined && at > 1; at = parents.get(at)) {
      if (mentioning.has(at)) return true;
    }
    return false;
  };
  return [...parents.keys()].filter((pid) => underMentioning(pid) && alive(pid));
}
