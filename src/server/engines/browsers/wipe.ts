// The wipe of a recycled browser (recycle.ts), over the server's own CDP connection to it.
//
// What it clears: every target (tabs, their sessionStorage, back/forward state, workers) and
// every browser context a client made; in the default context, all cookies, the HTTP cache (and
// the V8 code cache kept in it), permissions and the download behaviour; and, for every origin
// the session was seen to use, every store a page's script can read back
// (`ORIGIN_STORAGE_TYPES`: localStorage, IndexedDB, Cache Storage, service worker registrations,
// file systems). The origins are the URLs of every target seen while the session ran
// (`Target.setDiscoverTargets`: pages, out-of-process iframes, workers, service workers), the
// domains of its cookies, the origins of every service worker registration, and those named by
// the profile's IndexedDB folders and its localStorage log. A fresh `about:blank` with a live
// renderer (not focused, like a pooled browser's first page) is then the only target.
//
// Why the default context is wiped rather than replaced: CDP clients use it (Puppeteer's
// `browser.newPage()`, Playwright's `contexts()[0]` and its `cookies()`), and Chromium can
// neither dispose of it nor start a new one. The contexts a client made are disposed of whole,
// which is complete for them: a CDP browser context is an in-memory profile, gone with
// everything in it.
//
// What the next session can still observe, because Chromium offers no complete enumeration of
// per-origin state over CDP: storage of an origin that never appeared in any of those places (a
// same-site iframe, which shares its parent's process and is no target, writing localStorage
// that is still only in memory); storage an iframe wrote under another top-level site
// (partitioned storage: the per-origin clear targets first-party keys); the HTTP authentication
// cache, open keep-alive sockets, DNS, HSTS and TLS session caches; visited-link history
// (`:visited`); the GPU shader cache, the Privacy Sandbox stores (interest groups, shared
// storage, attribution reporting, private aggregation) and EME media licenses, which
// `clearDataForOrigin`'s `all` would clear but which no page script reads back (shader cache:
// compile time at most; the others feed ad auctions and aggregated reports; shared storage and
// attribution reporting are not even exposed in this Chromium). The session ids, connect
// tokens, download folders, live views and recordings are new for every session whatever the
// browser.
//
// Cost, measured in one run against the previous wipe (a new page focused, a second WebSocket to
// it, `all` per origin, the profile read and the cookies listed before anything else; same
// browser, alternating, 30 each, load average 8.8 on 2 cores): p50 194 vs 270 ms.
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Browser } from './browser.js';
import { CdpConnection } from './files/cdp-connection.js';

/** Limits of a wipe. */
export const DEFAULTS = {
  /** A wipe that takes longer than this is abandoned and the browser killed. */
  wipeTimeoutMs: 5_000,
  /** How long the pages of the ended session may take to close before the wipe gives up. */
  closeTimeoutMs: 2_000,
} as const;

/**
 * Sends one command (on flat session `sessionId` when given); a failure names the command (the
 * browser's messages alone rarely do).
 */
export async function callNamed<T = Record<string, unknown>>(
  cdp: CdpConnection,
  method: string,
  params: object = {},
  sessionId?: string,
): Promise<T> {
  try {
    return await cdp.send<T>(method, params as Record<string, unknown>, sessionId);
  } catch (error) {
    throw new Error(`${method}: ${(error as Error).message}`, { cause: error });
  }
}

/** Adds the origin of an http(s) `url` to `origins`. */
export function addOrigin(origins: Set<string>, url: unknown): void {
  if (typeof url !== 'string' || !/^https?:/.test(url)) return;
  try {
    origins.add(new URL(url).origin);
  } catch {
    // not a URL: nothing to clear for it
  }
}

/**
 * Wipes a browser over a new CDP connection (see the file's header for what is cleared), leaving
 * one warm `about:blank` page.
 * @throws Error when a step fails or the wipe exceeds `DEFAULTS.wipeTimeoutMs`
 */
export async function wipe(browser: Browser, tracked: ReadonlySet<string>): Promise<void> {
  // Reading the profile is the slowest of the first steps, and only the clears need it.
  const onDisk = originsOnDisk(browser.profileDir);
  onDisk.catch(() => undefined);
  const cdp = await CdpConnection.open(browser.chromium.wsEndpoint);
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`wipe took over ${DEFAULTS.wipeTimeoutMs} ms`)),
      DEFAULTS.wipeTimeoutMs,
    );
  });
  try {
    await Promise.race([wipeOver(cdp, tracked, onDisk), timeout]);
  } finally {
    clearTimeout(timer);
    cdp.close();
  }
}

type TargetInfo = { targetId: string; type: string; url: string; browserContextId?: string };

/**
 * What `Storage.clearDataForOrigin` clears for each origin: every store a page's script can read
 * back. Not `all`, which also clears per origin what is cleared once for the whole browser here
 * (cookies) or holds nothing a page can read (the GPU shader cache, which `all` empties for the
 * whole profile once per origin) and the Privacy Sandbox stores; `all` made this step about 12x
 * slower (70 vs 5.5 ms p50 at load average 9 on 2 cores). See the file's header for the residue.
 */
export const ORIGIN_STORAGE_TYPES =
  'local_storage,indexeddb,cache_storage,service_workers,file_systems';

async function wipeOver(
  cdp: CdpConnection,
  tracked: ReadonlySet<string>,
  onDisk: Promise<Set<string>>,
): Promise<void> {
  const origins = new Set(tracked);
  const gone = new Set<string>();
  cdp.on('Target.targetDestroyed', (p) => gone.add(String(p.targetId)));
  // Independent steps run together: the user's next session may be waiting for this wipe. The
  // new page comes first in the browser's eyes (it keeps a window open) and becomes the session's.
  // `focus: false`: a pooled browser's first page is not focused either (`document.hasFocus()`
  // is false, `visibilityState` is visible in both), and focusing costs the browser about half
  // of the create (22 vs 49 ms p50 at load average 9).
  const cookies = callNamed<{ cookies: { domain: string; secure: boolean }[] }>(
    cdp,
    'Storage.getCookies',
  );
  cookies.catch(() => undefined);
  const [{ targetId: blank }, { targetInfos }, { browserContextIds }] = await Promise.all([
    callNamed<{ targetId: string }>(cdp, 'Target.createTarget', {
      url: 'about:blank',
      focus: false,
    }),
    callNamed<{ targetInfos: TargetInfo[] }>(cdp, 'Target.getTargets'),
    callNamed<{ browserContextIds: string[] }>(cdp, 'Target.getBrowserContexts'),
    callNamed(cdp, 'Target.setDiscoverTargets', { discover: true }),
  ]);
  for (const t of targetInfos) addOrigin(origins, t.url);
  const old = targetInfos.filter((t) => t.targetId !== blank && t.type === 'page');
  // Closing runs while the page link opens and the service workers stop.
  const closing = Promise.all([
    // A page of a disposed context may be gone first; `untilGone` checks every one.
    ...old.map((t) =>
      callNamed(cdp, 'Target.closeTarget', { targetId: t.targetId }).catch(() => undefined),
    ),
    ...browserContextIds.map((id) =>
      callNamed(cdp, 'Target.disposeBrowserContext', { browserContextId: id }),
    ),
  ]);
  closing.catch(() => undefined);
  // Page-level commands go over a flat session of the new page on the same connection (a second
  // WebSocket to the page's endpoint cost one more handshake in series).
  const { sessionId } = await callNamed<{ sessionId: string }>(cdp, 'Target.attachToTarget', {
    targetId: blank,
    flatten: true,
  });
  const registrations = new Set<string>();
  cdp.on('ServiceWorker.workerRegistrationUpdated', (p) => {
    for (const r of (p.registrations ?? []) as { scopeURL?: unknown }[])
      addOrigin(registrations, r.scopeURL);
  });
  await Promise.all([
    callNamed(cdp, 'ServiceWorker.enable', {}, sessionId),
    callNamed(cdp, 'ServiceWorker.stopAllWorkers', {}, sessionId),
    closing,
  ]);
  // A closing page may still run its unload handlers: clear only once no old page is left.
  await untilGone(cdp, old, gone);
  for (const origin of registrations) origins.add(origin);
  for (const c of (await cookies).cookies) {
    const host = c.domain.replace(/^\./, '');
    addOrigin(origins, `https://${host}`);
    if (!c.secure) addOrigin(origins, `http://${host}`);
  }
  for (const origin of await onDisk) origins.add(origin);
  await Promise.all([
    ...[...origins].map((origin) =>
      callNamed(
        cdp,
        'Storage.clearDataForOrigin',
        { origin, storageTypes: ORIGIN_STORAGE_TYPES },
        sessionId,
      ),
    ),
    callNamed(cdp, 'Storage.clearCookies'),
    callNamed(cdp, 'Network.clearBrowserCache', {}, sessionId),
    callNamed(cdp, 'Browser.resetPermissions'),
    callNamed(cdp, 'Browser.setDownloadBehavior', { behavior: 'default' }),
    // The session's first navigation then finds a running renderer.
    callNamed(cdp, 'Runtime.evaluate', { expression: '1' }, sessionId),
  ]);
  // Closing the connection (the caller) detaches the flat session.
}

/**
 * Resolves once every page of `old` is destroyed (seen in `gone`, or absent from the targets).
 * @throws Error when one is still there after `DEFAULTS.closeTimeoutMs`
 */
async function untilGone(
  cdp: CdpConnection,
  old: readonly TargetInfo[],
  gone: ReadonlySet<string>,
): Promise<void> {
  const deadline = Date.now() + DEFAULTS.closeTimeoutMs;
  for (;;) {
    if (old.every((t) => gone.has(t.targetId))) return;
    const { targetInfos } = await callNamed<{ targetInfos: TargetInfo[] }>(
      cdp,
      'Target.getTargets',
    );
    const left = old.filter((t) => targetInfos.some((i) => i.targetId === t.targetId));
    if (left.length === 0) return;
    if (Date.now() > deadline) throw new Error(`${left.length} page(s) survived the wipe`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/**
 * Origins named in the profile: IndexedDB folders (`http_127.0.0.1_8080.indexeddb.leveldb`) and
 * localStorage keys (`META:<origin>` in the LevelDB log, written as a page stores data).
 */
async function originsOnDisk(profileDir: string): Promise<Set<string>> {
  const origins = new Set<string>();
  const base = path.join(profileDir, 'Default');
  for (const name of await readdir(path.join(base, 'IndexedDB')).catch(() => [])) {
    const m = /^(https?)_(.+)_(\d+)\.indexeddb\.(?:leveldb|blob)$/.exec(name);
    if (m) addOrigin(origins, `${m[1]}://${m[2]}:${m[3]}`);
  }
  const leveldb = path.join(base, 'Local Storage', 'leveldb');
  for (const name of await readdir(leveldb).catch(() => [])) {
    if (!name.endsWith('.log') && !name.endsWith('.ldb')) continue;
    const text = await readFile(path.join(leveldb, name), 'latin1').catch(() => '');
    for (const m of text.matchAll(/META:(https?:\/\/[\w.:[\]-]+)/g)) addOrigin(origins, m[1]);
  }
  return origins;
}
