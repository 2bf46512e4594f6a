/**
 * Settings stated without a number: the default of a switch ("on by default", "defaulted to
 * false", "true unless you turn it off") and the unit a value is given in ("a TTL in
 * milliseconds"). A claim that states the other value of either conflicts, though every word but
 * one is shared and no number differs.
 */
import type { Conflict } from './verify-claim.js';
import { UNITS } from './quantity-words.js';
import { escapeRegExp } from './words.js';

const VALUE = '(on|off|true|false|enabled|disabled|yes|no)';

/** Ways a text states a switch's default; group 1 is an optional negation, group 2 the value. */
const DEFAULTS: readonly RegExp[] = [
  // "is on by default", "is not enabled by default"
  new RegExp(`\\b(not\\s+|n't\\s+)?${VALUE}\\s*\\)?\\s+by\\s+default\\b`, 'g'),
  // "defaults to false", "defaulted to true", "defaulting to false", "default: false", "default
  // is `false`"
  new RegExp(
    `\\bdefault(?:s|ed|ing)?(\\s+is\\s+not|\\s+isn't)?(?:\\s+value)?(?:\\s+(?:to|is|of)\\s+|\\s*[:=]\\s*)['"\`]?${VALUE}\\b`,
    'g',
  ),
  // "(default false)": no word between, for the two values that cannot be a preposition
  /\bdefault()\s+['"`]?(true|false)\b/g,
  // "by default, comments are not enabled" (up to five words between)
  new RegExp(
    `\\bby\\s+default,?\\s+(?:[\\w'-]+\\s+){0,5}?(?:is|are|stays?|remains?)\\s+(not\\s+)?${VALUE}\\b`,
    'g',
  ),
  // "true unless you turn it off", "off unless enabled"
  new RegExp(`\\b(not\\s+)?${VALUE}\\s+unless\\b`, 'g'),
  // "set to true (the default value)", "false (default)", "block (false, default)"
  new RegExp(
    `\\b()${VALUE}\\s*(?:\\(\\s*(?:the\\s+)?default(?:\\s+value)?|,\\s*(?:the\\s+)?default)\\s*\\)`,
    'g',
  ),
];

const TRUE = new Set(['on', 'true', 'enabled', 'yes']);

/** Defaults a text states, each with its words and where they start: `[true, 'on by default', 12]`. */
function defaultsAt(text: string): [boolean, string, number][] {
  const lower = text.toLowerCase().replace(/[\u2018\u2019]/g, "'");
  const out: [boolean, string, number][] = [];
  const seen = new Set<number>();
  for (const re of DEFAULTS) {
    for (const m of lower.matchAll(re)) {
      if (seen.has(m.index)) continue;
      seen.add(m.index);
      const value = TRUE.has(m[2]!) !== Boolean(m[1]);
      out.push([value, text.slice(m.index, m.index + m[0].length).trim(), m.index]);
    }
  }
  return out;
}

/** Defaults a text states, each with its words: `[true, 'on by default']`. */
export function statedDefaults(text: string): [boolean, string][] {
  return defaultsAt(text).map(([value, words]) => [value, words]);
}

/**
 * Ways a text names an option in words: "the trim option", "pathToRegexp's sensitive option",
 * "setting trim to true".
 */
const OPTION_NAMES: readonly RegExp[] = [
  /(?:\bthe|['\u2019]s)\s+[`'"]?([\p{L}_$][\p{L}\p{N}_$-]*)[`'"]?\s+(?:option|setting|flag)\b/giu,
  /\bsetting\s+[`'"]?([\p{L}_$][\p{L}\p{N}_$-]*)[`'"]?\s+to\b/giu,
];

/** How a text names the switch whose value it gives: "end is true", "strict defaults to false". */
const SWITCH_VALUE =
  /\b[`'"]?([\p{L}_$][\p{L}\p{N}_$-]*)[`'"]?\s+(?:is|stays|remains|defaults\s+to|is\s+set\s+to)\s+(?:not\s+)?(?:on|off|true|false|enabled|disabled)\b/giu;

/** Words in a name's place that name none: "the same option", "setting it to 0", "it is true". */
const NOT_NAMES = new Set(
  'a an the this that these those it them its their your same other another default new first last each any every one only such which option command line main global'.split(
    ' ',
  ),
);

/** The names the patterns find in a text, once each. */
function namesBy(text: string, patterns: readonly RegExp[]): string[] {
  const out = new Set<string>();
  for (const re of patterns) {
    for (const m of text.matchAll(re)) {
      const name = m[1]!.replace(/-+$/, '');
      if (name.length >= 2 && !NOT_NAMES.has(name.toLowerCase())) out.add(name);
    }
  }
  return [...out];
}

/** The options a text names in words ("setting trim to true": `trim`). */
export const optionNames = (text: string): string[] => namesBy(text, OPTION_NAMES);

/** How far after a switch's name its entry states its default, at most (characters). */
const ENTRY_REACH = 160;

/**
 * The defaults a page states right after a name the claim gives its switch ("sensitive Regexp
 * will be case sensitive. (default: false)" for "the sensitive option"): of a list of options,
 * the one default that is that switch's, not its neighbours'.
 */
function defaultsOfName(claim: string, page: string, reach = ENTRY_REACH): [boolean, string][] {
  const at = defaultsAt(page).sort((a, b) => a[2] - b[2]);
  const out: [boolean, string][] = [];
  for (const name of namesBy(claim, [...OPTION_NAMES, SWITCH_VALUE])) {
    const spelled = new RegExp(
      `(?<![\\p{L}\\p{N}_$.-])${escapeRegExp(name)}(?![\\p{L}\\p{N}_$-])`,
      'gu',
    );
    for (const n of page.matchAll(spelled)) {
      const next = at.find(([, , k]) => k > n.index);
      if (next && next[2] - n.index <= reach) out.push([next[0], next[1]]);
    }
  }
  return out;
}

/** Words that negate an act. */
const NEGATES = /\b(?:not|never|no|without)\b|n't\b/;

/** Words that name a switch's value ("on" only as one: "is on", not "on every call"). */
const NAMES_VALUE =
  /\b(?:off|true|false|enabled|disabled|yes)\b|\b(?:is|are|turned|switched|stays|remains)\s+on\b/;

/**
 * What a text does "by default" without naming a value ("Massif profiles stacks by default": on;
 * "it does not follow links by default": off), with the clause that says it. A clause that names
 * a value is left to {@link statedDefaults}.
 */
function actsByDefault(text: string): [boolean, string][] {
  const out: [boolean, string][] = [];
  for (const sentence of text.toLowerCase().split(/[.;:!?](?:\s|$)/)) {
    const parts = sentence.split(/,\s*/);
    parts.forEach((part, i) => {
      if (!/\bby default\b/.test(part)) return;
      // "By default, X does Y": the clause is the part after the comma.
      const clause = /^\s*by default\s*$/.test(part) ? `${part}, ${parts[i + 1] ?? ''}` : part;
      if (NAMES_VALUE.test(clause)) return;
      out.push([!NEGATES.test(clause), clause.trim()]);
    });
  }
  return out;
}

/** Words of four letters or more, cut to five, as a crude stem ("profiling" / "profiles"). */
const stems = (text: string): Set<string> =>
  new Set((text.toLowerCase().match(/\p{L}{4,}/gu) ?? []).map((w) => w.slice(0, 5)));

const NOT_SUBJECTS = new Set(['defau', 'unles', 'which', 'there', 'their', 'these', 'those']);

/**
 * A claim's switch default against the passage's: a conflict when the passage states defaults and
 * none has the claim's value ("strictDepth is on by default" / "strictDepth (defaulted to false)").
 * A claim that says what happens by default ("Massif profiles stacks by default") states the
 * value on; it conflicts with a passage whose defaults are all off, where the passage's default
 * names a word of the claim's clause ("By default, stack profiling is off").
 */
function defaultConflicts(claim: string, page: string): Conflict[] {
  const theirs = defaultsAt(page);
  if (theirs.length === 0) return [];
  const mine = statedDefaults(claim);
  // Of an option list, the default right after the switch's name is the one that answers.
  const named = defaultsOfName(claim, page);
  for (const [value, words] of mine) {
    const answering = named.length > 0 ? named : theirs;
    if (answering.some(([v]) => v === value)) continue;
    return [{ kind: 'negation', claim: words, page: answering[0]![1] }];
  }
  if (mine.length > 0) return [];
  for (const [value, clause] of actsByDefault(claim)) {
    if (theirs.some(([v]) => v === value)) continue;
    const said = stems(clause);
    // The page's default names what it is the default of just before it, or in its own words.
    const at = theirs.find(([, words, where]) =>
      [...stems(`${page.slice(Math.max(0, where - 40), where)} ${words}`)].some(
        (w) => said.has(w) && !NOT_SUBJECTS.has(w),
      ),
    );
    if (at) return [{ kind: 'negation', claim: clause, page: at[1] }];
  }
  return [];
}

/** Boolean values a text gives to named keys, written as code: `"preflightContinue": false`. */
function keyValues(text: string): Map<string, [boolean, string][]> {
  const out = new Map<string, [boolean, string][]>();
  for (const m of text.matchAll(/["'`]?([A-Za-z_$][\w$]*)["'`]?\s*[:=]\s*(true|false)\b/g)) {
    const list = out.get(m[1]!) ?? [];
    list.push([m[2] === 'true', m[0]]);
    out.set(m[1]!, list);
  }
  return out;
}

/** Boolean values a claim gives to named keys in words: "preflightContinue is false". */
function keyValuesStated(text: string): [string, boolean, string][] {
  const out: [string, boolean, string][] = [];
  const re =
    /\b([A-Za-z_$][\w$]*)[`'"]?\s+(?:is|stays|remains|defaults\s+to|is\s+set\s+to)\s+(not\s+)?[`'"]?(true|false)\b/g;
  for (const m of text.matchAll(re)) out.push([m[1]!, (m[3] === 'true') !== Boolean(m[2]), m[0]]);
  for (const [key, values] of keyValues(text))
    for (const [v, words] of values) out.push([key, v, words]);
  return out;
}

/**
 * A key's value in a passage that states defaults as code ("The default configuration is the
 * equivalent of: { ..., "preflightContinue": false }") against the value the claim gives it
 * ("preflightContinue is true in the default configuration"). Keys set in running prose ("pass
 * `{ strict: true }` to ...") say what to do, not what is: only a passage naming the defaults
 * counts.
 */
function keyConflicts(claim: string, page: string): Conflict[] {
  if (!/\bdefaults?\b/i.test(page)) return [];
  const theirs = keyValues(page);
  for (const [key, value, words] of keyValuesStated(claim)) {
    const values = theirs.get(key);
    if (!values || values.some(([v]) => v === value)) continue;
    return [{ kind: 'negation', claim: words, page: values[0]![1] }];
  }
  return [];
}

/** Units named as what a value is given in: "in seconds", "a number of bytes". */
function unitsNamed(text: string): { name: string; dim: string; words: string }[] {
  const out: { name: string; dim: string; words: string }[] = [];
  for (const m of text.toLowerCase().matchAll(/\b(?:in|as|of)\s+(?:whole\s+)?([a-zµ]{4,})\b/g)) {
    const def = UNITS.get(m[1]!);
    if (def) out.push({ name: m[1]!.replace(/s$/, ''), dim: def.dim, words: m[0] });
  }
  return out;
}

/**
 * A unit the claim names for a value ("the TTL is given in seconds") where the passage names
 * another of the same dimension and never the claim's ("a TTL in milliseconds").
 */
function unitConflicts(claim: string, page: string): Conflict[] {
  const theirs = unitsNamed(page);
  if (theirs.length === 0) return [];
  const pageWords = new Set(page.toLowerCase().match(/[a-zµ]+/g) ?? []);
  for (const u of unitsNamed(claim)) {
    if (pageWords.has(u.name) || pageWords.has(`${u.name}s`)) continue;
    const other = theirs.find((t) => t.dim === u.dim && t.name !== u.name);
    if (other) return [{ kind: 'number', claim: u.words, page: other.words }];
  }
  return [];
}

/**
 * A switch default the claim states where the passage says nothing of a default at all: no stated
 * default, no "default" or "unless" ("autoClose is off unless you turn it on" / "if the autoClose
 * option is set to true, ..."). Such a passage does not support it.
 */
export function unstatedSettings(claim: string, page: string): string[] {
  const mine = statedDefaults(claim);
  if (mine.length === 0 || statedDefaults(page).length > 0) return [];
  // "the default evaluation function" names a function, not a default: only a default stated
  // ("defaults to", "by default", "Default:", "the default is") is one.
  const stated =
    /\b(?:defaults|defaulted|unless)\b|\bby default\b|\bdefault(?:\s+value)?\s*(?:[:=(]|is\b|of\b)|\(default\b/i;
  if (stated.test(page)) return [];
  return mine.map(([, text]) => text);
}

/** How far after a switch's name its entry may state its default, read around a passage. */
const CONTEXT_REACH = 400;

/**
 * A switch default the claim states that the passage leaves out, while the passage's window
 * gives that switch's entry another one ("The useGlobal option is true by default" / "useGlobal
 * <boolean> If true, ... The node CLI REPL sets this value to true. Default: false."): the entry
 * runs past the passage.
 */
export function contextDefaultConflicts(claim: string, page: string, context: string): Conflict[] {
  const mine = statedDefaults(claim);
  if (mine.length === 0 || statedDefaults(page).length > 0) return [];
  const theirs = defaultsOfName(claim, context, CONTEXT_REACH);
  if (theirs.length === 0) return [];
  const other = mine.find(([value]) => !theirs.some(([v]) => v === value));
  return other ? [{ kind: 'negation', claim: other[1], page: theirs[0]![1] }] : [];
}

/** A value named as a default: a word or a name, not a number (quantities align those). */
const NAMED = '[`\'"]?([\\p{L}_$][\\p{L}\\p{N}_$.-]*[\\p{L}\\p{N}_$])[`\'"]?';

/** Ways a text names a default value; group 1 is the value. */
const NAMED_DEFAULTS: readonly RegExp[] = [
  // "defaults to setext", "default: `indented`", "the default is full", "default value: inlined"
  new RegExp(`\\bdefaults?(?:\\s+value)?(?:\\s+(?:to|is)\\s+|\\s*[:=]\\s*)${NAMED}`, 'giu'),
  // "setext is the default", "atx (default)"
  new RegExp(`${NAMED}\\s+(?:is\\s+the\\s+default\\b|\\(default\\))`, 'giu'),
  // "code blocks are indented by default" (after a copula: "uses a larger window by default"
  // names no value)
  new RegExp(
    `\\b(?:is|are|be|stays|remains)\\s+(?:set\\s+to\\s+)?${NAMED}\\s+by\\s+default\\b`,
    'giu',
  ),
];

/** Words that stand where a value would but name none ("is used by default", "to the"). */
const NOT_VALUES = new Set([
  ...['a', 'an', 'the', 'this', 'that', 'it', 'its', 'their', 'is', 'are', 'be', 'been', 'was'],
  ...['were', 'not', 'set', 'used', 'done', 'made', 'given', 'also', 'only', 'now', 'always'],
  ...['on', 'off', 'true', 'false', 'enabled', 'disabled', 'yes', 'no'],
]);

/** Values a text names as defaults, each with its words: `['setext', 'Default: setext']`. */
function namedDefaults(text: string): [string, string][] {
  const out: [string, string][] = [];
  for (const re of NAMED_DEFAULTS) {
    for (const m of text.matchAll(re)) {
      const value = m[1]!.toLowerCase();
      if (!NOT_VALUES.has(value)) out.push([value, m[0].trim()]);
    }
  }
  return out;
}

/**
 * A default the claim names that the passage names too, but not as the default, while it names
 * another ("headingStyle defaults to atx" / "headingStyle setext or atx. Default: setext."): the
 * two values are swapped. A value the passage does not name is no evidence (another option's
 * default may stand beside it).
 */
function namedDefaultConflicts(claim: string, page: string): Conflict[] {
  const theirs = namedDefaults(page);
  if (theirs.length === 0) return [];
  const words = new Set(page.toLowerCase().match(/[\p{L}\p{N}_$.-]+/gu) ?? []);
  for (const [value, text] of namedDefaults(claim)) {
    if (theirs.some(([v]) => v === value) || !words.has(value)) continue;
    return [{ kind: 'term', claim: text, page: theirs[0]![1] }];
  }
  return [];
}

/** An entry that opens with its name: "keepClasses (boolean, default false): ...", "maxAge: ...". */
const ENTRY_OPENING =
  /^\s*[`'"]?([\p{L}_$][\p{L}\p{N}_$.]*)[`'"]?\s*(?:\(|:\s|\s[-\u2013\u2014]\s)/u;

/** A name written as code: camelCase, or with `_`, `$` or a dot inside. */
const CODE_NAME = /\p{Ll}\p{Lu}|[_$]|\p{L}\.\p{L}/u;

/**
 * A switch default the passage gives its entry ("keepClasses (boolean, default false): ... only
 * classes specified in the classesToPreserve array are kept") that the claim gives to another name
 * the passage names ("classesToPreserve is left at its default of false"): the claim's name is
 * the last name written as code before its default. A passage that states a default right after
 * the claim's name too gives that one its own.
 */
function entryDefaultConflicts(claim: string, page: string): Conflict[] {
  const entry = ENTRY_OPENING.exec(page)?.[1];
  if (!entry || !CODE_NAME.test(entry)) return [];
  const defaults = defaultsAt(page);
  const first = [...defaults].sort((a, b) => a[2] - b[2])[0];
  if (!first || first[2] > ENTRY_REACH) return [];
  const spelled = (name: string): RegExp =>
    new RegExp(`(?<![\\p{L}\\p{N}_$.-])${escapeRegExp(name)}(?![\\p{L}\\p{N}_$-])`, 'gu');
  for (const [value, , at] of defaultsAt(claim)) {
    if (value !== first[0]) continue;
    const names = [...claim.slice(0, at).matchAll(/[\p{L}_$][\p{L}\p{N}_$.]*/gu)]
      .map((m) => m[0].replace(/\.$/, ''))
      .filter((w) => CODE_NAME.test(w));
    const owner = names.at(-1);
    if (!owner || owner.toLowerCase() === entry.toLowerCase()) continue;
    const places = [...page.matchAll(spelled(owner))].map((m) => m.index);
    if (places.length === 0) continue;
    if (defaults.some(([, , k]) => places.some((n) => k > n && k - n <= ENTRY_REACH))) continue;
    return [{ kind: 'term', claim: owner, page: entry }];
  }
  return [];
}

/**
 * Conflicts of settings: switch defaults, keys' values in a defaults block, named default values,
 * the name an entry's default belongs to, then units.
 */
export function settingConflicts(claim: string, page: string): Conflict[] {
  let defaults = defaultConflicts(claim, page);
  if (defaults.length === 0) defaults = keyConflicts(claim, page);
  if (defaults.length === 0) defaults = namedDefaultConflicts(claim, page);
  if (defaults.length === 0) defaults = entryDefaultConflicts(claim, page);
  return [...defaults, ...unitConflicts(claim, page)];
}
