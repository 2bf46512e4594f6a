/**
 * Polarity alignment: each claim clause against the page clauses that state most of its words,
 * with negation cues and antonyms counted, so that an added or removed negation, or an antonym in
 * the same place, is a conflict and a negation moved or restated is not.
 */
import { endsSentence, written } from './analyze.js';
import type { Analysis, Token } from './analyze.js';
import type { Conflict } from './verify-claim.js';
import { areAntonyms, related } from './words.js';
import {
  hedged,
  negatedCondition,
  negatedRelative,
  sentences,
  switchedOff,
  untilOrder,
} from './predicates.js';
import { CONDITIONS, inCondition, opensUnless } from './conditions.js';

/**
 * True when an exception follows token `at` in its sentence, within eight words: "would include
 * all debuggers except those starting with connect:" excludes those, so its verb is no antonym
 * of "excludes".
 */
function excepted(tokens: readonly Token[], at: number): boolean {
  for (let k = at + 1; k < Math.min(tokens.length, at + 9); k++) {
    if (endsSentence(tokens[k]!)) return false;
    if (/^(?:except|excluding|but)$/.test(tokens[k]!.lower) && tokens[k]!.pos !== 'CCONJ')
      return true;
  }
  return false;
}

/**
 * The claim's word at `i` stands in a condition ("if you load with json set to true") that the
 * page states in a condition of its own ("If true, then ..."): its opposite elsewhere on the page
 * ("json (default: false)") answers another case.
 */
function conditionElsewhere(claim: Analysis, i: number, page: Analysis): boolean {
  if (!inCondition(claim.tokens, i)) return false;
  return page.tokens.some(
    (t, j) =>
      t.content && !t.negated && related(claim.tokens[i]!, t) && inCondition(page.tokens, j),
  );
}

/**
 * A claim's condition whose word the page's conditions state only as its opposite ("if json is
 * set to false" against "json (default: false). If true, then ..."): the claim puts the fact
 * under the other case.
 */
function conditionFlips(claim: Analysis, page: Analysis): Conflict[] {
  for (const [i, t] of claim.tokens.entries()) {
    if (!t.content || t.negated || !inCondition(claim.tokens, i)) continue;
    if (conditionElsewhere(claim, i, page)) continue;
    const j = page.tokens.findIndex(
      (x, k) => x.content && !x.negated && areAntonyms(t, x) && inCondition(page.tokens, k),
    );
    if (j >= 0) return [{ kind: 'antonym', claim: t.text, page: page.tokens[j]!.text }];
  }
  return [];
}

/** True when token `at` is true/false given as a default: "(default: false)", "true by default". */
function defaultValue(tokens: readonly Token[], at: number): boolean {
  if (!/^(?:true|false)$/.test(tokens[at]!.lower)) return false;
  const near = tokens.slice(Math.max(0, at - 3), at + 4).map((t) => t.lower);
  return near.includes('default') || near.includes('defaults');
}

/**
 * True when token `i` counts as a negation of its clause: a cue; "unless" or "except when"
 * ("unless X is set" states the case "if X is not set"); a switch put off ("is off", as "is not
 * on"); a predicate of absence ("is omitted", see {@link absence}).
 */
const negates = (tokens: readonly Token[], i: number): boolean =>
  tokens[i]!.cue || opensUnless(tokens, i) || switchedOff(tokens, i) || absence(tokens, i);

/** The cue and the word it negates: `not enabled`; or the word alone. */
function phrase(tokens: readonly Token[], at: number): string {
  const t = tokens[at]!;
  for (let i = at - 1; t.negated && i >= 0 && tokens[i]!.clause === t.clause; i--) {
    if (tokens[i]!.cue) {
      return written(tokens.slice(i, at + 1));
    }
  }
  return t.text;
}

interface Clause {
  /** Token indexes of the clause's content words. */
  words: number[];
  /** Negation cues in the clause. */
  cues: number;
  /** True when a predicate of absence ("is omitted") denies the clause's subject. */
  absent?: boolean;
}

/**
 * True when the clause is a purpose that opens its sentence ("To include comments, add a style
 * mapping"; "In order to retry, ..."): it names a goal, and asserts nothing about it.
 */
function purpose(tokens: readonly Token[], first: number): boolean {
  // A clause begins with the punctuation that ends the one before.
  let at = first;
  while (tokens[at]?.pos === 'PUNCT') at++;
  if (at > 0 && !/^[.!?:;]$/.test(tokens[at - 1]!.text)) return false;
  if (tokens[at]?.lower === 'in' && tokens[at + 1]?.lower === 'order') at += 2;
  return tokens[at]?.lower === 'to' && tokens[at + 1]?.pos === 'VERB';
}

/** Verbs that turn an act off: "disable cancellation" denies the canceling. */
const DISABLING = new Set(['disable', 'prevent', 'suppress', 'stop', 'block', 'inhibit']);

/** Verbs that leave a thing out: "exclude X" says what "X does not count" does. */
const EXCLUDING = new Set(['exclude', 'omit', 'ignore', 'skip', 'reject', 'disallow', 'forbid']);

/** Values that say a thing is not there; for {@link absence} after "be". */
const VALUE_ABSENT = new Set(['unset', 'unspecified', 'undefined']);

/** Predicates that say a thing is not there. */
const ABSENT = new Set(['omitted', 'missing', 'absent', ...VALUE_ABSENT]);

/**
 * True for a predicate of absence after "be": "if port is omitted" denies the port as "given no
 * port" does, so it counts as a negation cue of its clause. ("leave out" and "omit" are not read
 * so: a page says the same with "excluded", "skipped", "dropped", which are no cues either.)
 */
const absence = (tokens: readonly Token[], i: number): boolean =>
  ABSENT.has(tokens[i]!.lower) && tokens[i - 1]?.lemma === 'be';

/** The clauses that assert something: purposes opening a sentence are left out. */
function clausesOf(a: Analysis): Clause[] {
  const byId = new Map<number, Clause>();
  const goals = new Set<number>();
  a.tokens.forEach((t, i) => {
    let c = byId.get(t.clause);
    if (!c) {
      byId.set(t.clause, (c = { words: [], cues: 0 }));
      if (purpose(a.tokens, i)) goals.add(t.clause);
    }
    // A predicate of absence, not a value ("is undefined", "is unset"), denies a thing left out.
    if (absence(a.tokens, i) && !VALUE_ABSENT.has(t.lower)) c.absent = true;
    if (negates(a.tokens, i)) c.cues++;
    else if (t.content) c.words.push(i);
  });
  // A subject with a relative clause on it ("input lines | that begin with a period | are passed
  // to the postprocessor") is the subject of the predicate after that clause: its words join it.
  const ids = [...byId.keys()];
  const first = (id: number): Token | undefined =>
    a.tokens.find((t) => t.clause === id && t.pos !== 'PUNCT');
  ids.forEach((id, k) => {
    const [relative, predicate] = [ids[k + 1], ids[k + 2]];
    if (relative === undefined || predicate === undefined) return;
    const subject = a.tokens.filter((t) => t.clause === id);
    if (subject.some((t) => /^(?:VERB|AUX)$/.test(t.pos)) || subject.some(endsSentence)) return;
    if (!/^(?:that|which|who)$/.test(first(relative)?.lower ?? '')) return;
    if (first(predicate)?.pos !== 'AUX') return;
    const into = byId.get(predicate)!;
    const from = byId.get(id)!;
    into.words.unshift(...from.words);
    into.cues += from.cues;
    from.words = [];
  });
  return [...byId].filter(([id, c]) => c.words.length > 0 && !goals.has(id)).map(([, c]) => c);
}

/** Token indexes of the words of the text's comparisons (`faster`, `more memory`, `not as fast as`). */
function compared(a: Analysis): Set<number> {
  const out = new Set<number>();
  for (const c of a.comparatives) {
    const words = new Set(c.text.toLowerCase().split(/\s+/));
    for (let i = Math.max(0, c.at - 3); i <= c.at + 2 && i < a.tokens.length; i++) {
      if (i === c.at || words.has(a.tokens[i]!.lower)) out.add(i);
    }
  }
  return out;
}

/**
 * A change the claim puts the other way round: "switched the hashing from SHA-256 to MD5" against
 * "Use SHA-256 instead of MD5". The page denies, in one sentence, what the claim changes to and
 * states plainly what it changes from. (A change the right way round has the same parity of
 * denials as the page's, so the clause pairing agrees with it.)
 */
function replacementSwaps(claim: Analysis, page: Analysis): Conflict[] {
  const c = claim.tokens;
  const pageSentences = sentences(page.tokens);
  for (const [k, t] of c.entries()) {
    if (!t.cue || t.lower !== 'from') continue;
    const to = c.findIndex((x, j) => j > k && x.lower === 'to' && x.clause === t.clause);
    const from = c.slice(k + 1, to).find((x) => x.content);
    const into = to < 0 ? undefined : c.slice(to + 1).find((x) => x.content);
    if (!from || !into || into.clause !== t.clause) continue;
    for (const [j, x] of page.tokens.entries()) {
      if (!x.negated || !related(into, x)) continue;
      const plain = page.tokens.some(
        (y, m) => pageSentences[m] === pageSentences[j] && !y.negated && related(from, y),
      );
      if (plain)
        return [
          {
            kind: 'negation',
            claim: written(c.slice(k, to + 2)),
            page: phrase(page.tokens, j),
          },
        ];
    }
  }
  return [];
}

/**
 * True when two words are related and stand as words of the same kind: a piece of a name glued
 * by hyphens ("gunzip" of "gunzip-maybe", "tar" of "tar-fs") is the name's, not the word's.
 */
const samePlace = (a: Token, b: Token): boolean => related(a, b) && a.compound === b.compound;

/**
 * Polarity, clause by clause: each claim clause is paired with the page clauses sharing most of
 * its words (antonyms count as shared: they fill the same slot), and its parity of negation cues,
 * flipped once per antonym pair (`not enabled` = `disabled`, `not unusable` = `can be used`), must
 * equal the page clause's. Clause-wide parity lets a paraphrase move the negation ("performs no
 * CORS checks" = "does not implement CORS checks").
 */
export function polarityConflicts(claim: Analysis, page: Analysis): Conflict[] {
  const out: Conflict[] = conditionFlips(claim, page);
  if (out.length > 0) return out;
  const swapped = replacementSwaps(claim, page);
  if (swapped.length > 0) return swapped;
  const pageClauses = clausesOf(page);
  // The words of a comparison are judged with their direction ("not as fast as" / "slower than").
  const inClaim = compared(claim);
  const inPage = compared(page);
  const claimSentences = sentences(claim.tokens);
  const pageSentences = sentences(page.tokens);
  // A negated claim word the page negates too, in a clause that states at least half of the claim
  // clause ("Rather than warning only the first time a function is called" / "Instead of just
  // warning on the first invocation of a function"): the clause the negation pairs with is there,
  // whichever clause shares most words.
  const echoed = (c: Clause): boolean =>
    pageClauses.some((p) => {
      // A denial in the page's case ("if you know what should or should not be filtered") is no
      // echo of the claim's plain one.
      if (inCondition(page.tokens, p.words[0]!) && !inCondition(claim.tokens, c.words[0]!))
        return false;
      const shared = c.words.filter((i) =>
        p.words.some((j) => related(claim.tokens[i]!, page.tokens[j]!)),
      );
      return (
        shared.length >= Math.max(2, c.words.length / 2) &&
        shared.some(
          (i) =>
            claim.tokens[i]!.negated &&
            p.words.some(
              (j) => page.tokens[j]!.negated && related(claim.tokens[i]!, page.tokens[j]!),
            ),
        ) &&
        (c.cues - p.cues) % 2 === 0
      );
    });
  // A claim clause that runs two facts together, each with its denial ("returns 0 for a key that
  // is not in the cache and Infinity for an item stored without a TTL"), is echoed when each
  // denied word is denied by a page clause stating the fact ("If item is not in cache, returns 0.
  // Returns Infinity if item is in cache without a defined TTL").
  const echoedEach = (c: Clause): boolean => {
    const denied = c.words.filter((i) => claim.tokens[i]!.negated);
    if (c.cues < 2 || denied.length < 2) return false;
    return denied.every((i) =>
      pageClauses.some(
        (p) =>
          p.words.some(
            (j) => page.tokens[j]!.negated && related(claim.tokens[i]!, page.tokens[j]!),
          ) &&
          c.words.filter((k) => p.words.some((j) => related(claim.tokens[k]!, page.tokens[j]!)))
            .length >= 2,
      ),
    );
  };
  const claimClauses = clausesOf(claim);
  for (const c of claimClauses) {
    let best = 0;
    let pairs: { clause: Clause; flips: [number, number][]; shared: number[] }[] = [];
    for (const p of pageClauses) {
      const flips: [number, number][] = [];
      const shared: number[] = [];
      const rest: number[] = [];
      for (const i of c.words) {
        const same = p.words.find((j) => samePlace(claim.tokens[i]!, page.tokens[j]!));
        if (same !== undefined) shared.push(same);
        else rest.push(i);
      }
      // A page word the claim states already is no antonym of another claim word ("the new keys
      // are not used" against "the old and the new keys": "used"/"new" would pair twice).
      for (const i of rest) {
        // Nor is a value the claim gives elsewhere: it names both ("setting cut to true lets it
        // break words; the option is false by default"), and the page's is the default.
        const opposite = p.words.find(
          (j) =>
            !shared.includes(j) &&
            areAntonyms(claim.tokens[i]!, page.tokens[j]!) &&
            !(
              /^(?:true|false)$/.test(page.tokens[j]!.lower) &&
              claim.tokens.some((t) => t.lower === page.tokens[j]!.lower)
            ) &&
            // Nor a value the page gives beside the claim's in one sentence: it names both cases
            // ("Allow (true) or block (false, default) traffic"), and which is the default is
            // the settings check's to say.
            !(
              /^(?:true|false)$/.test(page.tokens[j]!.lower) &&
              page.tokens.some(
                (t, k) =>
                  t.lower === claim.tokens[i]!.lower && pageSentences[k] === pageSentences[j],
              )
            ) &&
            // Two defaults are compared by the settings check, which reads whose default each
            // is ("sensitive ... (default: false) end ... (default: true)").
            !(defaultValue(claim.tokens, i) && defaultValue(page.tokens, j)) &&
            // "include all except X" says "exclude X": an exception after either word turns it.
            !excepted(page.tokens, j) &&
            !excepted(claim.tokens, i),
        );
        if (
          opposite !== undefined &&
          !inClaim.has(i) &&
          !inPage.has(opposite) &&
          !conditionElsewhere(claim, i, page)
        )
          flips.push([i, opposite]);
      }
      // An antonym alone links nothing: "v10.0 or newer" and "for older versions" share no word.
      // Nor does one beside a single shared word, when the two leave most of the claim's clause
      // out: "any other configured value is ignored with an error" and "fixed if the values are
      // exactly the same" speak of other things ("footnotes are included in the output" and
      // "footnotes are ignored" of one).
      if (shared.length === 0) continue;
      if (shared.length === 1 && flips.length > 0 && 1 + flips.length < c.words.length / 2)
        continue;
      // A default the claim states is the page's default case: "GLib prints debug messages by
      // default" is answered by "By default, these messages are not printed", not by the
      // sentence before, which names more of its words ("messages should be printed").
      // The default must be the clause's own, or the one of a "By default," opening it.
      const inDefault = (a: Analysis, at: number): boolean => {
        const clause = a.tokens[at]!.clause;
        return a.tokens.some(
          (t, k) =>
            t.lower === 'default' &&
            a.tokens[k - 1]?.lower === 'by' &&
            (t.clause === clause ||
              (t.clause === clause - 1 &&
                a.tokens.every((x) => x.clause !== t.clause || !x.content || x === t))),
        );
      };
      const byDefault =
        inDefault(claim, c.words[0]!) &&
        inDefault(page, p.words[0]!) &&
        shared.filter((j) => page.tokens[j]!.lemma !== 'default').length >= 2;
      const score = shared.length + flips.length + (byDefault ? 3 : 0);
      if (score < best) continue;
      if (score > best) pairs = [];
      best = score;
      pairs.push({ clause: p, flips, shared });
    }
    // Too little in common to say the clauses state the same thing. A subject the passage
    // states nowhere (one the heading names: "m4 verifies that ..." against "... but this is not
    // checked") cannot be shared: the words after it are asked for.
    let unstated = 0;
    while (
      unstated < c.words.length - 1 &&
      /^(?:NOUN|PROPN)$/.test(claim.tokens[c.words[unstated]!]!.pos) &&
      !page.tokens.some((t) => t.content && samePlace(claim.tokens[c.words[unstated]!]!, t))
    )
      unstated++;
    const needed = Math.min(2, c.words.length - unstated);
    if (best < needed) continue;
    // An antonym the claim states itself in another clause, which states more of the page's
    // clause, is that clause's: "%O pretty-prints an object over multiple lines, %o pretty-prints
    // it on a single line" pairs "%O Pretty-print an Object on multiple lines" with its first
    // clause, and its "single" is no denial of the page's "multiple".
    const stated = (d: Clause, p: Clause): number =>
      d.words.filter((i) => p.words.some((j) => related(claim.tokens[i]!, page.tokens[j]!))).length;
    for (const x of pairs) {
      x.flips = x.flips.filter(
        ([, j]) =>
          !claimClauses.some(
            (d) =>
              d !== c &&
              d.words.some((i) => related(claim.tokens[i]!, page.tokens[j]!)) &&
              stated(d, x.clause) > best,
          ),
      );
    }
    pairs = pairs.filter((x) => x.flips.length > 0 || x.shared.length >= needed);
    if (pairs.length === 0) continue;
    // Of clauses that tie, the ones whose sentence shares most of the whole claim state its case:
    // "By default, X is set" is answered by "By default, X is not set", not by "When truthy, X
    // is set" a sentence before.
    if (pairs.length > 1) {
      const context = (x: (typeof pairs)[number]): number => {
        const s = pageSentences[x.clause.words[0]!];
        const words = page.tokens.filter((t, j) => t.content && pageSentences[j] === s);
        return claim.tokens.filter((t) => t.content && words.some((w) => related(t, w))).length;
      };
      const most = Math.max(...pairs.map(context));
      pairs = pairs.filter((x) => context(x) === most);
    }
    // Of clauses that still tie, the ones under the claim clause's condition state its case: "it
    // still starts when some of this fails" is answered by "refuses to start if anything fails",
    // not by "parsed before starting" in the same sentence.
    const mine = adjacentCondition(claim, claim.tokens[c.words[0]!]!.clause);
    if (pairs.length > 1 && mine.length > 0) {
      const under = (x: (typeof pairs)[number]): number =>
        adjacentCondition(page, page.tokens[x.clause.words[0]!]!.clause).filter((j) =>
          mine.some((i) => related(claim.tokens[i]!, page.tokens[j]!)),
        ).length;
      const most = Math.max(...pairs.map(under));
      if (most > 0) pairs = pairs.filter((x) => under(x) === most);
    }
    // Of tied clauses, one that states a claim word as written accounts for it: its antonym in
    // the other is that clause's own word ("Though the call will be asynchronous ..., it is
    // implemented as a synchronous call" for "it is implemented as a synchronous call").
    for (const x of pairs) {
      x.flips = x.flips.filter(
        ([i]) =>
          !pairs.some(
            (y) =>
              y !== x && y.clause.words.some((j) => related(claim.tokens[i]!, page.tokens[j]!)),
          ),
      );
    }
    // Two clauses that share nearly all their words but the verb state one fact with two verbs
    // ("does not contain the built JavaScript library" / "includes the built javascript
    // library"): the verbs fill one slot, whatever WordNet says of them.
    // A gerund beside a finite verb names the act the clause is about, not what it predicates
    // ("calling it on the main thread also changes the order"): the finite verb fills the slot.
    const verbOf = (a: Analysis, words: readonly number[], other: (k: number) => boolean) => {
      const verbs = words.filter((k) => a.tokens[k]!.pos === 'VERB' && !other(k));
      const finite = verbs.filter((k) => !a.tokens[k]!.lower.endsWith('ing'));
      return finite.length > 0 ? finite : verbs;
    };
    // The page's verb of such a pair, or undefined.
    const slotVerb = (x: (typeof pairs)[number]): number | undefined => {
      const mine = verbOf(claim, c.words, (i) =>
        x.clause.words.some((j) => related(claim.tokens[i]!, page.tokens[j]!)),
      );
      const theirs = verbOf(page, x.clause.words, (j) =>
        c.words.some((i) => related(claim.tokens[i]!, page.tokens[j]!)),
      );
      const rest = c.words.length - 1;
      // A verb of the claim the page states elsewhere is no verb put otherwise.
      const elsewhere = (i: number): boolean =>
        page.tokens.some((t) => t.content && related(claim.tokens[i]!, t));
      return mine.length === 1 &&
        theirs.length === 1 &&
        !elsewhere(mine[0]!) &&
        (claim.tokens[mine[0]!]!.negated || page.tokens[theirs[0]!]!.negated) &&
        x.shared.length >= Math.max(3, Math.ceil(rest * 0.75))
        ? theirs[0]
        : undefined;
    };
    const slots = new Map(pairs.map((x) => [x, slotVerb(x)]));
    const slot = (x: (typeof pairs)[number]): boolean => slots.get(x) !== undefined;
    // The purposes ("to exit") of a use the sentence of page clause `x` denies ("DO NOT use
    // process.exit() to exit"): the act the page denies by its means.
    const deniedUse = (x: (typeof pairs)[number]): number[] => {
      const sentence = pageSentences[x.clause.words[0]!];
      const mine = (k: number): boolean => pageSentences[k] === sentence;
      if (!page.tokens.some((t, k) => mine(k) && t.negated && t.lemma.toLowerCase() === 'use'))
        return [];
      return page.tokens.flatMap((t, k) =>
        mine(k) && t.pos === 'VERB' && page.tokens[k - 1]?.lower === 'to' ? [k] : [],
      );
    };
    // A parity difference is evidence only when it touches what both clauses say: an antonym pair,
    // two verbs in one slot, or a negated word the other clause states too ("will not retry" /
    // "will retry"). Otherwise the clauses pair by their nouns but predicate different things.
    // The last words of both clauses when they end on their auxiliary, one denied, else undefined.
    const wholeDenial = (x: (typeof pairs)[number]): [string, string] | undefined => {
      const [mine, theirs] = [endingAux(claim, c), endingAux(page, x.clause)];
      return mine && theirs && mine.denied !== theirs.denied ? [mine.text, theirs.text] : undefined;
    };
    const touches = (x: (typeof pairs)[number]): boolean =>
      x.flips.length > 0 ||
      slot(x) ||
      // Two clauses that end on their auxiliary, one denied ("but dbus-send currently does" /
      // "but dbus-send currently does not"), state and deny the clause whole.
      wholeDenial(x) !== undefined ||
      // The act a denied use serves, which the claim affirms ("you should parse it with eval()"
      // against "do not use eval() to parse it").
      c.words.some(
        (i) =>
          !claim.tokens[i]!.negated &&
          deniedUse(x).some((k) => related(claim.tokens[i]!, page.tokens[k]!)),
      ) ||
      // "if the type argument is omitted" denies the words it shares with a claim clause that
      // predicates something of them (not an apposition: ", the IANA default DNS port").
      ((x.clause.absent || c.absent) &&
        x.shared.length > 0 &&
        c.words.some((i) => claim.tokens[i]!.pos === 'VERB')) ||
      c.words.some(
        (i) =>
          claim.tokens[i]!.negated &&
          x.clause.words.some((j) => related(claim.tokens[i]!, page.tokens[j]!)),
      ) ||
      x.clause.words.some(
        (j) =>
          page.tokens[j]!.negated &&
          c.words.some((i) => related(claim.tokens[i]!, page.tokens[j]!)) &&
          // A denial the claim states too, in another clause that shares more with the page's,
          // is that clause's ("Because it has no code to load modules, you register a module by
          // linking its code" / "There is no code to load shared libraries").
          !claim.tokens.some(
            (t, k) =>
              t.negated &&
              !c.words.includes(k) &&
              related(t, page.tokens[j]!) &&
              sharedWith(t.clause, x.clause) >
                sharedWith(claim.tokens[c.words[0]!]!.clause, x.clause),
          ),
      );
    // How many words of claim clause `n` the page clause states.
    function sharedWith(n: number, p: Clause): number {
      return claim.tokens.filter(
        (t) => t.clause === n && t.content && p.words.some((j) => related(t, page.tokens[j]!)),
      ).length;
    }
    // Two negations or an "unless" in either sentence state a condition, not the negated fact
    // ("without setting a region, the client will not reach it" / "setting a region lets it reach").
    const conditional = (x: (typeof pairs)[number]): boolean => {
      const mine = { tokens: claim.tokens, sentence: claimSentences, at: c.words[0]! };
      const theirs = { tokens: page.tokens, sentence: pageSentences, at: x.clause.words[0]! };
      return hedged(mine, theirs) || hedged(theirs, mine);
    };
    // Of tied pairs that state different parts of the claim clause, one that touches what both
    // say decides over one that touches nothing ("a regex pattern has the global flag" ties
    // "pattern is a regex" and "does not have the flag"). Pairs that state the same words are
    // alternatives, and one that agrees is enough ("compression levels go from -1 to 9" against
    // "the compression level ... -1 to 9" and "level 0 does no compression").
    const covers = (x: (typeof pairs)[number]): number[] => [
      ...c.words.filter((i) =>
        x.clause.words.some((j) => related(claim.tokens[i]!, page.tokens[j]!)),
      ),
      ...x.flips.map(([i]) => i),
    ];
    const untouched = pairs.filter((x) => !touches(x)).flatMap(covers);
    const touching = pairs.filter(
      (x) => touches(x) && covers(x).some((i) => !untouched.includes(i)),
    );
    // The page may run two claim clauses into one ("If the server doesn't support this request
    // you'll still get an empty Map instead of an error"): its clause has more cues than this one,
    // but each negates a word the claim negates too, and each word negated here is negated there.
    const wordwise = (x: (typeof pairs)[number]): boolean => {
      const mine = c.words.filter((i) => claim.tokens[i]!.negated);
      const theirs = x.clause.words.filter((j) => page.tokens[j]!.negated);
      return (
        mine.length > 0 &&
        x.flips.length === 0 &&
        mine.every((i) => theirs.some((j) => related(claim.tokens[i]!, page.tokens[j]!))) &&
        theirs.every((j) =>
          claim.tokens.some((t) => t.content && t.negated && related(t, page.tokens[j]!)),
        )
      );
    };
    // Equal counts of negations agree only when they deny the same words: "Level 0 still
    // compresses the data instead of expanding it" affirms what "Level 0 does no compression at
    // all, and in fact expands the data" denies, and denies what it affirms. The claim word the
    // page denies, when the two swap their denials so; a word the claim states both ways is a
    // contrast of its own ("relative to X, not relative to Y").
    const crossed = (x: (typeof pairs)[number]): number | undefined => {
      if (x.flips.length > 0) return undefined;
      const mine = c.words.filter((i) => claim.tokens[i]!.negated);
      const theirs = x.clause.words.filter((j) => page.tokens[j]!.negated);
      if (mine.length === 0 || theirs.length === 0) return undefined;
      const both = (i: number): boolean =>
        claim.tokens.some(
          (t, k) =>
            k !== i &&
            t.content &&
            t.negated !== claim.tokens[i]!.negated &&
            related(t, claim.tokens[i]!),
        );
      if (
        mine.some((i) => both(i) || theirs.some((j) => related(claim.tokens[i]!, page.tokens[j]!)))
      )
        return undefined;
      // The denial of the claim's word must be elsewhere: one clause may deny its object where
      // the other denies its verb ("uses X instead of Y" / "prefers X over using Y").
      if (mine.some((i) => x.clause.words.some((j) => related(claim.tokens[i]!, page.tokens[j]!))))
        return undefined;
      const sentence = pageSentences[x.clause.words[0]!];
      const affirmed = mine.some((i) =>
        page.tokens.some(
          (t, k) =>
            pageSentences[k] === sentence &&
            t.content &&
            !t.negated &&
            related(claim.tokens[i]!, t),
        ),
      );
      if (!affirmed) return undefined;
      return c.words.find(
        (i) =>
          !claim.tokens[i]!.negated &&
          !both(i) &&
          theirs.some((j) => related(claim.tokens[i]!, page.tokens[j]!)),
      );
    };
    // A denial the page puts as a verb that turns the act off ("Set to 0 to disable cancellation
    // of stuck jobs") agrees with the claim's ("stops cupsd from canceling stuck jobs"): each word
    // the claim denies, the page's sentence gives right after such a verb.
    const disabledToo = (x: (typeof pairs)[number]): boolean => {
      const mine = c.words.filter((i) => claim.tokens[i]!.negated);
      const sentence = pageSentences[x.clause.words[0]!];
      return (
        mine.length > 0 &&
        mine.every((i) =>
          page.tokens.some(
            (t, k) =>
              pageSentences[k] === sentence &&
              related(claim.tokens[i]!, t) &&
              [k - 1, k - 2].some((d) => DISABLING.has(page.tokens[d]?.lemma ?? '')),
          ),
        )
      );
    };
    // A denial of the means agrees with one of the act it serves: "DO NOT use process.exit() to
    // exit" denies what "you must not exit with process.exit()" does. Each word the claim denies
    // is the purpose of the use the page's sentence denies.
    const meansToo = (x: (typeof pairs)[number]): boolean => {
      const mine = c.words.filter((i) => claim.tokens[i]!.negated);
      const purposes = deniedUse(x);
      return (
        mine.length > 0 &&
        mine.every((i) => purposes.some((k) => related(claim.tokens[i]!, page.tokens[k]!)))
      );
    };
    // A denial put as a verb of exclusion agrees with one put with "not": "We exclude loss of
    // data in memory" says what "losing data in memory doesn't count as data loss" does. Such a
    // verb counts as a denial when the other side does not state it.
    const excluding = (a: Analysis, words: readonly number[], other: Analysis): number =>
      words.filter(
        (k) =>
          a.tokens[k]!.pos === 'VERB' &&
          EXCLUDING.has(a.tokens[k]!.lemma) &&
          !other.tokens.some((t) => t.content && related(t, a.tokens[k]!)),
      ).length;
    const verbally = (x: (typeof pairs)[number]): boolean => {
      const [mine, theirs] = [
        excluding(claim, c.words, page),
        excluding(page, x.clause.words, claim),
      ];
      return (
        mine + theirs > 0 &&
        x.flips.length === 0 &&
        (c.cues + mine) % 2 === (x.clause.cues + theirs) % 2
      );
    };
    const agrees = (touching.length > 0 ? touching : pairs).some(
      (x) =>
        ((c.cues + x.flips.length) % 2 === x.clause.cues % 2 && crossed(x) === undefined) ||
        verbally(x) ||
        !touches(x) ||
        conditional(x) ||
        wordwise(x) ||
        disabledToo(x) ||
        meansToo(x),
    );
    if (agrees || pairs.length === 0 || echoed(c) || echoedEach(c)) continue;
    const x = touching[0] ?? pairs[0]!;
    const flip = x.flips[0];
    if (flip && c.cues % 2 === x.clause.cues % 2) {
      out.push({
        kind: 'antonym',
        claim: phrase(claim.tokens, flip[0]),
        page: phrase(page.tokens, flip[1]),
      });
      continue;
    }
    const negatedIn = (a: Analysis, words: readonly number[]): number | undefined =>
      words.find((i) => a.tokens[i]!.negated);
    // The claim's denied word the page's clause states, before any other it denies ("without a
    // warning or any chance to abort" against "the opportunity to abort").
    const deniedHere = c.words.find(
      (i) =>
        claim.tokens[i]!.negated &&
        x.clause.words.some((j) => related(claim.tokens[i]!, page.tokens[j]!)),
    );
    const claimAt =
      crossed(x) ??
      deniedHere ??
      negatedIn(claim, c.words) ??
      flip?.[0] ??
      c.words.find((i) => claim.tokens[i]!.pos === 'VERB') ??
      c.words[unstated]!;
    const pageAt =
      negatedIn(page, x.clause.words) ??
      flip?.[1] ??
      (deniedHere === undefined
        ? undefined
        : x.clause.words.find((j) => related(claim.tokens[deniedHere]!, page.tokens[j]!))) ??
      slots.get(x) ??
      x.shared.find((j) => page.tokens[j]!.pos === 'VERB') ??
      x.shared[0] ??
      x.clause.words[0]!;
    // A negation in the claim's condition against a plain page statement sets a case the page
    // does not speak of ("returns an empty array when the node doesn't declare any variables" /
    // "Get variables that are declared by the node"), not the opposite fact.
    // So does one in the page's condition against a plain claim statement ("If the address does
    // not match any entry, a new entry is created" / "a matching entry is moved to the front").
    const caseOnly = (a: Analysis, at: number, cues: number, b: Analysis, other: number): boolean =>
      a.tokens[at]!.negated &&
      cues === 0 &&
      inCondition(a.tokens, at) &&
      !inCondition(b.tokens, other);
    if (
      caseOnly(claim, claimAt, x.clause.cues, page, pageAt) ||
      caseOnly(page, pageAt, c.cues, claim, claimAt)
    )
      continue;
    // A clause denied whole by its last words is quoted by them ("does" / "does not").
    const whole = wholeDenial(x);
    out.push({
      kind: 'negation',
      claim: whole?.[0] ?? phrase(claim.tokens, claimAt),
      page: whole?.[1] ?? phrase(page.tokens, pageAt),
    });
  }
  if (out.length === 0) out.push(...predicateFlips(claim, page, inClaim));
  if (out.length === 0) out.push(...exclusions(claim, page));
  if (out.length === 0) out.push(...valueDenials(claim, page), ...valueDenials(page, claim, true));
  return out;
}

/**
 * The auxiliary clause `c` ends on, with the denial after it when there is one ("but dbus-send
 * currently does not" gives "does not", denied; "but dbus-send currently does" gives "does"), or
 * undefined when the clause ends on another word. A denial there leaves the verb phrase it denies
 * out, so it denies the clause whole.
 */
function endingAux(a: Analysis, c: Clause): { text: string; denied: boolean } | undefined {
  const id = a.tokens[c.words[0]!]!.clause;
  let k = a.tokens.findLastIndex((t) => t.clause === id);
  while (k > 0 && a.tokens[k]!.pos === 'PUNCT') k--;
  if (k <= 0 || a.tokens[k]!.clause !== id) return undefined;
  if (/^(?:not|n't|n’t)$/i.test(a.tokens[k]!.text) && a.tokens[k - 1]!.pos === 'AUX')
    return { text: written(a.tokens.slice(k - 1, k + 1)), denied: true };
  if (a.tokens[k]!.pos === 'AUX') return { text: a.tokens[k]!.text, denied: false };
  return undefined;
}

/**
 * The content words of the condition clause right after clause `id` ("refuses to start | if
 * anything fails"), or right before it ("If anything fails, | it refuses to start"), or none.
 */
function adjacentCondition(a: Analysis, id: number): number[] {
  const words = (n: number): number[] => {
    const at = a.tokens.findIndex((t) => t.clause === n);
    if (at < 0 || !CONDITIONS.has(a.tokens[at]!.lower)) return [];
    return a.tokens.flatMap((t, k) => (t.clause === n && t.content ? [k] : []));
  };
  const after = words(id + 1);
  return after.length > 0 ? after : words(id - 1);
}

/**
 * The number a cue denies right before it, past adverbs ("is never 0", "is not 1"): the cue's
 * index and the number's, per denial.
 */
function deniedValues(a: Analysis): [number, number][] {
  const out: [number, number][] = [];
  a.tokens.forEach((t, i) => {
    if (!t.cue || t.lower === 'no' || t.lower === 'without') return;
    let k = i + 1;
    while (a.tokens[k]?.pos === 'ADV') k++;
    if (a.tokens[k]?.pos === 'NUM' && /\d/.test(a.tokens[k]!.text)) out.push([i, k]);
  });
  return out;
}

/**
 * A value one side denies and the other states of the same thing: "its duration is never 0"
 * against "whose performanceEntry.duration is always 0". The number names nothing the polarity of
 * words could flip, so the denial is read on the value: the other side's clause holding the same
 * number negates nothing, and its sentence states every content word of the denying clause. With `swapped`, `a`
 * is the page and `b` the claim.
 */
function valueDenials(a: Analysis, b: Analysis, swapped = false): Conflict[] {
  const cues = cuesByClause(b);
  const sentence = sentences(b.tokens);
  for (const [cue, n] of deniedValues(a)) {
    const clause = a.tokens[cue]!.clause;
    const words = a.tokens.filter((t, k) => t.clause === clause && t.content && k !== n);
    if (words.length === 0) continue;
    for (const [j, t] of b.tokens.entries()) {
      if (t.text !== a.tokens[n]!.text || (cues.get(t.clause) ?? 0) % 2 !== 0) continue;
      const theirs = b.tokens.filter((x, k) => sentence[k] === sentence[j] && x.content);
      if (!words.every((w) => theirs.some((x) => related(w, x)))) continue;
      const denied = `${a.tokens[cue]!.text} ${a.tokens[n]!.text}`;
      const stated = b.tokens[j - 1]?.pos === 'ADV' ? `${b.tokens[j - 1]!.text} ${t.text}` : t.text;
      return [
        swapped
          ? { kind: 'negation', claim: stated, page: denied }
          : { kind: 'negation', claim: denied, page: stated },
      ];
    }
  }
  return [];
}

/** Words that may stand between a negation cue and the noun phrase it denies ("does not produce any"). */
const DENIAL_GAP = new Set(['AUX', 'VERB', 'DET', 'ADV', 'PART']);
/** Words after a negation that restrict it to a part: "not only X" and "not just X" grant X. */
const NOT_ONLY = /^(?:only|just|merely|simply|solely|necessarily|always|all|every|exclusively)$/;

/**
 * What the page denies with a noun phrase right after its negation ("This function is only
 * available for zlib-based streams, i.e. not Brotli"; "This method does not produce any XML
 * formatting") that the claim states, unnegated, of the same thing ("available for both zlib-based
 * and Brotli streams"; "applies XML formatting to the arguments"). Every noun of the denied phrase
 * must be in the claim, the passage must share two more words with the claim, and neither
 * side may hedge: the claim negates nothing (after a verb the page leaves out, only another verb or
 * what follows the phrase), the page's sentence states no condition (unless the claim's negated
 * relative clause states the same case) and does not also state the phrase's head unnegated.
 */
function exclusions(claim: Analysis, page: Analysis): Conflict[] {
  const pageSentences = sentences(page.tokens);
  const isNoun = (t: Token): boolean => /^(?:NOUN|PROPN|X)$/.test(t.pos) || /^[A-Z]/.test(t.text);
  for (let cue = 0; cue < page.tokens.length; cue++) {
    if (!/^(?:not|n't|no|never)$/.test(page.tokens[cue]!.lower)) continue;
    let j = cue + 1;
    // After a comma the verb may be left out: "derived from the text, never from the attribute".
    const elided = page.tokens[cue - 1]?.text === ',';
    while (
      j < page.tokens.length &&
      j <= cue + 4 &&
      (DENIAL_GAP.has(page.tokens[j]!.pos) || (elided && page.tokens[j]!.pos === 'ADP'))
    )
      j++;
    // "not only X" grants X.
    if (page.tokens.slice(cue + 1, j).some((x) => NOT_ONLY.test(x.lower))) continue;
    const phrase: number[] = [];
    // A hyphenated compound is one phrase ("data-toc-label attribute"), and a word tagged as a
    // verb at its end is its head noun.
    const inPhrase = (k: number): boolean => {
      const t = page.tokens[k]!;
      if (isNoun(t)) return true;
      const next = page.tokens[k + 1];
      if (t.text === '-') return k > j && next !== undefined && isNoun(next);
      return t.pos === 'VERB' && k > j && (next === undefined || /^[.,;:!?)]$/.test(next.text));
    };
    for (let k = j; k < page.tokens.length && inPhrase(k); k++) phrase.push(k);
    // A phrase qualified after it denies only part of it ("could not read archives of more than
    // 65535 blocks"): the phrase must end its clause.
    const after = page.tokens[j + phrase.length];
    if (phrase.length === 0 || (after && !/^(?:[.,;:!?)]|and|or|but)$/.test(after.lower))) continue;
    const s = pageSentences[cue];
    const inSentence = page.tokens.filter((_, k) => pageSentences[k] === s && !phrase.includes(k));
    // A condition the claim restates as a negated relative clause sets the same case ("If the ID
    // is not manually defined, it is derived from the text, never from the attribute" / "an id
    // that is not set by hand is taken from the attribute").
    const sameCase =
      negatedCondition(page.tokens, pageSentences, cue) !== undefined &&
      negatedRelative({ tokens: claim.tokens, sentence: sentences(claim.tokens), at: 0 });
    if (!sameCase && inSentence.some((x) => CONDITIONS.has(x.lower))) continue;
    const denied = phrase.map((k) => page.tokens[k]!).filter((t) => t.text !== '-');
    // The phrase is its head noun's: "from the request URL, never from the request body" states
    // the body nowhere.
    const head = denied.at(-1)!;
    if (inSentence.some((x) => !x.negated && x.lower === head.lower)) continue;
    // Where the claim states the phrase: its words in a row (a hyphen apart), else each anywhere.
    const words = claim.tokens.flatMap((x, k) => (x.text === '-' ? [] : [k]));
    const run = words.findIndex((_, w) =>
      denied.every((d, n) => claim.tokens[words[w + n] ?? -1]?.lower === d.lower),
    );
    const at =
      run >= 0
        ? denied.map((_, n) => words[run + n]!)
        : denied.map((d) => claim.tokens.findIndex((x) => x.lower === d.lower));
    if (at.some((i) => i < 0)) continue;
    // The claim must negate nothing; after an elided verb, nothing but another verb than the one
    // that takes the phrase ("an id that is not set by hand is taken from the attribute") or what
    // follows the phrase ("rather than from the text").
    const first = Math.min(...at);
    const denies = claim.tokens.some(
      (t, k) =>
        t.cue &&
        (!elided ||
          (k < first &&
            !claim.tokens.slice(k + 1, first).some((x) => x.pos === 'VERB' && !x.negated))),
    );
    if (denies || at.some((i) => claim.tokens[i]!.negated)) continue;
    // A verb that holds a denial may deny the phrase in the claim too ("it leaves out the canvas
    // module" / "this export does not include canvas module").
    const barred =
      at.every(
        (i, k) =>
          k === 0 ||
          i === at[k - 1]! + 1 ||
          (i === at[k - 1]! + 2 && claim.tokens[i - 1]!.text === '-'),
      ) &&
      claim.tokens.some(
        (x, k) =>
          k >= first - 4 &&
          k < first &&
          denyingVerb(claim.tokens, k) &&
          x.clause === claim.tokens[first]!.clause,
      );
    if (barred) continue;
    const around = page.tokens.filter((_, k) => !phrase.includes(k));
    const shared = claim.tokens.filter(
      (x, k) => !at.includes(k) && x.content && around.some((w) => w.content && related(x, w)),
    );
    if (shared.length < 2) continue;
    return [
      {
        kind: 'negation',
        claim: written(claim.tokens.slice(first, Math.max(...at) + 1)),
        page: written(page.tokens.slice(cue, phrase.at(-1)! + 1)),
      },
    ];
  }
  return [];
}

/** Negation cues (and "unless", and "is off") in each clause of a text, by clause index. */
function cuesByClause(a: Analysis): Map<number, number> {
  const out = new Map<number, number>();
  a.tokens.forEach((t, i) => {
    if (negates(a.tokens, i)) out.set(t.clause, (out.get(t.clause) ?? 0) + 1);
  });
  return out;
}

/**
 * A word the claim negates that the page states only plainly, in a clause that shares another
 * word of the claim's clause: the page puts the claim's subject in one clause and its predicate
 * in the next ("A datagram bigger than the MTU isn't silently dropped" / "Sending a datagram
 * greater than the MTU will not work because the packet will get silently dropped"), so the
 * clause pairing by most shared words pairs the subjects, whose "not work" hides the flip.
 */
function predicateFlips(claim: Analysis, page: Analysis, compared: Set<number>): Conflict[] {
  const claimCues = cuesByClause(claim);
  const pageCues = cuesByClause(page);
  for (const [i, t] of claim.tokens.entries()) {
    if (!t.content || !t.negated || compared.has(i) || (claimCues.get(t.clause) ?? 0) % 2 === 0)
      continue;
    // Negated plainly ("isn't dropped"), not put against another ("rather than kept").
    const cue = claim.tokens.findLast((x, k) => k < i && x.cue && x.clause === t.clause);
    if (!cue || !/^(?:not|n't|never|no|cannot)$/.test(cue.lower)) continue;
    const at = page.tokens.flatMap((x, j) => (x.content && related(t, x) ? [j] : []));
    if (at.length === 0) continue;
    // A claim that states the word plainly too contrasts two things ("relative to the accesses,
    // not relative to the misses"): the plain one is the page's.
    if (claim.tokens.some((x, k) => k !== i && x.content && !x.negated && related(t, x))) continue;
    if (at.some((j) => page.tokens[j]!.negated || (pageCues.get(page.tokens[j]!.clause) ?? 0) % 2))
      continue;
    const mine = { tokens: claim.tokens, sentence: sentences(claim.tokens), at: i };
    if (untilOrder(mine, { tokens: page.tokens, sentence: sentences(page.tokens), at: at[0]! }))
      continue;
    // A case the claim sets ("when the node doesn't declare any") that the page does not speak of.
    if (inCondition(claim.tokens, i) && !inCondition(page.tokens, at[0]!)) continue;
    const clause = page.tokens[at[0]!]!.clause;
    const shares = claim.tokens.some(
      (c, k) =>
        k !== i &&
        c.content &&
        c.clause === t.clause &&
        page.tokens.some((x) => x.clause === clause && x.content && related(c, x)),
    );
    if (shares)
      return [
        { kind: 'negation', claim: phrase(claim.tokens, i), page: page.tokens[at[0]!]!.text },
      ];
  }
  return [];
}

/**
 * Verbs whose meaning holds a negation: a claim may say with them what the page says with "not"
 * ("lacks" / "does not have", "skips" / "does not run").
 */
const DENYING = new Set(
  (
    'lack omit skip avoid refuse fail miss ignore prevent forbid disallow reject drop exclude ' +
    'stop cease prohibit block deny disable remove leave bypass absent missing unable'
  ).split(' '),
);

/**
 * True when token `k` is a verb of {@link DENYING}, or one the tagger read as a plural noun after
 * a conjunction or a subject ("and skips typo-analysis", "it omits the header").
 */
function denyingVerb(tokens: readonly Token[], k: number): boolean {
  const t = tokens[k]!;
  if (t.pos === 'VERB') return DENYING.has(t.lemma);
  return (
    t.pos === 'NOUN' &&
    /s$/.test(t.lower) &&
    DENYING.has(t.lemma) &&
    /^(?:and|or|but|it|that|which|who)$/.test(tokens[k - 1]?.lower ?? '')
  );
}

/** A word the tagger calls a noun right after "does not", "will not": a verb ("does not force"). */
function deniedAfterAux(tokens: readonly Token[], j: number): boolean {
  return tokens[j]!.pos === 'NOUN' && tokens[j - 1]?.cue === true && tokens[j - 2]?.pos === 'AUX';
}

/**
 * True when the cue that negates token `j` puts a thing in another's place: "instead of",
 * "rather than", "in place of", "in lieu of", "as opposed to".
 */
function setAsideFor(tokens: readonly Token[], j: number): boolean {
  for (let k = j - 1; k >= 0 && tokens[k]!.clause === tokens[j]!.clause; k--) {
    if (!tokens[k]!.cue) continue;
    return /^(?:instead|rather|place|lieu|opposed)$/.test(tokens[k - 1]?.lower ?? '');
  }
  return false;
}

/** Words of a clause that sets one act against another, or keeps one going despite a denial. */
const SETS_ASIDE = new Set(['rather', 'instead', 'still', 'only', 'just', 'merely']);

/**
 * A page clause that denies an act ("Buffer.alloc() will never use the internal pool") where the
 * claim's clause about the same things states an act of its own, in words the page has not
 * ("Buffer.alloc() draws on the internal pool"), with no negation: the claim most likely drops the
 * page's "never" and rewords the verb, so its act is not stated. The claim's unmatched verb is
 * returned, to be reported missing. A claim word that itself denies ("lacks",
 * "skips") may restate the negation.
 */
export function deniedActs(
  claim: Analysis,
  page: Analysis,
  matched: ReadonlySet<number>,
): string[] {
  const mine = clausesOf(claim);
  const pageClauses = clausesOf(page);
  // How many of a claim clause's words a page clause states.
  const overlap = (c: Clause, words: readonly number[], skip = -1): number =>
    c.words.filter((i) =>
      words.some((k) => k !== skip && related(claim.tokens[i]!, page.tokens[k]!)),
    ).length;
  for (const [j, x] of page.tokens.entries()) {
    // A verb that leaves a thing out denies as "not" does ("We exclude loss of data in memory").
    const excludes = x.pos === 'VERB' && !x.negated && EXCLUDING.has(x.lemma);
    if (!(x.negated || excludes) || !x.content) continue;
    if (!/^(?:VERB|ADJ)$/.test(x.pos) && !deniedAfterAux(page.tokens, j)) continue;
    // A thing put aside for another ("are used instead of the newer, better ones") is no act.
    if (setAsideFor(page.tokens, j)) continue;
    // A denial under a condition is a case ("if you have a machine that doesn't support X").
    if (inCondition(page.tokens, j)) continue;
    // The claim words the denied one in any form, or its opposite: polarity judges it.
    if (claim.tokens.some((t) => t.content && (related(t, x) || areAntonyms(t, x)))) continue;
    const theirs = page.tokens.flatMap((t, k) => (t.content && t.clause === x.clause ? [k] : []));
    for (const c of mine) {
      // A clause that denies or sets aside something itself ("keeps scripts from seeing it",
      // "rather than rely on X", "listeners still receive them") may restate it.
      if (c.cues > 0 || c.words.some((i) => claim.tokens[i]!.negated)) continue;
      if (
        claim.tokens.some(
          (t) => t.clause === claim.tokens[c.words[0]!]!.clause && SETS_ASIDE.has(t.lower),
        )
      )
        continue;
      const shared = overlap(c, theirs, j);
      // The denying clause must be the one of the page that states most of the claim clause.
      if (shared < 2 || pageClauses.some((pc) => overlap(c, pc.words) > shared)) continue;
      // "keeps scripts from seeing it" bars the act after "from", as the page's "not" does.
      const barring = (i: number): boolean =>
        claim.tokens.some(
          (x, k) =>
            k > i &&
            x.clause === claim.tokens[i]!.clause &&
            x.lower === 'from' &&
            /ing$/.test(claim.tokens[k + 1]?.lower ?? ''),
        );
      const act = c.words.find((i) => {
        const t = claim.tokens[i]!;
        return (
          !barring(i) &&
          !matched.has(i) &&
          t.pos === 'VERB' &&
          !t.negated &&
          !DENYING.has(t.lemma) &&
          !/^(?:un|non|dis|in)/.test(t.lower)
        );
      });
      if (act !== undefined) return [claim.tokens[act]!.text];
    }
  }
  return [];
}

/**
 * The mirror of {@link deniedActs}: a claim clause that denies an act ("generateMap does not
 * produce a version 3 sourcemap") where the page's clause about the same things states an act of
 * its own, in words the claim has not, with no negation ("Generates a version 3 sourcemap"): the
 * claim most likely adds a "not" and rewords the verb, so its denial is not stated. The claim's
 * denied word is returned, to be reported missing.
 */
export function unstatedDenials(
  claim: Analysis,
  page: Analysis,
  matched: ReadonlySet<number>,
): string[] {
  const pageClauses = clausesOf(page);
  for (const [i, x] of claim.tokens.entries()) {
    if (!x.negated || !x.content || matched.has(i)) continue;
    // A noun after "no" is a thing said to be absent ("has no limit"), not a denied act.
    const act = /^(?:VERB|ADJ)$/.test(x.pos) || deniedAfterAux(claim.tokens, i);
    if (!act || claim.tokens[i - 1]?.lower === 'no') continue;
    if (setAsideFor(claim.tokens, i)) continue;
    if (inCondition(claim.tokens, i)) continue;
    if (page.tokens.some((t) => t.content && areAntonyms(t, x))) continue;
    const mine = claim.tokens.flatMap((t, k) =>
      t.content && k !== i && t.clause === x.clause ? [k] : [],
    );
    // The word the denial leaves the act with: its object, or its subject when it ends the clause.
    const held = mine.find((k) => k > i) ?? mine.findLast((k) => k < i);
    if (held === undefined) continue;
    const overlap = (words: readonly number[]): number =>
      mine.filter((k) => words.some((j) => related(claim.tokens[k]!, page.tokens[j]!))).length;
    // The page's clauses about the same act: they state that word and another of the clause.
    const about = pageClauses.filter(
      (pc) =>
        overlap(pc.words) >= 2 &&
        pc.words.some((j) => related(claim.tokens[held]!, page.tokens[j]!)),
    );
    const best = Math.max(0, ...about.map((pc) => overlap(pc.words)));
    const closest = about.filter((pc) => overlap(pc.words) === best);
    // One of them that denies or sets something aside may state the denial in other words.
    const plain = (pc: Clause): boolean => {
      const id = page.tokens[pc.words[0]!]!.clause;
      return (
        pc.cues === 0 &&
        !pc.words.some((j) => page.tokens[j]!.negated) &&
        !page.tokens.some((t) => t.clause === id && SETS_ASIDE.has(t.lower))
      );
    };
    if (closest.length === 0 || !closest.every(plain)) continue;
    // A clause that only names what a thing is ("bl is a storage object for collections of Node
    // Buffers", "uniquelocal: IPv4 private addresses"): it states the relation plainly too.
    // Its adjectives, if any, describe the things the claim names ("IPv4 private addresses").
    const naming = (pc: Clause): boolean =>
      pc.words.every(
        (j) =>
          /^(?:NOUN|PROPN|NUM|X)$/.test(page.tokens[j]!.pos) ||
          (page.tokens[j]!.pos === 'ADJ' &&
            mine.some((k) => related(claim.tokens[k]!, page.tokens[j]!))),
      );
    const stated = closest.some(
      (pc) =>
        !inCondition(page.tokens, pc.words[0]!) &&
        (naming(pc) ||
          pc.words.some((j) => {
            const t = page.tokens[j]!;
            return (
              t.pos === 'VERB' &&
              !DENYING.has(t.lemma) &&
              !/^(?:un|non|dis|in)/.test(t.lower) &&
              // A piece of the claim's identifier is no word of its act ("generateMap" / "Generates"),
              // nor is a claim word the clause states in its own kind of word ("license" of "is
              // licensed under the terms of the BSD license").
              !claim.tokens.some(
                (c) =>
                  c.content &&
                  !/\p{Ll}\p{Lu}|[._$]/u.test(c.text) &&
                  related(c, t) &&
                  !pc.words.some(
                    (k) => k !== j && page.tokens[k]!.pos === c.pos && related(c, page.tokens[k]!),
                  ),
              )
            );
          })),
    );
    if (stated) return [`not ${x.text}`];
  }
  return [];
}
