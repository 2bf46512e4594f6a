// Playwright over CDP: `chromium.connectOverCDP(wsUrl, { timeout })`.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { withTimeout } from '../timeout.js';
import { guardDialogs, resetToBlank } from './attachment.js';
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
      await resetToBlank(page, timeout, (ms) =>
        page.waitForURL('about:blank', { timeout: ms }).then(
          () => true,
          () => false,
        ),
      );
    },
  };
}
