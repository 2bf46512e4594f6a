/**
 * Claims turned false by the least edit, for the replay's synthetic check: a true claim the checker
 * supports, with its first verb phrase denied ("is" -> "is not", "limits" -> "does not limit") or
 * its denial dropped ("doesn't" -> "does"), should no longer be `supported`. The labelled sets hold
 * hand-written negations; these are many more, written by rule, so a polarity rule fitted to the
 * hand-written ones shows here when it does not carry over.
 */
import { analyze } from '../../src/verify/index.js';
import { escapeRegExp } from '../../src/verify/words.js';

/** A denial after an auxiliary, and the auxiliary without it. */
const DENIALS: readonly [RegExp, string][] = [
  [/\b([Dd]oes|[Dd]o|[Ii]s|[Aa]re|[Ww]as|[Ww]ere|[Dd]id|[Hh]as|[Hh]ave)n['’]t\b/, '$1'],
  [/\b([Cc]a)n['’]t\b/, '$1n'],
  [/\b([Ww])on['’]t\b/, '$1ill'],
  [/\b([Cc]an)not\b/, '$1'],
  [
    /\b(is|are|was|were|can|could|will|would|should|must|may|does|do|did|has|have) not (?!only\b|just\b|simply\b|merely\b|necessarily\b|always\b|all\b|every\b)/,
    '$1 ',
  ],
];

/** An auxiliary or modal before a word in lower case, after which "not" denies the phrase. */
const AUXILIARY =
  /\b(is|are|was|were|can|could|will|would|should|must|does|do|did)\b(?= (?!not\b|n't|only\b|just\b|also\b|always\b|never\b|no\b|nothing\b|none\b)[a-z\d'"‘“(])/;

/**
 * The claim with its first verb phrase denied, or its first denial dropped; `null` when it has
 * neither an auxiliary nor a verb in the present to deny.
 * @example
 * negateClaim('The limit is 1 MiB.') // 'The limit is not 1 MiB.'
 * negateClaim("It doesn't gunzip for you.") // 'It does gunzip for you.'
 * negateClaim('The pool keeps idle sockets.') // 'The pool does not keep idle sockets.'
 */
export function negateClaim(text: string): string | null {
  for (const [re, plain] of DENIALS) if (re.test(text)) return text.replace(re, plain);
  const aux = AUXILIARY.exec(text);
  // A verb in the third person present before any auxiliary: "Undici limits" -> "does not limit".
  const verb = analyze(text).tokens.find(
    (t, i, all) =>
      t.pos === 'VERB' &&
      /^[a-z]+s$/.test(t.text) &&
      t.lemma !== t.lower &&
      /^(?:NOUN|PROPN|PRON|PUNCT|X)$/.test(all[i - 1]?.pos ?? ''),
  );
  const at = verb ? new RegExp(`\\b${verb.text}\\b`).exec(text) : null;
  if (verb && at && (!aux || at.index < aux.index)) {
    return `${text.slice(0, at.index)}does not ${verb.lemma}${text.slice(at.index + verb.text.length)}`;
  }
  if (!aux) return null;
  const end = aux.index + aux[0].length;
  return `${text.slice(0, end)} not${text.slice(end)}`;
}

/** Where `name` is written as a whole name (not inside another: "https" in "https_proxy"). */
const wholeName = (name: string): string => `(?<![\\w-])${escapeRegExp(name)}(?![\\w-])`;

/**
 * The claim with two of its names swapped, for the replay's second synthetic check: a true claim
 * the checker supports, with two names (identifiers, code, proper nouns) that it writes once each
 * and that `quote`, its supporting passage, states too, each put in the other's place, should no
 * longer be `supported` ("the DEBUG variable in Node.js" -> "the Node.js variable in DEBUG"). Most
 * such swaps are false; a few are not (two items of one list), so the rate measures a direction,
 * not an error count. `null` when the claim has no such pair.
 * @example
 * swapNames('Maps translate the IP address to an AS number.', 'Maps translate the IP address to an AS number.')
 * // 'Maps translate the AS address to an IP number.'
 */
export function swapNames(text: string, quote: string): string | null {
  const count = (s: string, name: string): number =>
    s.match(new RegExp(wholeName(name), 'g'))?.length ?? 0;
  const names = [
    ...new Set(
      analyze(text)
        .keyTerms.filter((k) => k.kind !== 'rare')
        .map((k) => k.text),
    ),
  ].filter((n) => n.length >= 2 && count(text, n) === 1 && count(quote, n) >= 1);
  for (const [i, a] of names.entries()) {
    for (const b of names.slice(i + 1)) {
      if (a.includes(b) || b.includes(a)) continue;
      const swapped = text.replace(new RegExp(`${wholeName(a)}|${wholeName(b)}`, 'g'), (m) =>
        m === a ? b : a,
      );
      if (swapped !== text) return swapped;
    }
  }
  return null;
}
