// What attaching a driver to a CDP endpoint yields, the same shape for Playwright and Puppeteer.
import type { DriverName, DriverTypes, Viewport } from '../types.js';
import { withTimeout } from '../timeout.js';

/** Options of an attach. Durations in ms. */
export interface AttachOptions {
  wsEndpoint: string;
  headers: Record<string, string>;
  /** Work in a new browser context (a browser we did not create) rather than the default one. */
  isolate: boolean;
  viewport?: Viewport | undefined;
  userAgent?: string | undefined;
  /** Time for the WebSocket connection. */
  connectTimeout: number;
  /**
   * Puppeteer, `isolate`: the id of the context a lost connection worked in. Reconnecting adopts
   * it (and its page) when the browser still has it, instead of leaving it behind.
   */
  reuseContextId?: string | undefined;
  /** Time for each further CDP call (new context, new page, viewport). */
  callTimeout: number;
}

/** A driver attached over CDP. */
export interface Attachment<D extends DriverName = DriverName> {
  readonly driver: D;
  readonly browser: DriverTypes[D]['browser'];
  readonly context: DriverTypes[D]['context'];
  readonly page: DriverTypes[D]['page'];
  isConnected(): boolean;
  /** Calls `listener` once when the WebSocket closes; returns the unsubscribe function. */
  onDisconnected(listener: () => void): () => void;
  /** Closes a context we created (isolate) and disconnects. Never ends a browser. */
  disconnect(): Promise<void>;
  /** Readies the page for the next task: dialogs cleared, `about:blank`. */
  resetPage(timeout: number): Promise<void>;
}

/** Longest wait for the page to reach about:blank by itself before the browser forces it. */
export const FAST_RESET_MS = 2_000;

/** What {@link resetToBlank} needs of a driver's page. */
export interface ResettablePage {
  url(): string;
  evaluate<T>(fn: () => T): Promise<T>;
  goto(url: string, options: { timeout: number }): Promise<unknown>;
}

/**
 * Puts `page` on `about:blank` for the next task. `selfNavigated(ms)` is the driver's way to wait
 * for a navigation the page starts itself, resolving true once the page is on about:blank.
 */
export async function resetToBlank(
  page: ResettablePage,
  timeout: number,
  selfNavigated: (ms: number) => Promise<boolean>,
): Promise<void> {
  const fast = Math.min(timeout, FAST_RESET_MS);
  const forced = async (): Promise<void> => {
    await withTimeout(
      page.goto('about:blank', { timeout }),
      timeout,
      'Resetting the page to about:blank',
    );
  };
  // After a failed navigation the driver still reports about:blank while Chromium commits its
  // error page (chrome-error://), which would interrupt the next task's goto. The URL cannot tell
  // the two apart, so ask the document; on an error page only a browser-side navigation can be
  // awaited.
  if (page.url() === 'about:blank') {
    const blank = await withTimeout(
      page.evaluate(() => location.href === 'about:blank'),
      fast,
      'Checking the page',
    ).catch(() => false);
    if (!blank) await forced();
    return;
  }
  // A navigation the page starts itself stays in its renderer process; Page.navigate from the
  // browser swaps processes twice per task (there and back), about 3x slower.
  const arrived = selfNavigated(fast);
  // "Execution context destroyed" here means the navigation began: `arrived` decides.
  await withTimeout(
    page.evaluate(() => window.location.replace('about:blank')),
    fast,
    'Starting the reset',
  ).catch(() => undefined);
  // A hung or unresponsive page: the browser-side navigation works regardless.
  if (!(await arrived)) await forced();
}

/** Dismisses dialogs nobody else listens for, and those left open when the page is reset. */
export interface DialogGuard {
  /** Dismisses dialogs still open and re-installs the guard after tasks removed listeners. */
  clear(): Promise<void>;
}

interface DialogLike {
  dismiss(): Promise<void>;
}

interface DialogPage {
  on(event: 'dialog', listener: (dialog: DialogLike) => void): unknown;
  removeAllListeners(event: 'dialog'): unknown;
  listenerCount(event: 'dialog'): number;
}

/**
 * Guards a page's dialogs: a dialog with no listener but ours is dismissed at once (an open
 * `alert()` blocks the page, and the next task's navigation with it); one a task listens for is
 * left to the task and dismissed at the next reset if still open.
 */
export function guardDialogs(page: DialogPage): DialogGuard {
  const open = new Set<DialogLike>();
  const listener = (dialog: DialogLike): void => {
    const dismiss = (): void => {
      open.delete(dialog);
      // A task's own handler may have dealt with it first; that is the outcome we want anyway.
      dialog.dismiss().catch(() => undefined);
    };
    if (page.listenerCount('dialog') <= 1) dismiss();
    else open.add(dialog);
  };
  page.on('dialog', listener);
  return {
    async clear() {
      for (const dialog of open) await dialog.dismiss().catch(() => undefined);
      open.clear();
      page.removeAllListeners('dialog');
      page.on('dialog', listener);
    },
  };
}
