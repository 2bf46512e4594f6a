/**
 * What a candidate passage may be made of: whole sentences of running text from one block (a
 * paragraph of prose shown as is in a `<pre>` counts as one), one table row, a comment in code
 * that reads as prose, or a short block of settings with the sentence that introduces it as the
 * defaults. The page's chrome (navigation, sidebars, page header and
 * footer) is left out, headings, table headers and code itself are not passages (a heading and a
 * table header become the `context` of the passages under them).
 */
import { readsAsProse } from '../verify/plain-text.js';
import { codeComments, settingsBlock } from './code-comments.js';
import {
  contentWords,
  normalizeSegments,
  normalizeText,
  rawText,
  splitSentences,
  toRange,
} from './text.js';
import type { NormalizedText, Span, TextSegments } from './text.js';

/**
 * The role of a visible text node: `t` running text (paragraphs, list items), `h` heading, `c`
 * table cell, `H` cell of a table's header row, `k` preformatted (`<pre>`: code, or prose shown as
 * is, which {@link prepareText} tells apart), `x` page chrome.
 */
export type TextRole = 't' | 'h' | 'c' | 'H' | 'k' | 'x';

/** Roles of the nodes of the last `collectTextInPage` walk, from {@link describeTextInPage}. */
export interface TextRoles {
  /** Role of each node, as one character per node. */
  roles: string;
  /** Table row of each node (an index, the same for every cell of a row), -1 outside tables. */
  rows: number[];
  /**
   * Index into `contexts` of each node's context: its table's header row, or the headings above
   * it (each one it nests under).
   */
  context: number[];
  /** Context texts, whitespace collapsed. */
  contexts: string[];
  /**
   * Index into `contexts` of the headings above each node, for a table cell too (whose `context`
   * is its header row); absent: none known.
   */
  headings?: number[];
}

/**
 * Runs in the page (self-contained; see in-page.ts): describes each node of the last
 * `collectTextInPage` walk, and watches the DOM so a later call knows whether that walk still
 * holds (`window.__svcTextDirty`). Chrome is a node inside `nav`, `aside`, an ARIA navigation,
 * complementary, search or contentinfo landmark, a page-level `header`/`footer` (not inside
 * `article` or `main`), or outside `main` when the page has one.
 * @returns `null` when there is no walk to describe
 */
export function describeTextInPage(_: null): TextRoles | null {
  type State = { nodes: Text[] };
  const w = window as unknown as {
    __svcText?: State;
    __svcTextDirty?: boolean;
    __svcTextObserver?: MutationObserver;
  };
  const nodes = w.__svcText?.nodes;
  if (!nodes) return null;
  if (!w.__svcTextObserver) {
    w.__svcTextObserver = new MutationObserver(() => (w.__svcTextDirty = true));
    w.__svcTextObserver.observe(document.documentElement, {
      subtree: true,
      childList: true,
      characterData: true,
      attributes: true,
      attributeFilter: ['class', 'style', 'hidden', 'open'],
    });
  }
  w.__svcTextDirty = false;
  const landmark =
    'nav,aside,[role="navigation"],[role="complementary"],[role="search"],[role="contentinfo"]';
  const main = document.querySelector('main,[role="main"]');
  const squash = (s: string | null): string => (s ?? '').replace(/\s+/g, ' ').trim();
  const lastSentence = (s: string): string =>
    (s.split(/(?<=[.!?:])\s+(?=[A-Z])/).at(-1) ?? s).slice(0, 200);
  const contexts: string[] = [''];
  const contextOf = new Map<Element, number>();
  const rowOf = new Map<Element, number>();
  const headerRows = new Map<Element, Element | null>();
  const addContext = (key: Element, text: string): number => {
    let i = contextOf.get(key);
    if (i === undefined) {
      i = contexts.push(text) - 1;
      contextOf.set(key, i);
    }
    return i;
  };
  const isHeaderRow = (tr: HTMLTableRowElement): boolean =>
    tr.parentElement?.tagName === 'THEAD' ||
    (tr.cells.length > 0 && Array.from(tr.cells).every((c) => c.tagName === 'TH'));
  const headerRowOf = (table: HTMLTableElement): Element | null => {
    let found = headerRows.get(table);
    if (found === undefined) {
      const first = table.tHead?.rows[0] ?? table.rows[0];
      found = first && isHeaderRow(first) ? first : null;
      headerRows.set(table, found);
    }
    return found;
  };
  // An FAQ's answer is about its question (DocBook's qandaset: a ".question" then an ".answer",
  // as table rows or as blocks): "it", "these classes" and the names the answer leaves out are
  // the question's.
  const questionOf = (el: Element): Element | null => {
    const answer = el.closest('.answer');
    let q = answer?.previousElementSibling ?? null;
    while (q && !q.classList.contains('question')) q = q.previousElementSibling;
    return q;
  };
  // A definition's term, or the label a reference paragraph opens with ("<b>debounce</b>
  // <code>_.debounce(function, wait)</code> Creates and returns..."), names what its sentences
  // are about, like a heading.
  const labelOf = (el: Element): Element | null => {
    const answer = questionOf(el);
    if (answer) return answer;
    const dd = el.closest('dd');
    if (dd) {
      let dt = dd.previousElementSibling;
      while (dt && dt.tagName !== 'DT') dt = dt.previousElementSibling;
      if (dt) return dt;
    }
    const block = el.closest('p,li');
    const first = block?.firstElementChild;
    // Only a label that opens the block: no text before it.
    const opens =
      block &&
      first &&
      /^(?:B|STRONG|CODE|DFN)$/.test(first.tagName) &&
      (block.firstChild === first || squash(block.firstChild?.textContent ?? '') === '');
    if (opens) return first;
    return leadOf(el);
  };
  // A list's items are about what the paragraph right before the list names ("Using GCC, you can
  // force the STL to use malloc ..." then "With GCC 3.4 and later, that variable has changed name
  // to GLIBCXX_FORCE_NEW"): that paragraph's last sentence is their context.
  const leadOf = (el: Element): Element | null => {
    const list = el.closest('li')?.parentElement;
    if (!list || !/^(?:UL|OL)$/.test(list.tagName)) return null;
    const lead = list.previousElementSibling;
    return lead?.tagName === 'P' ? lead : null;
  };
  // A block that opens with a name and a colon ("sourceType: Indicate the mode the code should
  // be parsed in.", as a README's option list reads once rendered) is about that name.
  const namedBy = (el: Element): [Element, string] | null => {
    const block = el.closest('p,li');
    const m = block && /^\s*([A-Za-z_$][\w$.-]{1,40})\s*:\s/.exec(block.textContent ?? '');
    return block && m ? [block, m[1]!] : null;
  };
  const labelled = (el: Element, heading: number): number => {
    const label = labelOf(el);
    if (!label) {
      const named = namedBy(el);
      return named ? addContext(named[0], `${contexts[heading]} ${named[1]}`.trim()) : heading;
    }
    let text = squash(label.textContent);
    // A lead paragraph gives its last sentence.
    if (label.tagName === 'P') text = lastSentence(text);
    // Terms in a row name one description ("-v" then "--verbose", a function's overloads).
    for (let dt = label.previousElementSibling; label.tagName === 'DT' && dt?.tagName === 'DT';) {
      text = `${squash(dt.textContent)}, ${text}`;
      dt = dt.previousElementSibling;
    }
    const next = label.nextElementSibling;
    if (label.tagName !== 'DT' && next?.tagName === 'CODE') text += ` ${squash(next.textContent)}`;
    return addContext(label, `${contexts[heading]} ${text}`.trim());
  };
  // An entry's version metadata, right under its heading and before its text ("Added in:
  // v22.0.0", "Deprecated since: v10.0.0", a History table's versions), reads with the heading,
  // so the entry's sentences state when it came: "hasSubscribers, added in v22.0.0, is true...".
  const versionLine =
    /^(?:added in|introduced in|deprecated since|new in version|since)\s*:?\s*v?\d+\.\d+/i;
  const versionCell = /^v?\d+\.\d+(?:\.\d+)?$/;
  // So does a C reference's one-line definition of the constant it documents ("#define
  // ASN1_MAX_ERROR_DESCRIPTION_SIZE 128" under that name): its text gives the value.
  const definition = /^#\s*define\s+([A-Za-z_]\w*)\s+\(?-?\d[\w.]*\)?$/;
  /** The heading whose metadata the walk is still in, or -1 once its text has started. */
  let metadataOf = -1;
  let heading = 0;
  const chain: { level: number; text: string }[] = [];
  let roles = '';
  const rows: number[] = [];
  const context: number[] = [];
  const headings: number[] = [];
  for (const node of nodes) {
    const el = node.parentElement;
    let role = 't';
    let row = -1;
    let ctx = heading;
    const h = el?.closest('h1,h2,h3,h4,h5,h6,[role="heading"]');
    const cell = el?.closest('td,th');
    const outside =
      !el ||
      el.closest(landmark) !== null ||
      (main !== null && !main.contains(el)) ||
      (el.closest('header,footer') !== null && el.closest('article,main,[role="main"]') === null);
    if (outside) role = 'x';
    else if (el.closest('pre')) role = 'k';
    // A table that lays out questions and answers is no table of data.
    else if (!h && (!cell || el.closest('.question,.answer'))) ctx = labelled(el, heading);
    else if (h) {
      role = 'h';
      if (!contextOf.has(h)) {
        // The headings above it that it nests under: "cookie.parse(str, options) Options decode".
        const level = Number(
          h.getAttribute('aria-level') ?? /^H([1-6])$/.exec(h.tagName)?.[1] ?? 2,
        );
        while (chain.length > 0 && chain[chain.length - 1]!.level >= level) chain.pop();
        chain.push({ level, text: squash(h.textContent) });
      }
      // An h1 is the page's title, which the caller already passes as the page's own context.
      const inner = chain.filter((x, i) => x.level > 1 || i === chain.length - 1);
      heading = addContext(h, inner.map((x) => x.text).join(' '));
      ctx = heading;
    } else if (cell) {
      const tr = cell.parentElement as HTMLTableRowElement;
      const table = cell.closest('table');
      const header = table ? headerRowOf(table) : null;
      role = tr === header || isHeaderRow(tr) ? 'H' : 'c';
      let r = rowOf.get(tr);
      if (r === undefined) {
        r = rowOf.size;
        rowOf.set(tr, r);
      }
      row = r;
      if (header) {
        const text = Array.from((header as HTMLTableRowElement).cells, (c) =>
          squash(c.textContent),
        );
        ctx = addContext(header, text.join(' | '));
      }
    }
    if (h) metadataOf = heading;
    else if (metadataOf === heading && role !== 'x') {
      const text = squash(node.textContent);
      const history = el?.closest('details') !== null;
      const defined = role === 'k' ? definition.exec(text)?.[1] : undefined;
      if (
        versionLine.test(text) ||
        (history && role === 'c' && versionCell.test(text)) ||
        (defined !== undefined && contexts[heading]!.includes(defined))
      )
        contexts[heading] = `${contexts[heading]} ${text}`;
      else if (!history && text !== '') metadataOf = -1;
    }
    roles += role;
    rows.push(row);
    context.push(ctx);
    headings.push(heading);
  }
  return { roles, rows, context, contexts, headings };
}

/** A piece a candidate may be made of. */
export interface PassageUnit {
  /** Span of the normalised text, trimmed. */
  span: Span;
  /** A sentence of running text (or of a comment in code), or a whole table row. */
  kind: 'sentence' | 'row';
  /** Index of the block (paragraph, list item, row) it belongs to: windows stay within one. */
  block: number;
  /** The headings above it (outermost first), or its table's header row; `''` when none. */
  context: string;
  /** For a table row, the headings above its table, when any. */
  heading?: string;
  /** For a table row, its cells, in order. */
  cells?: Span[];
  /**
   * For a table row under a header row, the header's cells: what each of the row's cells is (its
   * `Default`, its `Valid values`).
   */
  columns?: string[];
}

/** A page's text prepared for passage finding. */
export interface PreparedText {
  /** The segments as read, with chrome emptied when the page has main content apart from it. */
  segments: TextSegments;
  norm: NormalizedText;
  units: PassageUnit[];
  /** Content words of each unit, filled on first use. */
  words?: string[][];
  /** Chunks of the embedding step, filled on first use. */
  chunks?: { span: Span; text: string; context: string }[];
}

/** A sentence introducing the defaults that follow it ("The default configuration is:"). */
const DEFAULTS_LEAD = /\bdefaults?\b[^:]*:$/i;

/** Least share of the visible text outside the chrome for the chrome to be left out. */
const MIN_CONTENT_SHARE = 0.2;

/**
 * Prepares a page's text: chrome left out (unless that leaves too little, when the marking is
 * likely wrong), then the units every candidate is built from.
 */
export function prepareText(read: TextSegments, described: TextRoles | null): PreparedText {
  const roles = described?.roles ?? '';
  let total = 0;
  let chrome = 0;
  read.texts.forEach((t, n) => {
    total += t.length;
    if (roles[n] === 'x') chrome += t.length;
  });
  const dropChrome = chrome > 0 && total - chrome >= total * MIN_CONTENT_SHARE;
  const segments = dropChrome
    ? { texts: read.texts.map((t, n) => (roles[n] === 'x' ? '' : t)), blocks: read.blocks }
    : read;
  const norm = normalizeSegments(segments);
  const units: PassageUnit[] = [];
  const contextAt = (n: number): string => described?.contexts[described.context[n] ?? 0] ?? '';
  let block = 0;
  let start = 0;
  /** Spans of the code blocks, in order. */
  const code: Span[] = [];
  /** The sentences of `span` as units of the current block, each with `context(its start)`. */
  const pushSentences = (span: Span, context: (at: number) => string): void => {
    for (const sentence of splitSentences(norm.text.slice(span.start, span.end))) {
      const start = span.start + sentence.start;
      units.push({
        span: { start, end: span.start + sentence.end },
        kind: 'sentence',
        block,
        context: context(start),
      });
    }
  };
  const closeRun = (end: number): void => {
    let s = start;
    while (s < end && norm.text[s] === ' ') s++;
    if (s >= end) return;
    const n = norm.node[s]!;
    const role = (roles[n] ?? 't') as TextRole;
    if (role === 'c') {
      const row = described?.rows[n] ?? -1;
      const last = units[units.length - 1];
      const prevRow = last ? (described?.rows[norm.node[last.span.start]!] ?? -1) : -1;
      const cell = { start: s, end: trimEnd(norm.text, end) };
      if (last?.kind === 'row' && row >= 0 && row === prevRow) {
        last.span = { start: last.span.start, end: cell.end };
        last.cells?.push(cell);
        return;
      }
      block++;
      const headingAt = described?.headings?.[n] ?? 0;
      const heading = described?.contexts[headingAt];
      // Its context is its table's header row when that is not the headings above it.
      const header = described && described.context[n] !== headingAt;
      units.push({
        span: cell,
        kind: 'row',
        block,
        context: contextAt(n),
        ...(heading ? { heading } : {}),
        cells: [cell],
        ...(header ? { columns: contextAt(n).split(' | ') } : {}),
      });
      return;
    }
    // A plain-text document shown as is (an RFC, a guide wrapped at 80 columns) is running text:
    // its paragraphs, cut where the source has a blank line or opens a list item.
    if (role === 'k' && readsAsProse(runText(segments, norm, s, end))) {
      for (const para of paragraphs(segments, norm, s, end)) {
        block++;
        pushSentences(para, () => contextAt(n));
      }
      return;
    }
    if (role === 'k') {
      code.push({ start: s, end: trimEnd(norm.text, end) });
      // "The default configuration is the equivalent of:" and a short block of settings: one
      // passage, as a list joined to the sentence that introduces it.
      const lead = units[units.length - 1];
      if (
        lead?.kind === 'sentence' &&
        norm.text.slice(lead.span.end, s).trim() === '' &&
        DEFAULTS_LEAD.test(norm.text.slice(lead.span.start, lead.span.end)) &&
        settingsBlock(segments, norm, s, end)
      )
        lead.span = { start: lead.span.start, end: trimEnd(norm.text, end) };
      for (const group of codeComments(segments, norm, s, end)) {
        block++;
        for (const line of group) pushSentences(line, () => contextAt(n));
      }
      return;
    }
    if (role !== 't' && !(role === 'x' && !dropChrome)) return;
    block++;
    pushSentences({ start: s, end }, (at) => contextAt(norm.node[at] ?? n));
  };
  for (let i = 0; i < norm.text.length; i++) {
    if (!norm.breaks.has(i)) continue;
    closeRun(i);
    start = i + 1;
  }
  closeRun(norm.text.length);
  joinCodeAbove(segments, norm, units, code);
  linkAnaphora(segments, norm, units);
  linkCode(segments, norm, units, code);
  joinAnswers(norm, units);
  joinFields(norm, units);
  joinLists(norm, units);
  return { segments, norm, units };
}

/** The source text of the nodes of `[start, end)` of the normalised text, as written. */
function runText(segments: TextSegments, norm: NormalizedText, start: number, end: number): string {
  const first = norm.node[start]!;
  const last = norm.node[Math.max(start, end - 1)]!;
  return segments.texts.slice(first, last + 1).join('');
}

/**
 * The paragraphs of prose shown as is (a `<pre>` that {@link readsAsProse}) in `[start, end)` of
 * the normalised text: cut where the source has a blank line, or a line that opens a list item
 * ("  - intro.txt : it presents ..."), since whitespace is collapsed in `norm`.
 */
function paragraphs(
  segments: TextSegments,
  norm: NormalizedText,
  start: number,
  end: number,
): Span[] {
  const out: Span[] = [];
  let from = start;
  for (let i = start; i < end; i++) {
    if (norm.text[i] !== ' ') continue;
    const raw = segments.texts[norm.node[i]!] ?? '';
    const after = raw.slice(norm.offset[i]!);
    const gap = /^\s*/.exec(after)![0];
    if (!/\n[ \t]*\n/.test(gap) && !(gap.includes('\n') && LIST_ITEM.test(after.slice(gap.length))))
      continue;
    if (i > from) out.push({ start: from, end: i });
    from = i + 1;
  }
  if (end > from) out.push({ start: from, end });
  return out;
}

/** What opens a list item in plain text: "- ", "* ", "o ", "1. ", "a) ". */
const LIST_ITEM = /^(?:[-*o\u2022]|\d{1,2}[.)]|[a-z][.)])\s/;

/**
 * Longest list item joined to the sentence that introduces its list: a name, a short phrase or a
 * line ("formData()", "json-schema-benchmark - 50% faster than the second place" under "Ajv is the
 * fastest according to these benchmarks:"), which says nothing of what the list is about without
 * that sentence. A longer item states a fact of its own, and joined to the others, with no full
 * stop between them, it would read as one sentence with theirs.
 */
const MAX_ITEM_CHARS = 80;
/** Most list items joined to the sentence that introduces them. */
const MAX_ITEMS = 12;

/**
 * A sentence that introduces a list ("The following methods are not yet implemented:") states
 * its fact of each item, and a short item ("formData()") states nothing without it: the
 * sentence's unit reaches over the short one-sentence items after it, under one heading, so a
 * window reads "...not yet implemented: formData()". The items stay units of their own too.
 */
function joinLists(norm: NormalizedText, units: PassageUnit[]): void {
  for (let i = 0; i < units.length - 1; i++) {
    const lead = units[i]!;
    if (lead.kind !== 'sentence' || !norm.text.slice(lead.span.start, lead.span.end).endsWith(':'))
      continue;
    if (units[i + 1]!.block === lead.block) continue;
    let end = lead.span.end;
    for (let k = i + 1, n = 0; k < units.length && n < MAX_ITEMS; k++, n++) {
      const item = units[k]!;
      const alone = units[k + 1]?.block !== item.block && units[k - 1]!.block !== item.block;
      // Right after the one before: no code or other text between (a comment in code is a unit).
      const next = norm.text.slice(units[k - 1]!.span.end, item.span.start).trim() === '';
      // "Example stdout.js:" introduces something of its own.
      const introduces = norm.text.slice(item.span.start, item.span.end).endsWith(':');
      if (
        !next ||
        introduces ||
        item.kind !== 'sentence' ||
        item.context !== lead.context ||
        !alone ||
        item.span.end - item.span.start > MAX_ITEM_CHARS
      )
        break;
      end = item.span.end;
    }
    lead.span = { start: lead.span.start, end };
  }
}

/** A list item that gives one field of an entry: "default: `false`", "Type: string". */
const FIELD = /^[\p{L}][\p{L}\p{N} _-]{0,24}:\s*\S[^:]{0,60}$/u;

/**
 * The fields an entry lists at the top of its section ("* default: `false`" and "* key:
 * `combine-arrays`" under "combine arrays", then "Should arrays be combined when ..."; "Type:
 * string", "Default: '/'" above an option's description) say what the description that follows
 * is about and what it defaults to: the description's first sentence starts at the fields, so a
 * window holding it holds them. Only a list of one-sentence items right at the top of a section,
 * followed by running text under the same heading. The fields stay units of their own too.
 */
function joinFields(norm: NormalizedText, units: PassageUnit[]): void {
  const field = (u: PassageUnit | undefined): boolean =>
    u?.kind === 'sentence' && FIELD.test(norm.text.slice(u.span.start, u.span.end));
  // Next to each other, in blocks of their own: nothing but spaces between.
  const adjacent = (a: PassageUnit, b: PassageUnit): boolean =>
    a.block !== b.block && norm.text.slice(a.span.end, b.span.start).trim() === '';
  for (let i = 0; i < units.length; i++) {
    if (!field(units[i])) continue;
    let k = i;
    while (field(units[k + 1]) && adjacent(units[k]!, units[k + 1]!)) k++;
    const next = units[k + 1];
    const run = i;
    i = k;
    if (next?.kind !== 'sentence' || !adjacent(units[k]!, next)) continue;
    // Under the description's heading, a field's label apart ("Type:" in bold labels its item).
    const under = (u: PassageUnit | undefined): boolean =>
      u !== undefined && (u.context === next.context || u.context.startsWith(`${next.context} `));
    if (units.slice(run, k + 1).every(under) && !under(units[run - 1]))
      next.span = { start: units[run]!.span.start, end: next.span.end };
  }
}

/** Longest text of a previous sentence added to a context. */
const MAX_ANTECEDENT_CHARS = 200;

/**
 * A paragraph that opens by referring back ("The extension is disabled by default", "It", "This")
 * is about what the paragraph before named ("ws supports the permessage-deflate extension"): its
 * sentences get that paragraph's last sentence as context, so a claim naming the thing finds it
 * stated. "The X" refers back only when the sentence before names X; both paragraphs must stand
 * under one heading.
 */
function linkAnaphora(segments: TextSegments, norm: NormalizedText, units: PassageUnit[]): void {
  for (let i = 1; i < units.length; i++) {
    const unit = units[i]!;
    const before = units[i - 1]!;
    if (unit.kind !== 'sentence' || before.kind !== 'sentence') continue;
    if (unit.block === before.block || unit.context !== before.context) continue;
    const opening = /^(?:(?:it|this|these|they|such)\b|the ([\p{L}][\p{L}-]+))/u.exec(
      norm.text.slice(unit.span.start, unit.span.end),
    );
    if (!opening) continue;
    const previous = norm.text.slice(before.span.start, before.span.end);
    // The noun is letters and hyphens: nothing in it to escape.
    if (opening[1] && !new RegExp(`(?<![\\p{L}])${opening[1]}(?![\\p{L}])`, 'u').test(previous))
      continue;
    const antecedent = rawText(segments, toRange(norm, segments, before.span)).slice(
      0,
      MAX_ANTECEDENT_CHARS,
    );
    const context = `${unit.context} ${antecedent}`.trim();
    for (let k = i; k < units.length && units[k]!.block === unit.block; k++) {
      units[k]!.context = context;
    }
  }
}

/** The non-blank lines of a code block as written, trimmed (`rawText` collapses them). */
function codeLines(segments: TextSegments, norm: NormalizedText, block: Span): string[] {
  const range = toRange(norm, segments, block);
  return segments.texts
    .slice(range.start.node, range.end.node + 1)
    .map((t, k) =>
      t.slice(
        k === 0 ? range.start.offset : 0,
        range.start.node + k === range.end.node ? range.end.offset : t.length,
      ),
    )
    .join('\n')
    .split('\n')
    .map((x) => x.trim())
    .filter((x) => x.length > 0);
}

/** Most lines of a code block a sentence right after it may start at. */
const MAX_JOINED_CODE_LINES = 3;
/** Longest code block, in characters, a sentence right after it may start at. */
const MAX_JOINED_CODE_CHARS = 160;

/**
 * A paragraph right after a short code block that opens by referring back to it ("set
 * ttimeoutlen=100" then "This makes typing Esc take effect more quickly") says what the code does,
 * and the code holds the names and values it does it with: the paragraph's first sentence starts at
 * the block, so a passage holding it states "ttimeoutlen" and "100". Only a block of a few short
 * lines (a setting, a call), with nothing but space before the sentence; the code stays out of
 * passages of its own.
 */
function joinCodeAbove(
  segments: TextSegments,
  norm: NormalizedText,
  units: PassageUnit[],
  code: readonly Span[],
): void {
  let c = 0;
  for (let i = 0; i < units.length; i++) {
    const unit = units[i]!;
    if (unit.kind !== 'sentence' || units[i - 1]?.block === unit.block) continue;
    while (c + 1 < code.length && code[c + 1]!.end <= unit.span.start) c++;
    const block = code[c];
    if (!block || block.end > unit.span.start) continue;
    if (norm.text.slice(block.end, unit.span.start).trim() !== '') continue;
    if (!/^(?:this|these|it)\b/.test(norm.text.slice(unit.span.start, unit.span.end))) continue;
    const lines = codeLines(segments, norm, block);
    if (lines.length > MAX_JOINED_CODE_LINES || block.end - block.start > MAX_JOINED_CODE_CHARS)
      continue;
    unit.span = { start: block.start, end: unit.span.end };
  }
}

/** Longest text of a code block's first line added to a context. */
const MAX_CODE_LINE_CHARS = 120;

/**
 * A sentence that introduces a code block ("Facade modules ... can be detected via the third
 * return value:" then "const [,, facade] = parse(...)") says what the code shows, and the code
 * names what it is done with: the sentence gets the block's first line as context, so a claim
 * naming the function ("the third value returned by parse()") finds it stated. Only the sentence
 * right before the block, ending with a colon; the code itself stays out of the passage.
 */
function linkCode(
  segments: TextSegments,
  norm: NormalizedText,
  units: PassageUnit[],
  code: readonly Span[],
): void {
  let u = 0;
  for (const block of code) {
    while (u + 1 < units.length && units[u + 1]!.span.end <= block.start) u++;
    const lead = units[u];
    if (lead?.kind !== 'sentence' || lead.span.end > block.start) continue;
    if (norm.text.slice(lead.span.end, block.start).trim() !== '') continue;
    if (!norm.text.slice(lead.span.start, lead.span.end).endsWith(':')) continue;
    const line = codeLines(segments, norm, block).find((x) => !/^(?:\/\/|#|\/\*)/.test(x));
    if (!line) continue;
    lead.context = `${lead.context} ${line.slice(0, MAX_CODE_LINE_CHARS)}`.trim();
  }
}

/**
 * An answer that opens with "No" or "Yes" says nothing without its question ("Is it possible to
 * attach Valgrind to a running program?" then "No. The environment ..."): its first sentence
 * starts at the question, so every passage holding the answer holds what it answers (the
 * verifier reads the pair as a statement; see `restateAnswers`).
 */
function joinAnswers(norm: NormalizedText, units: PassageUnit[]): void {
  for (let i = 1; i < units.length; i++) {
    const unit = units[i]!;
    const before = units[i - 1]!;
    if (unit.kind !== 'sentence' || before.kind !== 'sentence' || unit.block === before.block)
      continue;
    const question = norm.text.slice(before.span.start, before.span.end);
    const answer = norm.text.slice(unit.span.start, unit.span.end);
    if (question.trimEnd().endsWith('?') && /^(?:no|yes)\b/i.test(answer))
      unit.span = { start: before.span.start, end: unit.span.end };
  }
}

function trimEnd(text: string, end: number): number {
  let e = end;
  while (e > 0 && text[e - 1] === ' ') e--;
  return e;
}

/**
 * Runs in the page (self-contained): whether the nodes of the last `collectTextInPage` walk still
 * stand for the page, i.e. nothing changed the DOM since {@link describeTextInPage} ran.
 */
export function textStillHoldsInPage(_: null): boolean {
  const w = window as unknown as { __svcText?: unknown; __svcTextDirty?: boolean };
  return w.__svcText !== undefined && w.__svcTextDirty === false;
}

/**
 * The page's chunks for the embedding step: consecutive sentences of one block up to `chunkChars`
 * (a chunk never spans two paragraphs or list items), a table row on its own.
 */
export function chunksOf(
  text: PreparedText,
  chunkChars: number,
  maxChunks: number,
): NonNullable<PreparedText['chunks']> {
  if (text.chunks) return text.chunks;
  const spans: { span: Span; context: string }[] = [];
  let current: { span: Span; context: string; block: number } | null = null;
  for (const u of text.units) {
    if (
      current &&
      u.kind === 'sentence' &&
      u.block === current.block &&
      u.span.end - current.span.start <= chunkChars
    ) {
      current.span = { start: current.span.start, end: u.span.end };
    } else {
      if (current) spans.push(current);
      current = { span: u.span, context: u.context, block: u.block };
    }
  }
  if (current) spans.push(current);
  text.chunks = spans
    .slice(0, maxChunks)
    .map(({ span, context }) => ({
      span,
      context,
      text: rawText(text.segments, toRange(text.norm, text.segments, span)),
    }))
    .filter((c) => c.text.length > 0);
  return text.chunks;
}

/**
 * The `max` chunks sharing most of the claim's words, each word weighted by how rare it is among
 * the chunks (IDF), in page order; all of them when there are no more than `max`.
 */
export function preselect<T extends { text: string; context?: string }>(
  chunks: T[],
  claim: string,
  max: number,
): T[] {
  if (chunks.length <= max) return chunks;
  const wanted = new Set(contentWords(normalizeText(claim)));
  // What a chunk stands under counts: its heading, its entry's label, the thing it refers back to.
  const words = chunks.map(
    (c) => new Set(contentWords(normalizeText(`${c.context ?? ''} ${c.text}`))),
  );
  const df = new Map<string, number>();
  for (const set of words) for (const w of set) if (wanted.has(w)) df.set(w, (df.get(w) ?? 0) + 1);
  const score = words.map((set) => {
    let s = 0;
    for (const w of wanted) if (set.has(w)) s += Math.log(1 + chunks.length / (df.get(w) ?? 1));
    return s;
  });
  const keep = new Set(
    score
      .map((s, i) => ({ s, i }))
      .sort((a, b) => b.s - a.s || a.i - b.i)
      .slice(0, max)
      .map((x) => x.i),
  );
  return chunks.filter((_, i) => keep.has(i));
}
