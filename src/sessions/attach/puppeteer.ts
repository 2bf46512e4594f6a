// Puppeteer over CDP: `puppeteer.connect({ browserWSEndpoint, defaultViewport })`.
import type { Browser, BrowserContext, Page } from 'puppeteer-core';
import { withTimeout } from '../timeout.js';
import { FAST_RESET_MS, guardDialogs } from './attachment.js';
import type { AttachOptions, Attachment } from './attachment.js';

/**
 * Attaches Puppeteer to a CDP endpoint and readies one page: the browser's first tab, or a new
 * browser context and page when `isolate` is set.
 * @throws the driver's error, or TimeoutError, when connecting or readying the page fails (the
 * connection is closed, a late one included)
 */
export async function attachPuppeteer(options: AttachOptions): Promise<Attachment<'puppeteer'>> {
  // Loaded on first use, so a Playwright-only program never loads Puppeteer.
  const { default: puppeteer } = await import('puppeteer-core');
  const browser = await withTimeout(
    puppeteer.connect({
      browserWSEndpoint: options.wsEndpoint,
      headers: options.headers,
      defaultViewport: options.viewport ?? null,
    }),
    options.connectTimeout,
    'Connecting Puppeteer over CDP',
    (late) => void late.disconnect().catch(() => undefined),
  );
  try {
    const { context, page } = await withTimeout(
      openPage(browser, options),
      options.callTimeout,
      'Opening a Puppeteer page',
    );
    return puppeteerAttachment(browser, context, page, options.isolate);
  } catch (error) {
    await browser.disconnect().catch(() => undefined);
    throw error;
  }
}

async function openPage(
  browser: Browser,
  options: AttachOptions,
): Promise<{ context: BrowserContext; page: Page }> {
  const adopted =
    options.isolate && options.reuseContextId !== undefined
      ? browser.browserContexts().find((c) => c.id === options.reuseContextId)
      : undefined;
  const context =
    adopted ??
    (options.isolate ? await browser.createBrowserContext() : browser.defaultBrowserContext());
  const reuse = !options.isolate || adopted !== undefined;
  const page = (reuse ? (await context.pages())[0] : undefined) ?? (await context.newPage());
  if (options.isolate && options.userAgent !== undefined)
    await page.setUserAgent({ userAgent: options.userAgent });
  return { context, page };
}

function puppeteerAttachment(
  browser: Browser,
  context: BrowserContext,
  page: Page,
  isolate: boolean,
): Attachment<'puppeteer'> {
  const dialogs = guardDialogs(page as unknown as Parameters<typeof guardDialogs>[0]);
  return {
    driver: 'puppeteer',
    browser,
    context,
    page,
    isConnected: () => browser.connected,
    onDisconnected(listener) {
      const once = (): void => listener();
      browser.once('disconnected', once);
      return () => void browser.off('disconnected', once);
    },
    async disconnect() {
      if (isolate) await context.close();
      await browser.disconnect();
    },
    async resetPage(timeout) {
      await dialogs.clear();
      // After a failed navigation the driver still reports about:blank while Chromium commits its
      // error page (chrome-error://), which would interrupt the next task's goto. The URL cannot
      // tell the two apart, so ask the document; on an error page only a browser-side navigation
      // can be awaited.
      if (page.url() === 'about:blank') {
        if (await documentIsBlank(page, timeout)) return;
        await withTimeout(
          page.goto('about:blank', { timeout }),
          timeout,
          'Resetting the page to about:blank',
        );
        return;
      }
      const fast = Math.min(timeout, FAST_RESET_MS);
      // A navigation the page starts itself stays in its renderer process; Page.navigate from
      // the browser swaps processes twice per task (there and back), about 3x slower.
      const arrived = page.waitForNavigation({ timeout: fast }).then(
        () => page.url() === 'about:blank',
        () => false,
      );
      // "Execution context destroyed" here means the navigation began: `arrived` decides.
      await withTimeout(
        page.evaluate(() => window.location.replace('about:blank')),
        fast,
        'Starting the reset',
      ).catch(() => undefined);
      if (await arrived) return;
      // A hung or unresponsive page: the browser-side navigation works regardless.
      await withTimeout(
        page.goto('about:blank', { timeout }),
        timeout,
        'Resetting the page to about:blank',
      );
    },
  };
}

/** True when the page's document really is about:blank (not an error page behind a stale URL). */
async function documentIsBlank(
  page: { evaluate<T>(fn: () => T): Promise<T> },
  timeout: number,
): Promise<boolean> {
  return withTimeout(
    page.evaluate(() => location.href === 'about:blank'),
    Math.min(timeout, FAST_RESET_MS),
    'Checking the page',
  ).catch(() => false);
}
