import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { createSessionTest } from '../../../src/testing/index.js';
import { CHROMIUM_PATH } from '../../support/chromium.js';
import { alive, pageServer, processesMentioning, tempDir } from './helpers.js';

const root = tempDir('svc-sessions-fixture-');
const options = {
  provider: 'local' as const,
  executablePath: CHROMIUM_PATH,
  profileRoot: root,
};
const pwTest = createSessionTest({ driver: 'playwright', manager: options });
const ppTest = createSessionTest({
  driver: 'puppeteer',
  manager: options,
  session: { tags: ['fixture'] },
});

let pages: Awaited<ReturnType<typeof pageServer>>;
const seen: { pid: number; driver: string }[] = [];

beforeAll(async () => {
  pages = await pageServer();
});
afterAll(async () => {
  await pages.close();
  const left = processesMentioning(`${root}/svc-session-`);
  rmSync(root, { recursive: true, force: true });
  expect(left).toEqual([]);
});

describe('svc-toolkit/testing fixtures', () => {
  pwTest('give a Playwright test a fresh session and page', async ({ page, session }) => {
    await page.goto(`${pages.url}fixture-pw`);
    expect(await page.title()).toBe('Page fixture-pw');
    expect(session.driver).toBe('playwright');
    seen.push({ pid: session.pid!, driver: 'playwright' });
  });

  pwTest('released the previous test session before this one got its own', async ({ session }) => {
    expect(seen).toHaveLength(1);
    expect(alive(seen[0]!.pid)).toBe(false);
    expect(session.pid).not.toBe(seen[0]!.pid);
    expect(session.page.url()).toBe('about:blank');
  });

  ppTest(
    'give a Puppeteer test a fresh session and page with the configured tags',
    async ({ page, session }) => {
      await page.goto(`${pages.url}fixture-pp`);
      expect(await page.title()).toBe('Page fixture-pp');
      expect(session.driver).toBe('puppeteer');
      expect(session.tags).toEqual(['fixture']);
    },
  );
});
