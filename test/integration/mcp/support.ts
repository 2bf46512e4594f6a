// Shared setup of the MCP tests: a data dir indexed from the web fixture corpus, a loopback
// fixture site, and what the embedded service recorded about its browser sessions.
import { rmSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { expect } from 'vitest';
import { startFixtureServer } from '../../support/fixture-server.js';
import type { FixtureServer } from '../../support/fixture-server.js';
import { fixture, runCli, tempDataDir } from '../cli/run-cli.js';

// Child processes running the embedded service and Chromium on a shared 2-core machine: bounds
// well above a quiet run, so a busy machine slows these tests rather than failing them.
export const SLOW = 180_000;

/** A data dir with the web corpus indexed, and the fixture site. */
export interface McpFixture {
  dataDir: string;
  site: FixtureServer;
  close(): Promise<void>;
}

/** Indexes the web corpus into a fresh data dir and starts the fixture site. */
export async function setUp(): Promise<McpFixture> {
  const dataDir = tempDataDir();
  const [index, site] = await Promise.all([
    runCli(['index', fixture('corpus', 'web')], dataDir, {}, SLOW - 10_000),
    startFixtureServer(),
  ]);
  expect(index.code, index.stderr).toBe(0);
  return {
    dataDir,
    site,
    async close() {
      await site.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** How the embedded service over `dataDir` recorded the end of each session in `ids`. */
export function sessionEnds(
  dataDir: string,
  ids: readonly string[],
): { id: string; status: string; end_reason: string | null }[] {
  const db = new Database(path.join(dataDir, 'svc.db'), { readonly: true, fileMustExist: true });
  try {
    const rows = db.prepare('SELECT id, status, end_reason FROM bs_sessions').all() as {
      id: string;
      status: string;
      end_reason: string | null;
    }[];
    return rows.filter((r) => ids.includes(r.id));
  } finally {
    db.close();
  }
}
