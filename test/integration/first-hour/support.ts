// Helpers of the first-hour suite: the README's commands as separate processes on one data dir.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import puppeteer from 'puppeteer-core';
import { findChromium, launchChromium } from '../../../src/chromium.js';

/** The data dir's local key, as `svc serve` documents it. */
export function localKey(dataDir: string): string {
  return readFileSync(path.join(dataDir, 'local.key'), 'utf8').trim();
}

/** A loopback port something listens on, held until `close()`. */
export async function busyPort(): Promise<{ port: number; close(): Promise<void> }> {
  const server = net.createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    port: (server.address() as AddressInfo).port,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/** What a headless Chromium shows at `url`: HTTP status and the page's text. */
export async function openInChromium(url: string): Promise<{ status: number; text: string }> {
  const userDataDir = mkdtempSync(path.join(os.tmpdir(), 'svc-first-hour-chromium-'));
  const chromium = await launchChromium({
    executablePath: (await findChromium()).path,
    userDataDir,
  });
  try {
    const browser = await puppeteer.connect({ browserWSEndpoint: chromium.wsEndpoint });
    const page = await browser.newPage();
    const response = await page.goto(url, { waitUntil: 'load', timeout: 30_000 });
    const text = await page.evaluate(() => document.body.innerText);
    await browser.disconnect();
    return { status: response?.status() ?? 0, text };
  } finally {
    await chromium.kill();
    rmSync(userDataDir, { recursive: true, force: true });
  }
}
