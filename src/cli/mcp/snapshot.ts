// The page as an agent reads it (Markdown plus numbered interactive elements with refs) and the
// actions on those refs. A ref is a `data-svc-ref` attribute set on the element in the page: it
// survives any number of snapshots while the element lives, and numbers keep growing per session,
// so a ref from an earlier page never silently names an element of the next one.
import { readPage, toPageLike } from '../../page/index.js';
import type { PageLike } from '../../page/index.js';
import type { Session } from '../../sessions/index.js';
import type { DriverName } from '../../sessions/index.js';
import { ToolInputError } from './results.js';

/** One interactive element of a snapshot. */
export interface SnapshotElement {
  ref: string;
  role: string;
  name: string;
  /** Current value of a field, checked state of a box, target of a link. */
  value?: string;
  checked?: boolean;
  href?: string;
  disabled?: boolean;
}

/** What {@link snapshot} returns. */
export interface Snapshot {
  url: string;
  title: string;
  markdown: string;
  /** True when the Markdown was cut at `maxChars`. */
  truncated: boolean;
  elements: SnapshotElement[];
}

/** Defaults of the page actions on refs. Durations in ms. */
export const SNAPSHOT_DEFAULTS = {
  /** Most elements listed. */
  maxElements: 300,
  /** Bound on an action (click, type) and on the page settling after it. */
  actionTimeout: 10_000,
} as const;

/** The per-session counter of refs; starts at 1. */
export interface RefCounter {
  next: number;
}

/**
 * Reads the page as Markdown and lists its visible interactive elements, giving new ones refs.
 * @throws what the driver throws when the page is gone
 */
export async function snapshot(
  session: Session<DriverName>,
  counter: RefCounter,
  maxChars: number,
): Promise<Snapshot> {
  const page = toPageLike(session.page);
  const listed = await page.evaluate(markElements, {
    next: counter.next,
    max: SNAPSHOT_DEFAULTS.maxElements,
  });
  counter.next = listed.next;
  const read = await readPage(page);
  const full = read.markdown.trim() || read.text;
  return {
    url: page.url(),
    title: read.title,
    markdown: full.length > maxChars ? `${full.slice(0, maxChars)}\n\n[...cut]` : full,
    truncated: full.length > maxChars,
    elements: listed.elements,
  };
}

/** The snapshot as the text an agent reads. */
export function formatSnapshot(s: Snapshot): string {
  const lines = s.elements.map((e, i) => {
    let line = `${i + 1}. [${e.ref}] ${e.role} ${JSON.stringify(e.name)}`;
    if (e.href !== undefined) line += ` -> ${e.href}`;
    if (e.value !== undefined) line += ` value=${JSON.stringify(e.value)}`;
    if (e.checked !== undefined) line += e.checked ? ' (checked)' : ' (unchecked)';
    if (e.disabled) line += ' (disabled)';
    return line;
  });
  return [
    `# ${s.title || '(untitled)'}`,
    `URL: ${s.url}`,
    '',
    s.markdown || '(no readable text)',
    '',
    '## Interactive elements',
    lines.length > 0 ? lines.join('\n') : '(none)',
  ].join('\n');
}

/** Clicks the element `ref`, then waits for the page to settle. */
export async function clickRef(session: Session<DriverName>, ref: string): Promise<void> {
  const selector = await requireRef(session, ref);
  if (session.driver === 'playwright') {
    await (session as Session<'playwright'>).page.click(selector, {
      timeout: SNAPSHOT_DEFAULTS.actionTimeout,
    });
  } else {
    await (session as Session<'puppeteer'>).page.click(selector);
  }
  await settle(session);
}

/** Replaces the value of field `ref` by `text`; `submit` presses Enter after. */
export async function typeRef(
  session: Session<DriverName>,
  ref: string,
  text: string,
  submit: boolean,
): Promise<void> {
  const selector = await requireRef(session, ref);
  const editable = await toPageLike(session.page).evaluate(clearField, selector);
  if (!editable) throw new ToolInputError('ref', `${ref} is not a field that takes text`);
  await keyboard(session).type(text);
  if (submit) {
    await keyboard(session).press('Enter');
    await settle(session);
  }
}

/** Presses `key` on element `ref` (focused first) or on the focused element. */
export async function pressKey(
  session: Session<DriverName>,
  key: string,
  ref: string | undefined,
): Promise<void> {
  if (ref !== undefined) {
    const selector = await requireRef(session, ref);
    await toPageLike(session.page).evaluate(focusElement, selector);
  }
  try {
    await keyboard(session).press(key);
  } catch (error) {
    // Both drivers reject an unknown key name with a message naming it.
    if (/unknown key/i.test((error as Error).message)) {
      throw new ToolInputError('key', `unknown key ${JSON.stringify(key)}`);
    }
    throw error;
  }
  await settle(session);
}

/** PNG of element `ref`, scrolled into view. */
export async function shootRef(session: Session<DriverName>, ref: string): Promise<Buffer> {
  const selector = await requireRef(session, ref);
  const page = toPageLike(session.page);
  const rect = await page.evaluate(elementRect, selector);
  if (rect === null || rect.width < 1 || rect.height < 1) {
    throw new ToolInputError('ref', `${ref} has no visible box to shoot`);
  }
  return page.screenshot({ clip: rect });
}

function keyboard(session: Session<DriverName>): {
  type(text: string): Promise<void>;
  press(key: string): Promise<void>;
} {
  return session.driver === 'playwright'
    ? (session as Session<'playwright'>).page.keyboard
    : (session as Session<'puppeteer'>).page.keyboard;
}

/** The selector of `ref`, after checking the element is still on the page. */
async function requireRef(session: Session<DriverName>, ref: string): Promise<string> {
  const selector = `[data-svc-ref="${ref}"]`;
  const present = await toPageLike(session.page).evaluate(
    (s: string) => document.querySelector(s) !== null,
    selector,
  );
  if (!present) {
    throw new ToolInputError(
      'ref',
      `${ref} is not on the current page (it was removed, or belonged to an earlier page): take a new browser_snapshot`,
    );
  }
  return selector;
}

/** Waits until the document (possibly a new one after a navigation) has loaded. */
async function settle(session: Session<DriverName>): Promise<void> {
  const page: PageLike = toPageLike(session.page);
  const end = Date.now() + SNAPSHOT_DEFAULTS.actionTimeout;
  // A click's navigation starts a moment after the click resolves.
  await new Promise((r) => setTimeout(r, 150));
  while (Date.now() < end) {
    try {
      if (await page.evaluate(() => document.readyState === 'complete', undefined)) return;
    } catch {
      // The old document was torn down mid-call: the new one is on its way.
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

// ---- Functions run in the page: self-contained, sent as source text.

function markElements(arg: { next: number; max: number }): {
  elements: SnapshotElement[];
  next: number;
} {
  const SELECTOR =
    'a[href],button,input:not([type=hidden]),textarea,select,summary,[role=button],[role=link],' +
    '[role=checkbox],[role=radio],[role=tab],[role=menuitem],[role=switch],[role=combobox],' +
    '[role=textbox],[contenteditable=""],[contenteditable=true]';
  const clean = (s: string | null | undefined): string => (s ?? '').replace(/\s+/g, ' ').trim();
  let next = arg.next;
  const elements: SnapshotElement[] = [];
  for (const el of Array.from(document.querySelectorAll<HTMLElement>(SELECTOR))) {
    if (elements.length >= arg.max) break;
    const style = getComputedStyle(el);
    const box = el.getBoundingClientRect();
    if (style.display === 'none' || style.visibility === 'hidden') continue;
    if (box.width === 0 && box.height === 0) continue;
    let ref = el.getAttribute('data-svc-ref');
    if (!ref) {
      ref = `e${next++}`;
      el.setAttribute('data-svc-ref', ref);
    }
    const tag = el.tagName.toLowerCase();
    const type = (el.getAttribute('type') ?? '').toLowerCase();
    const input = el as HTMLInputElement;
    let role = el.getAttribute('role') ?? '';
    if (!role) {
      if (tag === 'a') role = 'link';
      else if (tag === 'button' || ['submit', 'button', 'reset', 'image'].includes(type))
        role = 'button';
      else if (tag === 'select') role = 'combobox';
      else if (type === 'checkbox' || type === 'radio') role = type;
      else if (tag === 'summary') role = 'summary';
      else role = 'textbox';
    }
    const labelled = el.getAttribute('aria-labelledby');
    const name =
      clean(el.getAttribute('aria-label')) ||
      (labelled ? clean(document.getElementById(labelled)?.textContent) : '') ||
      clean(input.labels?.[0]?.textContent) ||
      clean(el.getAttribute('placeholder')) ||
      (role === 'textbox' ? '' : clean(el.innerText)) ||
      clean(el.getAttribute('title')) ||
      clean(el.getAttribute('alt')) ||
      clean(el.getAttribute('name')) ||
      (role === 'button' ? clean(input.value) : '');
    const item: SnapshotElement = { ref, role, name: name.slice(0, 120) };
    if (tag === 'a') item.href = (el as HTMLAnchorElement).href;
    if (role === 'textbox' || role === 'combobox') {
      item.value = clean(
        el.isContentEditable ? el.innerText : (input.value ?? el.getAttribute('value')),
      ).slice(0, 200);
    }
    if (role === 'checkbox' || role === 'radio') item.checked = input.checked === true;
    if (input.disabled === true || el.getAttribute('aria-disabled') === 'true')
      item.disabled = true;
    elements.push(item);
  }
  return { elements, next };
}

function clearField(selector: string): boolean {
  const el = document.querySelector(selector) as HTMLElement | null;
  if (!el) return false;
  el.scrollIntoView({ block: 'center' });
  el.focus();
  if (el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement) {
    el.value = '';
    el.dispatchEvent(new Event('input', { bubbles: true }));
    return true;
  }
  if (el.isContentEditable) {
    el.textContent = '';
    return true;
  }
  return false;
}

function focusElement(selector: string): void {
  const el = document.querySelector(selector) as HTMLElement | null;
  el?.scrollIntoView({ block: 'center' });
  el?.focus();
}

function elementRect(
  selector: string,
): { x: number; y: number; width: number; height: number } | null {
  const el = document.querySelector(selector);
  if (!el) return null;
  el.scrollIntoView({ block: 'center' });
  const r = el.getBoundingClientRect();
  return {
    x: r.left + window.scrollX,
    y: r.top + window.scrollY,
    width: r.width,
    height: r.height,
  };
}
