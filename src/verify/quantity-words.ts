/**
 * The closed-class vocabulary of quantities: number words, units with their factors, month
 * names, bound phrases, and the words that cannot be a count's noun.
 */
import type { Bound } from './quantities.js';

/** Number words up to ninety, and `once`/`twice`/`thrice`, by value. */
export const SMALL: Record<string, number> = {
  zero: 0,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  thirteen: 13,
  fourteen: 14,
  fifteen: 15,
  sixteen: 16,
  seventeen: 17,
  eighteen: 18,
  nineteen: 19,
  twenty: 20,
  thirty: 30,
  forty: 40,
  fifty: 50,
  sixty: 60,
  seventy: 70,
  eighty: 80,
  ninety: 90,
  dozen: 12,
  once: 1,
  twice: 2,
  thrice: 3,
};
/** Scale words: `hundred`, `thousand`... */
export const SCALES: Record<string, number> = {
  hundred: 100,
  thousand: 1e3,
  million: 1e6,
  billion: 1e9,
  trillion: 1e12,
};
/** Number words that are counts of times. */
export const ONCE_LIKE = new Set(['once', 'twice', 'thrice']);

/** A unit's dimension and its factor to the dimension's base unit. */
export interface UnitDef {
  dim: string;
  factor: number;
}

/** Units by their written forms (lower case); bytes keep the B/b distinction out: bits are rare. */
export const UNITS = new Map<string, UnitDef>();
const unit = (dim: string, factor: number, ...names: string[]): void => {
  for (const n of names) UNITS.set(n, { dim, factor });
};
unit('bytes', 1, 'b', 'byte', 'bytes');
unit('bytes', 1e3, 'kb', 'kilobyte', 'kilobytes');
unit('bytes', 1024, 'kib', 'kibibyte', 'kibibytes');
unit('bytes', 1e6, 'mb', 'megabyte', 'megabytes');
unit('bytes', 1024 ** 2, 'mib', 'mebibyte', 'mebibytes');
unit('bytes', 1e9, 'gb', 'gigabyte', 'gigabytes');
unit('bytes', 1024 ** 3, 'gib', 'gibibyte', 'gibibytes');
unit('bytes', 1e12, 'tb', 'terabyte', 'terabytes');
unit('bytes', 1024 ** 4, 'tib');
unit('ms', 1e-6, 'ns', 'nanosecond', 'nanoseconds');
unit('ms', 1e-3, 'us', 'µs', 'microsecond', 'microseconds');
unit('ms', 1, 'ms', 'msec', 'millisecond', 'milliseconds');
unit('ms', 1e3, 's', 'sec', 'secs', 'second', 'seconds');
unit('ms', 6e4, 'min', 'mins', 'minute', 'minutes');
unit('ms', 3.6e6, 'h', 'hr', 'hrs', 'hour', 'hours');
unit('ms', 8.64e7, 'd', 'day', 'days');
unit('ms', 6.048e8, 'week', 'weeks');
unit('ms', 2.592e9, 'month', 'months');
unit('ms', 3.1536e10, 'year', 'years');
unit('m', 1e-3, 'mm', 'millimetre', 'millimetres', 'millimeter', 'millimeters');
unit('m', 1e-2, 'cm', 'centimetre', 'centimetres', 'centimeter', 'centimeters');
unit('m', 1, 'm', 'metre', 'metres', 'meter', 'meters');
unit('m', 1e3, 'km', 'kilometre', 'kilometres', 'kilometer', 'kilometers');
unit('m', 0.3048, 'ft', 'foot', 'feet');
unit('m', 1609.344, 'mi', 'mile', 'miles');
unit('g', 1, 'g', 'gram', 'grams');
unit('g', 1e3, 'kg', 'kilogram', 'kilograms');
unit('g', 1e6, 'tonne', 'tonnes');
unit('hz', 1, 'hz', 'hertz');
unit('hz', 1e3, 'khz');
unit('hz', 1e6, 'mhz');
unit('hz', 1e9, 'ghz');
unit('percent', 1, '%', 'percent', 'per cent');
unit('px', 1, 'px', 'pixel', 'pixels');
unit('usd', 1, '$', 'usd', 'dollar', 'dollars');
unit('eur', 1, '€', 'eur', 'euro', 'euros');
unit('gbp', 1, '£', 'gbp');
unit('x', 1, 'x', '×');

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
/** A month name or its abbreviation, as a regular expression source with one group. */
export const MONTH =
  '(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\\.?';
/** The month number (1-12) of a month name. */
export const monthOf = (m: string): number => MONTHS.indexOf(m.slice(0, 3).toLowerCase()) + 1;

/** Bound phrases just before a number, longest first (matched on the lower-cased text). */
export const BOUNDS: [RegExp, Bound][] = [
  // Comparison operators ("node >= 18", ">=1.1.0"); a `>` closing a tag ("<b> 5") is none.
  [/(?:^|[\s(:,])(?:>=|≥) ?$/, 'ge'],
  [/(?:^|[\s(:,])(?:<=|≤) ?$/, 'le'],
  [/(?:^|[\s(:,])> ?$/, 'gt'],
  [/(?:^|[\s(:,])< ?$/, 'lt'],
  [/(?:greater|more|higher|larger) than or equal to $/, 'ge'],
  [/(?:less|lower|smaller|fewer) than or equal to $/, 'le'],
  [/(?:not|no) (?:more|greater|higher|larger|longer) than $/, 'le'],
  [/(?:not|no) (?:less|fewer|lower|smaller|shorter) than $/, 'ge'],
  [
    /(?:up to|at most|a maximum of|maximum of|max(?:imum)?\.?|not exceeding|capped at|limited to|as (?:many|much) as) $/,
    'le',
  ],
  [/(?:at least|a minimum of|minimum of|min(?:imum)?\.?|no fewer than) $/, 'ge'],
  [/(?:less than|fewer than|lower than|smaller than|shorter than|under|below|within) $/, 'lt'],
  [
    /(?:more than|greater than|higher than|larger than|longer than|over|above|exceeds?|beyond|upwards? of|in excess of) $/,
    'gt',
  ],
  [/(?:about|around|approximately|approx\.?|roughly|nearly|almost|some|~) ?$/, 'approx'],
];

/** Words that name a count's noun but are not its unit (articles, prepositions...). */
export const NOT_NOUN = new Set(
  (
    'a an the and or of to in on at by for with from than as is are was were be per each every ' +
    'more less that which this these those it its after before into over under until since when ' +
    'while if but so not then also only other others more most later earlier ago onward onwards ' +
    'respectively instead again through via without within during among between about off out up ' +
    // Verbs after a number are no counted noun ("level 0 does no compression"), and neither are
    // the modifiers before one ("about 16 such items", "16 non buffers").
    'does do did has have had can could will would may might must should shall means ' +
    'such non additional extra new different separate distinct individual'
  ).split(' '),
);

/** A run of number words (`twenty five`, `four hundred and ten`). */
export const WORD_NUMBER = new RegExp(
  `\\b(?:(?:${[...Object.keys(SMALL), ...Object.keys(SCALES)].join('|')})(?:[\\s-]+(?:and[\\s-]+)?)?)+\\b`,
  'gi',
);

/** Value of a run of number words: `twenty five` 25, `four hundred` 400, `a dozen` 12. */
export function wordsValue(words: string[]): number | null {
  let total = 0;
  let current = 0;
  let any = false;
  for (const w of words) {
    if (w === 'and') continue;
    const small = SMALL[w];
    const scale = SCALES[w];
    if (small !== undefined) {
      current += small;
      any = true;
    } else if (scale !== undefined) {
      current = (current || 1) * scale;
      if (scale >= 1000) {
        total += current;
        current = 0;
      }
      any = true;
    } else return null;
  }
  return any ? total + current : null;
}

/**
 * Where a run of number words holds two numbers joined by "and" rather than one: "and" joins the
 * parts of one number only before a part smaller than the scale before it ("four hundred and
 * ten"), so "ten thousand and thirty million" is two. The index in `words` of that "and", or -1.
 */
export function numbersJoined(words: readonly string[]): number {
  for (let k = 1; k < words.length - 1; k++) {
    if (words[k] !== 'and') continue;
    const scales = words.slice(0, k).flatMap((w) => (SCALES[w] !== undefined ? [SCALES[w]!] : []));
    const after = wordsValue(words.slice(k + 1));
    const before = wordsValue(words.slice(0, k));
    if (before === null || after === null) continue;
    const last = scales.at(-1);
    if (last === undefined || after >= last) return k;
  }
  return -1;
}

/** A crude English stem for count nouns: `retries` and `retry` compare equal. */
export const nounStem = (w: string): string =>
  w
    .replace(/ies$/, 'y')
    .replace(/(?:es|s)$/, '')
    .replace(/e$/, '');

/** Bound phrases before a version only: "before v8" is below it, "after v8" above it. */
const VERSION_BOUNDS: [RegExp, Bound][] = [
  [/(?:before|prior to|older than|earlier than|below) (?:version |release )?$/, 'lt'],
  [/(?:after|newer than|later than|since) (?:version |release )?$/, 'gt'],
];

/** The bound a phrase before the version at `at` states ("before v8", "since 2.0"), or `null`. */
export function versionBound(lower: string, at: number): Bound | null {
  const head = lower.slice(Math.max(0, at - 30), at);
  return VERSION_BOUNDS.find(([re]) => re.test(head))?.[1] ?? null;
}
