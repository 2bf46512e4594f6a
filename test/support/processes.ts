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

/** Pids of live (non-zombie) processes whose command line contains `needle` (a data dir). */
export function processesMentioning(needle: string): number[] {
  const pids: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    let cmdline: string;
    try {
      cmdline = readFileSync(`/proc/${name}/cmdline`, 'utf8');
    } catch {
      continue; // ended while we looked
    }
    if (cmdline.includes(needle) && alive(Number(name))) pids.push(Number(name));
  }
  return pids;
}
