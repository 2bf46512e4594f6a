/**
 * The alignments of the verifier: each finds what a passage states differently from a claim
 * (quantities, key terms). Comparisons are in `comparisons.ts`, polarity in `polarity.ts`,
 * swapped words in `frames.ts` and `slots.ts`.
 */
import type { Analysis } from './analyze.js';
import { compareQuantities, comparable, directional, unitNamed } from './compare-quantities.js';
import { isMultiple, negatedBefore, withBound } from './quantities.js';
import type { Quantity } from './quantities.js';
import type { Conflict } from './verify-claim.js';
import {
  acronymWords,
  escapeRegExp,
  hasTerm,
  identifierPieces,
  initialsOf,
  misspelt,
  negativeRest,
  norm,
} from './words.js';
import { loadWordNet } from './wordnet.js';

/** The least count in words that claims a page value as a written one does. */
const WRITTEN_COUNT = 3;

/**
 * Quantities: each of the claim's must match one of the page's of the same kind and dimension; a
 * different value is a conflict, an opposite bound a `comparative` one, none at all `missing`.
 */
export function quantityAlignment(
  claim: Analysis,
  page: Analysis,
): { conflicts: Conflict[]; missing: string[] } {
  const conflicts: Conflict[] = [];
  const missing: string[] = [];
  const pageLower = page.text.toLowerCase();
  // A page value the claim states as is answers that claim value, not another one: "peaks at
  // 1,000 requests, far above the ambient load of 50" does not pit the 50 against the 1,000.
  const stated = new Set(
    page.quantities
      .filter((p) =>
        claim.quantities.some(
          (q) =>
            // A count in words ("at most once") pairs loosely; only written values ("a single")
            // claim a slot, in any unit of theirs ("80" states "80 characters").
            // So do counts in words past the smallest ("seventeen of which"), which no loose
            // use writes.
            (/\d|infinit|unlimited|unbounded|\bsingle\b/i.test(q.text) ||
              (q.kind === 'number' && q.value >= WRITTEN_COUNT && Number.isInteger(q.value)) ||
              // A count of the page's own noun ("twice" / "2 times") is no loose use either.
              (q.kind === 'number' && q.dim.startsWith('count:') && q.dim === p.dim)) &&
            ((comparable(q, p) && compareQuantities(q, p) === 'same') ||
              // A bare number the claim gives with a unit ("- 1 bytes" for "- 1").
              writtenAs(p, q)),
        ),
      )
      .map((p) => p.start),
  );
  // A value a command line on the page gives a flag ("npm run server -- --port=8081") is an
  // example of using it, not what the flag is or defaults to, unless the claim writes it so too.
  const flagValue = (text: string, x: Quantity): boolean =>
    /(?:^|\s)--?[A-Za-z][\w-]*=$/.test(text.slice(Math.max(0, x.start - 60), x.start));
  for (const q of claim.quantities) {
    // A bare number the page gives with a unit ("typically 107 on Linux" / "107 bytes on Linux").
    if (/^\d/.test(q.text) && page.quantities.some((p) => writtenAs(q, p))) continue;
    // A range the page allows ("number (32-64)") holds a value inside it: no other value, and no
    // statement of it either ("an ipv6Subnet of 56").
    const candidates = page.quantities.filter(
      (p) =>
        comparable(q, p) &&
        (!flagValue(page.text, p) || flagValue(claim.text, q)) &&
        !(
          kindsDiffer(q, p) &&
          !sameName(claim, q, page, p) &&
          compareQuantities(q, p) !== 'same'
        ) &&
        !(
          p.kind === 'number' &&
          p.bound === 'range' &&
          q.bound !== 'range' &&
          q.value > p.value &&
          q.value < p.high
        ),
    );
    // A multiple in a verb ("doubles the size") is set against multiples only ("twice", "four
    // times"), not against a bare number of the page.
    if (isMultiple(q.text)) {
      const multiples = candidates.filter((p) => p.dim === q.dim);
      candidates.splice(0, candidates.length, ...multiples);
    }
    // "Default: 500" under "number of milliseconds": a bare number on a page that names the
    // claim's unit is read in that unit.
    const factor =
      q.kind === 'number' && !q.dim.startsWith('count') ? unitNamed(page.text, q.dim) : null;
    if (factor !== null) {
      for (const p of page.quantities) {
        if (p.kind === 'number' && p.dim === 'count') {
          candidates.push({
            ...p,
            dim: q.dim,
            value: p.value * factor,
            high: p.high * factor,
            unit: 'named',
          });
        }
      }
    }
    // A bare number is answered by the number a measure writes before its unit: "typically 108 on
    // Linux" against "Typical values are 107 bytes on Linux" states another value.
    if (q.kind === 'number' && q.dim === 'count' && /\d/.test(q.text)) {
      for (const p of page.quantities) {
        const n = written(p);
        if (p.kind !== 'number' || p.dim.startsWith('count') || p.bound === 'range') continue;
        if (Number.isFinite(n))
          candidates.push({ ...p, dim: 'count', unit: '', value: n, high: n });
      }
    }
    // A bound is matched by a bound: "<=1.2.7" is not stated by "matches 1.2.7" beside
    // ">=1.2.7", nor ">=1.1.0" by "not 1.1.0" beside ">=2.0.0". A plain value states a bound only
    // where the page bounds nothing of its kind.
    const bounded =
      directional(q.bound) &&
      candidates.some((p) => directional(p.bound) && (q.kind === 'version' || p.value === q.value));
    // A range is stated by its two ends given apart ("between ten thousand and thirty million" /
    // "The minimum value is 10,000 and the maximum is 30,000,000").
    const end = (x: number) => (p: Quantity) =>
      p.bound !== 'range' &&
      compareQuantities({ ...q, bound: 'eq', value: x, high: x }, p) === 'same';
    if (q.bound === 'range' && candidates.some(end(q.value)) && candidates.some(end(q.high)))
      continue;
    const results = candidates
      .filter((p) => !bounded || directional(p.bound))
      .map((p) => [p, compareQuantities(q, p)] as const);
    const same = results.filter(([, r]) => r === 'same').map(([p]) => p);
    const opposite = results.find(([, r]) => r === 'opposite');
    // Both: the page bounds two things by one value ("at most 20 elements"; "an index of 20 or
    // greater"); the claim's bound is the one whose words it shares.
    if (same.length > 0 && opposite) {
      const nearest = closest(q, claim, page, [...same, opposite[0]]);
      if (nearest === opposite[0] && aligned(q, claim, opposite[0], page)) {
        conflicts.push({
          kind: 'comparative',
          claim: withBound(q, claim.text),
          page: withBound(opposite[0], page.text),
        });
      }
      continue;
    }
    if (same.length > 0) {
      // The value is on the page, but in another slot: "start defaults to 0; step defaults to 1"
      // does not state "start defaults to 1". A different value the claim's words sit much
      // closer to is the one its slot holds.
      const others = candidates.filter(
        (p) => !same.includes(p) && !stated.has(p.start) && compareQuantities(q, p) === 'different',
      );
      // A count of a noun is answered by the page's count of that noun, not by a bare number
      // it falls under: "two array look-ups" against "one or two if tests and one array look-up".
      const counted =
        q.dim.startsWith('count:') && !same.some((p) => p.dim === q.dim)
          ? others.find((p) => p.dim === q.dim)
          : undefined;
      const rival =
        counted ??
        nameRival(q, claim, page, same, others) ??
        ownerRival(q, claim, page, same, others) ??
        slotHolder(q, claim, page, same, others);
      if (rival) conflicts.push({ kind: q.kind, claim: q.text, page: rival.text });
      continue;
    }
    if (opposite) {
      conflicts.push({
        kind: 'comparative',
        claim: withBound(q, claim.text),
        page: withBound(opposite[0], page.text),
      });
      continue;
    }
    // Of the values in the claim's slot, the nearest in words: "Default: 100" for "defaults to
    // 250" over "coerced to a number no less than 100" a sentence before, nearer in characters.
    const different = closest(
      q,
      claim,
      page,
      candidates.filter(
        (p) =>
          !stated.has(p.start) &&
          !example(page, p) &&
          !denied(page, p, pageLower) &&
          !otherCase(claim, page, p) &&
          aligned(q, claim, p, page) &&
          // "a single data reference" counts only its own noun: no other count is set against it.
          !(/\bsingle\b/i.test(p.text) && p.dim !== q.dim),
      ),
    );
    if (different) {
      conflicts.push({ kind: q.kind, claim: q.text, page: different.text });
      continue;
    }
    // "the one that" or "once" in words prove little; digits, measures and counts of two or more
    // ("four kinds of hooks", "two phases") must be stated, and so must "zero" ("can return
    // zero"), which no loose use writes, when the passage says no "zero" of any kind ("zero it" /
    // "to zeroes").
    // A bound is a fact of its own, whatever it bounds ("at most once every wait milliseconds").
    // "both X and Y" counts two, in words.
    const both =
      q.kind === 'number' &&
      q.value === 2 &&
      !/\d/.test(q.text) &&
      q.bound === 'eq' &&
      /\bboth\b/i.test(page.text);
    // A multiple in a verb ("doubles the size") is set against another, but a paraphrase may
    // put it otherwise ("grows to twice as large", "two times the size").
    const multiple = isMultiple(q.text);
    if (both || multiple || counted(claim.text, q) || bareDefault(page, q)) continue;
    if (
      q.kind !== 'number' ||
      /\d/.test(q.text) ||
      !q.dim.startsWith('count') ||
      q.value >= 2 ||
      (/^zero$/i.test(q.text) && !/\bzero/i.test(page.text)) ||
      directional(q.bound)
    )
      missing.push(q.text);
  }
  return { conflicts, missing };
}

/**
 * True when the passage is a row of defaults that gives the claim's measure as a bare number
 * ("Default: DeflateBufferSize 8096" for "defaults to 8096 bytes"): the row leaves the unit to
 * the entry's text. Only the same number as written states it; another is no conflict, since the
 * unit is not known.
 */
function bareDefault(page: Analysis, q: Quantity): boolean {
  if (q.kind !== 'number' || q.dim.startsWith('count') || !/^\s*Default\b/i.test(page.text))
    return false;
  return page.quantities.some(
    (p) => p.kind === 'number' && p.dim === 'count' && p.bound === 'eq' && p.value === written(q),
  );
}

/** The number a quantity writes, before its unit ("8096" of "8096 bytes"); NaN for words. */
const written = (q: Quantity): number =>
  Number(/^-?[\d.,]+/.exec(q.text)?.[0]?.replace(/,/g, '') ?? NaN);

/**
 * True when `bare`, a number without a unit, is the number `measured` writes before its unit,
 * with the same bound ("- 1" / "- 1 bytes", "107 on Linux" / "107 bytes on Linux").
 */
const writtenAs = (bare: Quantity, measured: Quantity): boolean =>
  bare.kind === 'number' &&
  measured.kind === 'number' &&
  bare.dim === 'count' &&
  !measured.dim.startsWith('count') &&
  bare.bound === measured.bound &&
  written(measured) === bare.value;

/**
 * True when the claim's count is the length of the list it gives right after it ("defined by three
 * things: the namespace name, an initialization function and a shutdown function"): the count
 * states nothing the list does not, and the list's items are checked as words.
 */
function counted(text: string, q: Quantity): boolean {
  if (q.kind !== 'number' || !q.dim.startsWith('count') || q.bound !== 'eq') return false;
  const list = /^[\p{L}\s-]{0,40}:\s*([^.;:!?]+)/u.exec(text.slice(q.end))?.[1];
  if (!list) return false;
  const items = list.split(/,\s*(?:and\s+|or\s+)?|\s+(?:and|or)\s+/).filter((x) => x.trim());
  return items.length === q.value;
}

/** True when one of two quantities is a version and the other a bare number. */
const kindsDiffer = (a: Quantity, b: Quantity): boolean =>
  a.kind !== b.kind && (a.kind === 'version' || b.kind === 'version');

/** The word a quantity follows, lower case, past "v" or "version" and punctuation. */
function wordBefore(a: Analysis, x: Quantity): string {
  const words = a.text.slice(Math.max(0, x.start - 40), x.start).match(/[\p{L}][\w.$-]*/gu) ?? [];
  const kept = words.filter((w) => !/^(?:v|versions?)$/i.test(w));
  return (kept[kept.length - 1] ?? '').replace(/\.$/, '').toLowerCase();
}

/**
 * True when a bare number and a version follow the same name ("Node.js 16" / "Node.js v16+"): a
 * number after another name is no version of the claim's ("Performance Timeline Level 2" against
 * "Node.js v16.0.0").
 */
function sameName(claim: Analysis, q: Quantity, page: Analysis, p: Quantity): boolean {
  const name = wordBefore(claim, q);
  return name !== '' && name === wordBefore(page, p);
}

/** Words that open an example: "e.g.", "eg:", "for example", "such as". */
const EXAMPLE = /(?:\be\.?\s?g\b\.?|\bfor (?:example|instance)|\bsuch as|\blike)/i;

/**
 * True when the page gives the value as an example ("Use a large number (e.g. 100000) to show all
 * lines"): it illustrates a choice, and states no value another can differ from. So is every
 * value of a parenthesis that opens with an example ("(eg: 192.168.1.0/24 => 192.168.1.255)").
 */
function example(page: Analysis, p: Quantity): boolean {
  const before = page.text.slice(Math.max(0, p.start - 16), p.start);
  if (new RegExp(`${EXAMPLE.source}[\\s,:'"\`]*$`, 'i').test(before)) return true;
  const open = page.text.lastIndexOf('(', p.start);
  return (
    open >= 0 &&
    !page.text.slice(open, p.start).includes(')') &&
    new RegExp(`^\\(\\s*${EXAMPLE.source}`, 'i').test(page.text.slice(open))
  );
}

/**
 * True when the page denies the value itself ("we recommend not to set the polling interval to 0
 * seconds", "must never be 0"): it rules one value out, and no other differs from it. A bound
 * under a negation ("not more than 5") is read as a bound already. `lower`: the page's text in
 * lower case, when the caller has it.
 */
function denied(page: Analysis, p: Quantity, lower = page.text.toLowerCase()): boolean {
  // Not a case a condition denies ("if your server is not listening on UDP port 514"): the
  // value is still the one that holds.
  const sentence = lower.slice(Math.max(0, lower.lastIndexOf('. ', p.start)), p.start);
  return (
    p.bound === 'eq' &&
    negatedBefore(lower, p.start) &&
    !/\b(?:if|unless|when|whether|once)\b/.test(sentence)
  );
}

/**
 * True when the page's value holds in a case its sentence opens with, named by a term the claim
 * does not state: "In inotify mode, it is fixed at 0" gives no value for a claim on polling mode;
 * "On Windows, the limit is 8" none for a claim that names no system.
 */
function otherCase(claim: Analysis, page: Analysis, p: Quantity): boolean {
  const start = Math.max(
    page.text.lastIndexOf('. ', p.start) + 1,
    page.text.lastIndexOf('; ', p.start) + 1,
    0,
  );
  const lead = /^\s*(?:In|On|For|Under|With|When using)\s+([^,.;]{1,60}),/.exec(
    page.text.slice(start, p.start),
  );
  if (!lead) return false;
  const phrase = norm(lead[1]!);
  const claimText = norm(claim.text);
  return page.keyTerms.some((k) => hasTerm(phrase, k.text) && !hasTerm(claimText, k.text));
}

/** The content words (lower case) among the eight words either side of a quantity. */
function around(a: Analysis, x: Quantity): string[] {
  const content = new Set(a.tokens.filter((t) => t.content).map((t) => t.lower));
  const near = [
    ...a.text.slice(0, x.start).split(/\s+/).filter(Boolean).slice(-8),
    ...a.text.slice(x.end).split(/\s+/).filter(Boolean).slice(0, 8),
  ].join(' ');
  return (near.toLowerCase().match(/[\p{L}][\p{L}\p{N}_]{2,}/gu) ?? []).filter((w) =>
    content.has(w),
  );
}

/**
 * The content words (lower case) of the sentence part a quantity is in: up to eight words either
 * side, not across a sentence end or a semicolon ("start, if omitted, defaults to 0; step defaults
 * to 1" gives 0 the words start, omitted, defaults).
 */
function slotWords(a: Analysis, x: Quantity): string[] {
  const content = new Set(a.tokens.filter((t) => t.content).map((t) => t.lower));
  // A sentence ends at a stop, not at one of an abbreviation ("(e.g. policy memory limit 1GB").
  const end = /[;!?]|(?<!\b(?:e\.g|i\.e|etc|vs|cf))\.(?=\s|$)/iu;
  const before = a.text.slice(0, x.start).split(end).at(-1) ?? '';
  const after = a.text.slice(x.end).split(end)[0] ?? '';
  const words = (t: string): string[] =>
    (t.toLowerCase().match(/[\p{L}][\p{L}\p{N}_]{2,}/gu) ?? []).filter((w) => content.has(w));
  return [...words(before).slice(-8), ...words(after).slice(0, 8)];
}

/**
 * The page quantity of another value that holds claim quantity `q`'s slot, when one does: among
 * the page quantities that could answer `q`, a word of the claim's slot that sits beside exactly
 * one of them names that one's slot ("start" in "start defaults to 0; step defaults to 1"). A
 * different value so named, while no page quantity equal to `q` is, means the claim moved the
 * value into another slot ("start defaults to 1").
 */
function slotHolder(
  q: Quantity,
  claim: Analysis,
  page: Analysis,
  same: readonly Quantity[],
  others: readonly Quantity[],
): Quantity | undefined {
  if (others.length === 0) return undefined;
  const all = [...same, ...others];
  const slots = all.map((p) => slotWords(page, p));
  const mine = slotWords(claim, q);
  const named = all.filter((_, i) =>
    mine.some(
      (w) =>
        slots[i]!.some((x) => sameStem(w, x)) &&
        slots.every((other, j) => j === i || !other.some((x) => sameStem(w, x))),
    ),
  );
  if (named.some((p) => same.includes(p))) return undefined;
  const rival = named.find((p) => others.includes(p));
  return rival && aligned(q, claim, rival, page) ? rival : undefined;
}

/**
 * The word a value is given to right before it: "alpha" of "an alpha of 255", "alpha = 0",
 * "alpha: 0", "alpha is 0"; undefined for a function word ("all at 255", "set to 5").
 */
function givenTo(a: Analysis, x: Quantity): string | undefined {
  const m = /([\p{L}][\p{L}\p{N}_-]*)\s*(?:=|:|\bof\b|\bis\b|\bat\b)\s*$/u.exec(
    a.text.slice(Math.max(0, x.start - 40), x.start),
  );
  const word = m?.[1]?.toLowerCase();
  return word && a.tokens.some((t) => t.content && t.lower === word) ? word : undefined;
}

/**
 * A different page value given to the word the claim gives its value to, when no equal one is:
 * "white has an alpha of 255" against "red = 255, green = 255, blue = 255, and alpha = 0", where
 * the 255 is on the page, but red's.
 */
function nameRival(
  q: Quantity,
  claim: Analysis,
  page: Analysis,
  same: readonly Quantity[],
  others: readonly Quantity[],
): Quantity | undefined {
  const name = givenTo(claim, q);
  if (name === undefined || same.some((p) => givenTo(page, p) === name)) return undefined;
  return others.find((p) => givenTo(page, p) === name);
}

/**
 * The name a page value belongs to: the last identifier the page names before it ("maxSockets:
 * ... Default: 100. maxFreeSockets: ... Default: 256." gives 100 to `maxSockets`).
 */
function ownerOf(page: Analysis, names: readonly string[], at: number): string | undefined {
  let owner: string | undefined;
  let last = -1;
  for (const name of names) {
    const re = new RegExp(`(?<![\\w$.-])${escapeRegExp(name)}(?![\\w$-])`, 'g');
    for (const m of page.text.matchAll(re)) {
      if (m.index < at && m.index > last) [owner, last] = [name, m.index];
    }
  }
  return owner;
}

/**
 * A different page value that belongs to the claim's name (one the claim names before `q`), when
 * the equal ones all belong to other names the claim does not state: in a list of options with
 * their defaults, the claim gave one option the other's value ("the default of maxSockets is 256").
 */
function ownerRival(
  q: Quantity,
  claim: Analysis,
  page: Analysis,
  same: readonly Quantity[],
  others: readonly Quantity[],
): Quantity | undefined {
  const names = page.keyTerms.filter((k) => k.kind === 'identifier').map((k) => k.text);
  const mine = claim.keyTerms
    .filter((k) => k.kind === 'identifier' && names.includes(k.text))
    .map((k) => k.text);
  // The rival belongs to a name the claim gives before its value: one after it qualifies another
  // thing ("leap indicator 3, stratum 0 and a four-octet ASCII reference identifier" gives no
  // value to ASCII).
  const before = claim.text.slice(0, q.start);
  const owners = mine.filter((name) => before.includes(name));
  if (mine.length === 0 || others.length === 0) return undefined;
  const foreign = (p: Quantity): boolean => {
    const owner = ownerOf(page, names, p.start);
    return owner !== undefined && !mine.includes(owner);
  };
  if (!same.every(foreign)) return undefined;
  return others.find((p) => owners.includes(ownerOf(page, names, p.start) ?? ''));
}

/** Words of one stem: equal, or sharing their first five letters ("default"/"defaults"). */
const sameStem = (x: string, y: string): boolean =>
  x === y || (x.length >= 5 && y.length >= 5 && x.slice(0, 5) === y.slice(0, 5));

/**
 * True when two quantities fill the same slot: some content word next to one is next to the other
 * ("bodyTimeout ... 300 seconds" / "bodyTimeout ... 200 seconds"). A different value elsewhere in
 * the passage, about another thing, is no contradiction: the claim's value is just not stated.
 */
function aligned(q: Quantity, claim: Analysis, p: Quantity, page: Analysis): boolean {
  const theirs = around(page, p);
  return around(claim, q).some((w) => theirs.some((x) => sameStem(w, x)));
}

/** The words (three letters or more) within 40 characters of a quantity. */
const nearWords = (text: string, x: Quantity): Set<string> =>
  new Set(
    `${text.slice(Math.max(0, x.start - 40), x.start)} ${text.slice(x.end, x.end + 40)}`
      .toLowerCase()
      .match(/[a-z]{3,}/g) ?? [],
  );

/** How many of the words near claim quantity `q` are near page quantity `p`. */
const sharedNear = (q: Quantity, claim: Analysis, p: Quantity, page: Analysis): number => {
  const theirs = nearWords(page.text, p);
  return [...nearWords(claim.text, q)].filter((w) => theirs.has(w)).length;
};

/** The page quantity whose surrounding words best match the claim quantity's. */
function closest(
  q: Quantity,
  claim: Analysis,
  page: Analysis,
  candidates: readonly Quantity[],
): Quantity | undefined {
  if (candidates.length <= 1) return candidates[0];
  let best = candidates[0];
  let score = -1;
  for (const c of candidates) {
    const s = sharedNear(q, claim, c, page) + (c.dim === q.dim ? 0.5 : 0);
    if (s > score) {
      score = s;
      best = c;
    }
  }
  return best;
}

/** Words too common to make a frame of their own. */
const FUNCTION_WORDS = new Set(
  (
    'and are but can for from has have into its not that the then this was were will with ' +
    'may might must should would could shall only also just always never often still even'
  ).split(' '),
);

/** Words that join items of a list: a term beside one is no evidence of a slot. */
const LIST_WORDS = new Set(['and', 'or', 'nor', ',', 'the', 'a', 'an', 'of']);

/**
 * The raw token before and after each occurrence of `term` in an analysis (a bracket with the
 * word before it).
 */
function neighbours(a: Analysis, term: string): [string, string][] {
  const first =
    norm(term)
      .split(/[^\p{L}\p{N}_$]+/u)
      .find(Boolean) ?? '';
  const out: [string, string][] = [];
  a.tokens.forEach((t, i) => {
    if (t.lower !== first) return;
    // A name in brackets glosses the word before them ("AMD Radeon (GCN)", "compute unit (CU)"):
    // the bracket alone is no place.
    const before = a.tokens[i - 1]?.lower ?? '';
    const gloss = before === '(' ? `${a.tokens[i - 2]?.lower ?? ''} (` : before;
    out.push([gloss, a.tokens[i + 1]?.lower ?? '']);
  });
  return out;
}

/**
 * True when `text` has a word that `term` is the head of: the term then a plural `s`, or the rest
 * of an identifier (`_`, `$`, a digit, a capital: `PING_ACK`, `connectTimeout`), not a word more
 * after a class name (`BufferListStream` is not `BufferList`); or the term in
 * any capitals before a version number.
 */
function headOf(text: string, term: string): boolean {
  const t = term.toLowerCase();
  // The name in other capitals with its version ("windows 7" for "Windows"), not the word ("a
  // stream" for "Stream").
  if (new RegExp(`(?<![\\p{L}\\p{N}_$])${escapeRegExp(t)}\\s+v?\\d`, 'iu').test(text)) return true;
  return text.split(/[^\p{L}\p{N}_$]+/u).some((w) => {
    if (!w.toLowerCase().startsWith(t) || w.length === t.length) return false;
    const rest = w.slice(t.length);
    // A class name and a word more is another class ("BufferListStream" / "BufferList",
    // "HTMLElementTagNameMap" / "HTMLElement").
    if (/\p{Lu}/u.test(term) && /\p{Ll}/u.test(term) && /^\p{Lu}\p{Ll}/u.test(rest)) return false;
    return rest === 's' || /^[_$\p{N}\p{Lu}]/u.test(rest);
  });
}

/**
 * Key terms must be stated in the passage (or in `context`: the page's title and top headings,
 * which name what a section is about). A missing term is a swap (`term` conflict) only when a term
 * the claim does not have stands in the same place on the page ("engine is InnoDB" / "engine is
 * MyISAM"); otherwise it is just missing.
 */
export function termAlignment(
  claim: Analysis,
  page: Analysis,
  context: string,
): { conflicts: Conflict[]; missing: string[] } {
  const pageText = norm(page.text);
  const contextText = norm(context);
  const claimText = norm(claim.text);
  const conflicts: Conflict[] = [];
  const missing: string[] = [];
  const wn = loadWordNet();
  const spare = page.keyTerms.filter(
    (k) => !hasTerm(claimText, k.text) && !(k.kind === 'proper' && wn.knows(k.text.toLowerCase())),
  );
  // A name that is also a word ("Windows") stands in for a name of the claim ("POSIX").
  const names = page.keyTerms.filter(
    (k) => k.kind === 'proper' && !hasTerm(claimText, k.text) && !spare.includes(k),
  );
  const acronyms = acronymWords(claim, page.text);
  for (const k of claim.keyTerms) {
    // A name that is also an English word ("a Set", "the Map API") is stated by the name, in its
    // capitals, not by the word ("is set to").
    // A value literal is one however written: Python's `True` is the prose's "true".
    const word =
      k.kind === 'proper' && wn.knows(k.text.toLowerCase()) && !VALUE_LITERAL.test(k.text);
    // A short option is written in its case: "-Cf" is not "-CF", nor "-c" "-C". The passage's
    // other case is a swap, unless the claim names that one too ("-o ..., while -O ..."); the
    // heading's is another entry's name, and the claim's is then not stated.
    if (/^-[A-Za-z][A-Za-z0-9]{0,2}$/.test(k.text)) {
      const exact = (t: string): RegExp => new RegExp(`(?<![\\w-])${escapeRegExp(t)}(?![\\w-])`);
      if (exact(k.text).test(page.text) || exact(k.text).test(context)) continue;
      const theirs = new RegExp(exact(k.text).source, 'i').exec(page.text)?.[0];
      if (theirs && !exact(theirs).test(claim.text)) {
        conflicts.push({ kind: 'term', claim: k.text, page: theirs });
        continue;
      }
      if (new RegExp(exact(k.text).source, 'i').test(context)) {
        missing.push(k.text);
        continue;
      }
    }
    // A format directive is one letter in its case: "%O" is not "%o".
    const directive = /^%[-#0+ ]?[A-Za-z]$/.test(k.text);
    if (directive) {
      if (new RegExp(`(?<![\\w%])${escapeRegExp(k.text)}(?![\\w])`).test(page.text)) continue;
    } else if (word ? capitalised(page.text, k.text) : hasTerm(pageText, k.text)) continue;
    // The words before it shortened with it to an acronym ("process ID" / "PID").
    if (claim.tokens.some((t, i) => t.text === k.text && acronyms.has(i))) continue;
    // "JavaScript" shortened to its initials, in capitals ("JS").
    const initials = initialsOf(k.text);
    if (initials && capitalised(page.text, initials)) continue;
    // An identifier may be named by its head on the page ("PINGs" or `PING_ACK` for "PING"), not
    // by a longer word ("connected" does not name `connect()`).
    if (k.text.length >= 4 && headOf(page.text, k.text)) continue;
    // A word is named inside an identifier of the entry's heading ("async" in
    // `Symbol.asyncIterator`).
    if (k.kind === 'rare' && identifierPieces(context).has(k.text.toLowerCase())) continue;
    // A format directive is listed by its letter under its own entry ("M" under "%" directives).
    const letter = /^%[-#0+ ]?([A-Za-z])$/.exec(k.text)?.[1];
    if (letter && new RegExp(`(?<![\\w%-])${letter}(?![\\w])`).test(context)) continue;
    // A member is named without its namespace in its own section ("debounce" for "_.debounce",
    // "parse" under cookie's docs for "cookie.parse").
    // In its own case, and not as the whole term: "POSIX" in a heading, or `path.posix` among the
    // page's headings, does not name `path.posix` for a passage that puts `path.win32` in its
    // place (the whole term in the context is weighed after the swaps, below).
    const qualified = /^([\w$]+)\.([A-Za-z_$][\w$]{3,})(?:\(\))?$/.exec(k.text);
    const [space, member] = [
      escapeRegExp(qualified?.[1] ?? ''),
      escapeRegExp(qualified?.[2] ?? ''),
    ];
    const named = qualified && new RegExp(`(?<![\\w$])(?<!${space}\\.)${member}(?![\\w$])`);
    if (named && (named.test(page.text) || named.test(context))) continue;
    if (k.kind === 'rare') {
      // A rare word may be inflected differently on the page ("configurable", "configure").
      const stem = k.text.toLowerCase().slice(0, Math.max(5, Math.ceil(k.text.length * 0.75)));
      if (pageText.split(/[^\p{L}\p{N}]+/u).some((w) => w.startsWith(stem))) continue;
      // Or mistyped there ("privledges").
      const lower = k.text.toLowerCase();
      if (pageText.split(/[^\p{L}\p{N}]+/u).some((w) => misspelt(lower, w))) continue;
      // Or under another negative prefix ("undecoded", "non-decoded").
      const denied = negativeRest(k.text.toLowerCase());
      if (denied && pageText.split(/[^\p{L}\p{N}-]+/u).some((w) => negativeRest(w) === denied))
        continue;
    }
    const mine = neighbours(claim, k.text);
    const rivals = k.kind === 'proper' || /^[A-Z]{2,}$/.test(k.text) ? [...spare, ...names] : spare;
    const swap = rivals.find((s) =>
      neighbours(page, s.text).some(([b, a]) =>
        mine.some(
          ([cb, ca]) =>
            (b !== '' && b === cb && !LIST_WORDS.has(b)) ||
            (a !== '' && a === ca && /\p{L}/u.test(a) && !LIST_WORDS.has(a)),
        ),
      ),
    );
    // A term the context names does not excuse one the passage puts in its place: the page's
    // headings name every method of the page ("the `drain` event fires when" / "the `finish`
    // event fires when").
    if (swap) conflicts.push({ kind: 'term', claim: k.text, page: swap.text });
    else if (
      !hasTerm(contextText, k.text) &&
      !(k.kind === 'proper' && inflectedIn(contextText, k.text))
    )
      missing.push(k.text);
  }
  // A term the page states, but elsewhere: another term stands where the claim puts it ("if only
  // https_proxy is set" / "if only http_proxy is set").
  for (const k of claim.keyTerms) {
    if (!hasTerm(pageText, k.text) || conflicts.some((x) => x.claim === k.text)) continue;
    const frames = textFrames(claimText, k.text);
    const theirs = new Set(textFrames(pageText, k.text));
    for (const other of page.keyTerms) {
      // A term the claim states too has moved, not been swapped ("X is faster than Y" / "Y is
      // slower than X"): comparatives judge that.
      if (norm(other.text) === norm(k.text) || hasTerm(claimText, other.text)) continue;
      // The term's own initials ("JS" for "JavaScript").
      if (initialsOf(k.text) === other.text) continue;
      // A term the page writes right beside the claim's modifies it ("Vary: Accept-Encoding
      // HTTP response header" / "Vary: Accept-Encoding response header").
      const [a, b] = [escapeRegExp(norm(k.text)), escapeRegExp(norm(other.text))];
      if (new RegExp(`(?:^|\\s)(?:${a}\\s+${b}|${b}\\s+${a})(?=\\s|$)`).test(pageText)) continue;
      // A path ending in the term names it ("options.timeout" for "timeout").
      if (
        norm(other.text)
          .split(/[.#/]|::/)
          .includes(norm(k.text))
      )
        continue;
      const hit = textFrames(pageText, other.text).find(
        (f) => frames.includes(f) && !theirs.has(f),
      );
      // The page names the claim's term right after the noun both put beside theirs: "the CLI
      // argument --verbose" says what "the --verbose argument" does.
      const noun = hit?.split('|')[1];
      if (
        noun &&
        new RegExp(`(?:^|\\s)${b}\\s+${escapeRegExp(noun)}\\s+${a}(?=\\s|$)`).test(pageText)
      )
        continue;
      if (hit) {
        conflicts.push({ kind: 'term', claim: k.text, page: other.text });
        break;
      }
    }
  }
  if (conflicts.length === 0) conflicts.push(...predicateSwaps(claim, page, claimText, pageText));
  if (conflicts.length === 0) conflicts.push(...argumentSwaps(claim.text, page.text));
  if (conflicts.length === 0) conflicts.push(...likenessSwaps(claim, page));
  if (conflicts.length === 0) conflicts.push(...mappingSwaps(claim.text, page.text));
  if (conflicts.length === 0) conflicts.push(...valueForSwaps(claim.text, page.text));
  return { conflicts, missing };
}

/**
 * True when the text (lower case) has the English word `term` in another number: a heading's
 * "Access Counts" names the "Accesses" example under it.
 */
function inflectedIn(text: string, term: string): boolean {
  const lower = term.toLowerCase();
  const forms = new Set([lower, lower.replace(/e?s$/, ''), lower.replace(/s$/, ''), `${lower}s`]);
  return text.split(/[^\p{L}\p{N}]+/u).some((w) => w.length >= 4 && forms.has(w));
}

/** "110 for POP3": a value (group 1) given for a name (group 2). */
const VALUE_FOR = /(?<![\w.])(\d[\w.:/-]*)\s+for\s+([A-Za-z][\w.+#-]*)/g;

/**
 * Values given for names the other way round: "110 for IMAP and 143 for POP3" against "(110 for
 * POP3, 143 for IMAP)". Only when the page gives the claim's value for another name and the
 * claim's name another value.
 */
function valueForSwaps(claim: string, page: string): Conflict[] {
  const pairs = (text: string): [string, string][] =>
    [...text.matchAll(VALUE_FOR)].map((m) => [m[1]!, m[2]!]);
  const theirs = pairs(page);
  const same = (a: string, b: string): boolean => a.toLowerCase() === b.toLowerCase();
  for (const [value, name] of pairs(claim)) {
    const given = theirs.filter(([v]) => v === value);
    if (given.length === 0 || given.some(([, n]) => same(n, name))) continue;
    if (theirs.some(([v, n]) => same(n, name) && v !== value))
      return [{ kind: 'term', claim: name, page: given[0]![1] }];
  }
  return [];
}

/** Values a language writes in capitals ("True", "None", "NULL") and prose does not. */
const VALUE_LITERAL = /^(?:true|false|none|null|nil)$/i;

/** "X becomes Y", "X maps to Y", "X -> Y": what a name is turned into (groups 1 and 2). */
const MAPPING =
  /(?<![\p{L}\p{N}_$./-])([\p{L}\p{N}_$][\p{L}\p{N}_$./-]*[\p{L}\p{N}_$])\s+(?:becomes|turns\s+into|is\s+(?:mapped|converted|renamed)\s+to|maps\s+to|->|=>|\u2192)\s+([\p{L}\p{N}_$][\p{L}\p{N}_$./-]*[\p{L}\p{N}_$]|[\p{L}\p{N}_$])/gu;

/** A name, not a word: a dot, slash, underscore, digit or `$` in it, or a capital past its start. */
const NAME_LIKE = /[._/$\d]|^.+\p{Lu}/u;

/** The `[from, to]` pairs a text maps (a name ends before a closing full stop). */
const mappings = (text: string): string[][] =>
  [...text.matchAll(MAPPING)].map((m) => [m[1]!, m[2]!]);

/**
 * A name the claim maps to what the page maps another name to: "filename.bz becomes
 * filename.tar" against a list where "filename.bz becomes filename" and "filename.tbz2 becomes
 * filename.tar". The page must map the claim's name, and never to the claim's target.
 */
function mappingSwaps(claim: string, page: string): Conflict[] {
  const theirs = mappings(page);
  for (const [from, to] of mappings(claim)) {
    // Names only ("filename.bz", "EACCES", "utf8"): "the socket becomes idle" is a state, which a
    // paraphrase may word otherwise.
    if (!NAME_LIKE.test(from!)) continue;
    const mine = theirs.filter(([x]) => x === from);
    if (mine.length === 0 || mine.some(([, y]) => y === to)) continue;
    return [{ kind: 'term', claim: to!, page: mine[0]![1]! }];
  }
  return [];
}

/** "A works exactly like B": the name before the likeness word (group 1), and the one after (2). */
const LIKENESS =
  /(?<![\p{L}\p{N}_$.])([\p{L}_$][\p{L}\p{N}_$.]*(?:\(\))?)(?:\s+[\p{L}']+){0,3}?\s+(?:like|unlike)\s+([\p{L}_$][\p{L}\p{N}_$.]*(?:\(\))?)(?![\p{L}\p{N}_$])/gu;

/**
 * "A is the same as B except that ...": a sameness is symmetric unless a difference follows in
 * its sentence, which belongs to the first name.
 */
const SAMENESS =
  /(?<![\p{L}\p{N}_$.])([\p{L}_$][\p{L}\p{N}_$.]*(?:\(\))?)(?:\s+[\p{L}']+){0,2}?\s+(?:the\s+same(?:\s+thing)?\s+as|identical\s+to|equivalent\s+to)\s+([\p{L}_$][\p{L}\p{N}_$.]*(?:\(\))?)(?![\p{L}\p{N}_$])(?=[^.;]*\b(?:except|but|other\s+than|apart\s+from)\b)/gu;

/** The `[first, second]` name pairs a text relates with "like", "unlike" or "the same as ... except". */
const likenesses = (text: string): string[][] =>
  [...text.matchAll(LIKENESS), ...text.matchAll(SAMENESS)].map((m) => [m[1]!, m[2]!]);

/**
 * Two names the claim relates with "like" in the order the page reverses: "parse behaves exactly
 * like parseArgv, except that it only takes arrays" against "parseArgv works exactly like parse,
 * but only for array input". What follows belongs to the first name, so the order is the fact. One
 * of the two must be a name of the claim (a key term), not two ordinary words.
 */
function likenessSwaps(claim: Analysis, page: Analysis): Conflict[] {
  const terms = new Set(claim.keyTerms.map((k) => k.text));
  const theirs = likenesses(page.text).map(([x, y]) => `${x}\u0000${y}`);
  for (const [x, y] of likenesses(claim.text)) {
    if (x === y || (!terms.has(x!) && !terms.has(y!)) || FUNCTION_WORDS.has(x!.toLowerCase()))
      continue;
    if (theirs.includes(`${y}\u0000${x}`) && !theirs.includes(`${x}\u0000${y}`))
      return [{ kind: 'term', claim: x!, page: y! }];
  }
  return [];
}

/** A call with one quoted literal argument: `next('route')`, `on("close")`. */
const LITERAL_CALL = /([\p{L}_$][\p{L}\p{N}_$.]*)\(\s*(['"`])([^'"`()]+)\2\s*\)/gu;

/**
 * A call the claim makes with one literal that the page makes only with another ("call
 * next('route')" / "use next('router')"): the literal names which case, and a word of the page
 * that spells the claim's literal elsewhere ("Route handlers") does not state it.
 */
function argumentSwaps(claim: string, page: string): Conflict[] {
  const calls = (text: string): Map<string, Set<string>> => {
    const out = new Map<string, Set<string>>();
    for (const m of text.matchAll(LITERAL_CALL)) {
      const set = out.get(m[1]!) ?? new Set<string>();
      set.add(m[3]!);
      out.set(m[1]!, set);
    }
    return out;
  };
  const theirs = calls(page);
  for (const [callee, args] of calls(claim)) {
    const made = theirs.get(callee);
    if (!made) continue;
    for (const arg of args) {
      if (!made.has(arg)) return [{ kind: 'term', claim: arg, page: [...made][0]! }];
    }
  }
  return [];
}

/**
 * A page term whose predicate the claim gives to another word: "then maxAge takes precedence"
 * against "expires takes precedence" when the claim names maxAge too (both terms of a rule, the
 * roles swapped). The predicate is the two words after the term, neither a function word.
 */
function predicateSwaps(
  claim: Analysis,
  page: Analysis,
  claimText: string,
  pageText: string,
): Conflict[] {
  for (const term of page.keyTerms) {
    if (!hasTerm(claimText, term.text)) continue;
    const mine = new Set(textFrames(claimText, term.text));
    for (const f of textFrames(pageText, term.text)) {
      if (!f.startsWith('>') || mine.has(f)) continue;
      const predicate = escapeRegExp(f.slice(1));
      const holder = new RegExp(`([\\p{L}\\p{N}_$.]+)\\s+${predicate}(?![\\p{L}])`, 'u').exec(
        claimText,
      )?.[1];
      // The holder names a thing, as the term does: an adjective before the words qualifies them
      // ("the newer Buffer APIs" / "the new Node.js Buffer APIs"), and a verb followed by them
      // takes them as its object ("it only sets response headers" / "sets CORS response
      // headers"; but "expires takes precedence", a name the tagger read as a verb, holds them).
      if (
        !holder ||
        FUNCTION_WORDS.has(holder) ||
        !claim.tokens.some(
          (t, i) =>
            t.lower === holder &&
            t.pos !== 'ADJ' &&
            // A pronoun stands for a name, likely the page's ("may make it run faster").
            t.pos !== 'PRON' &&
            !(t.pos === 'VERB' && /^(?:NOUN|PROPN|ADJ|DET)$/.test(claim.tokens[i + 1]?.pos ?? '')),
        )
      )
        continue;
      // The page gives the predicate to the claim's holder too: no swap.
      if (textFrames(pageText, holder).includes(f)) continue;
      // The holder is said of the term ("Esprima 1.2.2 counts", "the last Esprima release
      // before"): the term still holds the predicate.
      const named = escapeRegExp(norm(term.text));
      const phrase = `${named}\\s+(?:[\\p{L}\\p{N}_$.-]+\\s+)?${escapeRegExp(holder)}\\s+${predicate}`;
      if (new RegExp(phrase, 'u').test(claimText)) continue;
      return [{ kind: 'term', claim: holder, page: term.text }];
    }
  }
  return [];
}

/** True when `text` holds the name `term` as written, as a whole word. */
function capitalised(text: string, term: string): boolean {
  const t = escapeRegExp(term);
  return new RegExp(`(?<![\\p{L}\\p{N}_$])${t}s?(?![\\p{L}\\p{N}_$])`, 'u').test(text);
}

/**
 * `before|after` word pairs around each whole occurrence of `term`, and `>w1 w2` for the two words
 * after it when they are not function words ("maxAge takes precedence"); lists ("X and Y")
 * excluded.
 */
function textFrames(text: string, term: string): string[] {
  const t = escapeRegExp(norm(term));
  const out: string[] = [];
  for (const m of text.matchAll(
    new RegExp(`(?:^|\\s)${t}\\s+([\\p{L}']{3,})\\s+([\\p{L}']{3,})`, 'gu'),
  )) {
    const [first, second] = [m[1]!, m[2]!];
    if (FUNCTION_WORDS.has(first) || FUNCTION_WORDS.has(second)) continue;
    out.push(`>${first} ${second}`);
  }
  for (const m of text.matchAll(
    new RegExp(`(?:^|\\s)([\\p{L}\\p{N}_']+)\\s+${t}\\s+([\\p{L}\\p{N}_']+)`, 'gu'),
  )) {
    const [before, after] = [m[1]!, m[2]!];
    if (/^(?:and|or|nor)$/.test(before) || /^(?:and|or|nor)$/.test(after)) continue;
    out.push(`${before}|${after}`);
  }
  return out;
}
