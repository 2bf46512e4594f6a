/**
 * Quantities stated in a sentence: numbers (digits or words) with their unit and bound, dates and
 * versions, normalised so that `30000 ms` equals `30 s`, `three` equals `3` and `up to` equals
 * `at most`.
 *
 * Why a small parser of our own: the sentence analyser (wink-nlp) tags numbers and dates but does
 * not give their values, and the number-word packages on npm handle words only, not units, bounds,
 * versions or dates together. What is parsed here is closed-class vocabulary (number words, unit
 * symbols, bound phrases) that a dictionary would not improve. Comparing two quantities is in
 * `compare-quantities.ts`.
 */

import {
  SCALES,
  ONCE_LIKE,
  UNITS,
  MONTH,
  monthOf,
  BOUNDS,
  NOT_NOUN,
  SMALL,
  versionBound,
  WORD_NUMBER,
  nounStem,
  numbersJoined,
  wordsValue,
} from './quantity-words.js';
import { loadWordNet } from './wordnet.js';

/** What kind of quantity: a measure or count, a calendar date, a software version. */
export type QuantityKind = 'number' | 'date' | 'version';

/** How a stated value bounds the quantity: `up to 3` is `le`, `more than 3` is `gt`. */
export type Bound = 'eq' | 'approx' | 'le' | 'lt' | 'ge' | 'gt' | 'range';

/** One quantity found in a text. */
export interface Quantity {
  kind: QuantityKind;
  /** The text as written, e.g. `up to 5 MiB`. */
  text: string;
  /** Value in the dimension's base unit (bytes, ms, metres...); the low end of a range. */
  value: number;
  /** High end of a `range`; equal to `value` otherwise. */
  high: number;
  bound: Bound;
  /** `bytes`, `ms`, `m`, `percent`, `count:<noun stem>`, `count` (no unit), `date`, `version`. */
  dim: string;
  /** The unit as written (lower case): `mib`, `s`, `times`; empty when none. */
  unit: string;
  /** Version parts (`[2, 4, 1]`) or date parts (`[year, month, day]`, 0 when not stated). */
  parts: number[];
  /** Start offset in the text. */
  start: number;
  end: number;
  /** True for a number a value's slot names ("Default: 2", "a maximum of 1024"): no version. */
  slot?: boolean;
}

interface Raw {
  start: number;
  end: number;
  value: number;
  high: number;
  bound: Bound | null;
}

/** Words before a pronoun "one" ("the first one", "the later one", "this one"). */
const ONE_AS_PRONOUN =
  /\b(?:the|this|that|each|every|any|no|which|another|other|first|second|third|last|later|earlier|former|latter|new|same|right|wrong|previous|next|default)\s+$/i;

/** Where a placeholder letter of a version puts its part: far above any real part. */
const PLACEHOLDER = 1_000_000;

const DAY_WORDS = [
  'first',
  'second',
  'third',
  'fourth',
  'fifth',
  'sixth',
  'seventh',
  'eighth',
  'ninth',
  'tenth',
  'eleventh',
  'twelfth',
  'thirteenth',
  'fourteenth',
  'fifteenth',
  'sixteenth',
  'seventeenth',
  'eighteenth',
  'nineteenth',
  'twentieth',
];

/** The day of a month in words, as a group: "first" to "thirty-first". */
const DAY_WORD = `((?:twenty|thirty)[- ](?:${DAY_WORDS.slice(0, 9).join('|')})|${DAY_WORDS.join('|')}|thirtieth)`;

/** True for a word of a day in words ("first", "twenty", "thirtieth"). */
export const isDayWord = (w: string): boolean =>
  DAY_WORDS.includes(w) || /^(?:twenty|thirty|thirtieth)$/.test(w);

/**
 * The runs of number words in a text, a run that holds two numbers joined by "and" cut in two
 * ("ten thousand and thirty million"), or read as a range after "between" (`low` then holds the
 * words of its lower end).
 */
function wordRuns(text: string): { index: number; text: string; low: string[]; high?: number }[] {
  const out: { index: number; text: string; low: string[]; high?: number }[] = [];
  for (const m of text.matchAll(WORD_NUMBER)) {
    const body = m[0].replace(/[\s-]+$/, '');
    const words = body.toLowerCase().split(/[\s-]+/);
    const k = numbersJoined(words);
    if (k < 0) {
      out.push({ index: m.index, text: body, low: words });
      continue;
    }
    // The "and" as the k-th word: the separators before it are the k before the word.
    const cut = [...body.matchAll(/[\s-]+/g)];
    const first = body.slice(0, cut[k - 1]!.index);
    const second = body.slice(cut[k]!.index + cut[k]![0].length);
    const high = wordsValue(words.slice(k + 1));
    const low = wordsValue(words.slice(0, k));
    if (
      /\bbetween\s+$/i.test(text.slice(0, m.index)) &&
      high !== null &&
      low !== null &&
      high >= low
    ) {
      out.push({ index: m.index, text: body, low: words.slice(0, k), high });
      continue;
    }
    out.push({ index: m.index, text: first, low: words.slice(0, k) });
    out.push({
      index: m.index + body.length - second.length,
      text: second,
      low: words.slice(k + 1),
    });
  }
  return out;
}

/** The day a {@link DAY_WORD} names: "twenty-first" is 21. */
function dayOf(word: string): number {
  const [tens, unit] = word.split(/[- ]/);
  if (unit) return (tens === 'thirty' ? 30 : 20) + DAY_WORDS.indexOf(unit) + 1;
  return word === 'thirtieth' ? 30 : DAY_WORDS.indexOf(word) + 1;
}

/** Words that name a value's slot right before it: the number is a value, not a year. */
const VALUE_SLOT =
  /(?:\bdefaults?(?:\s+value)?(?:\s+(?:to|is|of))?\s*[:=]?|\b(?:limit|maximum|minimum|max|min|value|size|timeout|threshold|port|length|capacity|total|count)\s+(?:of|is)|=)\s*$/;

/** Finds dates first (their numbers are not measures), then versions, then numbers. */
export function extractQuantities(text: string): Quantity[] {
  // A span written with a dot ("1.day", "2.weeks.ago", as git reads dates) is the number and its
  // unit; the dot becomes a space, so every offset stays.
  const lower = text
    .toLowerCase()
    .replace(
      /(?<![\w.])(\d+)\.(?=(?:seconds?|minutes?|hours?|days?|weeks?|months?|years?)\b)/g,
      '$1 ',
    );
  const taken: [number, number][] = [];
  const free = (s: number, e: number): boolean => taken.every(([a, b]) => e <= a || s >= b);
  const out: Quantity[] = [];
  const push = (q: Quantity): void => {
    out.push(q);
    taken.push([q.start, q.end]);
  };
  // A number passed to a call ("malloc(100)", "realloc(200)") is part of the code that names the
  // call, no measure: "realloc(200)" on the page is no answer to the claim's "200 bytes".
  for (const m of text.matchAll(/[A-Za-z_$][\w$]*\(\s*\d[\d.,\s]*\)/g))
    taken.push([m.index + m[0].indexOf('('), m.index + m[0].length]);
  // A section number ("RFC 4291 §2.5.5.2") is a name, neither a version nor an amount.
  for (const m of text.matchAll(/§\s*\d+(?:\.\d+)*/g)) taken.push([m.index, m.index + m[0].length]);
  const date = (start: number, end: number, y: number, m: number, d: number): void => {
    if (!free(start, end)) return;
    push({
      kind: 'date',
      text: text.slice(start, end),
      value: y * 10000 + m * 100 + d,
      high: y * 10000 + m * 100 + d,
      bound: 'eq',
      dim: 'date',
      unit: 'date',
      parts: [y, m, d],
      start,
      end,
    });
  };
  for (const m of lower.matchAll(/\b(\d{4})-(\d{2})-(\d{2})\b/g)) {
    date(m.index, m.index + m[0].length, +m[1]!, +m[2]!, +m[3]!);
  }
  for (const m of lower.matchAll(
    new RegExp(`\\b${MONTH}\\s+(\\d{1,2})(?:st|nd|rd|th)?(?:,?\\s+(\\d{4}))?\\b`, 'g'),
  )) {
    date(m.index, m.index + m[0].length, m[3] ? +m[3] : 0, monthOf(m[1]!), +m[2]!);
  }
  for (const m of lower.matchAll(
    new RegExp(`\\b(\\d{1,2})(?:st|nd|rd|th)?\\s+(?:of\\s+)?${MONTH}(?:,?\\s+(\\d{4}))?\\b`, 'g'),
  )) {
    date(m.index, m.index + m[0].length, m[3] ? +m[3] : 0, monthOf(m[2]!), +m[1]!);
  }
  // A network prefix length ("a /24 prefix", "192.168.1.5/32", "::1/128"): a number of its own
  // kind, compared with prefix lengths only.
  for (const m of lower.matchAll(
    /(?:(?<=\b\d{1,3}(?:\.\d{1,3}){3})|(?<=:[0-9a-f]{0,4})|(?<=[\s(]|^))\/(\d{1,3})\b(?![/\w]|\.\w)/g,
  )) {
    const end = m.index + m[0].length;
    if (!free(m.index, end)) continue;
    const value = +m[1]!;
    push({
      kind: 'number',
      text: text.slice(m.index, end),
      value,
      high: value,
      bound: 'eq',
      dim: 'prefix',
      unit: '/',
      parts: [],
      start: m.index,
      end,
    });
  }
  // Days in words: "the first of January 2020", "January the first".
  for (const m of lower.matchAll(
    new RegExp(`\\b(?:the\\s+)?${DAY_WORD}\\s+of\\s+${MONTH}(?:,?\\s+(\\d{4}))?\\b`, 'g'),
  )) {
    date(m.index, m.index + m[0].length, m[3] ? +m[3] : 0, monthOf(m[2]!), dayOf(m[1]!));
  }
  for (const m of lower.matchAll(
    new RegExp(`\\b${MONTH}\\s+(?:the\\s+)?${DAY_WORD}(?:,?\\s+(\\d{4}))?\\b`, 'g'),
  )) {
    date(m.index, m.index + m[0].length, m[3] ? +m[3] : 0, monthOf(m[1]!), dayOf(m[2]!));
  }
  for (const m of lower.matchAll(new RegExp(`\\b${MONTH}\\s+(\\d{4})\\b`, 'g'))) {
    date(m.index, m.index + m[0].length, +m[2]!, monthOf(m[1]!), 0);
  }
  // Versions: three or more dotted parts, a `v` prefix, or the word "version"/"release" before.
  const versionRe =
    /(?:\b(?:version|release|versions|releases)\s+(?:(?:[<>]=?|[\u2264\u2265])\s*)?v?|\bv)(\d+(?:\.\d+)*)\b|\b(\d+\.\d+\.\d+(?:\.\d+)*)(?:-[\w.]+)?\b/g;
  for (const m of lower.matchAll(versionRe)) {
    const body = m[1] ?? m[2]!;
    const start = m.index + m[0].indexOf(body);
    const end = start + body.length;
    if (!free(start, end)) continue;
    const parts = body.split('.').map(Number);
    push({
      kind: 'version',
      text: text.slice(start, end),
      value: parts[0] ?? 0,
      high: parts[0] ?? 0,
      // "versions >= 0.11": the operator stands between the word and the number.
      bound:
        boundBefore(lower, m.index, end) ??
        boundBefore(lower, start, end) ??
        versionBound(lower, m.index) ??
        'eq',
      dim: 'version',
      unit: 'version',
      parts,
      start,
      end,
    });
  }
  // A product's release named in mid-sentence ("added in Python 3.7", "since Postfix 2.2") or
  // opening it ("Jinja 2.8 increased the default cache size"), or a list item ("Safari >= 11.3"):
  // a decimal number right after a capitalised name, or after its comparison, is its version,
  // not an amount.
  for (const m of text.matchAll(
    /(?<=^\s*|[\p{Ll},]\s+|\n\s*(?:[-*\u2022]\s+)?)(?:[A-Z][\w+#-]*(?:\.[a-z]+)?)\s+(?:(?:[<>]=?|[\u2264\u2265])\s*)?(\d+\.\d+)(?![\d.]*\d|[\w%])/gu,
  )) {
    const start = m.index + m[0].length - m[1]!.length;
    const end = start + m[1]!.length;
    if (!free(start, end) || unitAfter(lower, end, text)?.dim.startsWith('count') === false)
      continue;
    const parts = m[1]!.split('.').map(Number);
    push({
      kind: 'version',
      text: m[1]!,
      value: parts[0]!,
      high: parts[0]!,
      bound: boundBefore(lower, start, end) ?? versionBound(lower, start) ?? 'eq',
      dim: 'version',
      unit: 'version',
      parts,
      start,
      end,
    });
  }
  // A decimal number compared by age ("only versions older than 7.0", "newer than 2.1", "prior
  // to 1.4") or taken as a lower end ("anything from 7.0 should be fine", "from 2.4 on") is a
  // release, not an amount: age is said of releases only.
  for (const m of lower.matchAll(
    /\b(?:(older|earlier|newer|later) than|(prior to)|(?:anything|any version|versions|releases) (from)) (\d+\.\d+)(?![\d.]*\d|[\w%])|\b(from) (\d+\.\d+) (?:on|onwards?|and up)\b/g,
  )) {
    const body = m[4] ?? m[6]!;
    const start = m.index + m[0].lastIndexOf(body);
    const end = start + body.length;
    if (!free(start, end) || unitAfter(lower, end, text) !== null) continue;
    const parts = body.split('.').map(Number);
    const bound: Bound =
      (m[3] ?? m[5]) ? 'ge' : m[2] || /^(?:older|earlier)$/.test(m[1] ?? '') ? 'lt' : 'gt';
    const word = m[1] ?? m[2] ?? m[3] ?? m[5]!;
    push({
      kind: 'version',
      text: text.slice(m.index + m[0].indexOf(word), end),
      value: parts[0]!,
      high: parts[0]!,
      bound,
      dim: 'version',
      unit: 'version',
      parts,
      start,
      end,
    });
  }
  // Versions with a placeholder part ("3.Y", "3.Y+1", as policy documents write them): the
  // letter stands for one unknown number, so "3.Y+1" is above "3.Y" and below "3.Z" is unknown.
  for (const m of text.matchAll(/(?<![\w.])(\d+)\.([A-Z])(?:\+(\d+))?(?!\w|\.\w)/g)) {
    const [start, end] = [m.index, m.index + m[0].length];
    if (!free(start, end)) continue;
    const parts = [Number(m[1]), PLACEHOLDER * (m[2]!.charCodeAt(0) - 64) + Number(m[3] ?? 0)];
    push({
      kind: 'version',
      text: m[0],
      value: parts[0]!,
      high: parts[0]!,
      bound: boundBefore(lower, start, end) ?? 'eq',
      dim: 'version',
      unit: 'version',
      parts,
      start,
      end,
    });
  }
  // A status class ("3xx", "5XX") is a name, not a number (key terms compare it).
  for (const m of lower.matchAll(/\b\dxx\b/g)) taken.push([m.index, m.index + m[0].length]);
  // So are a chain of three numbers or more ("the 1-2-3 algorithm") and the label of a step
  // ("the stylesheet obtained at 2/", "step 3/").
  for (const m of lower.matchAll(/\b\d+(?:-\d+){2,}\b|\b\d+\/(?![\d\w])/g))
    taken.push([m.index, m.index + m[0].length]);
  // And an IPv6 address ("::1", "2001:db8::", "fe80::1:2:3").
  for (const m of lower.matchAll(
    /(?<![\w:])(?:[0-9a-f]{1,4}(?::[0-9a-f]{1,4})*)?::(?:[0-9a-f]{1,4}(?::[0-9a-f]{1,4})*)?(?![\w:])|\b[0-9a-f]{1,4}(?::[0-9a-f]{1,4}){3,}\b/g,
  ))
    taken.push([m.index, m.index + m[0].length]);
  const raws: Raw[] = [];
  // A literal in another base ("0o755", "0x1F", "0b101") is its value: "0o644" is not "0o600".
  for (const m of lower.matchAll(/(?<![\w.])0(?:x[0-9a-f]+|o[0-7]+|b[01]+)\b/g)) {
    const [start, end] = [m.index, m.index + m[0].length];
    if (!free(start, end)) continue;
    const value = Number(m[0]);
    raws.push({ start, end, value, high: value, bound: boundBefore(lower, start, end) });
    taken.push([start, end]);
  }
  // Digits: 30,000 / 100_000 (a separator of code) / 1.5 / 10k / ranges 1-5, 1 to 5, between 1
  // and 5.
  const numRe =
    /(?<![\w./])(?<![\w./-]-)(-?)(\d{1,3}(?:,\d{3})+|\d{1,3}(?:_\d{3})+(?![\w])|\d+(?:\.\d+)?(?:e\d+\b)?)(k\b)?(?:\s*(?:-|–|to|and)\s*(\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)\b)?/g;
  for (let m = numRe.exec(lower); m; m = numRe.exec(lower)) {
    const start = m.index;
    let end = start + m[0].length;
    if (!free(start, end)) continue;
    const scale = m[3] ? 1e3 : 1;
    // A minus standing alone before the digits ("use -1 to disable") is the number's sign.
    const value = Number(m[2]!.replace(/[,_]/g, '')) * scale * (m[1] ? -1 : 1);
    let high = value;
    let bound: Bound | null = boundBefore(lower, start, end);
    const head = m[1]!.length + m[2]!.length + (m[3]?.length ?? 0);
    const joiner = m[0].slice(head).trim();
    if (m[4] !== undefined) {
      const second = Number(m[4].replace(/,/g, ''));
      const isRange =
        joiner.startsWith('-') ||
        joiner.startsWith('–') ||
        joiner.startsWith('to') ||
        (joiner.startsWith('and') && /between\s+$/.test(lower.slice(0, start)));
      if (isRange && second >= value) {
        high = second;
        bound = 'range';
      } else {
        // Two numbers, not a range ("the 1, 5 and 15 minute load averages"): the second is read
        // on its own.
        end = start + head;
        numRe.lastIndex = end;
      }
    }
    raws.push({ start, end, value, high, bound });
  }
  // JavaScript's infinities ("-Infinity is returned"), signed like digits.
  for (const m of text.matchAll(/(?<![\w.$-])(-|−)?Infinity\b/g)) {
    const start = m.index;
    const end = start + m[0].length;
    if (!free(start, end)) continue;
    const value = m[1] ? -Infinity : Infinity;
    raws.push({ start, end, value, high: value, bound: null });
  }
  // "every tenth snapshot" counts as "every 10th snapshot" does ("every second" is mostly time).
  for (const m of lower.matchAll(
    new RegExp(`\\bevery\\s+(${DAY_WORDS.slice(2).join('|')})\\b`, 'g'),
  )) {
    const start = m.index + m[0].length - m[1]!.length;
    const end = m.index + m[0].length;
    if (!free(start, end)) continue;
    const value = dayOf(m[1]!);
    raws.push({ start, end, value, high: value, bound: null });
  }
  for (const m of wordRuns(text)) {
    let body = m.text;
    let start = m.index;
    const words = body.toLowerCase().split(/[\s-]+/);
    // "a" before a scale word is a number ("a hundred"), elsewhere an article.
    const value = m.high === undefined ? wordsValue(words) : wordsValue(m.low);
    if (value === null) continue;
    // "one" alone is mostly a pronoun ("the one that...", "at least one of max, maxSize or
    // ttl", "can build one for a document"): a number only before a noun or unit.
    if (
      words.length === 1 &&
      words[0] === 'one' &&
      (!/^\s+[a-z]/i.test(text.slice(start + 3)) ||
        /^\s+(?:of|for|in|at|with|from|that|which|who|whose|on)\b/i.test(text.slice(start + 3)) ||
        // "the first one changes", "the later one takes precedence", "this one".
        ONE_AS_PRONOUN.test(text.slice(0, start)))
    )
      continue;
    // "a leading zero", "an eight": a number word after an article names a digit, it counts
    // nothing ("a hundred" is a number: scale words are read below).
    if (
      words.length === 1 &&
      SCALES[words[0]!] === undefined &&
      /\b(?:an?|leading|trailing)\s+$/i.test(text.slice(0, start)) &&
      // "a two-byte header" is a measure.
      !/^-/.test(text.slice(start + body.length))
    )
      continue;
    // "once the counter is above zero" is a conjunction ("as soon as"), not a count; "once a
    // day" is one.
    // So is "Once compiled, ..." or "Once a block is reallocated, ..." at the start of a
    // sentence, unless a measure follows ("Once a day, ...", "Once per request").
    if (
      words.length === 1 &&
      words[0] === 'once' &&
      (/^\s+(?:the|it|you|they|we|this|that|these|those|all|its|their|your|our|there)\b/i.test(
        text.slice(start + 4),
      ) ||
        (/(?:^|[.;:!?]\s+)$/.test(text.slice(0, start)) &&
          !/^\s+(?:per|every|more|again|or|an?\s+(?:second|minute|hour|day|week|month|year|tick|cycle|run|request|call|session)s?)\b/i.test(
            text.slice(start + 4),
          )))
    )
      continue;
    if (/\ba\s+$/i.test(text.slice(0, start)) && SCALES[words[0]!] !== undefined) {
      start = text.slice(0, start).search(/a\s+$/i);
      body = text.slice(start, m.index + body.length);
    }
    const end = start + body.length;
    if (!free(start, end)) continue;
    if (m.high !== undefined) raws.push({ start, end, value, high: m.high, bound: 'range' });
    else raws.push({ start, end, value, high: value, bound: boundBefore(lower, start, end) });
  }
  // Fractions of a unit: "half an hour", "a quarter of an hour", "three quarters of a second".
  for (const m of lower.matchAll(FRACTION)) {
    const start = m.index;
    const end = start + m[0].length - 1;
    const u = unitAfter(lower, end, text);
    if (!u || u.dim.startsWith('count') || !free(start, end)) continue;
    const value = (SMALL[m[1] ?? ''] ?? 1) * FRACTIONS[m[2]!.replace(/s$/, '')]!;
    // "three quarters" read as a count of quarters is part of it.
    for (let k = raws.length - 1; k >= 0; k--)
      if (raws[k]!.start < end && raws[k]!.end > start) raws.splice(k, 1);
    raws.push({ start, end, value, high: value, bound: boundBefore(lower, start, end) });
  }
  // One unit of time said with an article: "a full minute", "took an hour", "under a second".
  // "a second request" is an ordinal, and "twice a day", "once an hour" are rates.
  for (const m of lower.matchAll(SPAN)) {
    const start = m.index;
    const end = start + m[1]!.length;
    const u = unitAfter(lower, end, text);
    if (u?.dim !== 'ms' || !free(start, end)) continue;
    if (
      !m[2] &&
      !/^\s*(?:[.,;:!?)]|$|(?:to|of|or|and|in|for|before|after|later|ago|long|is|was|are|were|will|would)\b)/.test(
        lower.slice(u.end),
      )
    )
      continue;
    // "a quarter of an hour" is read above.
    if (/\b(?:once|twice|thrice|times|per|every|of)\s+$/.test(lower.slice(0, start))) continue;
    if (raws.some((r) => r.start < u.end && r.end > start)) continue;
    raws.push({ start, end, value: 1, high: 1, bound: boundBefore(lower, start, end) });
  }
  // "a single larger pack" counts one, as "one larger pack" does.
  for (const m of lower.matchAll(/\b(?:an?\s+)?single\b/g)) {
    const start = m.index;
    const end = start + m[0].length;
    const u = unitAfter(lower, end, text);
    if (!u?.dim.startsWith('count') || !free(start, end)) continue;
    if (raws.some((r) => r.start < u.end && r.end > start)) continue;
    raws.push({ start, end, value: 1, high: 1, bound: boundBefore(lower, start, end) });
  }
  // "can double the size", "quadruples its memory": a multiple, counted in times as "twice" is.
  for (const m of lower.matchAll(MULTIPLYING)) {
    const start = m.index;
    const end = start + m[0].length;
    if (!free(start, end)) continue;
    const value = MULTIPLES[m[1]!]!;
    raws.push({ start, end, value, high: value, bound: boundBefore(lower, start, end) });
  }
  raws.sort((a, b) => a.start - b.start);
  // "zero or one occurrences", "1 or 2 retries": two plain values joined by "or", the smaller
  // first, give the range between them.
  for (let k = raws.length - 2; k >= 0; k--) {
    const [a, b] = [raws[k]!, raws[k + 1]!];
    if (
      /^\s+or\s+$/.test(lower.slice(a.end, b.start)) &&
      a.value === a.high &&
      b.value === b.high &&
      a.value < b.value &&
      (a.bound === null || a.bound === 'eq') &&
      (b.bound === null || b.bound === 'eq') &&
      !/^\s*(?:more|fewer|less|greater|higher|lower|above|below|later|earlier)\b/.test(
        lower.slice(b.end),
      )
    )
      raws.splice(k, 2, {
        start: a.start,
        end: b.end,
        value: a.value,
        high: b.value,
        bound: 'range',
      });
  }
  for (const r of raws) {
    const word = lower.slice(r.start, r.end);
    const once = ONCE_LIKE.has(word) || isMultiple(word);
    const u = once
      ? { dim: `count:${nounStem('times')}`, factor: 1, end: r.end, name: 'times' }
      : unitAfter(lower, r.end, text);
    // "in 1911" is a year; "1200 pear trees" a count: a counted noun after it decides, unless a
    // preposition of time stands before it. "of" is one only without a counted noun ("the summer
    // of 1999", not "upward of 2000 queries"); a bare number with no such word is a year only in
    // the range of modern years ("Default 1024" is a value).
    const yearWord = /^\d{4}$/.test(word) && r.value >= 1000 && r.value <= 2999;
    const before = lower.slice(Math.max(0, r.start - 12), r.start);
    const timePreposition =
      /\b(?:in|since|by|until|till|from|before|after|during|circa|year|early|late|mid)\s+$/.test(
        before,
      );
    // A value's slot before it makes it a value whatever its size ("a default of 1000",
    // "Default: 2000", "a maximum of 1024").
    const valueSlot = VALUE_SLOT.test(lower.slice(Math.max(0, r.start - 24), r.start));
    const yearLike =
      yearWord &&
      !valueSlot &&
      r.bound !== 'range' &&
      (u === null
        ? timePreposition || /\bof\s+$/.test(before) || (r.value >= 1800 && r.value <= 2100)
        : u.dim.startsWith('count:') && timePreposition);
    if (yearLike) {
      push({
        kind: 'date',
        text: text.slice(r.start, r.end),
        value: r.value * 10000,
        high: r.value * 10000,
        bound: r.bound ?? 'eq',
        dim: 'date',
        unit: 'date',
        parts: [r.value, 0, 0],
        start: r.start,
        end: r.end,
      });
      continue;
    }
    // A currency symbol stands before its number.
    const symbol = text.slice(Math.max(0, r.start - 1), r.start);
    const prefix =
      symbol === '$' || symbol === '€' || symbol === '£' ? UNITS.get(symbol) : undefined;
    const dim = prefix?.dim ?? u?.dim ?? 'count';
    const factor = prefix?.factor ?? u?.factor ?? 1;
    const start = prefix ? r.start - 1 : r.start;
    const end = u?.end ?? r.end;
    let from = start;
    const boundText = r.bound && r.bound !== 'range' ? boundStart(lower, r.start) : start;
    if (boundText !== null) from = Math.min(from, boundText);
    push({
      kind: 'number',
      text: text.slice(from, end).trim(),
      value: r.value * factor,
      high: r.high * factor,
      bound: r.bound ?? 'eq',
      dim,
      unit: prefix ? symbol : (u?.name ?? ''),
      parts: [],
      start,
      end,
      ...(valueSlot ? { slot: true } : {}),
    });
  }
  // "an unlimited number of clients" states a count too: one without a bound.
  for (const m of lower.matchAll(/\b(?:unlimited|unbounded|infinite|no limit)\b/g)) {
    const [start, end] = [m.index, m.index + m[0].length];
    if (!free(start, end)) continue;
    push({
      kind: 'number',
      text: text.slice(start, end),
      value: Infinity,
      high: Infinity,
      bound: 'eq',
      dim: 'count',
      unit: '',
      parts: [],
      start,
      end,
    });
  }
  // "more than this many packs" in an option's entry that gives its default ("The default value
  // is 50."): the bound is the default's.
  const setting = /\bdefault(?:\s+value)?\s+is\s+(\d+)\b|\bdefaults\s+to\s+(\d+)\b/.exec(lower);
  if (setting) {
    const n = Number(setting[1] ?? setting[2]);
    for (const m of lower.matchAll(/\b(more|fewer|less)\s+than\s+this\s+many\s+([a-z]{3,})/g)) {
      const [start, end] = [m.index, m.index + m[0].length];
      if (!free(start, end)) continue;
      push({
        kind: 'number',
        text: text.slice(start, end),
        value: n,
        high: n,
        bound: m[1] === 'more' ? 'gt' : 'lt',
        dim: `count:${nounStem(m[2]!)}`,
        unit: m[2]!,
        parts: [],
        start,
        end,
      });
    }
  }
  return out.sort((a, b) => a.start - b.start);
}

/** Fractions by their word. */
const FRACTIONS: Record<string, number> = { half: 1 / 2, third: 1 / 3, quarter: 1 / 4 };

/** `[a | one | two | three] half | quarter(s) | third(s) [of] a | an ` before a unit. */
const FRACTION = /\b(?:(a|one|two|three)\s+)?(half|quarters?|thirds?)\s+(?:of\s+)?an?\s/g;

/**
 * A verb or predeterminer of a multiple before what it multiplies: "double the size", "quadruples
 * its memory" (not "double quotes", "a double-click").
 */
const MULTIPLYING =
  /\b(doubl|tripl|quadrupl)(?:e|es|ed|ing)\b(?=\s+(?:the|its|their|this|that|your|our|in\s+size)\b)/g;

/** True for a multiple put as a verb or predeterminer ("double", "quadruples"). */
export const isMultiple = (text: string): boolean => /^(?:doubl|tripl|quadrupl)/i.test(text);

/** The factor of each stem of {@link MULTIPLYING}. */
const MULTIPLES: Record<string, number> = { doubl: 2, tripl: 3, quadrupl: 4 };

/** An article (group 1) before a unit of time, with a word that makes it a span (group 2). */
const SPAN =
  /\b(an?(?:\s+(full|whole|entire|single))?)(?=\s+(?:second|minute|hour|day|week|month|year)\b)/g;

/** A bound read under a negation: "cannot be larger than 125" is "at most 125". */
const NEGATED: Partial<Record<Bound, Bound>> = { le: 'gt', lt: 'ge', ge: 'lt', gt: 'le' };

/** True when a negation cue stands in the same clause within eight words before `at`. */
export function negatedBefore(lower: string, at: number): boolean {
  const clause =
    lower
      .slice(Math.max(0, at - 60), at)
      .split(/[,;:.!?()]|\b(?:and|or|but|which|that|if|when|while|unless|because)\b/)
      .pop() ?? '';
  const words = clause.trim().split(/\s+/).slice(-8).join(' ');
  return /\b(?:not|never|cannot|no)\b|n't\b/.test(words);
}

/**
 * The bound a phrase before the number states (`up to`, `more than`...), flipped by a negation
 * of the clause before it, else the bound a phrase after it states (`16+`, `16 and later`).
 */
function boundBefore(lower: string, at: number, end = at): Bound | null {
  const head = lower.slice(Math.max(0, at - 40), at);
  for (const [re, bound] of BOUNDS) {
    const m = re.exec(head);
    if (!m) continue;
    return negatedBefore(lower, at - head.length + m.index) ? (NEGATED[bound] ?? bound) : bound;
  }
  const rest = lower.slice(end, end + 30);
  if (/^\+(?![\w+])/.test(rest) || LATER_AFTER.test(rest)) return 'ge';
  if (EARLIER_AFTER.test(rest)) return 'le';
  return null;
}

/** A lower bound written after its number: "or later", "and up", "or any newer version". */
const LATER_AFTER =
  /^,? (?:and|or) (?:(?:an?|any) )?(?:later|newer|above|higher|greater|more|up)\b(?: (?:version|release)s?\b)?/;

/** An upper bound written after its number: "or earlier", "or an older release". */
const EARLIER_AFTER =
  /^,? (?:and|or) (?:(?:an?|any) )?(?:earlier|older|below|lower|less|fewer|under)\b(?: (?:version|release)s?\b)?/;

/**
 * The words of a quantity of `text` with the bound written after its number: "2013 or later", "16+",
 * not "2013", "16".
 */
export function withBound(q: Quantity, text: string): string {
  const rest = text.slice(q.end).toLowerCase();
  const m = /^\+(?![\w+])/.exec(rest) ?? LATER_AFTER.exec(rest) ?? EARLIER_AFTER.exec(rest);
  return q.text + (m ? text.slice(q.end, q.end + m[0].length) : '');
}

function boundStart(lower: string, at: number): number | null {
  const head = lower.slice(Math.max(0, at - 40), at);
  for (const [re] of BOUNDS) {
    const m = re.exec(head);
    if (m) return at - head.length + m.index;
  }
  return null;
}

/** The unit written after a number: a symbol or unit name, else the counted noun, else none. */
function unitAfter(
  lower: string,
  at: number,
  text: string,
): { dim: string; factor: number; end: number; name: string } | null {
  const rest = lower.slice(at);
  // A number in code ("`60e3` milliseconds") or with its unit in brackets ("60e3 (milliseconds)")
  // still has that unit; only a known unit is read across the quote or bracket.
  const quoted = /^(['`]?\s?\(?)([a-zµ]+)\)?/.exec(rest);
  if (quoted && /[`(]/.test(quoted[1]!)) {
    const def = UNITS.get(quoted[2]!);
    if (def && quoted[2]!.length > 1)
      return { ...def, end: at + quoted[0].length, name: quoted[2]! };
  }
  // On the number's line: the first word of the next line ("Node.js >= 18" then "Chrome >= 63"
  // in a list) is no unit of it.
  const m = /^([^\S\n]?|-)(%|per cent|[a-zµ×$€£]+)/.exec(rest);
  if (!m) return null;
  const name = m[2]!;
  const def = UNITS.get(name);
  // A compound adjective ("a two-byte header", "32-bit integers") states the unit too; a hyphen
  // before any other word ("a two-step process") is read as no unit.
  if (m[1] === '-') {
    return def && name.length > 1 && !/^[a-z]/.test(rest.slice(m[0].length))
      ? { ...def, end: at + m[0].length, name }
      : null;
  }
  // A unit symbol glued to the number ("30s", "5MiB") or after one space; a bare "s"/"m"/"h"/"d"
  // or "x" only when it is its own word, not an article or a plural.
  if (def && (name.length > 1 || /^(?:[^a-z]|$)/.test(rest.slice(m[0].length)))) {
    return { ...def, end: at + m[0].length, name };
  }
  if (m[1] === '' && name !== '%') return null;
  if (NOT_NOUN.has(name) || name.length < 3) return null;
  // A status code's capitalised reason names what the number is ("408 Request Timeout", "429 Rate
  // Limit"), it counts nothing; an acronym may qualify a counted noun ("1000 SMTP processes").
  if (
    /(?<![\w.])[1-5]\d\d$/.test(lower.slice(0, at)) &&
    /^[A-Z][a-z]/.test(text.slice(at + m[1]!.length))
  )
    return null;
  // A verb with its object after the number ("setting it to 0 turns this off", "-9 set the block
  // size", "1 yields an empty list"), not a noun counted.
  if (/^\s(?:this|it|them|these|those|the|an?|its|their)\b/.test(rest.slice(m[0].length)))
    return null;
  // So is a verb with a particle ("0 turns retries off") or one WordNet knows only as a verb
  // ("0 disables the cache").
  if (/^\s[a-z]+\s(?:off|on)(?![\w-])/.test(rest.slice(m[0].length)) || verbOnly(name)) return null;
  // A noun before a plural one qualifies it: "12 stack frames" counts frames, "5 log files" files,
  // "1000 SMTP client processes" processes.
  const head = /^(?:\s([a-z]{3,}))?\s([a-z]{3,}s)\b/.exec(rest.slice(m[0].length));
  const between = head?.[1];
  if (
    head &&
    !name.endsWith('s') &&
    !NOT_NOUN.has(head[2]!) &&
    // Past a second word only after a name WordNet does not know ("SMTP client processes", not
    // "900k block size takes").
    (between === undefined ||
      (!between.endsWith('s') && !NOT_NOUN.has(between) && !loadWordNet().knows(name)))
  ) {
    const end = at + m[0].length + head[0].length;
    return { dim: `count:${nounStem(head[2]!)}`, factor: 1, end, name: head[2]! };
  }
  // An adjective names no thing counted; the noun after it does ("one consecutive occurrence",
  // "one combined header").
  const next = /^\s([a-z]{3,})\b/.exec(rest.slice(m[0].length));
  if (next && !NOT_NOUN.has(next[1]!) && adjectiveOnly(name)) {
    const end = at + m[0].length + next[0].length;
    return { dim: `count:${nounStem(next[1]!)}`, factor: 1, end, name: next[1]! };
  }
  // An adverb or adjective with no noun after it counts nothing ("1024 rather than 1000").
  if (adjectiveOnly(name)) return null;
  return { dim: `count:${nounStem(name)}`, factor: 1, end: at + m[0].length, name };
}

/** True for a third-person verb whose stem WordNet knows only as a verb ("disables", "enables"). */
function verbOnly(word: string): boolean {
  if (!word.endsWith('s') || loadWordNet().knows(word)) return false;
  const stems = [word.slice(0, -1), ...(word.endsWith('es') ? [word.slice(0, -2)] : [])];
  const senses = stems.flatMap((stem) => loadWordNet().synsets(stem));
  return senses.length > 0 && senses.every((id) => id.startsWith('v'));
}

/** True for a word WordNet knows only as an adjective or adverb ("consecutive", "combined"). */
function adjectiveOnly(word: string): boolean {
  const senses = loadWordNet().synsets(word);
  return senses.length > 0 && senses.every((id) => id.startsWith('a') || id.startsWith('r'));
}
