import { describe, expect, it } from 'vitest';
import {
  CHAT_MODELS,
  CHAT_PRICES,
  ChatModelSchema,
  CostSchema,
  EMBEDDING_MODELS,
  computeChatCost,
  computeEmbeddingCost,
} from '../../../src/protocol/index.js';

describe('model tables', () => {
  it('lists the four chat models and no withdrawn names', () => {
    expect(CHAT_MODELS).toEqual(['core', 'core-pro', 'core-deep-research', 'core-reasoning-pro']);
    expect(ChatModelSchema.safeParse('core-online').success).toBe(false);
    for (const m of CHAT_MODELS) expect(CHAT_PRICES[m]).toBeDefined();
  });

  it('matches the embedding model table of spec 4.10', () => {
    expect(EMBEDDING_MODELS['svc-embed-v1-0.6b']).toEqual({
      dimensions: 1024,
      minDimensions: 128,
      contextTokens: 32_768,
      pricePerMillionTokens: 0.004,
      contextualized: false,
    });
    expect(EMBEDDING_MODELS['svc-embed-v1-4b'].dimensions).toBe(2560);
    expect(EMBEDDING_MODELS['svc-embed-context-v1-0.6b'].pricePerMillionTokens).toBe(0.008);
    expect(EMBEDDING_MODELS['svc-embed-context-v1-4b']).toMatchObject({
      dimensions: 2560,
      pricePerMillionTokens: 0.05,
      contextualized: true,
    });
  });
});

describe('computeChatCost', () => {
  it('prices core at $1/$1 per 1M plus the request fee for the context size', () => {
    const usage = { prompt_tokens: 1_000_000, completion_tokens: 500_000 };
    expect(computeChatCost('core', usage, 'low')).toEqual({
      input_tokens_cost: 1,
      output_tokens_cost: 0.5,
      request_cost: 0.005,
      total_cost: 1.505,
    });
    expect(computeChatCost('core', usage, 'medium').request_cost).toBe(0.008);
    expect(computeChatCost('core', usage, 'high').total_cost).toBe(1.512);
    expect(computeChatCost('core', usage).request_cost).toBe(0.005);
  });

  it('prices core-pro and core-reasoning-pro with their own rates and fees', () => {
    const usage = { prompt_tokens: 1000, completion_tokens: 1000 };
    expect(computeChatCost('core-pro', usage, 'high')).toEqual({
      input_tokens_cost: 0.003,
      output_tokens_cost: 0.015,
      request_cost: 0.014,
      total_cost: 0.032,
    });
    expect(computeChatCost('core-reasoning-pro', usage, 'medium')).toEqual({
      input_tokens_cost: 0.002,
      output_tokens_cost: 0.008,
      request_cost: 0.01,
      total_cost: 0.02,
    });
  });

  it('prices deep research by tokens, reasoning, citations and search queries', () => {
    const cost = computeChatCost(
      'core-deep-research',
      {
        prompt_tokens: 1_000_000,
        completion_tokens: 1_000_000,
        reasoning_tokens: 1_000_000,
        citation_tokens: 1_000_000,
        num_search_queries: 1000,
      },
      'high',
    );
    expect(cost).toEqual({
      input_tokens_cost: 2,
      output_tokens_cost: 8,
      reasoning_tokens_cost: 3,
      citation_tokens_cost: 2,
      search_queries_cost: 5,
      total_cost: 20,
    });
    expect(CostSchema.parse(cost)).toEqual(cost);
  });

  it('has no floating-point noise in small sums', () => {
    const c = computeChatCost(
      'core',
      { prompt_tokens: 100_000, completion_tokens: 200_000 },
      'low',
    );
    expect(c.total_cost).toBe(0.305);
  });
});

describe('computeEmbeddingCost', () => {
  it('prices tokens at the model rate in USD', () => {
    expect(computeEmbeddingCost('svc-embed-v1-4b', 1_000_000)).toEqual({
      input_cost: 0.03,
      total_cost: 0.03,
      currency: 'USD',
    });
    expect(computeEmbeddingCost('svc-embed-v1-0.6b', 250_000).total_cost).toBe(0.001);
  });
});
