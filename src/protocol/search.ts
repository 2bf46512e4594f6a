import { z } from 'zod';
import {
  DateFilterSchema,
  SearchDomainFilterSchema,
  SearchLanguageFilterSchema,
  SearchModeSchema,
  SearchRecencyFilterSchema,
  intRange,
  nonEmptyString,
  typeError,
} from './fields.js';

/** Most queries in one multi-query search. */
export const MAX_SEARCH_QUERIES = 5;

/**
 * Body of `POST /search` (ARCHITECTURE "search body"). An array `query` returns one result array
 * per query. Unknown keys are stripped.
 */
export const SearchRequestSchema = z.object({
  query: z.union([
    nonEmptyString(),
    z
      .array(nonEmptyString())
      .min(1, { error: 'must hold at least one query' })
      .max(MAX_SEARCH_QUERIES, { error: `must hold at most ${MAX_SEARCH_QUERIES} queries` }),
  ]),
  /** @default 10 */
  max_results: intRange(1, 20).default(10),
  max_tokens_per_page: z
    .int({ error: typeError('must be an integer') })
    .gt(0, { error: 'must be greater than 0' })
    .optional(),
  search_recency_filter: SearchRecencyFilterSchema.nullish(),
  search_mode: SearchModeSchema.nullish(),
  search_domain_filter: SearchDomainFilterSchema.nullish(),
  search_language_filter: SearchLanguageFilterSchema.nullish(),
  search_after_date_filter: DateFilterSchema.nullish(),
  search_before_date_filter: DateFilterSchema.nullish(),
  last_updated_after_filter: DateFilterSchema.nullish(),
  last_updated_before_filter: DateFilterSchema.nullish(),
  country: z
    .string()
    .regex(/^[A-Za-z]{2}$/, { error: 'must be a 2-letter ISO 3166-1 country code' })
    .nullish(),
});

/** One search hit (spec 2.7). Lenient. */
export const SearchResultItemSchema = z.looseObject({
  title: z.string(),
  url: z.string(),
  snippet: z.string().default(''),
  date: z.string().nullish(),
  last_updated: z.string().nullish(),
});

/** Response of `POST /search`: `results` is nested one level when `query` was an array. */
export const SearchResponseSchema = z.looseObject({
  id: z.string(),
  results: z.union([z.array(SearchResultItemSchema), z.array(z.array(SearchResultItemSchema))]),
  server_time: z.string().nullish(),
});

/** Search body as callers write it. */
export type SearchRequest = z.input<typeof SearchRequestSchema>;
/** Search body after parsing. */
export type SearchRequestParsed = z.output<typeof SearchRequestSchema>;
/** One search hit. */
export type SearchResultItem = z.infer<typeof SearchResultItemSchema>;
/** Search response. */
export type SearchResponse = z.infer<typeof SearchResponseSchema>;
