/**
 * Association swaps: two things a sentence names together, each with what is said of it, given
 * each other's facts ("FFI_BAD_TYPEDEF if an ffi_type is incorrect, FFI_BAD_ABI if the abi is
 * invalid" / "FFI_BAD_ABI if an ffi_type is incorrect, FFI_BAD_TYPEDEF if the abi is invalid";
 * "returns the writable address and puts the executable one in *code" / the reverse). Every word
 * of both sentences is there, so word matching alone calls the swap supported.
 *
 * How: a sentence is cut into statements (at commas, semicolons and a conjunction that opens a
 * clause). For two anchors (key terms, or adjectives) that one claim sentence and one page
 * sentence both name, in two different statements, each word the two sentences share once (a
 * witness) belongs to the anchor of its statement. A witness that belongs to the other anchor on
 * the page than in the claim votes for a swap; one that belongs to the same anchor votes against.
 * A swap needs votes for and none against, in sentences without a contrast that moves a fact away
 * from its holder ("A, unlike B, does X"; "B rather than A"; "respectively"). Two plain nouns
 * anchor too when each is the subject of its statement ("an error means ..., while a failure
 * means ..."), but a paraphrase moves ordinary words about: their swap needs three votes, each
 * statement giving one.
 */
import { nameMark, sentenceRanges } from './analyze.js';
import type { Analysis, Token } from './analyze.js';
import { coordinatedItems } from './conjuncts.js';
import type { Conflict } from './verify-claim.js';
import { norm, proseKey, related } from './words.js';
import { loadWordNet } from './wordnet.js';

/** Words that put a fact away from its holder, or pair facts by position, in one sentence. */
export const REORDERING = new Set(
  'unlike than instead rather respectively versus vs neither same whose former latter'.split(' '),
);

/** Words that join two statements of one sentence ("A does X, and B does Y"). */
const JOINS = new Set(['and', 'or', 'but', 'while', 'nor']);
/** Conjunctions that always open a clause after the one they bound. */
const UNTIL = new Set(['until', 'unless']);

/** Words that open a condition put before what it conditions ("if X, A is returned"). */
const LEADS = new Set(['if', 'when', 'whenever', 'unless', 'once', 'for', 'with', 'in', 'on']);

/** Tokens that join the pieces of one identifier ("https", "_", "proxy"). */
const JOINED = /^[_$]$/;

/** Adjectives that compare or count rather than describe: no fact of their own to swap. */
const QUANTIFIERS = new Set(
  'more most less least many much few fewer several other such own same various certain enough'.split(
    ' ',
  ),
);

/** Witnesses a swap needs: one shared word moving may be a paraphrase's rewording. */
const MIN_SWAPPED = 1;
/** Witnesses a swap needs across two sentences that do not share a frame. */
const MIN_SWAPPED_APART = 2;

/**
 * The first token from `at` that is not an article, "both"/"either" ("and both X") or an opening
 * quote or backtick.
 */
function nextWord(a: Analysis, at: number): number {
  let k = at;
  while (/^(?:both|either|the|a|an|[`'"\u2018\u201c])$/.test(a.tokens[k]?.lower ?? '')) k++;
  return k;
}

/**
 * The statement of each token of a sentence whose anchors are the tokens `anchors`: ranges
 * split at `,;:` and at a conjunction that opens a clause. A statement naming no anchor joins the
 * next one when it opens with a condition ("if the abi is invalid, FFI_BAD_ABI"), else the one
 * before it.
 */
function statements(
  a: Analysis,
  [first, last]: [number, number],
  anchors: ReadonlySet<number>,
  cut?: number,
): Map<number, number> {
  // Where the text's names start: a conjunction before one may open a statement.
  const names = new Set<number>(anchors);
  for (const k of a.keyTerms) {
    const spelled = norm(k.text).replace(/\s+/g, '');
    if (spelled.length >= 2)
      for (const at of where(a, [first, last], spelled).keys()) names.add(at);
  }
  const parts: [number, number][] = [];
  let start = first;
  // A comma inside parentheses ends no statement: "(that is, jumps to unknown destinations)".
  let depth = 0;
  for (let i = first + 1; i <= last; i++) {
    const t = a.tokens[i]!;
    if (t.text === '(') depth++;
    else if (t.text === ')') depth = Math.max(0, depth - 1);
    if (depth > 0 && t.text === ',') continue;
    // A conjunction opens a statement of its own when it opens a clause, or when it leaves out
    // the verb between two named things ("text/plain for binary data and application/json for
    // textual data"; "an instance of tty.ReadStream and both process.stdout and ...").
    // So does one between two anchors a few words apart, the verb left out after it ("searches
    // backward with Ctrl+S and forwards with Ctrl+R").
    const near = (k: number): boolean =>
      k > i + 1 &&
      k <= Math.min(last, i + 4) &&
      a.tokens.slice(i + 1, k).some((x, d) => x.content && !names.has(i + 1 + d));
    const joins =
      JOINS.has(t.lower) &&
      (t.clause !== a.tokens[i - 1]!.clause ||
        ((names.has(nextWord(a, i + 1)) || [...anchors].some(near)) &&
          [...anchors].some((k) => k >= start && k < i)));
    // "until" and "unless" open a clause of their own: "calls to feed() will throw until reset()
    // is called" gives the throwing to feed() and the calling to reset().
    if (/^[,;:]$/.test(t.text) || joins || UNTIL.has(t.lower) || i === cut) {
      parts.push([start, i - 1]);
      start = i;
    }
  }
  parts.push([start, last]);
  const tokensOf = ([s, e]: [number, number]): Token[] => a.tokens.slice(s, e + 1);
  const named = parts.map(([s, e]) => [...anchors].some((k) => k >= s && k <= e));
  const out = new Map<number, number>();
  // The owner a statement naming no anchor goes on from: the last named statement's, or none
  // after a semicolon, where a statement of its own begins ("...; Valgrind then runs slowly").
  let carried = -1;
  // A purpose that opens the sentence frames all of it ("To conform to Fortran 2018, GCC 12
  // names ..."): what follows goes on from it no more than from the sentence.
  const opening = tokensOf(parts[0]!).filter((t) => /\p{L}/u.test(t.text));
  const frame = parts.length > 1 && opening[0]?.lower === 'to' && opening[1]?.pos === 'VERB';
  // An aside between commas that names a thing and predicates nothing (", an argument added in
  // Python 3.5,") speaks of the word before it: what follows goes on from the statement before.
  const aside = (i: number): boolean => {
    const [s, e] = parts[i]!;
    const words = tokensOf([s, e]).filter((t) => /\p{L}/u.test(t.text));
    return (
      i > 0 &&
      a.tokens[s]!.text === ',' &&
      a.tokens[parts[i + 1]?.[0] ?? -1]?.text === ',' &&
      // Not an item of a list ("a year like 2022, a plain version number like 6, or ...").
      !/^(?:and|or)$/.test(a.tokens[parts[i + 1]![0] + 1]?.lower ?? '') &&
      /^(?:a|an|the)$/.test(words[0]?.lower ?? '') &&
      !words.some((t) => t.pos === 'AUX' || (t.pos === 'VERB' && !/(?:ed|ing)$/.test(t.lower)))
    );
  };
  parts.forEach((r, i) => {
    let owner = i;
    if (named[i]) carried = i === 0 && frame ? -1 : aside(i) ? carried : i;
    else {
      const opener = tokensOf(r).find((t) => /\p{L}/u.test(t.text) && !JOINS.has(t.lower));
      const next = named.findIndex((n, j) => n && j > i);
      if (a.tokens[r[0]]!.text === ';' || r[0] === cut) carried = -1;
      owner = opener && LEADS.has(opener.lower) && next >= 0 ? next : carried;
    }
    for (let k = r[0]; k <= r[1]; k++) out.set(k, owner);
  });
  // A statement that goes on with a verb after its conjunction ("OpenMP code ... can no longer be
  // compiled with -std=f95 but now requires -std=f2003") shares the subject of the one before:
  // the words before that one's verb belong to neither ({@link SHARED}).
  parts.forEach(([s, e], i) => {
    const words = tokensOf([s, e]).filter((t) => /\p{L}/u.test(t.text));
    if (i === 0 || !JOINS.has(words[0]?.lower ?? '')) return;
    const next = words.slice(1).find((t) => t.pos !== 'ADV');
    if (next?.pos !== 'VERB' && next?.pos !== 'AUX') return;
    const [ps, pe] = parts[i - 1]!;
    // A gerund modifies the subject ("code using the omp_lib.h include file can ..."); an -s
    // word with a verb's sense right after a noun is the verb, whatever the tagger read
    // ("ffi_closure_alloc returns the executable address").
    const finite = (t: Token, k: number): boolean =>
      t.pos === 'AUX' ||
      (t.pos === 'VERB' && !t.lower.endsWith('ing')) ||
      (/[^s]s$/.test(t.lower) &&
        /^(?:NOUN|PROPN|X)$/.test(a.tokens[k - 1]?.pos ?? '') &&
        loadWordNet()
          .synsets(t.lemma)
          .some((id) => id.startsWith('v')));
    // A part with no verb is an item, not a statement with a subject ("empty, undefined or set
    // tokens to false").
    const verb = a.tokens.findIndex((t, k) => k >= ps && k <= pe && finite(t, k));
    if (verb < 0) return;
    for (let k = ps; k < verb; k++) out.set(k, SHARED);
  });
  return out;
}

/** The owner of the words of a subject two statements share. */
const SHARED = -2;

/**
 * Where `word` (lower case, no spaces) starts in `[first, last]`: the tokens that spell it
 * together ("UV", "_", "EBUSY" for `uv_ebusy`), mapped to the index after its last token.
 */
export function where(
  a: Analysis,
  [first, last]: [number, number],
  word: string,
): Map<number, number> {
  const out = new Map<number, number>();
  for (let i = first; i <= last; i++) {
    if (JOINED.test(a.tokens[i - 1]?.text ?? '')) continue;
    let spelled = '';
    for (let j = i; j <= last && spelled.length < word.length; j++) {
      spelled += a.tokens[j]!.lower;
      // Whole names only: "https" is not in "https_proxy".
      if (spelled === word && !JOINED.test(a.tokens[j + 1]?.text ?? '')) out.set(i, j + 1);
    }
  }
  return out;
}

/** The one start of `word` in the range, or undefined when it is there never or more than once. */
function once(a: Analysis, range: [number, number], word: string): number | undefined {
  const at = where(a, range, word);
  return at.size === 1 ? [...at.keys()][0] : undefined;
}

/** A number as a word: digits, or a literal in another base ("0o755", "0x1F"). */
const NUMBER = /^(?:\d+(?:\.\d+)?|0x[\da-f]+|0o[0-7]+|0b[01]+)$/i;

/** A word that can anchor a fact: the head of a key term, or an adjective. */
function anchorWords(a: Analysis): Set<string> {
  const out = new Set<string>();
  for (const k of a.keyTerms) {
    const spelled = norm(k.text).replace(/\s+/g, '');
    if (spelled.length >= 2) out.add(spelled);
  }
  // The tagger cuts a literal in another base ("0" "o755"): found in the text.
  for (const m of a.text.matchAll(/(?<![\w.])0[xob][\da-f]+\b/gi)) out.add(m[0].toLowerCase());
  for (const t of a.tokens) {
    // A number anchors what it measures ("the input base is 16").
    if (NUMBER.test(t.text)) out.add(t.text);
    // Not a comparative ("higher") or a quantifier ("more").
    if (t.pos !== 'ADJ' || !t.content || t.cue || QUANTIFIERS.has(t.lower)) continue;
    // A superlative names one end of a range ("the best case", "the worst case"); a comparative
    // is judged as one.
    if (t.lemma === t.lower || /^(?:best|worst|\p{L}+est)$/u.test(t.lower)) out.add(t.lower);
  }
  return out;
}

/** True when `word` opens the range as a label: the range's first word, a colon after it. */
function labels(a: Analysis, range: [number, number], word: string): boolean {
  const end = where(a, range, word).get(range[0]);
  return end !== undefined && a.tokens[end]?.text === ':';
}

/** A word that can witness where a fact sits: a content word of three letters or more. */
const witness = (t: Token): boolean =>
  (t.content && !t.cue && /\p{L}{3}/u.test(t.text)) || BOUNDS.has(t.lower);

/** The words of a bound ("at least", "at most"): which name it holds is a fact. */
const BOUNDS = new Set(['least', 'most']);

/** True when two sentences share two content words or more: one frame, said of two things. */
function parallel(a: Analysis, [f1, l1]: [number, number], [f2, l2]: [number, number]): boolean {
  const words = (f: number, l: number): Set<string> =>
    new Set(a.tokens.slice(f, l + 1).flatMap((t) => (witness(t) ? [t.lemma] : [])));
  const second = words(f2, l2);
  return [...words(f1, l1)].filter((w) => second.has(w)).length >= 2;
}

/**
 * True when the range holds a word of {@link REORDERING} where it can move the facts of the
 * anchors `a` and `b`: an introduction that ends with `:` or `;` before both is left out ("...
 * although these options have different ranges than the zlib ones: zlib's level option matches
 * BROTLI_PARAM_QUALITY").
 */
function reorders(an: Analysis, [first, last]: [number, number], a: string, b: string): boolean {
  const from = Math.min(
    ...where(an, [first, last], a).keys(),
    ...where(an, [first, last], b).keys(),
  );
  let start = first;
  for (let k = first; k < from && k <= last; k++) {
    if (/^[:;]$/.test(an.tokens[k]!.text)) start = k + 1;
  }
  return an.tokens.slice(start, last + 1).some((t) => REORDERING.has(t.lower));
}

/**
 * Pairs of anchors whose facts the claim swaps against the page (see the file's header).
 * @example
 * associationSwaps(
 *   analyze('It returns the executable address and stores the writable one in code.'),
 *   analyze('It returns the writable address and stores the executable one in code.'),
 * ) // [{ kind: 'term', claim: 'executable', page: 'writable' }]
 */
export function associationSwaps(claim: Analysis, page: Analysis): Conflict[] {
  const anchors = anchorWords(claim);
  const found = swapsAmong(claim, page, [...anchors], false);
  if (found.length > 0) return found;
  // A plain noun anchors its statement too ("an error means ..., while a failure means ..."),
  // but a paraphrase moves ordinary words about: its swap needs more witnesses, from both sides.
  const nouns = new Set(
    claim.tokens
      .filter((t) => /^(?:NOUN|PROPN)$/.test(t.pos) && t.content && /^\p{L}{3,}$/u.test(t.lower))
      .map((t) => t.lower)
      .filter((w) => !anchors.has(w)),
  );
  return swapsAmong(claim, page, [...nouns], true);
}

/**
 * The claim's sentences, and the two parts of one that draws a consequence (", so ..."): the
 * facts before it are given each their holder apart from what follows ("an error means X while a
 * failure means Y, so rules backtrack on an error").
 */
function claimRanges(claim: Analysis): [number, number][] {
  return sentenceRanges(claim).flatMap(([first, last]): [number, number][] => {
    const at = claim.tokens.findIndex(
      (t, k) => k > first && k < last && t.lower === 'so' && claim.tokens[k - 1]!.text === ',',
    );
    return at < 0
      ? [[first, last]]
      : [
          [first, last],
          [first, at - 2],
          [at + 1, last],
        ];
  });
}

/** The stem of the token spelled `word`, or `word` itself. */
const stemOf = (a: Analysis, word: string): string =>
  a.tokens.find((t) => t.lower === word)?.stem ?? word;

/**
 * True when every place the range names `a` and `b` is a subject: a verb right after it, and no
 * verb or preposition right before it ("can't be garbage collected" has no subject "garbage").
 */
function subjects(an: Analysis, range: [number, number], a: string, b: string): boolean {
  const at = [...where(an, range, a).keys(), ...where(an, range, b).keys()];
  return at.every(
    (k) =>
      /^(?:VERB|AUX)$/.test(an.tokens[k + 1]?.pos ?? '') &&
      !/^(?:VERB|AUX|ADP)$/.test(an.tokens[k - 1]?.pos ?? ''),
  );
}

/** Witnesses a swap of two plain nouns needs, each side giving one at least. */
const MIN_SWAPPED_NOUNS = 3;

/**
 * The first pair of `anchors` whose facts the claim swaps against the page; `nouns`: anchors are
 * plain nouns, whose swap needs {@link MIN_SWAPPED_NOUNS} witnesses, each statement of the claim
 * giving one.
 */
function swapsAmong(
  claim: Analysis,
  page: Analysis,
  anchors: readonly string[],
  nouns: boolean,
): Conflict[] {
  if (anchors.length < 2) return [];
  // A page may give each its own sentence, in one frame ("Stores bound with start.bindStore()
  // apply during handler invocation. Stores bound with asyncStart.bindStore() apply during
  // asyncEnd publication."): two sentences in a row that share two words or more are read as
  // one, cut where the second begins.
  const ranges = sentenceRanges(page);
  // Two sentences in a row that are not parallel may still give each of two names its facts
  // ("Espree started out as a fork of Esprima v1.2.2. Espree is now built on top of Acorn"):
  // read as one, a swap needs two shared words moved, one being a rewording's chance.
  const pageSentences: { range: [number, number]; cut?: number; votes: number }[] = [
    ...ranges.map((range) => ({ range, votes: MIN_SWAPPED })),
    ...ranges.slice(1).flatMap((r, i) => {
      const prev = ranges[i]!;
      if (prev[1] + 1 !== r[0]) return [];
      const votes = parallel(page, prev, r) ? MIN_SWAPPED : MIN_SWAPPED_APART;
      return [{ range: [prev[0], r[1]] as [number, number], cut: r[0], votes }];
    }),
    // Two parallel sentences that open alike with one between them ("If A is set then the
    // function will ignore padding. Upon a successful return ... If B is set then the function
    // will not decode ...").
    ...ranges.slice(2).flatMap((r, i) => {
      const prev = ranges[i]!;
      if (prev[1] + 1 !== ranges[i + 1]![0] || ranges[i + 1]![1] + 1 !== r[0]) return [];
      if (page.tokens[prev[0]]!.lower !== page.tokens[r[0]]!.lower) return [];
      if (!parallel(page, prev, r)) return [];
      return [{ range: [prev[0], r[1]] as [number, number], cut: r[0], votes: MIN_SWAPPED }];
    }),
  ];
  const claimLists = coordinatedItems(claim.tokens, claim.text);
  const pageLists = coordinatedItems(page.tokens, page.text);
  for (const cs of claimRanges(claim)) {
    const here = anchors.filter((w) => once(claim, cs, w) !== undefined);
    const numeric = (w: string): boolean => NUMBER.test(w);
    for (const [x, a] of here.entries()) {
      for (const b of here.slice(x + 1)) {
        // A number pairs with a number only ("input base 999, output base 16").
        if (numeric(a) !== numeric(b) || reorders(claim, cs, a, b)) continue;
        // Two nouns are two things, not one in two numbers ("versions" / "version"), and each
        // is the subject of its statement.
        if (nouns && (stemOf(claim, a) === stemOf(claim, b) || !subjects(claim, cs, a, b)))
          continue;
        const mine = sides(claim, cs, a, b, claimLists);
        if (!mine) continue;
        for (const { range, cut, votes } of pageSentences) {
          // A name that opens its sentence as a label ("ecmaVersion: Indicates the version to
          // parse.") holds the whole sentence: no statement of it belongs to another anchor.
          if (labels(page, range, a) || labels(page, range, b)) continue;
          if (reorders(page, range, a, b)) continue;
          if (nouns && !subjects(page, range, a, b)) continue;
          const theirs = sides(page, range, a, b, pageLists, cut);
          if (!theirs) continue;
          let swapped = 0;
          let kept = 0;
          const sidesSwapped = new Set<string>();
          for (const [word, m] of mine.witnesses) {
            const o = theirs.witnesses.get(word);
            if (m === undefined || o === undefined) continue;
            if (m === o) kept++;
            else {
              swapped++;
              sidesSwapped.add(m);
            }
          }
          const enough = nouns
            ? swapped >= Math.max(votes, MIN_SWAPPED_NOUNS) && sidesSwapped.size === 2
            : swapped >= votes;
          if (enough && kept === 0) {
            return [
              { kind: numeric(a) ? 'number' : 'term', claim: mine.names[0], page: theirs.names[1] },
            ];
          }
        }
      }
    }
  }
  return [];
}

/**
 * The two anchors `a` and `b` of a sentence, when it names each once and in two statements: the
 * two as written, and the words it names once (witnesses), each with the anchor of its
 * statement (`a` or `b`; undefined when neither).
 */
function sides(
  an: Analysis,
  range: [number, number],
  a: string,
  b: string,
  lists: readonly number[][][],
  cut?: number,
): { names: [string, string]; witnesses: Map<string, 'a' | 'b' | undefined> } | undefined {
  const sa = where(an, range, a);
  const sb = where(an, range, b);
  // Across two sentences a name may recur in its own one ("a fork of Esprima v1.2.2, the last
  // ... release of Esprima"): the first time holds the facts.
  const side = (at: number): number => (cut !== undefined && at >= cut ? 1 : 0);
  const single = (s: Map<number, number>): boolean =>
    s.size === 1 ||
    (cut !== undefined && s.size > 1 && new Set([...s.keys()].map(side)).size === 1);
  if (!single(sa) || !single(sb)) return undefined;
  const [startA, endA] = [...sa][0]!;
  const [startB, endB] = [...sb][0]!;
  if (sa.size + sb.size > 2 && side(startA) === side(startB)) return undefined;
  const held = new Set<number>();
  for (const [s, e] of [...sa, ...sb]) for (let k = s; k < e; k++) held.add(k);
  // Items of one list ("Latin, Greek and Cyrillic") hold no facts of their own.
  const listed = lists.some(
    (items) =>
      items.some((item) => item.includes(startA)) && items.some((item) => item.includes(startB)),
  );
  if (listed || enumerated(an, Math.min(endA, endB), Math.max(startA, startB))) return undefined;
  const owner = statements(an, range, held, cut);
  const ownA = owner.get(startA);
  const ownB = owner.get(startB);
  // A name in a subject two statements share holds the facts of neither.
  if (ownA === ownB || ownA === SHARED || ownB === SHARED) return undefined;
  const counts = new Map<string, number>();
  for (let i = range[0]; i <= range[1]; i++) {
    const w = proseKey(an.tokens[i]!);
    counts.set(w, (counts.get(w) ?? 0) + 1);
  }
  const witnesses = new Map<string, 'a' | 'b' | undefined>();
  for (let i = range[0]; i <= range[1]; i++) {
    const t = an.tokens[i]!;
    if (held.has(i) || !witness(t) || counts.get(proseKey(t)) !== 1) continue;
    const o = owner.get(i);
    // A short form is the word it shortens ("dirs" / "directories").
    witnesses.set(proseKey(t), o === ownA ? 'a' : o === ownB ? 'b' : undefined);
  }
  const spell = (s: number, e: number): string =>
    an.tokens
      .slice(s, e)
      .map((t) => t.text)
      .join('');
  return { names: [spell(startA, endA), spell(startB, endB)], witnesses };
}

/**
 * True when only other names, numbers and list punctuation stand between two anchors (tokens
 * `from` to `to`, exclusive): items of one enumeration ("Buffer.from, Buffer.alloc,
 * Buffer.allocUnsafe, Buffer.allocUnsafeSlow"; "3.1, 6.0, 6.3 and 7.0"), which hold no facts of
 * their own.
 */
function enumerated(an: Analysis, from: number, to: number): boolean {
  const dotted = (k: number): boolean =>
    an.tokens[k]!.joined || !!an.tokens[k - 1]?.joined || !!an.tokens[k + 1]?.joined;
  for (let k = from; k < to; k++) {
    const t = an.tokens[k]!;
    if (!/^(?:,|and|or)$/.test(t.lower) && !dotted(k) && !NUMBER.test(t.text)) return false;
  }
  return from < to;
}

/** Words that put one thing in another's place: "A instead of B", "A rather than B". */
const INSTEAD = /^(?:instead|rather)$/;

/**
 * The first and last token of the name joined by underscores that token `k` is a piece of
 * ("fftw3", "_", "omp"); `[k, k]` when it is none.
 */
function underscored(a: Analysis, k: number): [number, number] {
  const piece = (j: number): boolean => /[\p{L}\p{N}]/u.test(a.tokens[j]?.text ?? '');
  const glue = (j: number): boolean => JOINED.test(a.tokens[j]?.text ?? '');
  let [first, last] = [k, k];
  while (glue(first - 1) && piece(first - 2)) first -= 2;
  while (glue(last + 1) && piece(last + 2)) last += 2;
  return [first, last];
}

/** A name joined by underscores as one token: its text, and its lower case as lemma and stem. */
function identifier(a: Analysis, first: number, last: number): Token {
  const text = a.tokens
    .slice(first, last + 1)
    .map((t) => t.text)
    .join('');
  const lower = text.toLowerCase();
  return { ...a.tokens[first]!, text, lower, lemma: lower, stem: lower };
}

/**
 * What each "A instead of B" / "A rather than B" / "A in favour of B" of a text puts before the
 * contrast and after it: the content words up to three words before it (six for "in favour of"),
 * in its clause, each by its stem, and the first one after it, by its stem with its text.
 * `favour`: "in favour of", where the side after is the one preferred.
 */
function preferences(a: Analysis): {
  chosen: Map<string, Analysis['tokens'][number]>;
  instead: [string, string];
  favour: boolean;
  after: Token;
  phrase: string;
}[] {
  const out: ReturnType<typeof preferences> = [];
  a.tokens.forEach((t, i) => {
    const next = a.tokens[i + 1]?.lower;
    const favour =
      t.lower === 'in' && /^favou?r$/.test(next ?? '') && a.tokens[i + 2]?.lower === 'of';
    if (!favour && (!INSTEAD.test(t.lower) || (next !== 'of' && next !== 'than'))) return;
    // The first content word after it, or the first piece of a name joined by underscores.
    let at = a.tokens.findIndex(
      (x, k) => k >= i + (favour ? 3 : 2) && (x.content || underscored(a, k)[1] > k),
    );
    if (at < 0) return;
    // A qualified name is told by its last part ("emitter.off" / "emitter.removeListener").
    while (a.tokens[at + 1]?.joined && a.tokens[at + 2]) at += 2;
    // A name joined by underscores is one word ("fftw3_omp", not "fftw3").
    const [, last] = underscored(a, at);
    const after = last > at ? identifier(a, at, last) : a.tokens[at]!;
    const chosen = new Map<string, Analysis['tokens'][number]>();
    // What is set aside in favour of another is the clause's subject: "The glob file is
    // deprecated".
    // The dot and brackets of a name written as code ("Buffer.alloc()") take no reach.
    let reach = favour ? 6 : 3;
    for (let k = i - 1; k >= 0 && reach > 0 && a.tokens[k]!.clause === t.clause; k--) {
      if (nameMark(a.tokens, k)) continue;
      reach--;
      const [first] = underscored(a, k);
      if (first < k) {
        const name = identifier(a, first, k);
        chosen.set(name.stem, name);
        k = first;
        continue;
      }
      // The last part of a qualified name is a name, whatever word it is ("emitter.off").
      if (a.tokens[k]!.content || a.tokens[k - 1]?.joined)
        chosen.set(a.tokens[k]!.stem, a.tokens[k]!);
    }
    const phrase = a.tokens
      .slice(i, i + (favour ? 3 : 2))
      .map((x) => x.text)
      .join(' ');
    out.push({ chosen, instead: [after.stem, after.text], favour, after, phrase });
  });
  return out;
}

/**
 * A preference turned round: the claim prefers what the page sets aside and sets aside what the
 * page prefers ("detected for the stdout stream instead of stderr" / "detected for stderr stream
 * instead of stdout").
 * @example
 * contrastSwaps(analyze('It writes to stdout instead of stderr.'), analyze('It writes to stderr instead of stdout.'))
 * // [{ kind: 'term', claim: 'stdout', page: 'stderr' }]
 */
export function contrastSwaps(claim: Analysis, page: Analysis): Conflict[] {
  const theirs = preferences(page);
  for (const mine of preferences(claim)) {
    for (const p of theirs) {
      // Compared by stem: "throw an error rather than overriding" / "override rather than
      // throwing". Only contrasts of one kind: "A instead of B" says what "B in favour of A" says.
      if (p.instead[0] === mine.instead[0] || p.favour !== mine.favour) continue;
      const claimWord = mine.chosen.get(p.instead[0])?.text;
      const pageWord = p.chosen.get(mine.instead[0])?.text;
      if (claimWord !== undefined && pageWord !== undefined)
        return [{ kind: 'term', claim: claimWord, page: pageWord }];
      // The page may name its side by a pronoun ("It is deprecated in favour of the globs2
      // file"): what the page sets after the contrast, the claim sets before it, and the page's
      // side names nothing else.
      const named = [...p.chosen.values()].some((x) => /^(?:NOUN|PROPN|X)$/.test(x.pos));
      if (claimWord !== undefined && !named)
        return [{ kind: 'term', claim: mine.instead[1], page: p.instead[1] }];
    }
  }
  return [];
}

/** A preference in words: "A instead of B", "A rather than B", "B in favour of A". */
const PREFERS =
  /\b(?:instead\s+of|rather\s+than|in\s+favou?r\s+of|in\s+place\s+of|as\s+opposed\s+to)\b/i;

/** Words with which a passage sets one thing against another, or denies one. */
const SETS_AGAINST =
  /\b(?:instead|rather|than|over|favou?r|prefer\w*|replac\w*|not|no|never|none|without|unlike|alternative\w*|deprecat\w*|opposed|only)\b|n't\b/i;

/**
 * The preference a claim states ("arguments end up in _ instead of under --") where the passage
 * sets nothing against anything: no contrast, no negation ("Should unparsed flags be stored in --
 * or _"), so it names both and chooses neither; or where the passage names neither side ("links
 * URLs without a scheme as https:// instead of http://" / "recognizes mailto: links ... instead of
 * ignoring trailing characters"): the contrast is the claim's own.
 */
export function unstatedPreferences(claim: Analysis, page: Analysis): string[] {
  const m = PREFERS.exec(claim.text);
  if (m && !SETS_AGAINST.test(page.text)) return [m[0]];
  const named = (t: Token): boolean => page.tokens.some((x) => x.content && related(t, x));
  for (const { chosen, after, phrase } of preferences(claim)) {
    const nearest = chosen.values().next().value;
    if (nearest && !named(nearest) && !named(after))
      return [`${nearest.text} ${phrase} ${after.text}`];
  }
  return [];
}

/**
 * The modifier of each noun in a sentence, as `[modifier, head]` token pairs: an adjective, or a
 * hyphenated compound ("zero-based"), right before the noun it describes.
 */
function modified(a: Analysis, [first, last]: [number, number]): [string, Token][] {
  const out: [string, Token][] = [];
  for (let h = first + 1; h <= last; h++) {
    const head = a.tokens[h]!;
    if (!head.content || !/^(?:NOUN|PROPN)$/.test(head.pos)) continue;
    const before = a.tokens[h - 1]!;
    if (a.tokens[h - 2]?.text === '-' && h - 3 >= first && before.content)
      out.push([`${a.tokens[h - 3]!.lower}-${before.lower}`, head]);
    else if (before.content && before.pos === 'ADJ' && !QUANTIFIERS.has(before.lower))
      out.push([before.lemma, head]);
  }
  return out;
}

/**
 * Modifiers swapped between two nouns of one sentence: "zero-based line numbers and one-based
 * column numbers" where the page says "the one-based line and zero-based column numbers". Each
 * modifier goes with the other noun on the page, and neither with its own.
 * @example
 * modifierSwaps(analyze('It has zero-based lines and one-based columns.'), analyze('It has one-based lines and zero-based columns.'))
 * // [{ kind: 'term', claim: 'zero-based line', page: 'one-based line' }]
 */
export function modifierSwaps(claim: Analysis, page: Analysis): Conflict[] {
  const pages = sentenceRanges(page).map((r) => modified(page, r));
  for (const range of sentenceRanges(claim)) {
    const mine = modified(claim, range);
    for (const [m1, h1] of mine) {
      for (const [m2, h2] of mine) {
        if (m1 === m2 || related(h1, h2)) continue;
        for (const theirs of pages) {
          const has = (m: string, h: Token): boolean =>
            theirs.some(([x, y]) => x === m && related(h, y));
          if (has(m1, h2) && has(m2, h1) && !has(m1, h1) && !has(m2, h2))
            return [{ kind: 'term', claim: `${m1} ${h1.text}`, page: `${m2} ${h1.text}` }];
        }
      }
    }
  }
  return [];
}
