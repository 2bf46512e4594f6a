// The two moments a session meets its saved context and its files: when its browser starts (the
// server's own CDP link: downloads routed, cookies set) and when it ends (state saved).
import type { Logger } from '../../logger.js';
import { removeProfile } from './browser.js';
import type { Browser } from './browser.js';
import { readProfile, settableCookies } from './contexts-archive.js';
import type { CdpCookie } from './contexts-archive.js';
import type { ContextLease } from './contexts.js';
import { CdpConnection } from './files/cdp-connection.js';
import { SessionFiles } from './files/session-files.js';

/** Timing of a context save. */
export const CONTEXT_SAVE_DEFAULTS = {
  /** How long a browser may take to shut down cleanly before its profile is read (then killed). */
  graceMs: 5_000,
} as const;

/**
 * Opens the server's CDP connection to a new session's browser: downloads go to the session's
 * folder under `filesRoot`, and the saved context's cookies are set (session cookies included:
 * Chromium never writes them to disk, so the profile alone would lose them).
 * @throws the CDP error when the browser does not answer (the connection is closed first)
 */
export async function linkSession(
  browser: Browser,
  filesRoot: string,
  lease: ContextLease | undefined,
): Promise<{ cdp: CdpConnection; files: SessionFiles }> {
  const files = new SessionFiles(filesRoot, browser.id);
  const cdp = await CdpConnection.open(browser.chromium.wsEndpoint);
  // The link closing unasked is the first sign of a browser ended elsewhere (a Grid node lost).
  cdp.onClose(() => browser.chromium.probe?.());
  try {
    // On a Grid the browser's disk is its node's: downloads cannot be routed into our folder.
    if (browser.backend === 'local') await files.watch(cdp);
    const cookies = lease?.state?.cookies ?? [];
    if (cookies.length > 0)
      await cdp.send('Storage.setCookies', { cookies: settableCookies(cookies) });
  } catch (error) {
    cdp.close();
    throw error;
  }
  if (lease) lease.sessionId = browser.id;
  return { cdp, files };
}

/**
 * Saves a session's context and disposes of its browser: cookies over CDP, then a clean
 * shutdown (`Browser.close`) so Chromium flushes localStorage and IndexedDB into the profile,
 * which is then read and sealed. A browser that does not answer is killed and the context keeps
 * its previous state. Never rejects.
 */
export async function saveContextAndDispose(
  browser: Browser,
  cdp: CdpConnection | undefined,
  lease: ContextLease,
  logger: Logger,
): Promise<void> {
  let cookies: CdpCookie[] | undefined;
  try {
    if (!cdp) throw new Error('no CDP connection to the browser');
    cookies = (await cdp.send<{ cookies: CdpCookie[] }>('Storage.getCookies')).cookies;
    // A Grid browser's profile is on its node: there is nothing here to flush and read.
    if (browser.backend === 'local') await shutDownCleanly(browser, cdp);
  } catch (error) {
    logger.warn('browser context not saved: the browser did not answer', {
      sessionId: browser.id,
      contextId: lease.contextId,
      error: (error as Error).message,
    });
  }
  cdp?.close();
  await browser.chromium.kill();
  try {
    // On a Grid only cookies travel; the context keeps the profile files a local session saved.
    const files =
      browser.backend === 'grid'
        ? (lease.state?.files ?? [])
        : await readProfile(browser.profileDir);
    if (cookies) await lease.saveAndRelease({ cookies, files });
  } catch (error) {
    logger.error('browser context not saved: its profile could not be read', {
      sessionId: browser.id,
      contextId: lease.contextId,
      error: (error as Error).message,
    });
  } finally {
    lease.release();
  }
  await removeProfile(browser, logger);
}

/** `Browser.close`, so Chromium flushes localStorage and IndexedDB into the profile. */
async function shutDownCleanly(browser: Browser, cdp: CdpConnection): Promise<void> {
  const exited = new Promise<void>((resolve) => {
    if (!browser.alive()) resolve();
    else browser.chromium.process.once('exit', () => resolve());
  });
  // The browser closes the socket as it exits: no answer to wait for.
  await cdp.send('Browser.close').catch(() => undefined);
  await Promise.race([exited, delay(CONTEXT_SAVE_DEFAULTS.graceMs)]);
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
