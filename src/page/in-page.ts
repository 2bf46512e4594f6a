/**
 * Functions that run inside the page, sent as source text through {@link PageLike.evaluate}. Each
 * one is self-contained: it may use only its argument and the page's globals, never an import or
 * a module-level value.
 */
import type { Rect } from './adapter.js';
import type { TextPoint, TextSegments } from './text.js';

/** Where a located range sits in the page. */
export interface LocatedRange {
  /** CSS selector of the element containing the whole range. */
  domPath: string;
  /** Bounding rect of the range in page (document) coordinates. */
  rect: Rect;
}

/** Result of {@link wrapRangeInPage}. */
export interface WrappedRange {
  /** Value of the marks' `data-svc-highlight` attribute, unique within the page. */
  id: string;
  /** Number of `<mark>` elements inserted. */
  marks: number;
  /** Text now inside the marks, in order. */
  text: string;
  /** Union of the marks' rects, in page coordinates, after scrolling. */
  rect: Rect;
}

/** Signals a block detector judges, read from the page. */
export interface BlockSignals {
  title: string;
  /** Visible text, whitespace collapsed, at most 4,000 characters. */
  text: string;
  /** Length of the whole visible text. */
  textLength: number;
  /** A visible password field is present. */
  password: boolean;
  /** The first challenge or captcha selector that matched, if any. */
  captcha: string | null;
}

/** Result of {@link scrollThroughInPage}. */
export interface ScrollResult {
  /** Document height after scrolling (lazy content included). */
  height: number;
  width: number;
  viewportHeight: number;
  /** Scrolling stopped on the time bound before reaching the end. */
  timedOut: boolean;
}

/**
 * Collects the visible text nodes of the page in document order and keeps them on
 * `window.__svcText` so later calls can address them by index. Collapsed `<details>` are opened
 * first: what they hold is on the page (a reference's "History" table of versions, an FAQ's
 * answers), one click away, and a passage found there can then be highlighted and captured.
 */
export function collectTextInPage(_: null): TextSegments {
  for (const d of Array.from(document.querySelectorAll('details:not([open])'))) {
    (d as HTMLDetailsElement).open = true;
  }
  const skip =
    'script,style,noscript,template,textarea,select,option,head,title,iframe,svg,canvas,math';
  const texts: string[] = [];
  const blocks: number[] = [];
  const nodes: Text[] = [];
  const visible = new Map<Element, boolean>();
  const blockOf = new Map<Element, number>();
  const displays = new Map<Element, string>();
  const isVisible = (el: Element): boolean => {
    let v = visible.get(el);
    if (v === undefined) {
      v =
        !el.closest(skip) &&
        el.checkVisibility({ visibilityProperty: true, opacityProperty: false });
      visible.set(el, v);
    }
    return v;
  };
  const blockId = (el: Element): number => {
    let cur: Element | null = el;
    while (cur && cur !== document.body) {
      let display = displays.get(cur);
      if (display === undefined) {
        display = getComputedStyle(cur).display;
        displays.set(cur, display);
      }
      if (!display.startsWith('inline') && display !== 'contents') break;
      cur = cur.parentElement;
    }
    const key = cur ?? document.body;
    let id = blockOf.get(key);
    if (id === undefined) {
      id = blockOf.size;
      blockOf.set(key, id);
    }
    return id;
  };
  if (document.body) {
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const parent = n.parentElement;
      const data = (n as Text).data;
      if (!parent || data.length === 0 || !isVisible(parent)) continue;
      nodes.push(n as Text);
      texts.push(data);
      blocks.push(blockId(parent));
    }
  }
  (window as unknown as { __svcText?: { nodes: Text[] } }).__svcText = { nodes };
  return { texts, blocks };
}

/**
 * Finds the element containing the range `start..end` over the nodes of the last
 * {@link collectTextInPage}, with its CSS path and page rect; `null` when the nodes went stale.
 */
export function locateRangeInPage(arg: { start: TextPoint; end: TextPoint }): LocatedRange | null {
  const nodes = (window as unknown as { __svcText?: { nodes: Text[] } }).__svcText?.nodes;
  const a = nodes?.[arg.start.node];
  const b = nodes?.[arg.end.node];
  if (!a || !b || !a.isConnected || !b.isConnected) return null;
  if (arg.start.offset > a.length || arg.end.offset > b.length) return null;
  const range = document.createRange();
  range.setStart(a, arg.start.offset);
  range.setEnd(b, arg.end.offset);
  const container = range.commonAncestorContainer;
  const el = container instanceof Element ? container : container.parentElement;
  if (!el) return null;
  const path: string[] = [];
  for (
    let cur: Element | null = el;
    cur && cur !== document.documentElement;
    cur = cur.parentElement
  ) {
    const tag = cur.tagName.toLowerCase();
    if (cur.id && document.querySelectorAll(`#${CSS.escape(cur.id)}`).length === 1) {
      path.unshift(`#${CSS.escape(cur.id)}`);
      break;
    }
    const parent: Element | null = cur.parentElement;
    const same = parent
      ? Array.from(parent.children).filter((c) => c.tagName === cur!.tagName)
      : [];
    path.unshift(same.length > 1 ? `${tag}:nth-of-type(${same.indexOf(cur) + 1})` : tag);
  }
  let r = range.getBoundingClientRect();
  if (r.width === 0 && r.height === 0) r = el.getBoundingClientRect();
  return {
    domPath: path.join(' > '),
    rect: {
      x: r.left + window.scrollX,
      y: r.top + window.scrollY,
      width: r.width,
      height: r.height,
    },
  };
}

/**
 * Wraps the range `start..end` (over the nodes of the last {@link collectTextInPage}) in
 * `<mark data-svc-highlight>` elements, one per text node it touches, and scrolls the first one to
 * the viewport centre. `null` when the nodes went stale.
 */
export function wrapRangeInPage(arg: {
  start: TextPoint;
  end: TextPoint;
  color: string;
}): WrappedRange | null {
  const state = (window as unknown as { __svcText?: { nodes: Text[] } }).__svcText;
  const nodes = state?.nodes;
  if (!nodes) return null;
  const pieces: { node: Text; from: number; to: number }[] = [];
  for (let i = arg.start.node; i <= arg.end.node; i++) {
    const node = nodes[i];
    if (!node || !node.isConnected) return null;
    const from = i === arg.start.node ? arg.start.offset : 0;
    const to = i === arg.end.node ? arg.end.offset : node.length;
    if (to > node.length || from >= to) continue;
    if (!/\S/.test(node.data.slice(from, to))) continue;
    pieces.push({ node, from, to });
  }
  const counter = window as unknown as { __svcHighlightSeq?: number };
  counter.__svcHighlightSeq = (counter.__svcHighlightSeq ?? 0) + 1;
  const id = String(counter.__svcHighlightSeq);
  const marks: HTMLElement[] = [];
  for (const { node, from, to } of pieces) {
    let target = node;
    if (to < target.length) target.splitText(to);
    if (from > 0) target = target.splitText(from);
    const mark = document.createElement('mark');
    mark.setAttribute('data-svc-highlight', id);
    mark.style.backgroundColor = arg.color;
    mark.style.color = 'inherit';
    target.parentNode!.insertBefore(mark, target);
    mark.appendChild(target);
    marks.push(mark);
  }
  // Splitting changed the nodes: the stored walk no longer matches the page.
  delete (window as unknown as { __svcText?: unknown }).__svcText;
  if (marks.length === 0) return null;
  const union = (): { top: number; left: number; bottom: number; right: number } => {
    const u = { top: Infinity, left: Infinity, bottom: -Infinity, right: -Infinity };
    for (const m of marks) {
      for (const r of Array.from(m.getClientRects())) {
        u.top = Math.min(u.top, r.top);
        u.left = Math.min(u.left, r.left);
        u.bottom = Math.max(u.bottom, r.bottom);
        u.right = Math.max(u.right, r.right);
      }
    }
    return u;
  };
  marks[0]!.scrollIntoView({ block: 'center', inline: 'nearest', behavior: 'instant' });
  const first = union();
  if (first.bottom - first.top < window.innerHeight) {
    // Centre the whole passage, not just its first line.
    const shift = (first.top + first.bottom) / 2 - window.innerHeight / 2;
    window.scrollBy({ top: shift, behavior: 'instant' });
  }
  const u = union();
  return {
    id,
    marks: marks.length,
    text: marks.map((m) => m.textContent ?? '').join(''),
    rect: {
      x: u.left + window.scrollX,
      y: u.top + window.scrollY,
      width: u.right - u.left,
      height: u.bottom - u.top,
    },
  };
}

/**
 * Union rect, in page coordinates, of the marks of highlight `id` (`null` when there are none),
 * and the document size.
 */
export function markedRectInPage(arg: { id: string | null }): {
  rect: Rect | null;
  doc: { width: number; height: number };
} {
  const de = document.documentElement;
  const doc = {
    width: Math.max(de.scrollWidth, document.body?.scrollWidth ?? 0),
    height: Math.max(de.scrollHeight, document.body?.scrollHeight ?? 0),
  };
  let top = Infinity;
  let left = Infinity;
  let bottom = -Infinity;
  let right = -Infinity;
  const marks =
    arg.id === null
      ? []
      : Array.from(document.querySelectorAll(`mark[data-svc-highlight="${CSS.escape(arg.id)}"]`));
  // Whole lines: each mark widens the crop to the content box of the block it sits in, so a
  // passage that starts or ends mid-line is shown with the rest of its lines, not cut at the marks.
  const blockOf = (el: Element): Element | null => {
    for (let e: Element | null = el.parentElement; e && e !== document.body; e = e.parentElement) {
      const display = getComputedStyle(e).display;
      if (!display.startsWith('inline') && display !== 'contents') return e;
    }
    return null;
  };
  for (const m of marks) {
    const rects = Array.from(m.getClientRects());
    for (const r of rects) {
      top = Math.min(top, r.top);
      left = Math.min(left, r.left);
      bottom = Math.max(bottom, r.bottom);
      right = Math.max(right, r.right);
    }
    const block = rects.length ? blockOf(m) : null;
    if (block) {
      const b = block.getBoundingClientRect();
      const style = getComputedStyle(block);
      left = Math.min(left, b.left + (parseFloat(style.paddingLeft) || 0));
      right = Math.max(right, b.right - (parseFloat(style.paddingRight) || 0));
    }
  }
  if (top === Infinity) return { rect: null, doc };
  const rect = {
    x: left + window.scrollX,
    y: top + window.scrollY,
    width: right - left,
    height: bottom - top,
  };
  return { rect, doc };
}

/** Unwraps the marks of highlight `id` (all highlights when `null`); returns how many. */
export function unwrapMarksInPage(arg: { id: string | null }): number {
  const selector =
    arg.id === null
      ? 'mark[data-svc-highlight]'
      : `mark[data-svc-highlight="${CSS.escape(arg.id)}"]`;
  const marks = Array.from(document.querySelectorAll(selector));
  for (const mark of marks) {
    const parent = mark.parentNode;
    if (!parent) continue;
    while (mark.firstChild) parent.insertBefore(mark.firstChild, mark);
    parent.removeChild(mark);
    // Rejoin the text nodes the wrap split, so the page reads as before.
    parent.normalize();
  }
  return marks.length;
}

/** Reads what a challenge or login-wall detector needs. */
export function blockSignalsInPage(_: null): BlockSignals {
  const text = (document.body?.innerText ?? '').replace(/\s+/g, ' ').trim();
  const selectors = [
    '#challenge-form',
    '#challenge-running',
    '#cf-challenge-running',
    '.cf-turnstile',
    '.g-recaptcha',
    '.h-captcha',
    '[data-sitekey]',
    'iframe[src*="captcha" i]',
    'iframe[src*="challenges.cloudflare.com"]',
    'iframe[title*="challenge" i]',
    '#px-captcha',
  ];
  const captcha = selectors.find((s) => document.querySelector(s)) ?? null;
  const password = Array.from(document.querySelectorAll('input[type="password"]')).some((el) =>
    el.checkVisibility({ visibilityProperty: true }),
  );
  return {
    title: document.title,
    text: text.slice(0, 4000),
    textLength: text.length,
    password,
    captcha,
  };
}

/**
 * Scrolls down the page step by step, so IntersectionObservers and `loading=lazy` images fire,
 * until the end, `maxHeight`, or `timeout`; waits for pending images; returns to the top.
 */
export async function scrollThroughInPage(arg: {
  maxHeight: number;
  timeout: number;
  stepDelay: number;
}): Promise<ScrollResult> {
  const started = Date.now();
  const left = (): number => arg.timeout - (Date.now() - started);
  const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, Math.max(0, ms)));
  const height = (): number =>
    Math.max(document.documentElement.scrollHeight, document.body?.scrollHeight ?? 0);
  const step = Math.max(200, Math.floor(window.innerHeight * 0.8));
  let timedOut = false;
  let y = 0;
  for (;;) {
    if (left() <= 0) {
      timedOut = true;
      break;
    }
    if (y + window.innerHeight >= height() || y > arg.maxHeight) break;
    y += step;
    window.scrollTo({ top: y, behavior: 'instant' });
    await sleep(arg.stepDelay);
  }
  const pending = Array.from(document.images).filter((img) => !img.complete);
  if (pending.length > 0 && left() > 0) {
    const loaded = Promise.all(
      pending.map(
        (img) =>
          new Promise<void>((r) => {
            img.addEventListener('load', () => r(), { once: true });
            img.addEventListener('error', () => r(), { once: true });
          }),
      ),
    );
    await Promise.race([loaded, sleep(left())]);
  }
  window.scrollTo({ top: 0, behavior: 'instant' });
  // One more beat so observers reacting to the last scroll can insert their content.
  await sleep(Math.min(arg.stepDelay, Math.max(0, left())));
  return {
    height: height(),
    width: Math.max(document.documentElement.scrollWidth, document.body?.scrollWidth ?? 0),
    viewportHeight: window.innerHeight,
    timedOut,
  };
}
