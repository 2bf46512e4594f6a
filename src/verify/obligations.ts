/**
 * Obligations with what happens otherwise: "it must have the global flag set, or a TypeError is
 * thrown" says "if it does not have the global flag set, a TypeError is thrown". Put so, the
 * negation is there for polarity to pair with a claim's "without the global flag, it throws", and
 * against "with the global flag, it throws"; read as written, both look like a plain statement of
 * the flag and the error, and both would pass.
 */

/** `S must [be] X, or [else] / otherwise Y` within one sentence. */
const MUST_OR =
  /(^|[.;:!?]\s+|,\s*(?:then\s+)?|\bthen\s+)([^.;:!?,]*?)\b(?:must|has to|have to|needs to|need to)\s+(be\s+)?([^.;:!?]*?),\s*(?:or(?:\s+else)?|otherwise),?\s+([^.;:!?]+)/gi;

/** What a consequence says: something happens (an error is thrown, the call fails...). */
const HAPPENS =
  /\b(?:is|are|will|throws?|thrown|fails?|returns?|rejects?|raises?|errors?|exits?|breaks?|happens?|occurs?|aborts?)\b/i;

/**
 * Restates each "S must X, or Y" of `text` as "if S does not X, Y" (and "S must be X" as "S is
 * not X"); other text is returned as is.
 * @example
 * restateObligations('The name must be unique, or an error is thrown.')
 * // 'if The name is not unique, an error is thrown.'
 */
export function restateObligations(text: string): string {
  return text.replace(
    MUST_OR,
    (whole, lead: string, subject: string, be: string | undefined, rest: string, then: string) => {
      // "must be a string, or a number": a list of what it must be, not what happens otherwise.
      if (!HAPPENS.test(then)) return whole;
      const verb = be ? 'is not' : 'does not';
      // "Then it must ...": the condition goes after "then".
      const [, then_ = '', who = ''] = /^(then\s+)?(.*)$/is.exec(subject.trim()) ?? [];
      return `${lead}${then_}if ${who} ${verb} ${rest.trim()}, ${then}`;
    },
  );
}
