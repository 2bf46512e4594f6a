import type { Hono } from 'hono';
import {
  ContextualizedEmbeddingsRequestSchema,
  EmbeddingsRequestSchema,
  computeEmbeddingCost,
  countTokens,
} from '../../protocol/index.js';
import type { AppEnv } from '../context.js';
import { encodeEmbedding } from '../engines/embedder/index.js';
import type { Embedder } from '../engines/embedder/index.js';
import { readBody } from '../validate.js';

/**
 * `POST /v1/embeddings` and `POST /v1/contextualizedembeddings` (spec 4.8-4.10): limits are enforced
 * by the shared request schemas (422 with the exact `loc`); `index` follows input order; usage is
 * counted with the project tokenizer and priced from the model table.
 */
export function registerEmbeddingRoutes(app: Hono<AppEnv>, embedder: Embedder): void {
  app.post('/v1/embeddings', async (c) => {
    const body = await readBody(c, EmbeddingsRequestSchema);
    const texts = typeof body.input === 'string' ? [body.input] : body.input;
    const vectors = await embedder.embedTexts(
      texts,
      body.model,
      body.dimensions ?? undefined,
      c.req.raw.signal,
    );
    const tokens = texts.reduce((n, t) => n + countTokens(t), 0);
    return c.json({
      object: 'list',
      data: vectors.map((v, index) => ({
        object: 'embedding',
        index,
        embedding: encodeEmbedding(v, body.encoding_format),
      })),
      model: body.model,
      usage: {
        prompt_tokens: tokens,
        total_tokens: tokens,
        cost: computeEmbeddingCost(body.model, tokens),
      },
    });
  });

  app.post('/v1/contextualizedembeddings', async (c) => {
    const body = await readBody(c, ContextualizedEmbeddingsRequestSchema);
    const docs = await embedder.embedDocuments(
      body.input,
      body.model,
      body.dimensions ?? undefined,
      c.req.raw.signal,
    );
    const tokens = body.input.reduce((n, doc) => doc.reduce((m, t) => m + countTokens(t), n), 0);
    return c.json({
      object: 'list',
      data: docs.map((chunks, index) => ({
        object: 'list',
        index,
        data: chunks.map((v, chunk) => ({
          object: 'embedding',
          index: chunk,
          embedding: encodeEmbedding(v, body.encoding_format),
        })),
      })),
      model: body.model,
      usage: {
        prompt_tokens: tokens,
        total_tokens: tokens,
        cost: computeEmbeddingCost(body.model, tokens),
      },
    });
  });
}
