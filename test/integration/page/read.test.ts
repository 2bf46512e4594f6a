import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readPage, visit } from '../../../src/page/index.js';
import type { AnyPage } from '../../../src/page/index.js';
import type { FixtureServer } from '../../support/fixture-server.js';
import { DRIVERS, openDriverPage, closeDriverPage } from './drivers.js';
import type { DriverBrowser } from './drivers.js';

const hashes: Record<string, string> = {};

describe.each(DRIVERS)('readPage under %s', (driver) => {
  let server: FixtureServer;
  let browser: DriverBrowser;
  let page: AnyPage;

  beforeAll(async () => {
    ({ server, browser, page } = await openDriverPage(driver));
  });
  afterAll(() => closeDriverPage({ server, browser }));

  it('extracts the article text, Markdown, links and metadata', async () => {
    await visit(page, `${server.url}/article.html`);
    const r = await readPage(page);
    expect(r.title).toBe('The Hollowbrook Bridge at Ninety');
    expect(r.url).toBe(`${server.url}/article.html`);
    expect(r.lang).toBe('en');
    expect(r.text).toContain('The Hollowbrook Bridge opened to traffic on 14 March 1932');
    // Navigation and footer are not main content.
    expect(r.text).not.toContain('Archive');
    expect(r.text).not.toContain('Contact');
    // Paragraphs stay on their own lines.
    expect(r.text.split('\n').length).toBeGreaterThan(4);
    expect(r.markdown).toContain(`[lattice of patience](${server.url}/truss.html)`);
    expect(r.markdown).toContain('_Agnes Varga_');
    expect(r.html).toContain('<em>Agnes Varga</em>');
    expect(r.links).toEqual(
      expect.arrayContaining([
        { text: 'lattice of patience', href: `${server.url}/truss.html` },
        { text: 'county history archive', href: 'https://example.org/history' },
      ]),
    );
    expect(r.metadata).toEqual({
      description: 'How a small river town built the longest timber truss bridge of its decade.',
      published: '2024-03-14T09:00:00Z',
      modified: '2024-04-02T16:30:00Z',
      author: expect.stringContaining('Mara Ellison'),
      siteName: 'Riverlands Review',
    });
    expect(r.contentHash).toMatch(/^sha256:[0-9a-f]{64}$/);
  });

  it('gives the same content hash on a reload and a different one for other content', async () => {
    await visit(page, `${server.url}/article.html`);
    const first = await readPage(page);
    await visit(page, `${server.url}/redirect?to=/article.html`);
    const again = await readPage(page);
    expect(again.contentHash).toBe(first.contentHash);
    await visit(page, `${server.url}/fuzzy.html`);
    const other = await readPage(page);
    expect(other.contentHash).not.toBe(first.contentHash);
    hashes[driver] = first.contentHash;
  });

  it('hashes the same page identically under both drivers', () => {
    const seen = Object.values(hashes);
    expect(seen.length).toBeGreaterThan(0);
    expect(new Set(seen).size).toBe(1);
  });

  it('falls back to the body text on a page Readability finds no article in', async () => {
    await visit(page, `${server.url}/login.html`);
    const r = await readPage(page);
    expect(r.text).toContain('Sign in to continue');
    expect(r.metadata.published).toBeNull();
  });
});
