import {
  countTokens as bpeCount,
  decode as bpeDecode,
  encode as bpeEncode,
  isWithinTokenLimit as bpeWithin,
} from 'gpt-tokenizer/encoding/o200k_base';

/** Most tokens one embedding text (or one contextualized document) may hold (spec 4.8, 4.9). */
export const MAX_TOKENS_PER_TEXT = 32_768;

/** Most tokens one embeddings request may hold over all its texts (spec 4.8, 4.9). */
export const MAX_TOKENS_PER_REQUEST = 120_000;

// User text is plain text: "<|endoftext|>" typed by a user must count as ordinary tokens, not make
// the tokenizer throw (its default rejects special-token strings).
const PLAIN_TEXT = { disallowedSpecial: new Set<string>() };

/** UTF-8 byte length of `text`, without allocating an encoded copy. */
export function utf8ByteLength(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

/**
 * Number of tokens in `text` under the project's single tokenizer (gpt-tokenizer, o200k_base).
 * Special-token strings are counted as plain text.
 * @example countTokens('hello world') // 2
 */
export function countTokens(text: string): number {
  return bpeCount(text, PLAIN_TEXT);
}

/**
 * Token count of `text` if it is at most `limit`, else `false`. Skips tokenizing when the UTF-8 byte
 * length already proves the limit holds (a byte-level BPE token covers at least one byte), and stops
 * tokenizing once the limit is passed.
 * @returns the exact count, `false` when over, or an upper bound (the byte length) when not tokenized
 *   and `exact` is false.
 */
export function withinTokenLimit(text: string, limit: number, exact = false): number | false {
  const bytes = utf8ByteLength(text);
  if (!exact && bytes <= limit) return bytes;
  return bpeWithin(text, limit, PLAIN_TEXT);
}

/**
 * The longest prefix of `text` holding at most `maxTokens` tokens (used for `max_tokens`).
 * @example truncateToTokens('one two three', 2) // 'one two'
 */
export function truncateToTokens(text: string, maxTokens: number): string {
  const tokens = bpeEncode(text, PLAIN_TEXT);
  return tokens.length <= maxTokens ? text : bpeDecode(tokens.slice(0, maxTokens));
}
