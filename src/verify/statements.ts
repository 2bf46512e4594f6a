/**
 * The statements a claim joins, each one a sentence of its own. A chat answer packs several facts
 * into one sentence ("zlib.bytesRead has been deprecated since v10.0.0 and is just an alias for
 * zlib.bytesWritten, which counts the bytes written to the engine"), and a page states them in
 * several places (a History table, the entry's text, another entry). Split, each statement can be
 * located and verified on its own; the claim is stated when every one of them is.
 */
import { analyze } from './analyze.js';
import type { Token } from './analyze.js';
import { loadWordNet } from './wordnet.js';

/** Fewest words of a statement: fewer state nothing on their own ("and brotli"). */
const MIN_WORDS = 3;

/** Most statements one claim is split into. */
const MAX_STATEMENTS = 4;

/** Conjunctions that join two statements. */
const JOINS = new Set(['and', 'but']);

/**
 * Conjunctions that join two statements after a comma: ", while X ...", ", whereas X ...",
 * ", although X ...".
 */
const CONTRASTS = new Set(['while', 'whereas', 'although', 'though']);

/** Pronouns that open a clause about the first clause's subject ("..., and it only clears"). */
const PRONOUNS = new Set(['it', 'they']);

/** Relative pronouns of a clause set off by commas: it says something of the word before. */
const RELATIVES = new Set(['which', 'who']);

/** Tags of the words between a conjunction and the verb of a clause with its own subject. */
const SUBJECT_POS = new Set([
  'DET',
  'ADJ',
  'NOUN',
  'PROPN',
  'PRON',
  'NUM',
  'X',
  'PUNCT',
  'SYM',
  'ADP',
  'ADV',
]);

/** Tags of the words of a noun phrase a relative clause speaks of. */
const ANTECEDENT_POS = new Set(['NOUN', 'PROPN', 'X', 'PUNCT', 'SYM', 'NUM', 'ADJ']);

/** A token with where it is written in the text. */
interface Placed {
  t: Token;
  start: number;
  end: number;
}

/** Places each token in `text`; `null` when a token cannot be found where expected. */
function place(text: string, tokens: readonly Token[]): Placed[] | null {
  const out: Placed[] = [];
  let at = 0;
  for (const t of tokens) {
    const start = text.indexOf(t.text, at);
    if (start < 0 || text.slice(at, start).trim() !== '') return null;
    out.push({ t, start, end: start + t.text.length });
    at = start + t.text.length;
  }
  return out;
}

/** True when token `i` is glued to a name piece before it ("cg_annotate", "zlib-based"). */
const inName = (p: readonly Placed[], i: number): boolean =>
  i > 0 && p[i]!.start === p[i - 1]!.end && /^[-_./]$/.test(p[i - 1]!.t.text);

/**
 * True when token `i` is a verb: tagged so, or a plural noun tag between a subject and an object
 * ("--context changes that number", which wink-nlp tags as nouns) or before "to" ("X defaults to
 * 9").
 */
function isVerb(p: readonly Placed[], i: number): boolean {
  const t = p[i]?.t;
  if (!t || inName(p, i)) return false;
  if (t.pos === 'VERB' || t.pos === 'AUX') return true;
  const before = p[i - 1]?.t.pos ?? '';
  const after = p[i + 1]?.t.pos ?? '';
  // A verb's base form after a plural subject, before its object ("the properties return 0").
  if (
    t.pos === 'NOUN' &&
    /^(?:NOUN|PROPN)$/.test(before) &&
    /[^s]s$/.test(p[i - 1]!.t.lower) &&
    /^(?:DET|NUM|PRON)$/.test(after) &&
    loadWordNet()
      .synsets(t.lower)
      .some((id) => id.startsWith('v'))
  )
    return true;
  if (t.pos !== 'NOUN' || !/[^s]s$/.test(t.lower)) return false;
  // "X defaults to 9", "httpd switches to chunked encoding": after a name, before "to" and no
  // verb ("entries to keep" stays a noun).
  const value = /^(?:true|false|null|undefined)$/.test(p[i + 2]?.t.lower ?? '');
  // A participle after "to" describes the value ("switches to chunked encoding").
  const described = /(?:ed|ing)$/.test(p[i + 2]?.t.lower ?? '');
  const to =
    p[i + 1]?.t.lower === 'to' &&
    (value || described || !/^(?:VERB|AUX)$/.test(p[i + 2]?.t.pos ?? 'VERB'));
  if (to && (/^(?:NOUN|PROPN|X|ADJ)$/.test(before) || /^[),]$/.test(p[i - 1]?.t.text ?? '')))
    return true;
  return (
    (/^(?:NOUN|PROPN|X)$/.test(before) ||
      inName(p, i - 1) ||
      p[i - 1]?.t.text === ')' ||
      (before === 'ADV' && /ly$/.test(p[i - 1]!.t.lower))) &&
    /^(?:DET|NUM|ADJ|PRON)$/.test(after)
  );
}

/**
 * True when the conjunction at `i` ends a list of names: one to three words with no verb since a
 * comma that itself follows a name ("retryStart, retryFactor and retryMax").
 */
function lastItem(p: readonly Placed[], i: number): boolean {
  const NAME = /^(?:NOUN|PROPN|X)$/;
  let k = i - 1;
  while (k > i - 4 && k >= 0 && p[k]!.t.text !== ',') {
    if (!NAME.test(p[k]!.t.pos) && !inName(p, k)) return false;
    k--;
  }
  return k >= 1 && k < i - 1 && p[k]!.t.text === ',' && NAME.test(p[k - 1]!.t.pos);
}

/** True when token `k` opens a participle phrase: "governed by ...", "added in ...". */
const participlePhrase = (p: readonly Placed[], k: number): boolean =>
  p[k]?.t.pos === 'VERB' &&
  /(?:ed|ing)$/.test(p[k]!.t.lower) &&
  /^(?:ADP|SCONJ)$/.test(p[k + 1]?.t.pos ?? '');

/** Words that open a condition clause. */
const CONDITIONS = new Set(['if', 'when', 'unless', 'once']);

/** True when token `k` is a participle before its noun: "the deprecated maskLong property". */
function attributive(p: readonly Placed[], k: number): boolean {
  const pos = (j: number): string => p[j]?.t.pos ?? '';
  return (
    p[k]!.t.pos === 'VERB' &&
    /(?:ed|ing)$/.test(p[k]!.t.lower) &&
    /^(?:DET|ADJ)$/.test(pos(k - 1)) &&
    /^(?:NOUN|PROPN|X|ADJ)$/.test(pos(k + 1))
  );
}

/**
 * True when token `k` is a word of the subject of a clause that starts at `from`: a noun phrase's
 * word that is no verb, a participle before its noun ("the deprecated maskLong property"), or a
 * conjunction between two names of it ("the maskLong and netLong properties"; not "has the kod
 * flags and the guard time was violated", where it opens the clause).
 */
function subjectWord(p: readonly Placed[], k: number, from: number): boolean {
  const pos = (j: number): string => p[j]?.t.pos ?? '';
  const t = p[k]!.t;
  if (t.pos === 'VERB' && /(?:ed|ing)$/.test(t.lower)) return attributive(p, k);
  if (/^(?:and|or)$/.test(t.lower))
    return (
      k > from && /^(?:NOUN|PROPN|X)$/.test(pos(k - 1)) && /^(?:NOUN|PROPN|X)$/.test(pos(k + 1))
    );
  return SUBJECT_POS.has(t.pos) && !isVerb(p, k);
}

/**
 * Index of the first comma or semicolon at or after `from`, before `to`, outside parentheses (a
 * list in brackets separates nothing: "the APIs (Buffer.from, Buffer.alloc)"); `to` when none.
 */
function commaOrEnd(p: readonly Placed[], from: number, to: number): number {
  let depth = 0;
  for (let i = from; i < to; i++) {
    const w = p[i]!.t.text;
    if (w === '(' || w === '[' || w === '{') depth++;
    else if ((w === ')' || w === ']' || w === '}') && depth > 0) depth--;
    else if (depth === 0 && (w === ',' || w === ';')) return i;
  }
  return to;
}

/** Index of the first verb at or after `from`, outside clauses set off by commas; -1 if none. */
function firstVerb(p: readonly Placed[], from: number, to: number): number {
  for (let i = from; i < to; i++) {
    const next = p[i + 1]?.t;
    if (p[i]!.t.text === ',' && next && (RELATIVES.has(next.lower) || next.pos === 'VERB')) {
      i = commaOrEnd(p, i + 1, to);
      continue;
    }
    if (isVerb(p, i) && !attributive(p, i)) return i;
  }
  return -1;
}

/** Number of words in `[from, to)`. */
const wordCount = (p: readonly Placed[], from: number, to: number): number =>
  p.slice(from, to).filter((x) => /\w/.test(x.t.text)).length;

/**
 * First index of the noun phrase that ends just before `comma`: what a relative clause after the
 * comma speaks of ("an alias for zlib.bytesWritten, which counts ..."); -1 when none.
 */
function antecedent(p: readonly Placed[], comma: number): number {
  let i = comma;
  while (i > 0 && ANTECEDENT_POS.has(p[i - 1]!.t.pos) && !/^[,;:]$/.test(p[i - 1]!.t.text)) i--;
  while (i < comma && p[i]!.t.pos === 'PUNCT' && !inName(p, i + 1)) i++;
  return i < comma ? i : -1;
}

/**
 * The leading phrase of a sentence: whether it opens with one (a preposition, a conjunction, an
 * adverb, "According to"), and the index after its comma ("In pathToRegexp,", "For Brotli-based
 * streams,", "If you call X without a status,"); 0 when there is none of twelve words or fewer.
 */
function leadOf(p: readonly Placed[]): { opens: boolean; lead: number; subject: number } {
  const n = p.length;
  const opens = /^(?:ADP|SCONJ|ADV)$/.test(p[0]!.t.pos) || /^according$/i.test(p[0]!.t.text);
  const comma = opens ? commaOrEnd(p, 0, n) : n;
  // An adverb before a subject and its verb opens no phrase but the clause itself ("Currently
  // the only code a server sends is RATE, and ..."; not "Apart from X," nor "Optionally,"): the
  // subject starts after it.
  const finite = (x: Placed): boolean =>
    x.t.pos === 'AUX' || (x.t.pos === 'VERB' && !/(?:ed|ing)$/.test(x.t.lower));
  if (
    p[0]!.t.pos === 'ADV' &&
    !SUBORDINATORS.test(p[0]!.t.lower) &&
    /^(?:DET|NOUN|PROPN|PRON|ADJ|X)$/.test(p[1]?.t.pos ?? '') &&
    p.slice(1, comma).some(finite)
  )
    return { opens: false, lead: 0, subject: 1 };
  const lead = comma < n && wordCount(p, 0, comma) <= 12 ? comma + 1 : 0;
  return { opens, lead, subject: lead };
}

/** Words the tagger may read as adverbs that open a clause set before the main one ("When X, Y"). */
const SUBORDINATORS =
  /^(?:when|whenever|once|where|wherever|while|whilst|even|as|if|unless|after|before|since|until|so)$/;

/** One cut of a sentence: the rest of it, and the statement split off. */
interface Cut {
  rest: string;
  split: string;
}

/** The first cut of `text` (no final full stop) into two statements; `null` when none. */
function firstCut(text: string): Cut | null {
  const p = place(text, analyze(text).tokens);
  if (!p || p.length === 0) return null;
  const n = p.length;
  const at = (i: number): number => (i < n ? p[i]!.start : text.length);
  const span = (from: number, to: number): string =>
    from >= to ? '' : text.slice(p[from]!.start, p[to - 1]!.end);
  // "Because X, Y" and "Y, because X" state X and Y both; so does "Y, since X", where "since"
  // opens a reason (not "since version 2", a time).
  const because = p.findIndex(
    (x, k) =>
      (x.t.lower === 'because' && (k === 0 || p[k - 1]!.t.text === ',')) ||
      (x.t.lower === 'since' &&
        k > 0 &&
        p[k - 1]!.t.text === ',' &&
        p[k + 1] !== undefined &&
        p[k + 1]!.t.pos !== 'NUM' &&
        !/^(?:then|version|release|v\d.*)$/i.test(p[k + 1]!.t.text) &&
        // Not before another statement joined at its end (", since X, and Y" says Y of the
        // subject): the cut there comes first.
        !p.some(
          (y, j) =>
            j > k &&
            (y.t.text === ';' ||
              (/^(?:and|but|while|whereas)$/.test(y.t.lower) && p[j - 1]!.t.text === ',')),
        )),
  );
  if (because >= 0) {
    const close = because === 0 ? commaOrEnd(p, 1, n) : n;
    const [reason, main] =
      because === 0
        ? [
            [1, close],
            [close + 1, n],
          ]
        : [
            [because + 1, n],
            [0, because - 1],
          ];
    if (
      (because > 0 || close < n) &&
      wordCount(p, reason[0]!, reason[1]!) >= MIN_WORDS &&
      wordCount(p, main[0]!, main[1]!) >= MIN_WORDS &&
      firstVerb(p, reason[0]!, reason[1]!) >= 0 &&
      firstVerb(p, main[0]!, main[1]!) >= 0
    )
      return { rest: span(main[0]!, main[1]!), split: span(reason[0]!, reason[1]!) };
  }
  // A leading phrase before a comma opens every statement: it says where they hold.
  const { lead, subject: head } = leadOf(p);
  const prefix = lead > 0 ? `${span(0, lead - 1)}, ` : '';
  const verb = firstVerb(p, lead, n);
  /** End of the subject of the clause that starts at `lead`, for a cut at `limit`; -1 if none. */
  const subjectEnd = (limit: number): number => {
    if (verb <= lead || verb >= limit) return -1;
    // Not the adverbs before the verb: "X dynamically updates Y and is Z" -> "X is Z".
    let end = verb;
    while (end - 1 > lead && p[end - 1]!.t.pos === 'ADV') end--;
    return end;
  };
  for (let i = lead + 1; i < n; i++) {
    const t = p[i]!.t;
    const comma = p[i - 1]!.t.text === ',';
    // A clause set off by commas: ", which counts ...", ", added in v20.15.0,".
    const relative = comma && RELATIVES.has(t.lower);
    // A participle with its own phrase: ", added in ...", ", deprecated since ..." (not ",
    // unmanaged data included").
    const participle = comma && /ed$/.test(t.lower) && participlePhrase(p, i);
    if (relative || participle) {
      const close = commaOrEnd(p, i + 1, n);
      const from = relative ? i + 1 : i;
      const head = relative ? antecedent(p, i - 1) : lead;
      // A participle right after the subject speaks of it: "zlib.crc32(), added in v20.15.0, ...".
      const headEnd = relative || firstVerb(p, lead, i - 1) < 0 ? i - 1 : -1;
      // One that ends its clause after the clause's verb says how the whole clause comes about:
      // "it doubles the delay up to 30 seconds, governed by the retryMax attribute" states "this
      // is governed by the retryMax attribute".
      const stop = p.findIndex((x, k) => k > i && x.t.text === ';');
      const end = stop < 0 ? n : stop;
      if (
        participle &&
        headEnd < 0 &&
        // A passive with its agent, after a clause of no other comma.
        p[i + 1]!.t.lower === 'by' &&
        commaOrEnd(p, lead, i - 1) === i - 1 &&
        // No verb after it (the tagger may read a final plural noun as one: "... attributes").
        firstVerb(p, i + 1, end - 1) < 0 &&
        wordCount(p, lead, i - 1) >= MIN_WORDS &&
        wordCount(p, from, end) >= MIN_WORDS - 1
      ) {
        return {
          rest: `${text.slice(0, p[i - 1]!.start)}${stop < 0 ? '' : text.slice(p[stop]!.start)}`,
          split: `${prefix}${prefix ? 'this' : 'This'} is ${span(from, end)}`,
        };
      }
      if (head < 0 || headEnd <= head || wordCount(p, from, close) < MIN_WORDS - 1) continue;
      const said = relative ? '' : 'was ';
      // The rest loses the clause and its commas: "zlib.params(), which ..., is" -> "zlib.params() is".
      const after = close < n ? text.slice(p[close]!.end) : '';
      // A statement joined after the clause keeps its comma (", although X").
      const joined = CONTRASTS.has(p[close + 1]?.t.lower ?? '') ? ',' : '';
      const rest = `${text.slice(0, p[i - 1]!.start)}${close < n && after ? `${joined} ${after.trim()}` : ''}`;
      if (wordCount(p, lead, i - 1) + wordCount(p, close, n) < MIN_WORDS) continue;
      return { rest, split: `${prefix}${span(head, headEnd)} ${said}${span(from, close)}` };
    }
    const joins = (JOINS.has(t.lower) && t.pos === 'CCONJ') || (comma && CONTRASTS.has(t.lower));
    if (!joins && t.text !== ';') continue;
    // The last item of a list of names ("the retryStart, retryFactor and retryMax attributes"):
    // "and" joins names, not clauses.
    if (t.text !== ';' && lastItem(p, i)) continue;
    // Nor two cases of a condition that opens the sentence ("If it polls every 5 minutes and a
    // mailbox has interval 6, that mailbox ..."): the cut would leave the condition alone.
    if (t.lower === 'and' && CONDITIONS.has(p[0]!.t.lower) && i < commaOrEnd(p, 1, n)) continue;
    const cut = comma ? i - 1 : i;
    if (wordCount(p, lead, cut) < MIN_WORDS || wordCount(p, i + 1, n) < MIN_WORDS - 1) continue;
    const rest = text.slice(0, p[cut - 1]!.end);
    // A verb phrase of the same subject: "... and is just an alias for ...".
    let k = i + 1;
    while (k < n && (p[k]!.t.pos === 'ADV' || p[k]!.t.pos === 'PART')) k++;
    if (t.text !== ';' && isVerb(p, k)) {
      // Not a list of verb phrases ("makes it run slower, use more memory and write ..."): no
      // comma between the subject and the conjunction.
      const subject = subjectEnd(cut);
      if (subject <= lead || commaOrEnd(p, lead, cut) < cut) continue;
      return { rest, split: `${prefix}${span(head, subject)} ${text.slice(at(i + 1)).trim()}` };
    }
    // A clause of its own after a clause (not "Both A and B extend C"): a subject that does not
    // open with a number or a preposition (not "the 1, 5 and 15 minute load averages", "before
    // and after each write"), then its verb within eight words.
    const opener = p[i + 1]?.t.pos ?? '';
    if (t.text !== ';' && (firstVerb(p, lead, cut) < 0 || opener === 'NUM')) continue;
    // Nor two nouns of a subordinate clause's subject ("since auto variables and parameters are
    // not pushed"): no verb nor comma between its conjunction and this one.
    const sub = p.findLastIndex((x, k) => k > lead && k < cut && x.t.pos === 'SCONJ');
    if (
      t.lower === 'and' &&
      sub >= 0 &&
      commaOrEnd(p, sub, i) === i &&
      firstVerb(p, sub + 1, cut) < 0
    )
      continue;
    // A clause that opens with its own condition has its subject after the condition's comma
    // ("..., and if the response is larger than that, httpd switches to chunked encoding").
    const condition = opener === 'SCONJ' && CONDITIONS.has(p[i + 1]!.t.lower);
    const close = condition ? commaOrEnd(p, i + 2, n) : n;
    const from = condition && close < n ? close + 1 : i + 1;
    let v = from;
    while (v < n && v < from + 8 && (subjectWord(p, v, from) || inName(p, v))) {
      if (p[v]!.t.text === ',') break;
      v++;
    }
    // A clause that opens with a phrase of its own has a pronoun for subject ("and on Windows it
    // only clears"); else the phrase is part of the first clause ("before and after each write").
    if (opener === 'ADP' && !p.slice(i + 1, v).some((x) => x.t.pos === 'PRON')) continue;
    // A subject names something: not "{1..3} from being expanded".
    if (t.text !== ';' && !p.slice(from, v).some((x) => /^(?:NOUN|PROPN|PRON|X)$/.test(x.t.pos)))
      continue;
    if (t.text === ';' || (v > from && isVerb(p, v))) {
      // Not a subject of two noun phrases ("The cif passed to X, and the types it refers to, can
      // be freed"): no comma before a verb later on.
      // A participle with its phrase (", governed by ...") describes; it is no such verb.
      const later = p.findIndex(
        (x, k) => k > v && x.t.text === ',' && isVerb(p, k + 1) && !participlePhrase(p, k + 1),
      );
      if (wordCount(p, i + 1, n) < MIN_WORDS || (t.text !== ';' && later > 0)) continue;
      // A pronoun subject is the first clause's ("console.clear() does nothing, and on Windows it
      // ...").
      // Not after a condition of its own, which the pronoun more likely names ("and if \\r and
      // \\n arrive further apart, they count as two").
      const r = condition ? -1 : p.findIndex((x, k) => k > i && k < v && PRONOUNS.has(x.t.lower));
      const subject = r > 0 ? subjectEnd(cut) : -1;
      const clause =
        subject > lead
          ? `${text.slice(at(i + 1), at(r))}${span(head, subject)} ${text.slice(at(r + 1)).trim()}`
          : text.slice(at(i + 1)).trim();
      // A clause with a leading phrase of its own holds under that one ("When X, A does B, and
      // on Windows it does C").
      const own = /^(?:ADP|SCONJ)$/.test(opener);
      return { rest, split: `${own ? '' : prefix}${clause}` };
    }
  }
  return null;
}

/**
 * Splits a claim into the statements it joins, each a sentence: clauses joined by ";", by "and" /
 * "but" or by ", while" / ", whereas" before a subject and its verb (a pronoun subject, "it" or
 * "they", is the first clause's); a verb phrase joined by "and" before its verb ("has been
 * deprecated ... and is an alias ..."), given the first clause's subject; a clause set off by
 * commas after a name (", which counts ...", ", added in v20.15.0,"), given the name. A phrase
 * that opens the claim before a comma ("In pathToRegexp, ...") opens every statement but one with
 * a phrase of its own. Lists (commas in brackets, verb phrases in a row, a subject of two noun
 * phrases) are not split. "it" as a verb's object in a later statement is given the claim's
 * subject ("...; Node.js v16.0.0 removed it"). At most {@link MAX_STATEMENTS}; one (the claim)
 * when nothing joins two.
 * @example statementsOf('X retries twice and logs each failure.') // ['X retries twice.', 'X logs each failure.']
 */
export function statementsOf(claim: string): string[] {
  const out: string[] = [];
  const queue = [claim.trim().replace(/[.!?]+$/, '')];
  while (queue.length > 0) {
    const text = queue.shift()!;
    const cut = out.length + queue.length + 1 < MAX_STATEMENTS ? firstCut(text) : null;
    if (cut) queue.unshift(cut.rest, cut.split);
    else out.push(`${text}.`);
  }
  if (out.length < 2) return [claim];
  // "it" in a later statement is the claim's subject: "The buffered option ... defaults to false;
  // Node.js v16.0.0 removed it" -> "Node.js v16.0.0 removed the buffered option ...".
  const subject = subjectOf(claim);
  if (!subject) return out;
  const named = subject.replace(/^(?:The|A|An)\b/, (w) => w.toLowerCase());
  return out.map((x, i) => (i === 0 || x.includes(subject) ? x : objectNamed(x, named)));
}

/**
 * `statement` with "it" as a verb's object ("Node.js v16.0.0 removed it", "setting it to true")
 * replaced by `subject`; "it" as a subject ("when it is used") is left alone.
 */
function objectNamed(statement: string, subject: string): string {
  const p = place(statement, analyze(statement).tokens);
  const at = p?.findIndex(
    (x, k) => k > 0 && x.t.lower === 'it' && x.t.text === 'it' && p[k - 1]!.t.pos === 'VERB',
  );
  if (!p || at === undefined || at < 0) return statement;
  const it = p[at]!;
  if (/^['’]/.test(statement.slice(it.end))) return statement;
  return `${statement.slice(0, it.start)}${subject}${statement.slice(it.end)}`;
}

/**
 * The subject of a claim's first clause, past a leading phrase ("In pathToRegexp, ..."), when it
 * names something (a noun, a name) and is no pronoun; `null` otherwise.
 */
function subjectOf(claim: string): string | null {
  const p = place(claim, analyze(claim).tokens);
  if (!p || p.length === 0) return null;
  const { opens, lead, subject: head } = leadOf(p);
  if (opens && lead === 0) return null;
  // The first verb, not a participle before its noun ("The buffered option") nor a gerund
  // before the verb ("Stack profiling is").
  const pos = (k: number): string => p[k]?.t.pos ?? '';
  let verb = firstVerb(p, lead, p.length);
  while (
    verb >= 0 &&
    ((/^(?:DET|ADJ)$/.test(pos(verb - 1)) && /^(?:NOUN|PROPN|X)$/.test(pos(verb + 1))) ||
      (/ing$/.test(p[verb]!.t.lower) && /^(?:AUX|VERB)$/.test(pos(verb + 1))) ||
      // wink reads "Stack profiling is ..." as an imperative.
      (verb === lead &&
        /^(?:NOUN|PROPN)$/.test(pos(verb + 1)) &&
        /^(?:AUX|VERB)$/.test(pos(verb + 2))))
  )
    verb = firstVerb(p, verb + 1, p.length);
  while (verb - 1 > lead && p[verb - 1]!.t.pos === 'ADV') verb--;
  if (verb <= lead) return null;
  // Not a clause set off by commas after the subject (", supported since v11.4.0,").
  const comma = p.findIndex((x, k) => k >= lead && k < verb && x.t.text === ',');
  const words = p.slice(head, comma >= 0 ? comma : verb);
  if (words.length === 0 || words.some((x) => /^(?:PRON|CCONJ|SCONJ)$/.test(x.t.pos))) return null;
  if (!words.some((x) => /^(?:NOUN|PROPN|X)$/.test(x.t.pos))) return null;
  return claim.slice(words[0]!.start, words.at(-1)!.end);
}
