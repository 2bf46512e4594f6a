/**
 * Launches headless Chromium through each driver, so every page action is tested under both
 * Playwright and Puppeteer.
 */
import { chromium } from 'playwright-core';
import type { Browser as PlaywrightBrowser } from 'playwright-core';
import puppeteer from 'puppeteer-core';
import type { Browser as PuppeteerBrowser } from 'puppeteer-core';
import type { AnyPage } from '../../../src/page/index.js';
import { startFixtureServer } from '../../support/fixture-server.js';
import type { FixtureServer } from '../../support/fixture-server.js';
import { CHROMIUM_PATH, CHROMIUM_TEST_ARGS } from '../../support/chromium.js';

/** The drivers every test runs under. */
export const DRIVERS = ['playwright', 'puppeteer'] as const;
export type Driver = (typeof DRIVERS)[number];

export const VIEWPORT = { width: 1280, height: 800 };

/** A browser launched through one driver. */
export interface DriverBrowser {
  driver: Driver;
  /** A fresh page with {@link VIEWPORT}. */
  newPage(): Promise<AnyPage>;
  close(): Promise<void>;
}

/** Launches the Chromium the product finds, with the product's flags, through `driver`. */
export async function launch(driver: Driver): Promise<DriverBrowser> {
  if (driver === 'playwright') {
    const browser: PlaywrightBrowser = await chromium.launch({
      executablePath: CHROMIUM_PATH,
      args: [...CHROMIUM_TEST_ARGS],
      headless: true,
    });
    const context = await browser.newContext({ viewport: VIEWPORT });
    return { driver, newPage: () => context.newPage(), close: () => browser.close() };
  }
  const browser: PuppeteerBrowser = await puppeteer.launch({
    executablePath: CHROMIUM_PATH,
    args: [...CHROMIUM_TEST_ARGS],
    headless: true,
    defaultViewport: VIEWPORT,
  });
  return { driver, newPage: () => browser.newPage(), close: () => browser.close() };
}

/** A fixture server, a browser launched through `driver`, and a fresh page: one file's setup. */
export async function openDriverPage(
  driver: Driver,
): Promise<{ server: FixtureServer; browser: DriverBrowser; page: AnyPage }> {
  const server = await startFixtureServer();
  const browser = await launch(driver);
  return { server, browser, page: await browser.newPage() };
}

/** Closes what {@link openDriverPage} opened (either may be missing if setup failed). */
export async function closeDriverPage(opened: {
  server?: FixtureServer | undefined;
  browser?: DriverBrowser | undefined;
}): Promise<void> {
  await opened.browser?.close();
  await opened.server?.close();
}
