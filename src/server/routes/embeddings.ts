import { computeEmbeddingCost, countTokens } from '../../protocol/index.js';
import type { EmbeddingEncoding, EmbeddingModel } from '../../protocol/index.js';
import { encodeEmbedding } from '../engines/embedder/index.js';
import type { Embedder } from '../engines/embedder/index.js';
import type { HandlersOf } from '../register-routes.js';

/**
 * `POST /v1/embeddings` and `POST /v1/contextualizedembeddings` (spec 4.8-4.10): limits are enforced
 * by the shared request schemas (422 with the exact `loc`); `index` follows input order; usage is
 * counted with the project tokenizer and priced from the model table. The `x-svc-embedder` header
 * says which model answered (`use-lite`, `hashing` or `remote`), known once the model has loaded.
 */
export function embeddingHandlers(
  embedder: Embedder,
): HandlersOf<'embeddings.create' | 'contextualizedEmbeddings.create'> {
  const embedded = (model: EmbeddingModel, texts: string[]) => {
    const tokens = texts.reduce((n, t) => n + countTokens(t), 0);
    return {
      model,
      usage: {
        prompt_tokens: tokens,
        total_tokens: tokens,
        cost: computeEmbeddingCost(model, tokens),
      },
    };
  };
  const encode = (v: Float32Array, index: number, format: EmbeddingEncoding) => ({
    object: 'embedding' as const,
    index,
    embedding: encodeEmbedding(v, format),
  });

  return {
    'embeddings.create': async ({ body }, c) => {
      const texts = typeof body.input === 'string' ? [body.input] : body.input;
      try {
        const vectors = await embedder.embedTexts(
          texts,
          body.model,
          body.dimensions ?? undefined,
          c.req.raw.signal,
        );
        return {
          object: 'list' as const,
          data: vectors.map((v, index) => encode(v, index, body.encoding_format)),
          ...embedded(body.model, texts),
        };
      } finally {
        c.header('x-svc-embedder', embedder.engine);
      }
    },

    'contextualizedEmbeddings.create': async ({ body }, c) => {
      try {
        const docs = await embedder.embedDocuments(
          body.input,
          body.model,
          body.dimensions ?? undefined,
          c.req.raw.signal,
        );
        return {
          object: 'list' as const,
          data: docs.map((chunks, index) => ({
            object: 'list' as const,
            index,
            data: chunks.map((v, chunk) => encode(v, chunk, body.encoding_format)),
          })),
          ...embedded(body.model, body.input.flat()),
        };
      } finally {
        c.header('x-svc-embedder', embedder.engine);
      }
    },
  };
}
