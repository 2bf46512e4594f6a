import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';
import { parseDocument } from '../../../../html-document.js';
import type { Block, ExtractedDocument } from '../types.js';
import { readHtmlMeta, withMeta } from './html-meta.js';
import { proseParagraphs } from './plain.js';

const BLOCK_TAGS = new Set([
  'ADDRESS',
  'ARTICLE',
  'ASIDE',
  'BLOCKQUOTE',
  'BODY',
  'DD',
  'DETAILS',
  'DIV',
  'DL',
  'DT',
  'FIELDSET',
  'FIGCAPTION',
  'FIGURE',
  'FOOTER',
  'FORM',
  'HEADER',
  'HR',
  'LI',
  'MAIN',
  'NAV',
  'OL',
  'P',
  'PRE',
  'SECTION',
  'SUMMARY',
  'TABLE',
  'TBODY',
  'TD',
  'TH',
  'THEAD',
  'TFOOT',
  'TR',
  'UL',
  'H1',
  'H2',
  'H3',
  'H4',
  'H5',
  'H6',
  'BR',
  'CAPTION',
]);
const SKIP_TAGS = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'SVG', 'IFRAME', 'BUTTON']);

function dimension(value: string | null): number | null {
  if (!value) return null;
  const n = Number.parseInt(value, 10);
  return Number.isFinite(n) && n > 0 ? n : null;
}

/** Resolves `src` against `baseUrl`; returns `src` unchanged when that fails. */
export function resolveUrl(src: string, baseUrl: string | null): string {
  try {
    return new URL(src, baseUrl ?? undefined).href;
  } catch {
    return src;
  }
}

/** Inline elements that name what a reference entry is about: `<b>max</b><code>_.max(list)</code>`. */
const LABEL_TAGS = new Set(['B', 'STRONG', 'CODE', 'DFN', 'TT', 'KBD', 'VAR', 'SAMP']);

/** Inline elements a label line may carry after its name (`<span class="alias">Alias: unique</span>`). */
const LABEL_EXTRAS = new Set(['SPAN', 'EM', 'I', 'SMALL', 'SUP', 'A']);

/** Longest label made a heading; a longer run of bold text is prose. */
const MAX_LABEL_CHARS = 200;

/**
 * The label line a block opens with, when it has one: label elements with only whitespace between
 * them, then a `<br>` (the signature line of a reference entry). Returns the label's text, its
 * elements joined by spaces (`max _.max(list)`, not `max_.max(list)`), and the `<br>`.
 */
function labelLine(el: Element): { text: string; br: Node } | null {
  const parts: string[] = [];
  for (const child of Array.from(el.childNodes)) {
    if (child.nodeType === 3) {
      if ((child.textContent ?? '').trim()) return null;
      continue;
    }
    if (child.nodeType !== 1) continue;
    const tag = (child as Element).tagName.toUpperCase();
    if (tag === 'BR') {
      const text = parts.join(' ').replace(/\s+/g, ' ').trim();
      return text && text.length <= MAX_LABEL_CHARS ? { text, br: child } : null;
    }
    if (!LABEL_TAGS.has(tag) && !(parts.length > 0 && LABEL_EXTRAS.has(tag))) return null;
    parts.push(child.textContent ?? '');
  }
  return null;
}

/** Most words of a paragraph that names the block after it (`Release 1.13`), not a sentence. */
const MAX_LABEL_WORDS = 6;

/**
 * The text of a paragraph that labels the indented block or list right after it, as
 * reStructuredText renders `Release 1.13` over an indented list (a `<p>` then a `<blockquote>`,
 * or a `<ul>`): a few words, no sentence punctuation or colon, no block of its own, not in a list,
 * not right under a heading. `null` for any other paragraph.
 */
function labelParagraph(p: Element): string | null {
  const next = p.nextElementSibling?.tagName.toUpperCase();
  if (!next || !/^(?:BLOCKQUOTE|UL|OL)$/.test(next)) return null;
  // Right under a heading it is the heading's metadata ("Released 2022-04-28" under "Version
  // 3.1.2"), not a section of its own.
  if (/^H[1-6]$/.test(p.previousElementSibling?.tagName.toUpperCase() ?? '')) return null;
  // A label inside a list item heads that item's sub-list only, not the text after the list.
  if (p.closest('li, dd') || p.querySelector('p, div, ul, ol, dl, table, pre, br')) return null;
  const text = (p.textContent ?? '').replace(/\s+/g, ' ').trim();
  const words = text.split(' ').length;
  // "Added in: v8.1.0" over a parameter list is an entry's metadata, read with its heading.
  return text && words <= MAX_LABEL_WORDS && !/[.!?;,]$|:/.test(text) && /\p{L}/u.test(text)
    ? text
    : null;
}

/** Level given to the headings a reference entry's term or label line becomes: below any `h6`. */
const LABEL_LEVEL = 7;

/** What makes a table a layout rather than a table of data: blocks of its own inside a cell. */
const NOT_DATA = 'table, ul, ol, dl, pre, h1, h2, h3, h4, h5, h6, [colspan], [rowspan]';

/**
 * A table of data as the Markdown reader keeps a pipe table (`| Version | Changes | | --- | --- |
 * | v6.0.0 | Passing a non-string ... throws now. |`), so it is rendered as rows under their header
 * and a row is read whole, with its header: a header row of `<th>` cells, at least one row under
 * it, every row as wide, and no block of its own in a cell. `null` for any other table
 * (layout, a question and its answer): its cells are read as paragraphs.
 */
function pipeTable(table: Element): string | null {
  if (table.querySelector(NOT_DATA)) return null;
  const rows = Array.from(table.querySelectorAll('tr'));
  const cells = rows.map((tr) => Array.from(tr.children).filter((c) => /^T[DH]$/i.test(c.tagName)));
  const header = cells[0];
  if (!header || header.length < 2 || cells.length < 2) return null;
  if (!header.every((c) => c.tagName.toUpperCase() === 'TH')) return null;
  // A pipe inside a cell is written `\|`, as in Markdown.
  const texts = cells.map((row) =>
    row.map((c) => (c.textContent ?? '').replace(/\s+/g, ' ').trim().replace(/\|/g, '\\|')),
  );
  if (texts.some((row) => row.length !== header.length)) return null;
  const line = (row: string[]): string => `| ${row.join(' | ')} |`;
  const [head, ...body] = texts;
  return [line(head!), line(head!.map(() => '---')), ...body.map(line)].join(' ');
}

/** Inline elements that set a placeholder apart: `-o<i>outfile</i>`. */
const PLACEHOLDER_TAGS = new Set(['I', 'EM', 'VAR']);

/**
 * A term's text, whitespace collapsed, with a space before a placeholder that follows a flag or
 * name directly (`<b>-o</b><i>outfile</i>`, as man pages write an option's argument, reads
 * `-o outfile`): a claim names the flag, `-o`, which `-ooutfile` does not hold.
 */
function termText(el: Element): string {
  let text = '';
  const walk = (node: Node): void => {
    for (const child of Array.from(node.childNodes)) {
      if (child.nodeType === 3) text += child.textContent ?? '';
      else if (child.nodeType === 1) {
        const tag = (child as Element).tagName.toUpperCase();
        if (PLACEHOLDER_TAGS.has(tag) && /[\w-]$/.test(text)) text += ' ';
        walk(child);
      }
    }
  };
  walk(el);
  return text.replace(/\s+/g, ' ').trim();
}

/** Longest term of a {@link definitionRows} table: a name or a short phrase, not a sentence. */
const MAX_TERM_CHARS = 80;

/**
 * The rows, as term text and description cell, of a table that lays out terms and their
 * descriptions, as DocBook renders a
 * `variablelist` (`<td><p><span class="term">fatal-warnings</span></p></td><td><p>Causes GLib to
 * abort ...</p></td>`) and Sphinx an option list: no header row, two cells in every row, the
 * first a term (short, no sentence, no block of its own), the second its description. Each row
 * is read as a `<dt>` and its `<dd>`, so the description stands under its term. `null` for any
 * other table.
 */
function definitionRows(table: Element): [string, Element][] | null {
  if (table.querySelector('table, [colspan], [rowspan]')) return null;
  const rows: [string, Element][] = [];
  for (const tr of Array.from(table.querySelectorAll('tr'))) {
    const cells = Array.from(tr.children).filter((c) => /^T[DH]$/i.test(c.tagName));
    if (cells.length !== 2) return null;
    const [term, description] = cells as [Element, Element];
    const text = termText(term);
    if (term.tagName.toUpperCase() === 'TH' && description.tagName.toUpperCase() === 'TH')
      return null;
    // "Description:" labels a field of a record and "Q:" a question, not a term; a term repeated
    // down the column ("#define") is a kind, not a name.
    if (!text || text.length > MAX_TERM_CHARS || /[.!?:]$/.test(text)) return null;
    if (rows.some(([t]) => t === text)) return null;
    if (term.querySelector('ul, ol, dl, pre, h1, h2, h3, h4, h5, h6')) return null;
    rows.push([text, description]);
  }
  return rows.length >= 2 ? rows : null;
}

/**
 * Walks an element tree into blocks: headings, paragraphs (any run of inline content between block
 * elements), tables of data (as pipe tables) and images with their `width`/`height` attributes. A reference entry's term (`<dt>`)
 * or label line (`<p><b>max</b><code>_.max(list)</code><br>Returns...`) becomes the innermost
 * heading of the text under it, so each passage of its description is known to be about it.
 *
 * @param root - The element whose content to read.
 * @param baseUrl - Resolves relative image URLs.
 */
export function htmlToBlocks(root: Element, baseUrl: string | null): Block[] {
  const blocks: Block[] = [];
  let inline = '';
  const flush = (): void => {
    const text = inline.replace(/\s+/g, ' ').trim();
    if (text) blocks.push({ kind: 'paragraph', text });
    inline = '';
  };
  const walk = (node: Node): void => {
    for (const child of Array.from(node.childNodes)) {
      if (child.nodeType === 3) {
        inline += child.textContent ?? '';
        continue;
      }
      if (child.nodeType !== 1) continue;
      const el = child as Element;
      const tag = el.tagName.toUpperCase();
      if (SKIP_TAGS.has(tag) || el.getAttribute('hidden') !== null) continue;
      if (tag === 'IMG') {
        const src = el.getAttribute('src') ?? el.getAttribute('data-src');
        if (src && !src.startsWith('data:')) {
          blocks.push({
            kind: 'image',
            image: {
              url: resolveUrl(src, baseUrl),
              width: dimension(el.getAttribute('width')),
              height: dimension(el.getAttribute('height')),
              alt: el.getAttribute('alt') ?? '',
            },
          });
        }
        continue;
      }
      if (!BLOCK_TAGS.has(tag)) {
        walk(el);
        continue;
      }
      flush();
      const table = tag === 'TABLE' ? pipeTable(el) : null;
      let labelText: string | null;
      if (table) {
        blocks.push({ kind: 'paragraph', text: table });
        continue;
      }
      const terms = tag === 'TABLE' ? definitionRows(el) : null;
      if (terms) {
        for (const [text, description] of terms) {
          blocks.push({ kind: 'heading', level: LABEL_LEVEL, text });
          walk(description);
          flush();
        }
        continue;
      }
      const heading = /^H([1-6])$/.exec(tag);
      if (heading) {
        const text = (el.textContent ?? '').replace(/\s+/g, ' ').trim();
        if (text) blocks.push({ kind: 'heading', level: Number(heading[1]), text });
      } else if (tag === 'PRE') {
        const text = (el.textContent ?? '').trim();
        // Prose shown as is reads as paragraphs; code keeps its line breaks.
        const prose = proseParagraphs(text);
        if (prose) for (const para of prose) blocks.push({ kind: 'paragraph', text: para });
        else if (text) blocks.push({ kind: 'paragraph', text });
      } else if (tag === 'DT' && !el.querySelector('p, div, ul, ol, table, pre')) {
        const text = termText(el);
        // Terms in a row name one description ("-v" then "--verbose", a function's overloads):
        // they make one heading, so the description stands under all of them.
        const last = blocks[blocks.length - 1];
        const grouped =
          el.previousElementSibling?.tagName.toUpperCase() === 'DT' && last?.kind === 'heading';
        if (text.length > MAX_LABEL_CHARS) walk(el);
        else if (text && grouped && last.level === LABEL_LEVEL) last.text += `, ${text}`;
        else if (text) blocks.push({ kind: 'heading', level: LABEL_LEVEL, text });
        flush();
      } else if (tag === 'P' && (labelText = labelParagraph(el)) !== null) {
        blocks.push({ kind: 'heading', level: LABEL_LEVEL, text: labelText });
      } else {
        const label = labelLine(el);
        if (label) {
          blocks.push({ kind: 'heading', level: LABEL_LEVEL, text: label.text });
          let after = label.br.nextSibling;
          const rest = el.ownerDocument.createElement('div');
          while (after) {
            const next = after.nextSibling;
            rest.appendChild(after.cloneNode(true));
            after = next;
          }
          walk(rest);
        } else {
          walk(el);
        }
        flush();
      }
    }
  };
  walk(root);
  flush();
  return blocks;
}

/** Least share of the page's prose that readability must keep for its extract to be used. */
const MIN_KEPT = 0.85;

/** Where a page keeps what is not its content: navigation, banners, sidebars, footers. */
const CHROME =
  'nav, aside, header, footer, [role="navigation"], [role="banner"], [role="complementary"], ' +
  '[role="contentinfo"], [role="search"], [hidden]';

/** A copy of `body` without its navigation and chrome (see {@link CHROME}) or scripts. */
function withoutChrome(body: Element): Element {
  const copy = body.cloneNode(true) as Element;
  for (const el of Array.from(copy.querySelectorAll(CHROME))) {
    // A header or footer inside an article is the article's own (its title, its byline).
    if (/^(?:HEADER|FOOTER)$/i.test(el.tagName) && el.closest('article, main')) continue;
    el.remove();
  }
  for (const el of Array.from(copy.querySelectorAll([...SKIP_TAGS].join(', ')))) el.remove();
  // A sidebar or table of contents that is no landmark: a block made of links, a menu's worth.
  for (const el of Array.from(copy.querySelectorAll('div, ul, ol, section, table'))) {
    const links = Array.from(el.querySelectorAll('a'));
    if (links.length < MIN_MENU_LINKS) continue;
    // Counted in letters and digits: a menu's bullets and arrows ("- each", "» Twitter") are no
    // text of its own.
    const linked = links.reduce((n, a) => n + letters(a.textContent), 0);
    if (letters(el.textContent) - linked < MAX_MENU_PROSE * letters(el.textContent)) el.remove();
  }
  return copy;
}

/** How many letters and digits a text holds. */
const letters = (text: string | null): number => (text ?? '').match(/[\p{L}\p{N}]/gu)?.length ?? 0;

/** Fewest links of a block read as a menu when it is mostly links. */
const MIN_MENU_LINKS = 10;

/** Most share of a menu's text outside its links. */
const MAX_MENU_PROSE = 0.2;

/** Fewest paragraphs of running text readability may drop before the page is the content. */
const MAX_DROPPED_PARAGRAPHS = 2;

/** Fewest characters of a paragraph of running text (a sentence or more, not a label). */
const MIN_PARAGRAPH_CHARS = 80;

/**
 * True when readability dropped paragraphs of running text outside the page's chrome: more than
 * {@link MAX_DROPPED_PARAGRAPHS} of at least {@link MIN_PARAGRAPH_CHARS} characters, each mostly
 * outside links. On a page of sections side by side (a DocBook FAQ, one `<div>` per question) it
 * keeps the best-scored ones and drops whole answers; a documentation page loses facts that way,
 * which costs more than the odd line of chrome the whole page keeps.
 */
function droppedProse(kept: Element, whole: Element): boolean {
  const keptText = (kept.textContent ?? '').replace(/\s+/g, ' ');
  let dropped = 0;
  for (const el of Array.from(whole.querySelectorAll('p, li, dd, blockquote'))) {
    if (el.querySelector('p, li, dd, blockquote')) continue;
    const text = (el.textContent ?? '').replace(/\s+/g, ' ').trim();
    if (text.length < MIN_PARAGRAPH_CHARS || 2 * prose(el) < text.length) continue;
    if (!keptText.includes(text) && ++dropped > MAX_DROPPED_PARAGRAPHS) return true;
  }
  return false;
}

/** How many characters of text an element holds outside links (menus and tables of contents). */
function prose(root: Element): number {
  let links = 0;
  for (const a of Array.from(root.querySelectorAll('a'))) links += squashed(a.textContent);
  return squashed(root.textContent) - links;
}

const squashed = (text: string | null): number => (text ?? '').replace(/\s+/g, ' ').trim().length;

/**
 * Extracts an HTML page: main content through readability (over linkedom), plus title, canonical
 * URL, `lang`, dates and category from the head.
 *
 * @param html - The page source (or rendered DOM serialisation).
 * @param options.baseUrl - The page's own URL, for relative links; `null` for a local file.
 * @param options.readability - Run readability; off for HTML that is already only content (DOCX). @default true
 * @throws Error when the input holds no readable text at all.
 */
export function readHtml(
  html: string,
  options: { baseUrl: string | null; readability?: boolean },
): ExtractedDocument {
  const document = parseDocument(html);
  const meta = readHtmlMeta(document, options.baseUrl);
  // A saved page states its real address; its relative image URLs resolve against that, not the file.
  const baseUrl =
    meta.canonicalUrl && (!options.baseUrl || options.baseUrl.startsWith('file:'))
      ? meta.canonicalUrl
      : options.baseUrl;
  let contentRoot: Element | null = null;
  let contentHtml = '';
  let articleTitle: string | null = null;
  if (options.readability !== false) {
    // Readability mutates the tree it reads, so it gets its own copy.
    const copy = parseDocument(html);
    let article: ReturnType<Readability['parse']> = null;
    try {
      article = new Readability(copy, { charThreshold: 100 }).parse();
    } catch {
      // Readability gives up on some malformed trees; the whole body is then the content.
      article = null;
    }
    if (article?.content) {
      contentHtml = article.content;
      articleTitle = article.title?.trim() || null;
      contentRoot = parseHTML(`<!doctype html><html><body>${contentHtml}</body></html>`).document
        .body;
    }
  }
  // Readability keeps its best-scored container and the siblings that score near it: on a page
  // of several sections side by side (a DocBook man page: "Name", "Description", ..., each its own
  // <div>) it drops the smaller ones whole. When it kept much less prose than the page holds
  // outside its navigation, the page is the content; so it is when readability found none.
  const whole =
    options.readability !== false && document.body ? withoutChrome(document.body) : null;
  if (
    whole &&
    squashed(whole.textContent) > 0 &&
    (!contentRoot ||
      prose(contentRoot) < MIN_KEPT * prose(whole) ||
      droppedProse(contentRoot, whole))
  ) {
    contentRoot = whole;
    contentHtml = whole.innerHTML;
  }
  if (!contentRoot) {
    contentRoot = document.body ?? document.documentElement;
    contentHtml = contentRoot?.innerHTML ?? '';
  }
  const blocks = contentRoot ? htmlToBlocks(contentRoot, baseUrl) : [];
  const firstH1 = document.querySelector('h1')?.textContent?.replace(/\s+/g, ' ').trim() || null;
  return withMeta(meta, meta.title ?? articleTitle ?? firstH1 ?? '', blocks, contentHtml);
}
