import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  capture,
  clearHighlights,
  findPassage,
  highlight,
  toPageLike,
  visit,
} from '../../../src/page/index.js';
import type { AnyPage, Rect } from '../../../src/page/index.js';
import type { FixtureServer } from '../../support/fixture-server.js';
import { conceptEmbed } from './concept-embed.js';
import { DRIVERS, VIEWPORT, openDriverPage, closeDriverPage } from './drivers.js';
import type { DriverBrowser } from './drivers.js';
import { decodePng, pngSize } from './png.js';

const KNOWN =
  'The Hollowbrook Bridge opened to traffic on 14 March 1932 after six years of construction, and at 212 metres it was the longest timber truss bridge of its decade.';
const STYLED_CLAIM =
  'Its designer, Agnes Varga, called the structure "a lattice of patience" - a phrase the town later carved above the north portal [2][3].';
const FUZZY_CLAIM =
  'Lindqvist Institute researchers found daily walks cut heart disease risk by about 30% in adults over 60 [3].';
const PARAPHRASE_CLAIM = 'Drinking java at breakfast improves focus in pupils [4].';

/** The text of every highlight mark, read back from the DOM. */
const marks = (page: AnyPage): Promise<{ count: number; text: string; centre: number }> =>
  toPageLike(page).evaluate(() => {
    const all = Array.from(document.querySelectorAll('mark[data-svc-highlight]'));
    const r = all[0]?.getBoundingClientRect();
    return {
      count: all.length,
      text: all.map((m) => m.textContent).join(''),
      centre: r ? r.top + r.height / 2 : -1,
    };
  }, null);

/** The rect of element `#id` in page coordinates. */
async function blockRect(page: AnyPage, id: string): Promise<Rect> {
  return toPageLike(page).evaluate((elId: string) => {
    const r = document.getElementById(elId)!.getBoundingClientRect();
    return { x: r.x + window.scrollX, y: r.y + window.scrollY, width: r.width, height: r.height };
  }, id);
}

describe.each(DRIVERS)('findPassage, highlight and capture under %s', (driver) => {
  let server: FixtureServer;
  let browser: DriverBrowser;
  let page: AnyPage;

  beforeAll(async () => {
    ({ server, browser, page } = await openDriverPage(driver));
  });
  afterAll(() => closeDriverPage({ server, browser }));

  it('finds an exact passage after stripping the citation marker', async () => {
    await visit(page, `${server.url}/article.html`);
    const m = await findPassage(
      page,
      'The Hollowbrook Bridge opened to traffic on 14 March 1932 after six years of construction [1].',
    );
    expect(m).toMatchObject({
      method: 'exact',
      score: 1,
      quote:
        'The Hollowbrook Bridge opened to traffic on 14 March 1932 after six years of construction',
      domPath: '#known',
    });
    // Below the 900 px spacer, in page coordinates.
    expect(m!.rect.y).toBeGreaterThan(900);
    expect(m!.rect.width).toBeGreaterThan(100);
    expect(m!.rect.height).toBeGreaterThan(10);
  });

  it('matches across inline elements, curly quotes and dashes, quoting the page as written', async () => {
    await visit(page, `${server.url}/article.html`);
    const m = await findPassage(page, STYLED_CLAIM);
    expect(m?.method).toBe('exact');
    expect(m?.domPath).toBe('#styled');
    expect(m?.quote).toBe(
      'Its designer, Agnes Varga, called the structure “a lattice of patience” — a phrase the town later carved above the north portal',
    );
  });

  it('falls back to the longest sentence when the claim adds one of its own', async () => {
    await visit(page, `${server.url}/article.html`);
    const m = await findPassage(page, `Bridges matter. ${KNOWN}`);
    expect(m?.method).toBe('exact');
    expect(m?.quote).toBe(KNOWN.slice(0, -1));
  });

  it('does not match text hidden with display:none', async () => {
    await visit(page, `${server.url}/article.html`);
    expect(
      await findPassage(
        page,
        'This hidden sentence about secret tunnels never renders on the page.',
      ),
    ).toBeNull();
  });

  it('finds a slightly different passage by fuzzy word overlap', async () => {
    await visit(page, `${server.url}/fuzzy.html`);
    const m = await findPassage(page, FUZZY_CLAIM);
    expect(m?.method).toBe('fuzzy');
    expect(m!.score).toBeGreaterThanOrEqual(0.6);
    expect(m!.score).toBeLessThan(1);
    expect(m!.quote).toBe(
      'Researchers at the Lindqvist Institute found that daily walking reduced the risk of heart disease by nearly 30 percent in adults over sixty.',
    );
    expect(m!.domPath).toBe('body > article > p:nth-of-type(2)');
  });

  it('rejects a fuzzy match below minScore', async () => {
    await visit(page, `${server.url}/fuzzy.html`);
    expect(await findPassage(page, FUZZY_CLAIM, { minScore: 0.95 })).toBeNull();
  });

  it('finds a paraphrase only through the embed callback, ranking chunks by cosine', async () => {
    await visit(page, `${server.url}/paraphrase.html`);
    expect(await findPassage(page, PARAPHRASE_CLAIM)).toBeNull();
    const calls: string[][][] = [];
    const m = await findPassage(page, PARAPHRASE_CLAIM, { embed: conceptEmbed(calls) });
    expect(m?.method).toBe('embedding');
    expect(m!.score).toBeGreaterThan(0.5);
    expect(m!.quote).toBe(
      'Consuming a cup of coffee each morning was associated with sharper attention among the undergraduates who took part.',
    );
    // The claim goes first, markers stripped; each paragraph is its own chunk.
    expect(calls[0]![0]).toEqual(['Drinking java at breakfast improves focus in pupils.']);
    expect(calls[0]!.slice(1).flat()).toContain(m!.quote);
  });

  it('returns null when nothing on the page supports the claim, even with embeddings', async () => {
    await visit(page, `${server.url}/article.html`);
    const claim = 'Quantum processors factor enormous semiprimes within seconds [5].';
    expect(await findPassage(page, claim, { embed: conceptEmbed() })).toBeNull();
  });

  it('highlights a passage spanning several text nodes and centres it in the viewport', async () => {
    await visit(page, `${server.url}/article.html`);
    const m = await findPassage(page, STYLED_CLAIM);
    const h = await highlight(page, m!, { color: 'rgb(255, 235, 59)' });
    expect(h?.text).toBe(m!.quote);
    const dom = await marks(page);
    // "Its designer, " + "Agnes Varga" + ", called ... “a " + "lattice of patience" + "” — a phrase ..."
    expect(dom.count).toBe(5);
    expect(h?.marks).toBe(5);
    expect(dom.text).toBe(m!.quote);
    expect(Math.abs(dom.centre - VIEWPORT.height / 2)).toBeLessThan(60);
    // The surrounding text is intact.
    const text = await toPageLike(page).evaluate(
      () => document.getElementById('styled')!.textContent,
      null,
    );
    expect(text).toBe(
      'Its designer, Agnes Varga, called the structure “a lattice of patience” — a phrase the town later carved above the north portal.',
    );
  });

  it('highlights by quote when the DOM changed since the passage was found', async () => {
    await visit(page, `${server.url}/article.html`);
    const m = await findPassage(page, KNOWN);
    await toPageLike(page).evaluate(
      () => document.getElementById('story')!.prepend(document.createElement('p'), 'Breaking: '),
      null,
    );
    const h = await highlight(page, m!);
    expect(h?.text).toBe(m!.quote);
    expect((await marks(page)).text).toBe(m!.quote);
  });

  it('returns null from highlight when the passage is gone', async () => {
    await visit(page, `${server.url}/article.html`);
    const m = await findPassage(page, KNOWN);
    await toPageLike(page).evaluate(() => document.getElementById('known')!.remove(), null);
    expect(await highlight(page, m!)).toBeNull();
  });

  it('captures the highlighted passage with padding, and the viewport', async () => {
    await visit(page, `${server.url}/article.html`);
    const m = await findPassage(page, KNOWN);
    const h = await highlight(page, m!, { color: 'rgb(255, 235, 59)' });
    const shot = await capture(page, h!, { padding: 20 });
    const size = pngSize(shot.passage);
    expect(size.width).toBe(shot.clip.width);
    expect(size.height).toBe(shot.clip.height);
    // Whole lines: the crop spans the paragraph's width (the article column, 700 px) plus padding.
    const block = await blockRect(page, 'known');
    expect(Math.abs(size.width - (block.width + 40))).toBeLessThanOrEqual(2);
    expect(Math.abs(size.height - (h!.rect.height + 40))).toBeLessThanOrEqual(2);
    expect(pngSize(shot.viewport)).toEqual(VIEWPORT);
    // The highlight colour is inside the crop, at the passage's first line.
    const img = decodePng(shot.passage);
    expect(img.pixel(22, 30)).toEqual([255, 235, 59]);
  });

  it('crops whole lines: a passage that starts and ends mid-line is shown with its lines in full', async () => {
    await visit(page, `${server.url}/article.html`);
    const m = await findPassage(page, 'the longest timber truss bridge');
    const h = await highlight(page, m!);
    // The marks alone cover a few words in the middle of the paragraph's last line.
    const block = await blockRect(page, 'known');
    expect(h!.rect.width).toBeLessThan(block.width / 2);
    const shot = await capture(page, h!, { padding: 0 });
    expect(shot.clip.x).toBeLessThanOrEqual(Math.ceil(block.x));
    expect(shot.clip.x + shot.clip.width).toBeGreaterThanOrEqual(Math.floor(block.x + block.width));
    // Still only the marked lines: one line tall, not the whole paragraph.
    expect(shot.clip.height).toBeLessThan(block.height);
  });

  it('clamps the crop to the page and to maxHeight', async () => {
    await visit(page, `${server.url}/article.html`);
    const m = await findPassage(
      page,
      'For most of the nineteenth century the town of Hollowbrook depended on a rope ferry',
    );
    const shot = await capture(page, m!, { padding: 5000, maxHeight: 300 });
    expect(shot.clip.x).toBe(0);
    expect(shot.clip.y).toBe(0);
    expect(pngSize(shot.passage)).toEqual({ width: VIEWPORT.width, height: 300 });
  });
  it('captures only the highlight it is given when a page holds several', async () => {
    await visit(page, `${server.url}/article.html`);
    const first = await highlight(page, (await findPassage(page, KNOWN))!);
    const m = await findPassage(page, STYLED_CLAIM);
    const second = await highlight(page, m!);
    expect(first!.id).not.toBe(second!.id);
    const shot = await capture(page, second!, { padding: 0 });
    expect(Math.abs(shot.clip.y - second!.rect.y)).toBeLessThanOrEqual(1);
    expect(shot.clip.height).toBeLessThan(first!.rect.height + second!.rect.height);
  });

  it('clearHighlights restores the text nodes it split', async () => {
    await visit(page, `${server.url}/article.html`);
    const m = await findPassage(page, STYLED_CLAIM);
    const h = await highlight(page, m!);
    expect(await clearHighlights(page, h!.id)).toBe(5);
    expect((await marks(page)).count).toBe(0);
    const nodes = await toPageLike(page).evaluate(
      () => document.getElementById('styled')!.childNodes.length,
      null,
    );
    // text, <em>, text, <a>, text: as served.
    expect(nodes).toBe(5);
    // The passage can be found and highlighted again.
    expect((await highlight(page, (await findPassage(page, STYLED_CLAIM))!))?.marks).toBe(5);
  });

  it('works on a page whose Content Security Policy forbids scripts and inline styles', async () => {
    await visit(page, `${server.url}/csp.html`);
    const m = await findPassage(
      page,
      'tide tables for Port Alder, published each Monday at noon [1]',
    );
    expect(m?.method).toBe('exact');
    const h = await highlight(page, m!);
    expect(h?.text).toBe('tide tables for Port Alder, published each Monday at noon');
    const shot = await capture(page, h!);
    expect(pngSize(shot.passage).width).toBeGreaterThan(100);
  });
  it('captures a passage below the fold from its rect alone, without scrolling to it', async () => {
    await visit(page, `${server.url}/article.html`);
    const m = await findPassage(
      page,
      'Local historians are collecting oral accounts from families',
    );
    expect(m!.rect.y).toBeGreaterThan(VIEWPORT.height * 2);
    const shot = await capture(page, m!, { padding: 10 });
    const img = decodePng(shot.passage);
    expect(img.height).toBe(shot.clip.height);
    let ink = 0;
    for (let y = 0; y < img.height; y++) {
      for (let x = 0; x < img.width; x++) if (img.pixel(x, y)[0] < 100) ink++;
    }
    // Dark glyph pixels: the crop shows the text, not a blank area beyond the viewport.
    expect(ink).toBeGreaterThan(200);
  });
  it('rejects an embed callback that returns the wrong number of vectors', async () => {
    await visit(page, `${server.url}/paraphrase.html`);
    const short = conceptEmbed();
    const broken: typeof short = async (docs) => (await short(docs)).slice(0, 1);
    // The claim and four paragraphs: the heading is context, not a passage.
    await expect(findPassage(page, PARAPHRASE_CLAIM, { embed: broken })).rejects.toThrow(
      /embed returned 1 vectors for 5 documents/,
    );
  });
});
