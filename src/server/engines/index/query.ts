// Turning arbitrary user text into an FTS5 MATCH expression that can never be a syntax error.

// Words the ranking gains nothing from; dropped only when other terms remain, so OR-ing them does
// not make every chunk a candidate.
const STOPWORDS = new Set(
  (
    'a an and are as at be but by for from has have how i in is it its of on or that the this to was ' +
    'what when where which who why will with der die das und ist ein eine le la les et est un une des du'
  ).split(' '),
);

/** Maximum number of distinct terms kept from a query. */
export const MAX_QUERY_TERMS = 32;

/**
 * Splits text into the word terms unicode61 would index: runs of letters, digits, marks and `_`,
 * lower-cased. Everything else (quotes, `*`, `-`, `:`, parentheses, FTS keywords' meaning) is a separator.
 */
export function queryTerms(query: string): string[] {
  const words = query.toLowerCase().match(/[\p{L}\p{N}\p{M}_]+/gu) ?? [];
  const unique = [...new Set(words)];
  const content = unique.filter((w) => !STOPWORDS.has(w));
  return (content.length > 0 ? content : unique).slice(0, MAX_QUERY_TERMS);
}

/**
 * Builds a safe FTS5 MATCH expression: each term double-quoted (a string, never an operator or
 * column filter), OR-ed together so BM25 ranks partial matches too.
 *
 * @returns The expression, or `null` when the query has no searchable term.
 */
export function toMatchExpression(query: string): string | null {
  const terms = queryTerms(query);
  if (terms.length === 0) return null;
  return terms.map((t) => `"${t.replace(/"/g, '""')}"`).join(' OR ');
}
