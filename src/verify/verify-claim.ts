/**
 * Verifies a claim against a passage by aligning what can be wrong while the words still match:
 * quantities, polarity, comparatives and key terms. A located passage is only a candidate; this
 * decides whether it supports the claim, states something else about the same thing, or is about
 * something else.
 */
import { comparable, compareQuantities } from './compare-quantities.js';
import { CUES, analyze } from './analyze.js';
import type { Analysis, KeyTerm, Token } from './analyze.js';
import { quantityAlignment, termAlignment } from './align.js';
import {
  associationSwaps,
  contrastSwaps,
  modifierSwaps,
  unstatedPreferences,
} from './associations.js';
import { onlyAsks } from './answers.js';
import { glossSwaps } from './glosses.js';
import { unlikeConflicts } from './unlike.js';
import {
  caseSwaps,
  caseValues,
  CONDITIONS,
  concessionConflicts,
  conditionConflicts,
} from './conditions.js';
import {
  coordinatedItems,
  distinguishing,
  deniedExceptions,
  exceptedConflicts,
  exclusiveConflicts,
  restrictionConflicts,
  itemConflicts,
} from './conjuncts.js';
import {
  comparativeConflicts,
  operatorConflicts,
  opensBound,
  particleConflicts,
  unstatedComparisons,
} from './comparisons.js';
import { datedOrderConflicts, orderConflicts, stepConflicts, unstatedOrders } from './orders.js';
import { deniedActs, polarityConflicts, unstatedDenials } from './polarity.js';
import { deniedVerbatim } from './denied-verbatim.js';
import { exceptionConflicts, isPredicate, predicateConflicts } from './predicates.js';
import { modifierReplaced, swappedWords } from './frames.js';
import { neighbourSwaps } from './neighbours.js';
import { reversals } from './reversals.js';
import { branchConflicts } from './branches.js';
import {
  contextDefaultConflicts,
  optionNames,
  settingConflicts,
  unstatedSettings,
} from './settings.js';
import { UNITS } from './quantity-words.js';
import { loadWordNet } from './wordnet.js';
import { slotSwaps } from './slots.js';
import type { Quantity } from './quantities.js';
import {
  acronymWords,
  areAntonyms,
  escapeRegExp,
  hasTerm,
  identifierPieces,
  isPosition,
  norm,
  possibly,
  related,
  valueAdjective,
} from './words.js';

/** What kind of fact conflicts between a claim and its passage. */
export type ConflictKind =
  'number' | 'date' | 'version' | 'negation' | 'antonym' | 'comparative' | 'term';

/** One fact the claim states differently from the passage: `{ kind: 'number', claim: '5 MiB', page: '1 MiB' }`. */
export interface Conflict {
  kind: ConflictKind;
  /** The claim's words for it. */
  claim: string;
  /** The passage's words for it. */
  page: string;
}

/**
 * `supported`: the passage states the claim (paraphrase allowed). `contradicted`: the passage is
 * about the same thing and states a different fact. `unrelated`: the passage does not address it.
 */
export type ClaimVerdict = 'supported' | 'contradicted' | 'unrelated';

/** What {@link verifyClaim} decided, and why. */
export interface ClaimVerification {
  verdict: ClaimVerdict;
  /** The facts that differ; empty unless `contradicted` (or `unrelated` for a far passage). */
  conflicts: Conflict[];
  /** What the claim states that the passage does not: key terms and quantities. */
  missing: string[];
  /** Share of the claim's content words the passage states (same lemma or a WordNet synonym), 0..1. */
  coverage: number;
  /** One line saying why. */
  reason: string;
}

/** Options of {@link verifyClaim}. */
export interface VerifyClaimOptions {
  /**
   * How close the passage is in meaning, when a semantic step found it (cosine of sentence
   * embeddings, 0..1); a close passage may share fewer words with the claim (paraphrase).
   */
  similarity?: number | undefined;
  /**
   * Where else on the page a key term may be stated: its title and top headings, which name what
   * a section is about. @default ''
   */
  context?: string | undefined;
  /**
   * What the passage itself stands under (its headings, its definition term, its question), when
   * known; it is part of `context` too. A passage under its own heading that names the claim's
   * subject is about that subject, whatever the passage's own subject. @default undefined
   */
  heading?: string | undefined;
  /**
   * For a passage that is one table row, its cells; with `heading` its header row ("Option | Valid
   * values | Default"), so the cell under `Default` is read as the row's default. @default undefined
   */
  cells?: readonly string[] | undefined;
  /** Least word coverage for `supported`. @default 0.5 */
  minCoverage?: number | undefined;
  /**
   * Least word coverage for `supported` when `similarity >= semanticSimilarity`. An encoder puts
   * a passage that names the claim's topic close to it whatever it states ("the package has
   * special hooks" / "the package supports four kinds of hooks"), so closeness alone lowers
   * nothing by default. @default 0.5
   */
  minSemanticCoverage?: number | undefined;
  /**
   * Least `similarity` that lowers the coverage needed. Sentence encoders give 0.7-0.8 to any two
   * sentences on one topic, so only a very close passage may share fewer words. @default 0.83
   */
  semanticSimilarity?: number | undefined;
  /**
   * `similarity` under which a passage found by meaning is only loosely near the claim: on its
   * topic, as any passage about the same thing is. @default 0.8
   */
  looseSimilarity?: number | undefined;
  /**
   * Least word coverage for `supported` of a passage under `looseSimilarity`: measured over
   * twenty-one claim sets, such passages supported as many false claims (a negation in other
   * words) as paraphrases when they shared fewer of the claim's words. @default 0.7
   */
  minLooseCoverage?: number | undefined;
  /** Least coverage (conflicting words counted) for a conflict to mean `contradicted`. @default 0.5 */
  minRelatedCoverage?: number | undefined;
}

/**
 * The claim's key terms that `text` states: what a passage's heading or definition term says it
 * is about (`-o` under "-o file, --output=file").
 * @example statedKeyTerms(analyze('The -o option overwrites the file.'), '-o file') // ['-o']
 */
export function statedKeyTerms(claim: Analysis, text: string): string[] {
  const t = norm(text);
  return t.length === 0 ? [] : claim.keyTerms.filter((k) => hasTerm(t, k.text)).map((k) => k.text);
}

/**
 * True when every conflict is an ordinary word of the language in another's place ("service" /
 * "server", "check" / "validation", "format" / "mechanism"): both written in lower case, both in
 * WordNet, and the page's word not one the claim uses elsewhere (which would make it a swap of
 * the claim's own words, "throw rather than override" / "override rather than throw"). A
 * paraphrase puts a word otherwise about as often as a false claim swaps one, so such a conflict
 * is a doubt, not a contradiction; a name, code, number or negation is a fact.
 * @example wordSwapsOnly(analyze('It runs as a service.'), [{ kind: 'term', claim: 'service', page: 'server' }]) // true
 */
export function wordSwapsOnly(claim: Analysis, conflicts: readonly Conflict[]): boolean {
  const wn = loadWordNet();
  const lemma = (word: string): string => analyze(word).tokens[0]?.lemma ?? word;
  const ordinary = (word: string): boolean =>
    /^\p{Ll}+$/u.test(word) && (wn.synsets(word).length > 0 || wn.synsets(lemma(word)).length > 0);
  return (
    conflicts.length > 0 &&
    conflicts.every((x) => {
      if (x.kind !== 'term' || !ordinary(x.claim) || !ordinary(x.page)) return false;
      const page = analyze(x.page).tokens[0];
      return !page || !claim.tokens.some((t) => t.content && related(t, page));
    })
  );
}

/** Bound words, with the words a passage puts the same bound in. */
const UPPER =
  /\b(?:max\w*|limit\w*|caps?|capped|up to|at most|no more|not more|exceed\w*|upper|ceiling|larg\w*|high\w*|most|long\w*|big\w*|great\w*|within)\b/;
const LOWER =
  /\b(?:min\w*|at least|no less|no fewer|not less|not fewer|must (?:have|be|contain)|lower|floor|small\w*|low\w*|least|short\w*|fewer)\b/;
const BOUNDS = new Map<string, RegExp>([
  ['maximum', UPPER],
  ['max', UPPER],
  ['minimum', LOWER],
  ['min', LOWER],
]);

/** Defaults of {@link verifyClaim}, applied once with `??`. */
export const CLAIM_DEFAULTS = {
  minCoverage: 0.5,
  minSemanticCoverage: 0.5,
  semanticSimilarity: 0.83,
  looseSimilarity: 0.8,
  minLooseCoverage: 0.7,
  minRelatedCoverage: 0.5,
} as const;

/** Nouns that say what kind of thing a name is ("the fetchMethod option"): they name no case. */
const KINDS = new Set(
  (
    'option setting flag parameter argument property field value key variable method function ' +
    'event header module package class object type'
  ).split(' '),
);

/** True when the clause of token `i` holds an odd number of negation cues. */
const clauseNegated = (tokens: Analysis['tokens'], i: number): boolean =>
  tokens.filter((x) => x.clause === tokens[i]!.clause && x.cue).length % 2 === 1;

/** Conjunctions that open a statement of its own when they open a clause. */
const STATEMENT_JOINS = new Set(['and', 'but', 'while', 'whereas', 'yet']);

/**
 * An option the claim names in plain words ("Setting trim to true ...") that neither the passage
 * nor what it stands under names: the passage is another option's entry ("Default: false Break a
 * word ..." under `options.cut`), whatever else it shares. A name is a fact no rewording drops.
 */
function unnamedOptions(claim: string, stated: string): string[] {
  const text = norm(stated);
  return optionNames(claim).filter((name) => !hasTerm(text, name));
}

/**
 * True when the text writes the word (four letters or more) as the head or tail of a longer one:
 * "call" of "call stack" in "callstack", "stamp" of "time stamp" in "timestamp".
 */
function compounded(word: string, text: string): boolean {
  if (word.length < 4 || !/^\p{L}+$/u.test(word)) return false;
  return new RegExp(`(?<!\\p{L})${word}\\p{L}{3,}|\\p{L}{3,}${word}(?!\\p{L})`, 'u').test(text);
}

/** Values of a setting: a statement that gives one states a fact no rewording drops. */
const SETTING_VALUES = new Set(['true', 'false', 'enabled', 'disabled']);

/**
 * The words of a statement the claim joins to another that the passage leaves out: "the sensitive
 * and trailing options default to true and the delimiter is '/'" against a passage on the
 * delimiter alone. The claim's coverage as a whole may pass while one of its statements is not
 * there at all: such a statement (three words or more missing, and at most one or a third of them
 * stated, or fewer than half with a setting's value among the missing) keeps the passage from
 * supporting ("..., and can rely on that method being available" against a passage that only
 * says it MAY be read).
 */
function unstatedStatements(c: Analysis, words: readonly number[], matched: Set<number>): string[] {
  const groups: number[][] = [[]];
  let clause = -1;
  for (const i of words) {
    const t = c.tokens[i]!;
    if (t.clause !== clause && clause >= 0) {
      // The first token of the word's clause that is a word: a conjunction opening it, or a ";".
      const opener = c.tokens.find((x) => x.clause === t.clause && x.pos !== 'PUNCT');
      const before = c.tokens.findLast((x, k) => k < i && x.clause < t.clause);
      if (
        (opener && STATEMENT_JOINS.has(opener.lower)) ||
        before?.text === ';' ||
        // "..., and then reach the library through ...": the next step of a sequence.
        (opener?.lower === 'then' && STATEMENT_JOINS.has(before?.lower ?? ''))
      )
        groups.push([]);
    }
    clause = t.clause;
    groups.at(-1)!.push(i);
  }
  if (groups.length < 2) return [];
  const out: string[] = [];
  for (const g of groups) {
    const left = g.filter((i) => !matched.has(i));
    const setting = left.some((i) => SETTING_VALUES.has(c.tokens[i]!.lower));
    const stated = g.length - left.length;
    if (
      left.length >= 3 &&
      (stated <= 1 || stated * 3 <= g.length || (setting && left.length * 2 > g.length))
    )
      out.push(left.map((i) => c.tokens[i]!.text).join(' '));
  }
  return out;
}

/**
 * Words that turn a sentence they stand next to: the negation cues ("does" + "not", "never" +
 * "use eval()") and the words that limit it to a case.
 */
const TURNING: ReadonlySet<string> = new Set([...CUES, 'unless', 'except', 'only']);

/**
 * True when `page` (normalised) holds the claim's text as whole words, with no denial or limit
 * the claim leaves out just before or after it: "dbus-send currently does" is not stated by
 * "dbus-send currently does not", nor "able to read the file" by "unable to read the file".
 */
function statedWhole(page: string, claim: string): boolean {
  for (let at = page.indexOf(claim); at >= 0; at = page.indexOf(claim, at + 1)) {
    const before = page.slice(0, at);
    const after = page.slice(at + claim.length);
    if (/[\p{L}\p{N}_]$/u.test(before) && /^[\p{L}\p{N}_]/u.test(claim)) continue;
    if (/^[\p{L}\p{N}_]/u.test(after) && /[\p{L}\p{N}_]$/u.test(claim)) continue;
    const next = /^\s*[,;:]?\s*([\p{L}']+)/u.exec(after)?.[1] ?? '';
    const previous = /([\p{L}']+)\s*$/u.exec(before)?.[1] ?? '';
    if (TURNING.has(next) || TURNING.has(previous) || /n't$/.test(previous)) continue;
    return true;
  }
  return false;
}

/** A conflict in words: `negation: the claim says "not much", the page "much"`. */
const describe = (x: Conflict): string =>
  `${x.kind}: the claim says "${x.claim}", the page "${x.page}"`;

/**
 * Decides whether `passage` supports `claim`. Numbers are compared with their units and bounds
 * (`30 s` = `30000 ms`, `up to three` = `at most 3`), dates and versions part by part; polarity
 * through negation cues and antonyms (WordNet, `un-`/`dis-` prefixes); comparatives with their
 * direction and argument order; key terms (code, identifiers, names, rare words) must appear in the
 * passage itself. Ordinary words may differ (lemmas and WordNet synonyms count), so a paraphrase
 * passes. A passage with the claim's text verbatim is `supported` at once.
 * @returns `supported` only when nothing conflicts, nothing is missing and enough of the claim's
 *   words are there; `contradicted` when something conflicts in a passage about the same thing
 * @example
 * verifyClaim('The limit is 5 MiB.', 'The body size limit is 1 MiB.')
 * // { verdict: 'contradicted', conflicts: [{ kind: 'number', claim: '5 MiB', page: '1 MiB' }], ... }
 */
export function verifyClaim(
  claim: string | Analysis,
  passage: string | Analysis,
  options: VerifyClaimOptions = {},
): ClaimVerification {
  const c = typeof claim === 'string' ? analyze(claim) : claim;
  const p = typeof passage === 'string' ? analyze(passage) : passage;
  const r = weigh(c, p, options);
  if (r.verdict === 'contradicted') return r;
  // The page's own words with a denial added or dropped say the opposite, whatever the checks
  // above made of the word it denies.
  const denied = deniedVerbatim(c, p);
  if (!denied) return r;
  return {
    verdict: 'contradicted',
    conflicts: [denied],
    missing: [],
    coverage: 1,
    reason: `the passage states the claim word for word but for a denial: ${describe(denied)}`,
  };
}

/** {@link verifyClaim} but for a denial added to the page's own words. */
function weigh(c: Analysis, p: Analysis, options: VerifyClaimOptions): ClaimVerification {
  const claimNorm = norm(c.text);
  const pageNorm = norm(p.text);
  if (claimNorm.length > 0 && statedWhole(pageNorm, claimNorm)) {
    return {
      verdict: 'supported',
      conflicts: [],
      missing: [],
      coverage: 1,
      reason: 'the passage states the claim verbatim',
    };
  }
  if (onlyAsks(p.text)) {
    return {
      verdict: 'unrelated',
      conflicts: [],
      missing: [],
      coverage: 0,
      reason: 'the passage only asks a question; it states nothing',
    };
  }
  const words = c.tokens.flatMap((t, i) => (t.content && t.pos !== 'NUM' ? [i] : []));
  const matched = new Set<number>();
  const opposed = new Set<number>();
  // A key term the page's title or address names ("undici" on undici's docs) is stated for the
  // passage too: the passage need not repeat what the page is about.
  const contextText = norm(options.context ?? '');
  const named = c.keyTerms
    .filter((k) => contextText.length > 0 && hasTerm(contextText, k.text))
    .flatMap((k) => norm(k.text).split(/[^\p{L}\p{N}_$]+/u));
  const symbols = symbolsStated(c, p.text);
  const pieces = identifierPieces(p.text);
  // Words the passage writes as an acronym ("process ID" / "PID").
  const acronyms = acronymWords(c, p.text);
  // A table row says what its header says of each cell ("setext" is a `Default`).
  const columns = options.heading?.split(' | ') ?? [];
  // The row's cells, when they line up with its header's columns.
  const cells = options.cells?.length === columns.length ? options.cells : undefined;
  const header = cells ? analyze(options.heading!).tokens.filter((x) => x.content) : [];
  for (const i of words) {
    const t = c.tokens[i]!;
    if (p.tokens.some((x) => x.content && related(t, x))) matched.add(i);
    else if (header.some((x) => related(t, x))) matched.add(i);
    else if (p.tokens.some((x) => x.content && areAntonyms(t, x))) opposed.add(i);
    else if (named.includes(t.lower)) matched.add(i);
    else if (symbols.has(i)) matched.add(i);
    // A word inside one of the passage's identifiers ("width" of `lineWidth`).
    else if (pieces.has(t.lower)) matched.add(i);
    else if (acronyms.has(i)) matched.add(i);
  }
  // Before antonyms are explained away: an item's opposite states another item ("busy" / "idle").
  const direct = new Set(matched);
  const quantities = quantityAlignment(c, p);
  // A count the claim makes of the items it lists ("UTF-8, UTF-16, ISO-8859-1 and US-ASCII are
  // the four encodings"), each of which the passage names, is stated by the items.
  const lists = coordinatedItems(c.tokens, c.text).map((items) =>
    items.map((item) => item.map((k) => c.tokens[k]!.text).join('')),
  );
  // Another count of items the passage lists, all of them and no more ("three properties, tokens
  // and originalPath" against "tokens, originalPath"), is a changed count.
  const pageLists = coordinatedItems(p.tokens, p.text).map((items) =>
    items.map((item) => item.map((k) => p.tokens[k]!.text).join('')),
  );
  quantities.missing = quantities.missing.filter((text) => {
    const q = c.quantities.find((x) => x.text === text);
    if (!q || q.kind !== 'number' || q.bound !== 'eq' || !q.dim.startsWith('count')) return true;
    // A count of listed items is small: "defaults to 511" counts no "such as X and Y".
    // Nor fewer than two: "the default 0 treats every line as a message" counts nothing.
    if (q.value > MAX_LISTED || q.value < 2) return true;
    // Not a list the count's own noun opens ("three properties, tokens and originalPath").
    const counted = (item: string): boolean =>
      q.unit.length > 0 && item.toLowerCase().includes(q.unit.toLowerCase());
    const stated = lists.filter(
      (items) => !items.some(counted) && items.every((item) => hasTerm(pageNorm, item)),
    );
    if (stated.some((items) => items.length === q.value)) return false;
    const listed = pageLists.find((theirs) =>
      stated.some(
        (items) =>
          items.length === theirs.length &&
          items.every((item) => theirs.some((x) => hasTerm(norm(x), item))),
      ),
    );
    if (!listed) return true;
    quantities.conflicts.push({ kind: 'number', claim: q.text, page: listed.join(', ') });
    return false;
  });
  // A version the entry's own heading gives ("options.allowRelativePaths since 5.2.0", "Added
  // in: v0.1.99") is stated for the text under it, and another version of the claim is a
  // changed one when the text itself states none. Section numbers ("10.3.2") and the version of
  // the docs in a page title ("Node.js v20.20.2 Documentation") are none. Every other version the
  // heading names (a History table's) is known: a claim's version among them is not a changed
  // one, only an unstated one.
  const headingVersions = [
    ...(options.heading ?? '').matchAll(
      new RegExp(
        `\\b(?:since|added in|introduced in|new in version):?\\s*(v?${VERSION}(?:,\\s*v?${VERSION})*)\\b`,
        'gi',
      ),
    ),
  ].flatMap((m) => m[1]!.split(/,\s*/).map((v) => v.replace(/^v/i, '')));
  // The release a changelog's heading names ("Version 3.1.0") states its version for the items
  // under it; a claim's other version is no conflict, since a changelog may list one change
  // under several releases (deprecated in one, removed in the next).
  const releases = [...(options.heading ?? '').matchAll(RELEASE_HEADING)].map((m) =>
    (m[1] ?? m[2]!).replace(/^v/i, ''),
  );
  // Only for a version of the entry the heading names: "Since v13.0.0, console.timeEnd() ..."
  // says nothing of when the console.time() above its passage came. A version the claim calls a
  // release ("Starting with release 1.13, the KDC ...") is the product's, as a heading's is.
  const releaseNamed = (text: string): boolean => {
    const q = c.quantities.find((x) => x.text === text);
    return !!q && /\b(?:release|version)\s+$/i.test(c.text.slice(0, q.start));
  };
  const headingNorm = norm(options.heading ?? '');
  const entryVersion = (q: string): boolean => {
    if (productVersion(c, q) || releaseNamed(q)) return true;
    const holder = versionHolder(c, q);
    return holder === undefined || hasTerm(headingNorm, holder);
  };
  if (headingVersions.length > 0 || releases.length > 0) {
    const version = (q: string): string | undefined =>
      new RegExp(`^v?(${VERSION})$`, 'i').exec(q)?.[1];
    const known = [
      ...(options.heading ?? '').matchAll(new RegExp(`(?<![\\d.])${VERSION}(?![\\d.])`, 'g')),
    ].map((m) => m[0]);
    const plain = !p.quantities.some((q) => q.kind === 'version');
    for (const q of quantities.missing) {
      const v = version(q);
      if (
        v &&
        headingVersions.length > 0 &&
        !known.some((k) => sameVersion(k, v)) &&
        plain &&
        entryVersion(q)
      )
        quantities.conflicts.push({ kind: 'number', claim: q, page: headingVersions[0]! });
    }
    quantities.missing = quantities.missing.filter((q) => {
      const v = version(q);
      if (!v || !entryVersion(q)) return true;
      if (releases.some((h) => sameVersion(h, v))) return false;
      if (headingVersions.length === 0) return true;
      return !headingVersions.some((h) => sameVersion(h, v)) && (!plain || known.includes(v));
    });
  }
  // A constant's value its entry defines under its heading ("#define ASN1_MAX_ERROR_DESCRIPTION_SIZE
  // 128") is stated for the text under it, for a claim that names the constant; another number
  // of the claim is a changed one when the text itself states none.
  for (const m of (options.heading ?? '').matchAll(
    /#\s*define\s+([A-Za-z_]\w*)\s+\(?(-?\d+)\)?/g,
  )) {
    if (!hasTerm(norm(c.text), m[1]!)) continue;
    const value = Number(m[2]);
    const numbers = (list: string[]): Quantity[] =>
      c.quantities.filter((q) => list.includes(q.text) && q.kind !== 'version');
    const plain = p.quantities.length === 0;
    const stated = numbers(quantities.missing);
    for (const q of stated) {
      if (q.value !== value && plain)
        quantities.conflicts.push({ kind: 'number', claim: q.text, page: m[2]! });
    }
    const settled = stated.filter((q) => q.value === value || plain).map((q) => q.text);
    quantities.missing = quantities.missing.filter((x) => !settled.includes(x));
  }
  // A number that names a release with its product ("GCC 12", "Python 3") is stated by a page
  // title or heading that names that release ("GCC 12 Release Series"): release notes need not
  // repeat it in every passage.
  // The name the claim writes right before its number `text` ("GCC" of "GCC 12"), if any.
  const nameBefore = (text: string): string | undefined => {
    const q = c.quantities.find((x) => x.text === text);
    return q && /([A-Z][\w.+#-]*)\s+$/.exec(c.text.slice(0, q.start))?.[1];
  };
  const release = (text: string): boolean => {
    const q = c.quantities.find((x) => x.text === text);
    const name = nameBefore(text);
    const number = q && /^\d+(?:\.\d+)*/.exec(q.text)?.[0];
    return !!(name && number && hasTerm(contextText, `${name} ${number}`));
  };
  quantities.missing = quantities.missing.filter((text) => !release(text));
  quantities.conflicts = quantities.conflicts.filter((x) => !release(x.claim));
  // A title that names the product with another number is another release's ("GCC 13 Release
  // Series" for "deprecated in GCC 12").
  for (const text of [...quantities.missing]) {
    const name = nameBefore(text);
    const number = /^\d+(?:\.\d+)*/.exec(text)?.[0];
    if (!name || !number) continue;
    const titled = new RegExp(
      `(?:^|[^\\w.])${escapeRegExp(name)}\\s+(\\d+(?:\\.\\d+)*)(?![\\w.])(\\s+(?:documentation|docs|manual|reference|guide|handbook)\\b)?`,
      'i',
    ).exec(contextText);
    const other = titled?.[1];
    if (!other || other === number) continue;
    // The documentation of a release tells what came before it ("added in Python 3.7" under
    // "Python 3.11.2 documentation"): an earlier number is history, not another release.
    if (titled[2] && !laterVersion(number, other)) continue;
    quantities.missing = quantities.missing.filter((x) => x !== text);
    quantities.conflicts.push({ kind: 'number', claim: text, page: other });
  }
  // And a page number naming a release ("x86-64 ... with GCC 12 or later") is a name, not an
  // amount: a claim's amount set against it ("zero width bit-fields") is only unstated.
  // A name: not a word that opens a sentence ("Use 0 to disable", "A 2-dimensional array"), unless
  // written in capitals or with a dot ("GCC 12", "Node.js 18").
  const releaseName = (m: RegExpMatchArray): boolean =>
    m[1]!.length >= 2 &&
    (/[A-Z0-9.+#]/.test(m[1]!.slice(1)) || !/(?:^|[.!?:]\s+)$/.test(p.text.slice(0, m.index)));
  const pageRelease = (x: Conflict): boolean =>
    /^\d+(?:\.\d+)*$/.test(x.page) &&
    [
      ...p.text.matchAll(
        new RegExp(`\\b([A-Z][\\w.+#-]*)\\s+${escapeRegExp(x.page)}(?![\\w.])`, 'g'),
      ),
    ].some(releaseName) &&
    nameBefore(x.claim) === undefined;
  quantities.missing.push(...quantities.conflicts.filter(pageRelease).map((x) => x.claim));
  quantities.conflicts = quantities.conflicts.filter((x) => !pageRelease(x));
  const terms = termAlignment(c, p, options.context ?? '');
  const clauses = polarityConflicts(c, p);
  // A predicate negated wherever the passage states it conflicts even when its clause paired
  // with another ("can be overridden" / "this may not be overridden by passing an option").
  const denials = clauses.length > 0 ? clauses : predicateConflicts(c, p);
  // A page that says a thing may happen ("the server may compress responses") does not say it
  // happens, nor that it does not: a claim that it does not ("does not compress") is unstated
  // there, not contradicted ("we may formalize on a scheme, but ..." / "has not adopted one").
  // One that says it cannot or never happens is: "may contain sensitive data" / "cannot hold".
  const impossible = /\b(?:cannot|can't|can not|could not|couldn't|never)\b/i.test(c.text);
  const possible = (x: Conflict): boolean =>
    !impossible &&
    x.kind === 'negation' &&
    /\b(?:not|no)\b|n't/i.test(x.claim) &&
    !/\b(?:not|never|no)\b|n't/i.test(x.page) &&
    p.tokens.some((t, j) => possibly(p.tokens, j) && x.page.split(/\s+/).includes(t.text));
  quantities.missing.push(...denials.filter(possible).map((x) => x.claim));
  // A denial of an item the page takes out of the fact ("does not work on Windows" / "works on
  // every platform except Windows") agrees with it.
  const excepted = deniedExceptions(c, p);
  const polarity = denials.filter(
    (x) => !possible(x) && !(x.kind === 'negation' && excepted.includes(x.page)),
  );
  // With the negations agreeing, a word whose antonym the page negates is stated ("optional" /
  // "not required"); one whose antonym the page states plainly ("the first proxy" / "the last
  // proxy") is not.
  // An antonym the claim names too ("v10 or newer; for older versions"), or in a comparison
  // (judged as one), is no evidence either way.
  if (polarity.length === 0) {
    for (const i of opposed) {
      const t = c.tokens[i]!;
      const negatedHere = clauseNegated(c.tokens, i);
      const explained = p.tokens.some(
        (x, j) =>
          x.content &&
          areAntonyms(t, x) &&
          (clauseNegated(p.tokens, j) !== negatedHere ||
            p.comparatives.some((k) => k.at === j) ||
            c.tokens.some((y, k) => k !== i && y.content && related(y, x))),
      );
      if (explained || c.comparatives.some((k) => k.at === i)) matched.add(i);
    }
  }
  // A row of an option table states its default in the header's Default column.
  const settingsText = p.text + rowDefault(p.text, columns, cells);
  const conflicts = [
    ...quantities.conflicts,
    ...polarity,
    ...comparativeConflicts(c, p),
    ...orderConflicts(c, p),
    ...stepConflicts(c, p),
    ...datedOrderConflicts(c, p),
    ...particleConflicts(c, p),
    ...operatorConflicts(c, p),
    // A term set against itself ("10FFFF" read as "10" and "FFFF" on one side only) is no swap;
    // a short option in another case is ("-Cf" / "-CF").
    ...terms.conflicts.filter((x) => norm(x.claim) !== norm(x.page) || /^-\w/.test(x.claim)),
    ...settingConflicts(c.text, settingsText),
    ...branchConflicts(c.text, p.text),
  ];
  if (!conflicts.some((x) => x.kind === 'term')) conflicts.push(...associationSwaps(c, p));
  if (!conflicts.some((x) => x.kind === 'term')) conflicts.push(...neighbourSwaps(c, p));
  if (!conflicts.some((x) => x.kind === 'term')) conflicts.push(...caseSwaps(c, p));
  if (!conflicts.some((x) => x.kind === 'term')) conflicts.push(...caseValues(c, p));
  if (!conflicts.some((x) => x.kind === 'term')) conflicts.push(...reversals(c, p));
  if (!conflicts.some((x) => x.kind === 'term')) conflicts.push(...glossSwaps(c, p));
  if (conflicts.length === 0) conflicts.push(...unlikeConflicts(c, p));
  if (!conflicts.some((x) => x.kind === 'term')) conflicts.push(...contrastSwaps(c, p));
  if (!conflicts.some((x) => x.kind === 'term')) conflicts.push(...modifierSwaps(c, p));
  if (!conflicts.some((x) => x.kind === 'term'))
    conflicts.push(...entrySwaps(c, pageNorm, options.heading));
  // A default the passage leaves out is set against the one its entry gives past it, and is then
  // no longer missing.
  const entryDefault =
    conflicts.length === 0
      ? contextDefaultConflicts(c.text, settingsText, options.context ?? '')
      : [];
  conflicts.push(...entryDefault);
  if (conflicts.length === 0) conflicts.push(...itemConflicts(c, p));
  if (conflicts.length === 0) conflicts.push(...conditionConflicts(c, p));
  if (conflicts.length === 0) conflicts.push(...concessionConflicts(c, p));
  if (conflicts.length === 0) conflicts.push(...exclusiveConflicts(c, p));
  // And the other way round: the claim restricts to one of the names the page lists together
  // ("works only on Linux" / "works on Linux and macOS"). Only names: "only compiled and installed
  // if ..." is a condition, not one of "compilation and installation".
  if (conflicts.length === 0)
    conflicts.push(
      ...exclusiveConflicts(p, c)
        .filter((x) => p.keyTerms.some((k) => k.kind !== 'rare' && x.claim.includes(k.text)))
        .map((x) => ({ ...x, claim: x.page, page: x.claim })),
    );
  if (conflicts.length === 0) conflicts.push(...exceptedConflicts(c, p));
  if (conflicts.length === 0) conflicts.push(...restrictionConflicts(c, p));
  if (conflicts.length === 0) conflicts.push(...exceptionConflicts(c, p));
  const missing = [
    ...otherSubject(c, p, pageNorm, options.heading),
    ...contrastedKinds(c, p),
    ...terms.missing,
    ...quantities.missing,
    ...unstatedComparisons(c, p),
    ...unstatedSettings(c.text, settingsText).filter((x) =>
      entryDefault.every((y) => y.claim !== x),
    ),
    ...unstatedOrders(c, p),
  ];
  // An ordinary word in another's place is a swapped fact, unless the passage states the claim's
  // word elsewhere: then the sentences may be put differently ("proxy variables" / "the proxy
  // ... environment variables"), and the word is only not stated where the claim puts it.
  // A key term's place is aligned like any word's, wherever else the page states it.
  const termPieces = new Set(c.keyTerms.flatMap((k) => norm(k.text).split(/[^\p{L}\p{N}_$]+/u)));
  const elsewhere = (x: Conflict): boolean =>
    !termPieces.has(x.claim.toLowerCase()) &&
    c.tokens.some(
      (t) =>
        t.text === x.claim &&
        // A piece of an identifier states the word too ("proxy" in `HTTP_PROXY`).
        (p.tokens.some((q) => /\p{L}{2}/u.test(q.text) && !q.cue && related(t, q)) ||
          compounded(t.lower, pageNorm)),
    );
  for (const find of [swappedWords, slotSwaps, modifierReplaced]) {
    if (conflicts.some((x) => x.kind === 'term')) break;
    const stated = new Set(
      [...conflicts, ...missing].map((x) => (typeof x === 'string' ? x : x.claim).toLowerCase()),
    );
    for (const x of find(c, p)) {
      if (stated.has(x.claim.toLowerCase())) continue;
      if (elsewhere(x)) missing.push(x.claim);
      else conflicts.push(x);
    }
  }
  const total = Math.max(1, words.length);
  const coverage = Math.round((matched.size / total) * 1000) / 1000;
  const conflictWords = conflicts.filter((x) => x.kind === 'term').length;
  const relatedness = (matched.size + opposed.size + conflictWords) / total;
  const minRelated = options.minRelatedCoverage ?? CLAIM_DEFAULTS.minRelatedCoverage;
  if (conflicts.length > 0) {
    // A contradiction needs the facts aligned word by word: a passage close in meaning (a
    // sentence embedding measures topic) that shares few of the claim's words states other facts.
    // A negation is grounded only in a passage that states the rest of the claim: a number or a
    // term the passage lacks means it speaks of another case ("does not retry over stateful
    // bodies" says nothing against "retries a request at most 5 times").
    // And a passage that lacks a term the claim names (a sibling section's "_.map" for a claim
    // about "_.reduce", "encodeURIComponent" for "decodeURIComponent") is about another thing:
    // its different number or word contradicts nothing. A swapped term is its own conflict.
    const polarOnly = conflicts.every((x) => x.kind === 'negation' || x.kind === 'antonym');
    // A rare word may be the passage's topic put otherwise; a name or code may not.
    const swapped = new Set(conflicts.map((x) => x.claim.toLowerCase()));
    const unnamed = c.keyTerms.some(
      (k) =>
        k.kind !== 'rare' && terms.missing.includes(k.text) && !swapped.has(k.text.toLowerCase()),
    );
    // A passage the claim states nearly whole, with another number, is the part of the claim it
    // speaks of ("The XSLT specification provides two ways to extend an XSLT engine:" for a claim
    // of three ways that goes on to list them): what else the claim says is another part's.
    // Not when the passage names what the claim does not ("*(pattern) Match zero or more ..."
    // for a claim on ?(pattern)), nor when the claim states one of its values as is: the claim
    // then sets that value beside another ("+(pattern) matches one or more, *(pattern) zero or
    // more").
    const within = (): boolean => {
      const own = p.tokens.filter((t) => t.content && t.pos !== 'NUM');
      const stated = own.filter((t) => c.tokens.some((x) => x.content && related(x, t)));
      return (
        own.length >= MIN_WITHIN_WORDS &&
        stated.length >= own.length * MIN_WITHIN_SHARE &&
        conflicts.every((x) => x.kind === 'number' || x.kind === 'version') &&
        p.keyTerms.every((k) => k.kind === 'rare' || hasTerm(claimNorm, k.text)) &&
        !p.quantities.some((x) =>
          c.quantities.some((q) => comparable(q, x) && compareQuantities(q, x) === 'same'),
        )
      );
    };
    const about =
      (relatedness >= minRelated && !unnamed && !(polarOnly && missing.length > 0)) || within();
    return {
      verdict: about ? 'contradicted' : 'unrelated',
      conflicts,
      missing,
      coverage,
      reason: about
        ? describe(conflicts[0]!)
        : `the passage is about something else (${describe(conflicts[0]!)})`,
    };
  }
  // A preference the passage leaves open ("stored in -- or _") keeps it from supporting, but is
  // no reason to doubt a conflict it states.
  missing.push(...unstatedPreferences(c, p));
  // Words a passage must state itself, not only share the claim's topic:
  // - the case a claim's condition names ("when you give createConnection a callback"): a
  //   passage that names no such thing speaks of the general case (unless it states most of
  //   the condition's other words: then the noun is the claim's wording);
  // - a word whose opposite the passage states plainly;
  // - a value the claim predicates of its subject ("it is not safe to", "the name must be
  //   unique"), stated or opposed; an adjective before a noun only describes ("an executable
  //   file", "the total size");
  // - a place in an order ("the first proxy in the array", "the last argument").
  const conditions = new Set<number>();
  // A noun that only says which kind of the stated noun after it is meant ("If the password file
  // cannot be read" / "the file cannot be read"): the passage may take the kind as known.
  const describes = (i: number): boolean =>
    c.tokens[i]!.pos === 'NOUN' && c.tokens[i + 1]?.pos === 'NOUN' && matched.has(i + 1);
  // A condition the passage states in most of its words, the noun aside, is stated: the noun is
  // the claim's wording ("when a tool like logrotate or newsyslog rotates the log" / "programs
  // such as newsyslog and logrotate which perform log file rotation").
  const conditionStated = (i: number): boolean => {
    const own = [...conditions].filter(
      (k) => k !== i && c.tokens[k]!.clause === c.tokens[i]!.clause && words.includes(k),
    );
    const stated = own.filter((k) => matched.has(k)).length;
    return stated >= MIN_CONDITION_STATED && stated >= own.length * MIN_CONDITION_SHARE;
  };
  c.tokens.forEach((t, k) => {
    if (!CONDITIONS.has(t.lower)) return;
    for (let j = k + 1; c.tokens[j]?.clause === t.clause; j++) conditions.add(j);
  });
  // - each item of a coordination ("active as well as passive mode"): the words that tell it from
  //   the other items.
  for (const items of coordinatedItems(c.tokens, c.text)) {
    for (const own of distinguishing(c.tokens, items)) {
      if (own.length > 0 && own.every((k) => !direct.has(k)))
        missing.push(own.map((k) => c.tokens[k]!.text).join(' '));
    }
  }
  // - the head of the subject of a claim that says what something is, when the passage is an
  //   entry that opens with a name the claim does not state: the entry says what that name is
  //   ("The prompt is an optional function" is not stated by "completer <Function> An optional
  //   function"). What a thing does may be said of its owner ("the pool keeps at most 1024
  //   sockets" under "maxSockets - ... Default 1024").
  const entry = ENTRY_NAME.exec(p.text)?.[1];
  const otherEntry =
    entry !== undefined && IDENTIFIER_LIKE.test(entry) && !hasTerm(claimNorm, entry);
  const head = otherEntry ? definedSubject(c) : undefined;
  // A part of a claim split at its "but" starts with it.
  const contrast = c.tokens.findIndex(
    (t, k) => CONTRASTS.has(t.lower) && (k > 0 || t.lower === 'but' || t.lower === 'whereas'),
  );
  for (const i of words) {
    const t = c.tokens[i]!;
    if (matched.has(i)) continue;
    if (i === head) {
      missing.push(t.text);
      continue;
    }
    if (
      conditions.has(i) &&
      (t.pos === 'NOUN' || t.pos === 'PROPN') &&
      !KINDS.has(t.lemma) &&
      !conditionStated(i) &&
      !describes(i)
    ) {
      missing.push(t.text);
      continue;
    }
    // A default ("The default DeflateCompressionLevel is 9", "defaults to 9"): a passage that
    // names no default (nor its heading) says what values are allowed, not which one is taken
    // ("The value must be between 1 and 9"). "By default" only sets the scene.
    // A signature states the defaults of its parameters ("RotatingFileHandler(filename,
    // maxBytes=0, backupCount=0)") for a claim that names one.
    if (
      t.lemma === 'default' &&
      c.tokens[i - 1]?.lower !== 'by' &&
      !/\bdefault/.test(contextText) &&
      !signatureDefaults(p.text).some((name) => hasTerm(claimNorm, name))
    ) {
      missing.push(t.text);
      continue;
    }
    // A bound the claim names ("the maximum number of characters an article may have"): a
    // passage (or its heading) that puts no bound that way round ("the number of characters an
    // article must have") does not say which it is.
    const bound = BOUNDS.get(t.lemma);
    if (bound && !bound.test(pageNorm) && !bound.test(contextText)) {
      missing.push(t.text);
      continue;
    }
    // A unit with no number ("reports the time in milliseconds"): the passage must name it.
    if (UNITS.has(t.lower) && t.lower.length >= 4 && !/\d/.test(c.tokens[i - 1]?.text ?? '')) {
      missing.push(t.text);
      continue;
    }
    // - the negated verb of a statement the claim adds with "but" ("..., but calling it on a
    //   fired timer does not reactivate it"): a passage that states the first part says nothing
    //   of the second.
    if (t.negated && t.pos === 'VERB' && contrast >= 0 && i > contrast) {
      missing.push(t.text);
      continue;
    }
    // "max excluded" / "inclusive", in a clause the polarity check did not pair.
    if (opposed.has(i)) {
      missing.push(t.text);
      continue;
    }
    if (!(valueAdjective(t) && isPredicate(c.tokens, i)) && !isPosition(c.tokens, i)) continue;
    // The word of a bound the quantities check compared ("greater than 0" / "> 0").
    if (opensBound(c, i)) continue;
    // Stated inside another word all the same ("non-idempotent", "thread-safe").
    if (pageNorm.includes(t.lower)) continue;
    if (!c.comparatives.some((x) => x.at === i)) missing.push(t.text);
  }
  missing.push(...unstatedStatements(c, words, matched));
  missing.push(...deniedActs(c, p, matched));
  missing.push(...unstatedDenials(c, p, matched));
  missing.push(...unnamedOptions(c.text, `${p.text} ${options.context ?? ''}`));
  if (missing.length > 0) {
    return {
      verdict: 'unrelated',
      conflicts,
      missing,
      coverage,
      reason: `the passage does not state ${missing.map((m) => `"${m}"`).join(', ')}`,
    };
  }
  const close =
    (options.similarity ?? 0) >= (options.semanticSimilarity ?? CLAIM_DEFAULTS.semanticSimilarity);
  const base = close
    ? (options.minSemanticCoverage ?? CLAIM_DEFAULTS.minSemanticCoverage)
    : (options.minCoverage ?? CLAIM_DEFAULTS.minCoverage);
  // A passage the encoder puts only loosely near the claim is on its topic, not proof of its
  // fact: it must state most of the claim's words ("you still need to gunzip your data" found
  // for "tar-stream gunzips .tar.gz data by itself, so you don't need to decompress it first").
  const loose =
    options.similarity !== undefined &&
    options.similarity < (options.looseSimilarity ?? CLAIM_DEFAULTS.looseSimilarity);
  const needed = loose
    ? Math.max(base, options.minLooseCoverage ?? CLAIM_DEFAULTS.minLooseCoverage)
    : base;
  if (coverage + 1e-9 < needed) {
    return {
      verdict: 'unrelated',
      conflicts,
      missing,
      coverage,
      reason: `the passage shares too little with the claim (coverage ${coverage} < ${needed})`,
    };
  }
  return {
    verdict: 'supported',
    conflicts,
    missing,
    coverage,
    reason: `the passage states the claim (coverage ${coverage})`,
  };
}

/** The largest count a claim may make of the items it lists. */
const MAX_LISTED = 20;

/** Fewest content words of a passage the claim may state nearly whole (see `within`). */
const MIN_WITHIN_WORDS = 4;
/** Share of such a passage's content words the claim must state. */
const MIN_WITHIN_SHARE = 0.8;
/** Fewest other words of a claim's condition a passage must state to state the condition. */
const MIN_CONDITION_STATED = 3;
/** Share of those words it must state. */
const MIN_CONDITION_SHARE = 0.6;

/** Punctuation a claim may name in words ("a semicolon on Windows" for "; for Windows"). */
const SYMBOLS: ReadonlyMap<string, string> = new Map([
  ['semicolon', ';'],
  ['colon', ':'],
  ['comma', ','],
  ['slash', '/'],
  ['backslash', '\\'],
  ['period', '.'],
  ['dot', '.'],
  ['hyphen', '-'],
  ['dash', '-'],
  ['underscore', '_'],
  ['asterisk', '*'],
  ['pipe', '|'],
  ['ampersand', '&'],
  ['tilde', '~'],
  ['caret', '^'],
  ['backtick', '`'],
]);

/**
 * The claim's words naming a symbol that the passage writes on its own, between spaces or quotes
 * (`: for POSIX`), not as the punctuation of its sentences. Two symbols or more must come in the
 * claim's order: "a colon on Windows and a semicolon on POSIX" is not stated by "; for Windows :
 * for POSIX".
 */
function symbolsStated(c: Analysis, passage: string): Set<number> {
  const at = new Map<number, number>();
  c.tokens.forEach((t, i) => {
    const symbol = SYMBOLS.get(t.lemma);
    if (symbol === undefined || !t.content) return;
    const found = new RegExp(`(?:^|[\\s'"\`(])${escapeRegExp(symbol)}(?=$|[\\s'"\`),.])`).exec(
      passage,
    );
    if (found) at.set(i, found.index);
  });
  const places = [...at.values()];
  const ordered = places.every((x, k) => k === 0 || x >= places[k - 1]!);
  return ordered ? new Set(at.keys()) : new Set();
}

/** Words that add a second statement to a claim, against the first. */
const CONTRASTS = new Set(['but', 'whereas', 'however', 'although', 'though']);

/**
 * The name an entry of a list of options or parameters opens with, before its type or a colon
 * or a dash: `completer` in "completer <Function> An optional function" or "timeout: the time".
 */
const ENTRY_NAME = /^\s*([\p{L}_$][\w$.-]*)\s*(?:<[^<>]+>|\{[^{}]+\}|:\s|\s[-\u2013\u2014]\s)/u;

/** A name written as code would be: lower case first, camelCase, or with `_`, `$`, `.` or a digit ("Note:" is no entry). */
const IDENTIFIER_LIKE = /^[\p{Ll}_$]|\p{Ll}\p{Lu}|[_$.\d]/u;

/**
 * Index of the head noun of the subject of a claim that says what something is ("The completer
 * function is optional"): its last noun before its first verb, a form of "be", in its first
 * clause, that names more than a kind of thing ("completer", not "function").
 */
function definedSubject(a: Analysis): number | undefined {
  const subject = subjectOf(a);
  const verb = a.tokens[a.tokens.indexOf(subject.at(-1)!) + 1];
  if (subject.length === 0 || verb?.lemma !== 'be') return undefined;
  for (let i = subject.length - 1; i >= 0; i--) {
    const t = subject[i]!;
    if (t.content && (t.pos === 'NOUN' || t.pos === 'PROPN') && !KINDS.has(t.lemma))
      return a.tokens.indexOf(t);
  }
  return undefined;
}

/**
 * The default a row of an option table states in its header's Default column, as a sentence to
 * read with the row (" Default: true."): the header is the row's context ("Option | Type |
 * Default value | Description" over "fastpaths boolean true To speed up processing..."). With the
 * row's cells known, the cell under that column, when it is one value (a word, a name, a switch:
 * "setext" under "Option | Valid values | Default"); without them, only a switch's value with
 * every cell before it one word, as in such tables. `''` otherwise (numbers are aligned as
 * quantities wherever they stand).
 */
function rowDefault(
  row: string,
  columns: readonly string[],
  cells: readonly string[] | undefined,
): string {
  const at = columns.findIndex((c) => /^\s*default\b/i.test(c));
  if (at < 0 || columns.length < 2) return '';
  if (cells) {
    const value = cells[at]!.trim().replace(/^[`'"]|[`'"]$/g, '');
    return /^[\p{L}_$][\p{L}\p{N}_$.-]*$/u.test(value) ? ` Default: ${value}.` : '';
  }
  const value = row.trim().split(/\s+/)[at] ?? '';
  return /^(?:true|false|on|off|enabled|disabled|yes|no)$/i.test(value)
    ? ` Default: ${value}.`
    : '';
}

/** The parameters a call signature in `text` gives a default: `maxBytes` of "(filename, maxBytes=0)". */
const signatureDefaults = (text: string): string[] =>
  [...text.matchAll(/[(,]\s*\*{0,2}([A-Za-z_]\w*)\s*=\s*[^\s,()=]+/g)].map((m) => m[1]!);

/** True when version `a` ("3.12") comes after version `b` ("3.11.2"), part by part. */
function laterVersion(a: string, b: string): boolean {
  const x = a.split('.').map(Number);
  const y = b.split('.').map(Number);
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    const d = (x[i] ?? 0) - (y[i] ?? 0);
    if (d !== 0) return d > 0;
  }
  return false;
}

/** A version number as a heading gives it: "5.2.0", "0.1.99", "17.0". */
const VERSION = String.raw`\d+\.\d+(?:\.\d+)?`;

/** The tokens of a text's subject: those before its first verb, in its first clause. */
function subjectOf(a: Analysis): Analysis['tokens'] {
  const verb = a.tokens.findIndex((t) => t.pos === 'VERB' || t.pos === 'AUX');
  return verb < 0 ? [] : a.tokens.slice(0, verb).filter((t) => t.clause === a.tokens[0]?.clause);
}

/**
 * The claim says of one name what the entry of another states: its subject is a name in code the
 * entry's heading does not name, while the heading names another name of the claim, and the
 * passage names the claim's subject but not the heading's ("zlib.bytesWritten is an alias for
 * zlib.bytesRead" against "Deprecated alias for zlib.bytesWritten." under "zlib.bytesRead"). An
 * entry's text is about its heading's name; the other name is what it refers to.
 */
function entrySwaps(claim: Analysis, pageNorm: string, heading: string | undefined): Conflict[] {
  if (!heading) return [];
  const names = namesInCode(claim);
  if (names.length < 2) return [];
  const first = names
    .map((k) => ({ k, at: claim.text.indexOf(k.text) }))
    .filter((x) => x.at >= 0)
    .sort((a, b) => a.at - b.at)[0]?.k;
  if (!first) return [];
  const subject = subjectOf(claim).map((t) => t.lower);
  const pieces = norm(first.text).split(/[^\p{L}\p{N}_$]+/u);
  if (!pieces.some((x) => subject.includes(x))) return [];
  const h = norm(heading);
  if (hasTerm(h, first.text) || !hasTerm(pageNorm, first.text)) return [];
  // Two entries of one kind: the same owner ("zlib.bytesRead" / "zlib.bytesWritten") or names
  // that open alike ("selectOne" / "selectAll"), not a class and its option ("RetryHandler" /
  // "minTimeout"), which the class's entry states.
  const last = (k: KeyTerm): string => norm(k.text).replace(/\(.*$/, '').split('.').at(-1) ?? '';
  const siblings = (a: KeyTerm, b: KeyTerm): boolean => {
    const [x, y] = [last(a), last(b)];
    let n = 0;
    while (n < Math.min(x.length, y.length) && x[n] === y[n]) n++;
    return n >= 4;
  };
  const other = names.find(
    (k) => k !== first && siblings(first, k) && hasTerm(h, k.text) && !hasTerm(pageNorm, k.text),
  );
  return other ? [{ kind: 'term', claim: first.text, page: other.text }] : [];
}

/**
 * The heading of a release in a changelog or release notes: "Version 3.1.0", "Release 2.4",
 * "Changes in 1.2.0", "Notes for BIND 9.18.49", or a version alone, with its date ("2.10.1
 * (2020-01-01)", "v3.0.0 - 2021-05-11"). Not a section number ("7.2. Binary Dependencies"), nor
 * a row of a History table ("History Version Changes v23.0.0 Added in: v22.0.0").
 */
const RELEASE_HEADING = new RegExp(
  `\\b(?:version|release|(?:changes|notes) (?:in|for)(?: [A-Z][\\w+-]*)?)\\s+(v?${VERSION})\\b|^\\s*(v?${VERSION})\\s*(?:$|[([\u2013\u2014\u00b6-])`,
  'gim',
);

/** True when two versions are one release: equal but for trailing zero parts ("3.0" / "3.0.0"). */
const sameVersion = (a: string, b: string): boolean =>
  a.replace(/(?:\.0)+$/, '') === b.replace(/(?:\.0)+$/, '');

/**
 * True when the claim writes the version right after a capitalised name that is no name in code
 * ("Since Jinja 3.1.0 the groupby filter ..."): a release of the product, whatever names in code
 * the claim gives after it.
 */
function productVersion(claim: Analysis, version: string): boolean {
  const q = claim.quantities.find((x) => x.text === version);
  const m = q && /(?:^|\s)([A-Z][\w.+#-]*)\s+v?$/.exec(claim.text.slice(0, q.start));
  if (!m) return false;
  // A content word: "Since v13.0.0" names no product.
  const word = claim.tokens.find((t) => t.text === m[1]);
  return !!word?.content && !namesInCode(claim).some((k) => k.text === m[1]);
}

/** The claim's names in code: its key terms written as code or as identifiers. */
const namesInCode = (claim: Analysis): KeyTerm[] =>
  claim.keyTerms.filter((k) => k.kind === 'code' || k.kind === 'identifier');

/**
 * The name in code a version of the claim belongs to: the nearest one written before it ("X,
 * added in v22.0.0"), else the first after it ("Since v13.0.0, console.timeEnd() shows"), or
 * none when the claim names nothing in code.
 */
function versionHolder(claim: Analysis, version: string): string | undefined {
  const at = claim.quantities.find((q) => q.text === version || q.text.endsWith(version))?.start;
  if (at === undefined) return undefined;
  let before: [number, string] | undefined;
  let after: [number, string] | undefined;
  for (const k of namesInCode(claim)) {
    for (let i = claim.text.indexOf(k.text); i >= 0; i = claim.text.indexOf(k.text, i + 1)) {
      if (i < at && (!before || i > before[0])) before = [i, k.text];
      if (i > at && (!after || i < after[0])) after = [i, k.text];
    }
  }
  return (before ?? after)?.[1];
}

/**
 * Kinds of one thing the claim sets apart ("with a symbolic link ..., whereas with a hard link
 * ...") of which the passage speaks of one only: the other kind's modifier is missing, since
 * what the passage says of its kind is no statement of the other ("For symbolic links Vim
 * resolves the links" states nothing of hard links).
 */
function contrastedKinds(c: Analysis, p: Analysis): string[] {
  if (!c.tokens.some((t) => /^(?:whereas|while|unlike)$/.test(t.lower))) return [];
  const kinds = new Map<string, Token[]>();
  c.tokens.forEach((t, i) => {
    const m = c.tokens[i - 1];
    if (t.pos !== 'NOUN' || !m?.content || !/^(?:ADJ|NOUN)$/.test(m.pos)) return;
    const list = kinds.get(t.lemma) ?? [];
    if (!list.some((x) => x.lemma === m.lemma)) list.push(m);
    kinds.set(t.lemma, list);
  });
  const out: string[] = [];
  for (const [noun, modifiers] of kinds) {
    // One kind in each clause.
    if (modifiers.length !== 2 || modifiers[0]!.clause === modifiers[1]!.clause) continue;
    const stated = modifiers.filter((m) =>
      p.tokens.some((t, j) => related(m, t) && p.tokens[j + 1]?.lemma === noun),
    );
    const named = modifiers.filter((m) => p.tokens.some((t) => t.content && related(m, t)));
    if (stated.length === 1 && named.length === 1)
      out.push(...modifiers.filter((m) => !named.includes(m)).map((m) => `${m.text} ${noun}`));
  }
  return out;
}

/**
 * The claim's subject (a name), when the passage states the claim's fact of another name
 * ("Chalk works by extending String.prototype" against "colors.js ... has serious deficiencies
 * like extending String.prototype"): the passage does not name the claim's subject, nor does its
 * heading, and its own subject is another name; or the passage names it, but not in the sentence
 * holding most of the claim's words, whose own subject is another name ("... Chalk is a clean and
 * focused alternative" after it).
 */
function otherSubject(
  claim: Analysis,
  page: Analysis,
  pageNorm: string,
  heading: string | undefined,
): string[] {
  const mine = subjectOf(claim).find(
    (t) => t.content && (t.pos === 'PROPN' || /^\p{Lu}/u.test(t.text)),
  );
  if (!mine) return [];
  const claimText = norm(claim.text);
  // The passage's subject is another name only when the claim does not use its words too ("The
  // urlize filter recognizes ..." names `urlize.extra_schemes`, but the claim's filter is urlize).
  const claimWords = new Set(claim.tokens.map((t) => t.lower));
  const elsewhere = (a: Analysis): boolean => {
    const theirs = subjectOf(a)
      .map((t) => t.lower)
      .filter((w) => !claimWords.has(w));
    return a.keyTerms.some(
      (k) =>
        k.kind !== 'rare' &&
        !hasTerm(claimText, k.text) &&
        theirs.some((w) =>
          norm(k.text)
            .split(/[^\p{L}\p{N}_$]+/u)
            .includes(w),
        ),
    );
  };
  // A passage under a heading that names the claim's subject is about it, whatever its own
  // subject (an option's entry under its class). One that does not name it opens with a subject
  // of its own ("colors.js ... has serious deficiencies like extending String.prototype", named
  // only by the page's title).
  if (heading !== undefined && hasTerm(norm(heading), mine.text)) return [];
  if (!hasTerm(pageNorm, mine.text))
    return heading !== undefined && elsewhere(page) ? [mine.text] : [];
  const sentences = page.text.split(/(?<=[.!?])\s+(?=[\p{Lu}\p{N}"'`(])/u);
  if (sentences.length < 2) return [];
  const stems = claim.tokens
    .filter((t) => t.content && t.pos !== 'NUM' && /\p{L}{3}/u.test(t.text))
    .map((t) => new RegExp(`(?<![\\p{L}])${escapeRegExp(t.stem.toLowerCase())}`, 'u'));
  const scores = sentences.map((x) => stems.filter((re) => re.test(norm(x))).length);
  const best = Math.max(...scores);
  if (best < 2 || scores.filter((x) => x === best).length > 1) return [];
  const anchor = sentences[scores.indexOf(best)]!;
  if (hasTerm(norm(anchor), mine.text)) return [];
  return elsewhere(analyze(anchor)) ? [mine.text] : [];
}
