// Puppeteer over CDP: `puppeteer.connect({ browserWSEndpoint, defaultViewport })`.
import type { Browser, BrowserContext, Page } from 'puppeteer-core';
import { withTimeout } from '../timeout.js';
import { guardDialogs, resetToBlank } from './attachment.js';
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
      await resetToBlank(page, timeout, (ms) =>
        page.waitForNavigation({ timeout: ms }).then(
          () => page.url() === 'about:blank',
          () => false,
        ),
      );
    },
  };
}
