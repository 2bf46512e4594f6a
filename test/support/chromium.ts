/**
 * The Chromium the product would launch, for test helpers that start a browser themselves: found
 * by `findChromium` (SVC_CHROME_PATH, a system Chromium, then @sparticuz/chromium) and started with
 * the product's own flags, so a test never exercises a browser or flag set users do not get.
 */
import { CHROMIUM_ARGS, findChromium } from '../../src/chromium.js';

/** Executable path of the Chromium the product finds on this machine. */
export const CHROMIUM_PATH: string = (await findChromium()).path;

/**
 * The product's launch flags (headless, offline, no background work), less its remote-debugging
 * ones: Playwright and Puppeteer choose their own DevTools transport, and Puppeteer never sees its
 * endpoint when the address is pinned.
 */
export const CHROMIUM_TEST_ARGS: readonly string[] = CHROMIUM_ARGS.filter(
  (arg) => !arg.startsWith('--remote-debugging-'),
);
