/**
 * Comparing two quantities: whether they measure the same thing, and whether a claim's value and
 * bound agree with a page's (`30 s` = `30000 ms`, "at most 3" against "at least 5"). Extraction is
 * in `quantities.ts`.
 */
import { UNITS } from './quantity-words.js';
import type { Bound, Quantity } from './quantities.js';

/** True when two quantities measure the same thing and can be compared. */
export function comparable(a: Quantity, b: Quantity): boolean {
  // A bare number after a name may be its version ("Node.js 16" / "Node.js v16+"); not one a
  // value's slot names ("Default: 2").
  const bare = (q: Quantity): boolean =>
    q.kind === 'number' && q.dim === 'count' && q.value >= 0 && !q.slot;
  if ((a.kind === 'version' && bare(b)) || (b.kind === 'version' && bare(a))) return true;
  if (a.kind !== b.kind) return false;
  if (a.kind !== 'number') return true;
  // An infinity is a setting's value ("Default: Infinity"): it answers a written value, not a
  // count in words ("one more origin").
  const written = (q: Quantity): boolean => /\d|infinit|unlimited|unbounded|limit/i.test(q.text);
  if ((!Number.isFinite(a.value) || !Number.isFinite(b.value)) && !(written(a) && written(b)))
    return false;
  if (a.dim === b.dim) return true;
  // A bare number stands for any count ("3" vs "three times"), not for a measure with a unit.
  const count = (d: string): boolean => d === 'count' || d.startsWith('count:');
  return (a.dim === 'count' && count(b.dim)) || (b.dim === 'count' && count(a.dim));
}

const UPPER: readonly Bound[] = ['le', 'lt'];
const LOWER: readonly Bound[] = ['ge', 'gt'];

/** True for an upper or a lower bound ("at most 5", ">=1.2.7"). */
export const directional = (b: Bound): boolean => UPPER.includes(b) || LOWER.includes(b);

/** How a claim's quantity stands against the page's: `same`, `different` value, or `opposite` bound. */
export function compareQuantities(
  claim: Quantity,
  page: Quantity,
): 'same' | 'different' | 'opposite' {
  if (claim.kind !== page.kind && (claim.kind === 'version' || page.kind === 'version')) {
    const parts = (q: Quantity): number[] =>
      q.kind === 'version' ? q.parts : String(q.value).split('.').map(Number);
    return compareQuantities(
      { ...claim, kind: 'version', parts: parts(claim) },
      { ...page, kind: 'version', parts: parts(page) },
    );
  }
  if (claim.kind === 'date') {
    // The claim may state less than the page (a year where the page gives the day), not more.
    for (let i = 0; i < 3; i++) {
      const c = claim.parts[i] ?? 0;
      const p = page.parts[i] ?? 0;
      if (c !== 0 && p !== 0 && c !== p) return 'different';
      if (c !== 0 && p === 0) return 'different';
    }
    // "2013 or earlier" against "2013 or later" (a year that names a release, too).
    return opposed(claim.bound, page.bound) ? 'opposite' : 'same';
  }
  if (claim.kind === 'version') {
    const n = Math.max(claim.parts.length, page.parts.length);
    for (let i = 0; i < n; i++) {
      // "v2" covers "2.4.1": a claim may name fewer parts than the page.
      if (i >= claim.parts.length) break;
      if ((claim.parts[i] ?? 0) !== (page.parts[i] ?? 0)) return 'different';
    }
    return opposed(claim.bound, page.bound) ? 'opposite' : 'same';
  }
  // Counts are never converted: "5.4" against "5.2 Patterns" is another number, not a rounding.
  const converted = claim.unit !== page.unit && !claim.dim.startsWith('count');
  const approx = claim.bound === 'approx' || page.bound === 'approx';
  // 1 MB against 1 MiB differ by 5 %: units converted or "about" allow that much, nothing else.
  const tolerance = approx ? 0.1 : converted ? 0.05 : 1e-9;
  const near = (x: number, y: number): boolean =>
    x === y ||
    (Number.isFinite(x) &&
      Number.isFinite(y) &&
      Math.abs(x - y) <= tolerance * Math.max(Math.abs(x), Math.abs(y)) + 1e-12);
  const sameValue =
    (near(claim.value, page.value) && near(claim.high, page.high)) ||
    (claim.bound !== 'range' &&
      page.bound === 'range' &&
      (near(claim.value, page.value) || near(claim.value, page.high)));
  if (!sameValue) return 'different';
  // A strict bound leaves its own value out: "can return zero" is not "greater than zero".
  if (excludes(claim.bound, page.bound) || excludes(page.bound, claim.bound)) return 'different';
  return opposed(claim.bound, page.bound) ? 'opposite' : 'same';
}

/** True when a value stated as is (`eq`) meets a strict bound of the same value (`gt`, `lt`). */
const excludes = (a: Bound, b: Bound): boolean => a === 'eq' && (b === 'gt' || b === 'lt');

/** True when one bound is an upper and the other a lower one. */
const opposed = (a: Bound, b: Bound): boolean =>
  (UPPER.includes(a) && LOWER.includes(b)) || (LOWER.includes(a) && UPPER.includes(b));

/**
 * The factor of the first unit of dimension `dim` named in `text` as a word ("milliseconds",
 * "bytes"), or `null`: single letters ("s", "m") are too ambiguous to count as naming a unit.
 */
export function unitNamed(text: string, dim: string): number | null {
  const words = new Set(text.toLowerCase().match(/[a-zµ]{2,}/g) ?? []);
  for (const [name, def] of UNITS) {
    if (def.dim === dim && name.length >= 2 && words.has(name)) return def.factor;
  }
  return null;
}
