/**
 * Elided predicates. "Returns the old stream, if the stream was changed, or None if it wasn't"
 * leaves out what "wasn't" denies: read as written, the last clause negates nothing, and a claim
 * that says "None if the stream wasn't changed" pairs with the clause before it ("if the stream
 * was changed") and seems to deny it. A negated "be" with a pronoun subject that ends its clause
 * is restated with the predicate of the last "be" before it in its sentence ("if it wasn't
 * changed").
 */

/** A pronoun subject, a negated "be" and the end of the clause: "if it wasn't.", "if they are not,". */
const ELIDED =
  /\b(?:it|they|this|that|one)\s+(?:(?:is|are|was|were)n['\u2019]t|(?:is|are|was|were)\s+not|(?:has|have)n['\u2019]t\s+been|(?:has|have)\s+not\s+been)(?=\s*(?:[.,;:)]|$))/gi;

/**
 * A "be" and the word after it, past "not": the predicate a later elision leaves out (group 2),
 * with the subject of a condition it completes ("if the stream was changed": group 1).
 */
const PREDICATE =
  /(?:\b(?:if|when|whenever|unless|whether)\s+((?:the\s+|a\s+|an\s+)?[\w.()-]+)\s+)?\b(?:is|are|was|were|been)\s+(?:not\s+)?([A-Za-z][\w-]{2,})/gi;

/** Words after "be" that are no predicate of their own. */
const NOT_PREDICATE = new Set(
  'the a an not to in on at of by for as also then still always never only being there that this it its their your'.split(
    ' ',
  ),
);

/**
 * `text` with each elided predicate restated (see the file's header); in a condition that
 * answers one before it, the pronoun names that one's subject ("or None if the stream wasn't
 * changed").
 * @example restateElisions('None if the stream was changed, or 0 if it wasn’t.') // 'None if the stream was changed, or 0 if the stream wasn’t changed.'
 */
export function restateElisions(text: string): string {
  if (!/n['\u2019]t|\bnot\b/i.test(text)) return text;
  return text.replace(ELIDED, (match: string, at: number) => {
    const start = Math.max(text.lastIndexOf('. ', at), text.lastIndexOf('? ', at), 0);
    let found: RegExpMatchArray | undefined;
    for (const m of text.slice(start, at).matchAll(PREDICATE)) {
      if (!NOT_PREDICATE.has(m[2]!.toLowerCase())) found = m;
    }
    if (!found) return match;
    const [, subject, predicate] = found;
    const conditional = /\b(?:if|when|whenever|unless|whether)\s+$/i.test(text.slice(start, at));
    const restated = subject && conditional ? match.replace(/^\w+/, subject) : match;
    return `${restated} ${predicate}`;
  });
}
