// The Grid sessions this server opened and has not yet deleted, one small file each under
// `<dataDir>/grid-sessions/`: what lets the next start delete the sessions of a server that died
// (a Grid slot is never left held until the Grid's own inactivity timeout).
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** One open Grid session as recorded. */
export interface GridLedgerEntry {
  /** Our browser id (the session id of the API). */
  browserId: string;
  /** The WebDriver session id on the Grid. */
  sessionId: string;
  /** The Grid it lives on, without credentials. */
  grid: string;
  /** Ms since the epoch. */
  createdAt: number;
}

/** The ledger of one data dir. */
export class GridLedger {
  constructor(readonly dir: string) {}

  /** Records an open session (write then rename: a crash never leaves a torn entry). */
  async add(entry: GridLedgerEntry): Promise<void> {
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    const file = this.file(entry.browserId);
    const tmp = `${file}.${process.pid}.tmp`;
    await writeFile(tmp, JSON.stringify(entry), { mode: 0o600 });
    await rename(tmp, file);
  }

  /** Forgets a session once the Grid confirmed its deletion. */
  async remove(browserId: string): Promise<void> {
    await rm(this.file(browserId), { force: true });
  }

  /** Every recorded session; unreadable entries are removed (they name nothing we could delete). */
  async list(): Promise<GridLedgerEntry[]> {
    let names: string[];
    try {
      names = await readdir(this.dir);
    } catch {
      return [];
    }
    const entries: GridLedgerEntry[] = [];
    for (const name of names) {
      const file = path.join(this.dir, name);
      if (!name.endsWith('.json')) {
        await rm(file, { force: true });
        continue;
      }
      try {
        const entry = JSON.parse(await readFile(file, 'utf8')) as GridLedgerEntry;
        if (typeof entry.sessionId === 'string' && typeof entry.grid === 'string')
          entries.push(entry);
        else await rm(file, { force: true });
      } catch {
        await rm(file, { force: true });
      }
    }
    return entries;
  }

  private file(browserId: string): string {
    // Browser ids come from randomUUID; never a user path.
    return path.join(this.dir, `${browserId}.json`);
  }
}
