import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findPassage, textFragmentUrl, toPageLike, visit } from '../../../src/page/index.js';
import type { AnyPage } from '../../../src/page/index.js';
import type { FixtureServer } from '../../support/fixture-server.js';
import { DRIVERS, openDriverPage, closeDriverPage } from './drivers.js';
import type { DriverBrowser } from './drivers.js';

describe('textFragmentUrl', () => {
  it('percent-encodes the characters the directive syntax reserves', () => {
    expect(textFragmentUrl('https://a.example/p', 'rock-solid, fast & small')).toBe(
      'https://a.example/p#:~:text=rock%2Dsolid%2C%20fast%20%26%20small',
    );
  });

  it('encodes non-ASCII text as UTF-8 and collapses whitespace', () => {
    expect(textFragmentUrl('https://a.example/p', '  “Café”\n au   lait ')).toBe(
      'https://a.example/p#:~:text=%E2%80%9CCaf%C3%A9%E2%80%9D%20au%20lait',
    );
  });

  it('turns a long quote into textStart,textEnd from its first and last words', () => {
    const quote = 'one two three four five six seven eight nine ten eleven twelve';
    expect(textFragmentUrl('https://a.example/p', quote)).toBe(
      'https://a.example/p#:~:text=one%20two%20three%20four,nine%20ten%20eleven%20twelve',
    );
    expect(textFragmentUrl('https://a.example/p', quote, { maxWords: 20 })).toContain(
      'one%20two%20three',
    );
    expect(textFragmentUrl('https://a.example/p', quote, { maxWords: 3, edgeWords: 2 })).toBe(
      'https://a.example/p#:~:text=one%20two,eleven%20twelve',
    );
  });

  it('keeps an existing fragment and replaces an existing text directive', () => {
    expect(textFragmentUrl('https://a.example/p?q=1#sec', 'x')).toBe(
      'https://a.example/p?q=1#sec:~:text=x',
    );
    expect(textFragmentUrl('https://a.example/p#sec:~:text=old', 'new')).toBe(
      'https://a.example/p#sec:~:text=new',
    );
    expect(textFragmentUrl('https://a.example/p#sec', '  ')).toBe('https://a.example/p#sec');
  });
});

describe.each(DRIVERS)('text fragment links under %s', (driver) => {
  let server: FixtureServer;
  let browser: DriverBrowser;
  let page: AnyPage;

  beforeAll(async () => {
    ({ server, browser, page } = await openDriverPage(driver));
  });
  afterAll(() => closeDriverPage({ server, browser }));

  it('opens the page scrolled to the quoted passage', async () => {
    const url = `${server.url}/article.html`;
    await visit(page, url);
    const m = await findPassage(
      page,
      'a phrase the town later carved above the north portal, designer Agnes Varga',
    );
    expect(m).not.toBeNull();
    await visit(page, 'about:blank');
    await visit(page, textFragmentUrl(url, m!.quote));
    const scrolled = await toPageLike(page).evaluate(
      () => new Promise<number>((r) => setTimeout(() => r(window.scrollY), 300)),
      null,
    );
    expect(scrolled).toBeGreaterThan(m!.rect.y - 800);
    expect(scrolled).toBeGreaterThan(300);
  });
});
