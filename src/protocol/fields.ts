import { z } from 'zod';

// Field builders shared by the request schemas. Messages written here start with "must": the
// validation mapper (validation.ts) prefixes the field name and appends the offending value, so
// one phrase serves every field that uses the builder.

/**
 * Type-error message that keeps zod's default ("... received undefined") for a missing key, so the
 * mapper can still report the key as missing rather than mistyped.
 */
export const typeError =
  (msg: string) =>
  (iss: { input?: unknown }): string | undefined =>
    iss.input === undefined ? undefined : msg;

/** An integer in `[min, max]`; `exclusiveMin` makes the lower bound strict (`> min`). */
export function intRange(min: number, max: number, exclusiveMin = false): z.ZodInt {
  const msg = `must be ${exclusiveMin ? 'greater than' : 'at least'} ${min} and at most ${max}`;
  const base = z.int({ error: typeError('must be an integer') });
  return (exclusiveMin ? base.gt(min, { error: msg }) : base.gte(min, { error: msg })).lte(max, {
    error: msg,
  });
}

/** A number in `[min, max]` inclusive. */
export function numberRange(min: number, max: number): z.ZodNumber {
  const msg = `must be between ${min} and ${max} inclusive`;
  return z
    .number({ error: typeError('must be a number') })
    .gte(min, { error: msg })
    .lte(max, { error: msg });
}

/** A non-empty string. */
export const nonEmptyString = (): z.ZodString => z.string().min(1, { error: 'must not be empty' });

const ISO = /^(\d{4})-(\d{2})-(\d{2})$/;
const US = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/;

/**
 * Parse a search date filter: `M/D/YYYY` (hosted service format, 1 or 2 digit month and day) or
 * `YYYY-MM-DD`. Returns the UTC midnight of that day, or `null` when the string is in neither
 * format or names no real calendar date (e.g. 2/30/2025).
 * @example parseFilterDate('3/1/2025')?.toISOString() // '2025-03-01T00:00:00.000Z'
 */
export function parseFilterDate(s: string): Date | null {
  let y: number, m: number, d: number;
  const iso = ISO.exec(s);
  const us = iso ? null : US.exec(s);
  if (iso) [y, m, d] = [Number(iso[1]), Number(iso[2]), Number(iso[3])];
  else if (us) [y, m, d] = [Number(us[3]), Number(us[1]), Number(us[2])];
  else return null;
  const date = new Date(Date.UTC(y, m - 1, d));
  // Date.UTC rolls 2/30 over to 3/2 silently; a real date survives the round trip unchanged.
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d) {
    return null;
  }
  return date;
}

/** Schema for one date filter string (`M/D/YYYY` or `YYYY-MM-DD`, a real calendar date). */
export const DateFilterSchema = z.string().refine((s) => parseFilterDate(s) !== null, {
  error: 'must be a real date in M/D/YYYY or YYYY-MM-DD format',
});

/** `search_recency_filter` values. */
export const SEARCH_RECENCY_FILTERS = ['hour', 'day', 'week', 'month', 'year'] as const;
/** Schema for `search_recency_filter`. */
export const SearchRecencyFilterSchema = z.enum(SEARCH_RECENCY_FILTERS);
/** A `search_recency_filter` value. */
export type SearchRecencyFilter = z.infer<typeof SearchRecencyFilterSchema>;

/** `search_mode` values. */
export const SEARCH_MODES = ['web', 'academic', 'sec'] as const;
/** Schema for `search_mode`. */
export const SearchModeSchema = z.enum(SEARCH_MODES);
/** A `search_mode` value. */
export type SearchMode = z.infer<typeof SearchModeSchema>;

/** Most entries in `search_domain_filter` (the hosted service's documented limit). */
export const MAX_DOMAIN_FILTERS = 20;

/**
 * Schema for `search_domain_filter`: up to 20 domains; a leading `-` excludes the domain.
 */
export const SearchDomainFilterSchema = z
  .array(
    z.string().regex(/^-?[^\s-][^\s]*$/, {
      error: 'must be a domain, optionally prefixed with - to exclude',
    }),
  )
  .max(MAX_DOMAIN_FILTERS, { error: `must hold at most ${MAX_DOMAIN_FILTERS} domains` });

/** Schema for `search_language_filter`: language codes such as `en`, `de`. */
export const SearchLanguageFilterSchema = z.array(nonEmptyString());
