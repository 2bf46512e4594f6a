import { z } from 'zod';
import type { Cost } from './chat.js';

/** Chat model names the service accepts (spec 2.1); older names are withdrawn (spec 9). */
export const CHAT_MODELS = [
  'core',
  'core-pro',
  'core-deep-research',
  'core-reasoning-pro',
] as const;

/** Schema for a chat model name. */
export const ChatModelSchema = z.enum(CHAT_MODELS);

/** A chat model name. */
export type ChatModel = z.infer<typeof ChatModelSchema>;

/** `web_search_options.search_context_size` values (spec 2.4); they select the request fee. */
export const SEARCH_CONTEXT_SIZES = ['low', 'medium', 'high'] as const;

/** Schema for `search_context_size`. @default 'low' (applied where the field appears) */
export const SearchContextSizeSchema = z.enum(SEARCH_CONTEXT_SIZES);

/** How much search context a request used; selects the request fee. */
export type SearchContextSize = z.infer<typeof SearchContextSizeSchema>;

/** Standard (independent text) embedding models (spec 4.8). */
export const STANDARD_EMBEDDING_MODELS = ['svc-embed-v1-0.6b', 'svc-embed-v1-4b'] as const;

/** Contextualized (chunks of one document) embedding models (spec 4.9). */
export const CONTEXTUALIZED_EMBEDDING_MODELS = [
  'svc-embed-context-v1-0.6b',
  'svc-embed-context-v1-4b',
] as const;

/** Schema for a standard embedding model name. */
export const StandardEmbeddingModelSchema = z.enum(STANDARD_EMBEDDING_MODELS);

/** Schema for a contextualized embedding model name. */
export const ContextualizedEmbeddingModelSchema = z.enum(CONTEXTUALIZED_EMBEDDING_MODELS);

/** A standard embedding model name. */
export type StandardEmbeddingModel = (typeof STANDARD_EMBEDDING_MODELS)[number];

/** A contextualized embedding model name. */
export type ContextualizedEmbeddingModel = (typeof CONTEXTUALIZED_EMBEDDING_MODELS)[number];

/** Any embedding model name. */
export type EmbeddingModel = StandardEmbeddingModel | ContextualizedEmbeddingModel;

/** One row of the embedding model table (spec 4.10). */
export interface EmbeddingModelInfo {
  /** Full (default) output dimension. */
  readonly dimensions: number;
  /** Smallest matryoshka dimension accepted in `dimensions`. */
  readonly minDimensions: number;
  /** Context window in tokens (per text, or per document when contextualized). */
  readonly contextTokens: number;
  /** USD per 1M input tokens. */
  readonly pricePerMillionTokens: number;
  /** True for the `/v1/contextualizedembeddings` family. */
  readonly contextualized: boolean;
}

/** The embedding model table of spec 4.10, keyed by model name. */
export const EMBEDDING_MODELS: Readonly<Record<EmbeddingModel, EmbeddingModelInfo>> = {
  'svc-embed-v1-0.6b': {
    dimensions: 1024,
    minDimensions: 128,
    contextTokens: 32_768,
    pricePerMillionTokens: 0.004,
    contextualized: false,
  },
  'svc-embed-v1-4b': {
    dimensions: 2560,
    minDimensions: 128,
    contextTokens: 32_768,
    pricePerMillionTokens: 0.03,
    contextualized: false,
  },
  'svc-embed-context-v1-0.6b': {
    dimensions: 1024,
    minDimensions: 128,
    contextTokens: 32_768,
    pricePerMillionTokens: 0.008,
    contextualized: true,
  },
  'svc-embed-context-v1-4b': {
    dimensions: 2560,
    minDimensions: 128,
    contextTokens: 32_768,
    pricePerMillionTokens: 0.05,
    contextualized: true,
  },
};

/** Price of one chat model, in USD. */
export interface ChatPrice {
  /** USD per 1M prompt tokens. */
  readonly inputPerMillion: number;
  /** USD per 1M completion tokens. */
  readonly outputPerMillion: number;
  /** USD per 1M reasoning tokens, for models that bill them separately. */
  readonly reasoningPerMillion?: number;
  /** USD per 1M citation tokens, for models that bill them. */
  readonly citationPerMillion?: number;
  /** USD per 1000 search queries, for models that bill them. */
  readonly searchQueriesPerThousand?: number;
  /** USD per 1000 requests, by `search_context_size`. */
  readonly requestFeePerThousand: Readonly<Record<SearchContextSize, number>>;
}

/**
 * Chat price table, matching the hosted family's public prices. The embedded server reads it
 * through its own configuration, so operators can override it.
 */
export const CHAT_PRICES: Readonly<Record<ChatModel, ChatPrice>> = {
  core: {
    inputPerMillion: 1,
    outputPerMillion: 1,
    requestFeePerThousand: { low: 5, medium: 8, high: 12 },
  },
  'core-pro': {
    inputPerMillion: 3,
    outputPerMillion: 15,
    requestFeePerThousand: { low: 6, medium: 10, high: 14 },
  },
  'core-reasoning-pro': {
    inputPerMillion: 2,
    outputPerMillion: 8,
    requestFeePerThousand: { low: 6, medium: 10, high: 14 },
  },
  // Deep research bills per search query and per reasoning/citation token instead of a request fee.
  'core-deep-research': {
    inputPerMillion: 2,
    outputPerMillion: 8,
    reasoningPerMillion: 3,
    citationPerMillion: 2,
    searchQueriesPerThousand: 5,
    requestFeePerThousand: { low: 0, medium: 0, high: 0 },
  },
};

/** Token and query counts that a chat cost is computed from (a subset of `UsageInfo`). */
export interface ChatUsageCounts {
  prompt_tokens: number;
  completion_tokens: number;
  reasoning_tokens?: number | null | undefined;
  citation_tokens?: number | null | undefined;
  num_search_queries?: number | null | undefined;
}

// Float sums like 0.1 + 0.2 would leak 17-digit noise into responses; 1e-8 USD is far below any price.
const roundUsd = (n: number): number => Math.round(n * 1e8) / 1e8;

/**
 * Cost of one chat completion (spec 2.5 `Cost`). Pure: same inputs, same output.
 * `reasoning_tokens` are billed on top of `completion_tokens` only for models with a reasoning price;
 * optional cost fields appear only when the model bills them.
 * @param searchContextSize selects the request fee. @default 'low'
 * @param prices the price table. @default CHAT_PRICES
 * @example computeChatCost('core', { prompt_tokens: 1000, completion_tokens: 500 }, 'low')
 */
export function computeChatCost(
  model: ChatModel,
  usage: ChatUsageCounts,
  searchContextSize: SearchContextSize | null | undefined = 'low',
  prices: Readonly<Record<ChatModel, ChatPrice>> = CHAT_PRICES,
): Cost {
  const p = prices[model];
  const size = searchContextSize ?? 'low';
  const input = (usage.prompt_tokens * p.inputPerMillion) / 1e6;
  const output = (usage.completion_tokens * p.outputPerMillion) / 1e6;
  const cost: Cost = {
    input_tokens_cost: roundUsd(input),
    output_tokens_cost: roundUsd(output),
    total_cost: 0,
  };
  let total = input + output;
  if (p.reasoningPerMillion !== undefined) {
    const c = ((usage.reasoning_tokens ?? 0) * p.reasoningPerMillion) / 1e6;
    cost.reasoning_tokens_cost = roundUsd(c);
    total += c;
  }
  if (p.citationPerMillion !== undefined) {
    const c = ((usage.citation_tokens ?? 0) * p.citationPerMillion) / 1e6;
    cost.citation_tokens_cost = roundUsd(c);
    total += c;
  }
  if (p.searchQueriesPerThousand !== undefined) {
    const c = ((usage.num_search_queries ?? 0) * p.searchQueriesPerThousand) / 1000;
    cost.search_queries_cost = roundUsd(c);
    total += c;
  }
  const fee = p.requestFeePerThousand[size] / 1000;
  if (fee > 0) {
    cost.request_cost = roundUsd(fee);
    total += fee;
  }
  cost.total_cost = roundUsd(total);
  return cost;
}

/** Cost block of an embeddings response (spec 2.8 `usage.cost`). */
export interface EmbeddingCost {
  input_cost: number;
  total_cost: number;
  currency: string;
}

/**
 * Cost of embedding `tokens` input tokens with `model`, in USD (spec 4.10 prices).
 * @example computeEmbeddingCost('svc-embed-v1-4b', 1_000_000) // { input_cost: 0.03, total_cost: 0.03, currency: 'USD' }
 */
export function computeEmbeddingCost(model: EmbeddingModel, tokens: number): EmbeddingCost {
  const c = roundUsd((tokens * EMBEDDING_MODELS[model].pricePerMillionTokens) / 1e6);
  return { input_cost: c, total_cost: c, currency: 'USD' };
}
