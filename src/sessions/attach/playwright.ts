// Playwright over CDP: `chromium.connectOverCDP(wsUrl, { timeout })`.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { withTimeout } from '../timeout.js';
import { FAST_RESET_MS, guardDialogs } from './attachment.js';
import type { AttachOptions, Attachment } from './attachment.js';

/**
 * Attaches Playwright to a CDP endpoint and readies one page: the browser's first tab in its
 * default context, or a new context and page when `isolate` is set.
 * @throws the driver's error when connecting or readying the page fails (the connection is closed)
 */
export async function attachPlaywright(options: AttachOptions): Promise<Attachment<'playwright'>> {
  // Loaded on first use, so a Puppeteer-only program never loads Playwright.
  const { chromium } = await import('playwright-core');
  const browser = await chromium.connectOverCDP(options.wsEndpoint, {
    timeout: options.connectTimeout,
    headers: options.headers,
  });
  try {
    const { context, page } = await withTimeout(
      openPage(browser, options),
      options.callTimeout,
      'Opening a Playwright page',
    );
    return playwrightAttachment(browser, context, page, options.isolate);
  } catch (error) {
    await browser.close().catch(() => undefined);
    throw error;
  }
}

async function openPage(
  browser: Browser,
  options: AttachOptions,
): Promise<{ context: BrowserContext; page: Page }> {
  const contextOptions = {
    ...(options.viewport ? { viewport: options.viewport } : {}),
    ...(options.userAgent !== undefined ? { userAgent: options.userAgent } : {}),
  };
  const existing = options.isolate ? undefined : browser.contexts()[0];
  const context = existing ?? (await browser.newContext(contextOptions));
  const page = context.pages()[0] ?? (await context.newPage());
  // A browser we created got the viewport at launch; setting it here makes it exact either way.
  if (existing && options.viewport) await page.setViewportSize(options.viewport);
  return { context, page };
}

function playwrightAttachment(
  browser: Browser,
  context: BrowserContext,
  page: Page,
  isolate: boolean,
): Attachment<'playwright'> {
  const dialogs = guardDialogs(page as unknown as Parameters<typeof guardDialogs>[0]);
  return {
    driver: 'playwright',
    browser,
    context,
    page,
    isConnected: () => browser.isConnected(),
    onDisconnected(listener) {
      const once = (): void => listener();
      browser.once('disconnected', once);
      return () => void browser.off('disconnected', once);
    },
    async disconnect() {
      if (isolate) await context.close();
      // On a connectOverCDP browser, close() drops the connection and leaves the browser running.
      await browser.close();
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
      const arrived = page.waitForURL('about:blank', { timeout: fast }).then(
        () => true,
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
