/**
 * Questions and their answers. A question states nothing: "Is it possible to attach Valgrind to a
 * running program?" shares every word with "You can attach Valgrind to a running program" and
 * says neither that nor its opposite. The answer that follows it does: "Is it possible to attach
 * Valgrind to a running program? No." says "You cannot attach Valgrind to a running program". So a
 * yes/no question answered by "No." or "Yes." is restated as the statement it makes, and "it is
 * (not) possible to" as "you can (not)", the way a claim says it.
 */

/** Auxiliaries that open a yes/no question. */
const AUX = 'is|are|was|were|can|could|does|do|did|will|would|should|may|might|must|has|have';

/** `Aux rest? No.` / `Aux rest? Yes,` at the start of the text or of a sentence. */
const ANSWERED = new RegExp(
  `(^|[.!?:]\\s+)(${AUX})\\s+([^?.!]{3,300}?)\\?\\s+(no|yes)\\b[.,!]?(?:\\s+|$)`,
  'gi',
);

/** Words that are a whole subject on their own. */
const PRONOUNS = new Set(['it', 'i', 'you', 'we', 'they', 'there', 'this', 'that', 'he', 'she']);

/** Words that open a two-word subject ("the parser", "my program"). */
const DETERMINERS = new Set(['the', 'a', 'an', 'my', 'your', 'our', 'their', 'its', 'this']);

/** "Is it possible to X" / "it is not possible to X", said with "can". */
const POSSIBLE = /\b(?:it\s+is|it's)\s+(not\s+)?possible\s+to\b/gi;

/**
 * The statement of an answered question: the subject (a pronoun, a determiner and its noun, or a
 * name), the auxiliary with "not" for a "No", then the rest.
 */
function statement(aux: string, rest: string, no: boolean): string {
  const words = rest.trim().split(/\s+/);
  const first = words[0]!.toLowerCase();
  const size = PRONOUNS.has(first) ? 1 : DETERMINERS.has(first) && words.length > 2 ? 2 : 1;
  const subject = words.slice(0, size).join(' ');
  const predicate = words.slice(size).join(' ');
  const a = aux.toLowerCase();
  const verb = a === 'can' ? (no ? 'cannot' : 'can') : no ? `${a} not` : a;
  return `${subject} ${verb} ${predicate}`;
}

/**
 * `text` with each yes/no question answered by "No" or "Yes" restated as its statement, and "it
 * is (not) possible to" as "you can (not)"; other text is returned as is.
 * @example
 * restateAnswers('Is it possible to attach Valgrind to a running program? No. It needs control.')
 * // 'you cannot attach Valgrind to a running program. It needs control.'
 */
export function restateAnswers(text: string): string {
  return text
    .replace(
      ANSWERED,
      (_, lead: string, aux: string, rest: string, answer: string) =>
        `${lead}${statement(aux, rest, answer.toLowerCase() === 'no')}. `,
    )
    .replace(POSSIBLE, (_, not: string | undefined) => (not ? 'you cannot' : 'you can'))
    .trimEnd();
}

/** True when every sentence of `text` is a question: it asks, and asserts nothing. */
export function onlyAsks(text: string): boolean {
  const sentences = text
    .trim()
    .split(/(?<=[.!?])\s+/)
    .filter((s) => /[\p{L}\p{N}]/u.test(s));
  return sentences.length > 0 && sentences.every((s) => s.trimEnd().endsWith('?'));
}
