// One launched Chromium with its private profile, and the rendering of session records.
import { randomUUID } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { launchChromium } from '../../../chromium.js';
import type { LaunchedChromium } from '../../../chromium.js';
import type { Logger } from '../../logger.js';
import { PID_FILE } from './reaper.js';
import type { SessionRow } from './store.js';
import type { BrowserSessionRecord } from './types.js';

/** Window size in CSS pixels. */
export type Viewport = { width: number; height: number };

/** A Chromium process owned by exactly one pool slot or session; `id` names its profile dir. */
export interface Browser {
  id: string;
  profileDir: string;
  chromium: LaunchedChromium;
  alive(): boolean;
}

/**
 * Launches Chromium with a fresh profile `<browsersDir>/<uuid>` and writes its pid file there, so a
 * later start can reap it if this server dies.
 * @throws the launch error (the profile dir is removed first)
 */
export async function launchBrowser(
  browsersDir: string,
  executablePath: string,
  viewport?: Viewport,
  userAgent?: string,
): Promise<Browser> {
  const id = randomUUID();
  const profileDir = path.join(browsersDir, id);
  await mkdir(profileDir, { recursive: true });
  let chromium: LaunchedChromium;
  try {
    chromium = await launchChromium({
      executablePath,
      userDataDir: profileDir,
      ...(viewport ? { viewport } : {}),
      ...(userAgent !== undefined ? { userAgent } : {}),
    });
    await writeFile(path.join(profileDir, PID_FILE), String(chromium.pid));
  } catch (error) {
    await rm(profileDir, { recursive: true, force: true, maxRetries: 3 });
    throw error;
  }
  const { process } = chromium;
  return {
    id,
    profileDir,
    chromium,
    alive: () => process.exitCode === null && process.signalCode === null,
  };
}

/** Kills the browser (its whole process group) and removes its profile. Never rejects. */
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
