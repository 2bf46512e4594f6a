import { z } from 'zod';
import { nonEmptyString, typeError } from './fields.js';
import {
  ContextualizedEmbeddingModelSchema,
  EMBEDDING_MODELS,
  StandardEmbeddingModelSchema,
  type EmbeddingModel,
} from './models.js';
import { MAX_TOKENS_PER_REQUEST, MAX_TOKENS_PER_TEXT, withinTokenLimit } from './tokens.js';

/** Most texts in one standard embeddings request (spec 4.8). */
export const MAX_EMBEDDING_TEXTS = 512;
/** Most documents in one contextualized request (spec 4.9). */
export const MAX_EMBEDDING_DOCUMENTS = 512;
/** Most chunks over all documents of one contextualized request (spec 4.9). */
export const MAX_EMBEDDING_CHUNKS = 16_000;

/** Embedding wire encodings (spec 2.8). */
export const EMBEDDING_ENCODINGS = ['base64_int8', 'base64_binary'] as const;
/** Schema for `encoding_format`. @default 'base64_int8' */
export const EmbeddingEncodingSchema = z.enum(EMBEDDING_ENCODINGS);

type Ctx = z.core.$RefinementCtx;

/** Per-text token limit on a string (bytes first, so short texts are never tokenized). */
const tokenLimited = () =>
  nonEmptyString().check((ctx) => {
    if (withinTokenLimit(ctx.value, MAX_TOKENS_PER_TEXT) === false) {
      // No `input`: echoing a 32K-token text back in the message helps nobody.
      ctx.issues.push({
        code: 'custom',
        input: undefined,
        message: `must be at most ${MAX_TOKENS_PER_TEXT} tokens`,
        params: { type: 'too_many_tokens' },
      });
    }
  });

// Exact counts past twice the limit only serve the error message; stop there.
const COUNT_CAP = 2 * MAX_TOKENS_PER_REQUEST;

/**
 * Total token check over `texts` at path `["input"]`. Byte lengths are upper bounds on token counts;
 * only the largest texts are tokenized, until the bound proves the limit or the exact count passes
 * it. Tokenizing stops at twice the limit, so an oversized request costs little to reject.
 */
function checkTotalTokens(texts: string[], ctx: Ctx): void {
  const bound = texts.map((t) => Buffer.byteLength(t, 'utf8'));
  let rest = bound.reduce((a, b) => a + b, 0);
  if (rest <= MAX_TOKENS_PER_REQUEST) return;
  const order = bound.map((_, i) => i).sort((a, b) => bound[b]! - bound[a]!);
  let exact = 0;
  let over = false;
  for (const i of order) {
    rest -= bound[i]!;
    const n = withinTokenLimit(texts[i]!, COUNT_CAP - exact, true);
    if (n === false) {
      over = true;
      break;
    }
    exact += n;
    if (exact + rest <= MAX_TOKENS_PER_REQUEST) return;
  }
  ctx.addIssue({
    code: 'custom',
    path: ['input'],
    input: texts,
    message: `input must hold at most ${MAX_TOKENS_PER_REQUEST} tokens in total; got ${over ? `more than ${COUNT_CAP}` : exact}`,
    params: { type: 'too_many_tokens' },
  });
}

/** True when a document's chunks hold more than MAX_TOKENS_PER_TEXT tokens together. */
function documentTokensOver(doc: string[]): boolean {
  let bytes = 0;
  for (const c of doc) bytes += Buffer.byteLength(c, 'utf8');
  if (bytes <= MAX_TOKENS_PER_TEXT) return false;
  let left = MAX_TOKENS_PER_TEXT;
  for (const c of doc) {
    const n = withinTokenLimit(c, left, true);
    if (n === false) return true;
    left -= n;
  }
  return false;
}

/** `dimensions` within 128..model max, checked once `model` is known. */
function checkDimensions(model: unknown, dims: unknown, ctx: Ctx): void {
  if (typeof dims !== 'number' || typeof model !== 'string' || !(model in EMBEDDING_MODELS)) return;
  const info = EMBEDDING_MODELS[model as EmbeddingModel];
  if (dims < info.minDimensions || dims > info.dimensions) {
    ctx.addIssue({
      code: 'custom',
      path: ['dimensions'],
      input: dims,
      message: `dimensions must be between ${info.minDimensions} and ${info.dimensions} for ${model}; got ${dims}`,
      params: { type: 'dimensions_out_of_range' },
    });
  }
}

const isStrings = (a: unknown): a is string[] =>
  Array.isArray(a) && a.every((s) => typeof s === 'string');

/**
 * Body of `POST /v1/embeddings` (spec 4.8): up to 512 non-empty texts, each at most 32,768 tokens,
 * at most 120,000 tokens in total. Issues point at the offending element (`["input", 3]`); the
 * total-token issue at `["input"]`. `dimensions` @default the model's full dimension.
 */
export const EmbeddingsRequestSchema = z
  .object({
    input: z.union([
      tokenLimited(),
      z
        .array(tokenLimited())
        .min(1, { error: 'must hold at least one text' })
        .max(MAX_EMBEDDING_TEXTS, { error: `must hold at most ${MAX_EMBEDDING_TEXTS} texts` }),
    ]),
    model: StandardEmbeddingModelSchema,
    dimensions: z.int({ error: typeError('must be an integer') }).optional(),
    /** @default 'base64_int8' */
    encoding_format: EmbeddingEncodingSchema.default('base64_int8'),
  })
  .superRefine(
    (v, ctx) => {
      // `when: () => true` runs this even when the body failed (to report every field at once),
      // so the body may not be an object at all.
      if (typeof v !== 'object' || v === null) return;
      checkDimensions(v.model, v.dimensions, ctx);
      const texts = typeof v.input === 'string' ? [v.input] : v.input;
      if (isStrings(texts)) checkTotalTokens(texts, ctx);
    },
    { when: () => true },
  );

/**
 * Body of `POST /v1/contextualizedembeddings` (spec 4.9): up to 512 documents of non-empty chunks,
 * at most 16,000 chunks in total, each document at most 32,768 tokens, at most 120,000 tokens in
 * total. A query is sent as `[[query]]`. `dimensions` @default the model's full dimension.
 */
export const ContextualizedEmbeddingsRequestSchema = z
  .object({
    input: z
      .array(z.array(nonEmptyString()).min(1, { error: 'must hold at least one chunk' }))
      .min(1, { error: 'must hold at least one document' })
      .max(MAX_EMBEDDING_DOCUMENTS, {
        error: `must hold at most ${MAX_EMBEDDING_DOCUMENTS} documents`,
      }),
    model: ContextualizedEmbeddingModelSchema,
    dimensions: z.int({ error: typeError('must be an integer') }).optional(),
    /** @default 'base64_int8' */
    encoding_format: EmbeddingEncodingSchema.default('base64_int8'),
  })
  .superRefine(
    (v, ctx) => {
      if (typeof v !== 'object' || v === null) return; // see EmbeddingsRequestSchema
      checkDimensions(v.model, v.dimensions, ctx);
      if (!Array.isArray(v.input) || !v.input.every(isStrings)) return;
      const docs = v.input;
      const chunks = docs.reduce((n, d) => n + d.length, 0);
      if (chunks > MAX_EMBEDDING_CHUNKS) {
        ctx.addIssue({
          code: 'custom',
          path: ['input'],
          input: chunks,
          message: `input must hold at most ${MAX_EMBEDDING_CHUNKS} chunks in total; got ${chunks}`,
          params: { type: 'too_long' },
        });
      }
      docs.forEach((doc, i) => {
        // Chunks are embedded together, so the per-text limit applies to the whole document.
        if (documentTokensOver(doc)) {
          ctx.addIssue({
            code: 'custom',
            path: ['input', i],
            input: undefined,
            message: `must be at most ${MAX_TOKENS_PER_TEXT} tokens over all its chunks`,
            params: { type: 'too_many_tokens' },
          });
        }
      });
      checkTotalTokens(docs.flat(), ctx);
    },
    { when: () => true },
  );

/** One standard embedding (spec 2.8). */
export const EmbeddingObjectSchema = z.looseObject({
  object: z.string(),
  index: z.int(),
  embedding: z.string(),
});

/** Response of `POST /v1/embeddings` (spec 2.8). Lenient. */
export const EmbeddingsResponseSchema = z.looseObject({
  object: z.string(),
  data: z.array(EmbeddingObjectSchema),
  model: z.string(),
  usage: z.looseObject({
    prompt_tokens: z.int(),
    total_tokens: z.int(),
    cost: z
      .looseObject({ input_cost: z.number(), total_cost: z.number(), currency: z.string() })
      .optional(),
  }),
});

/** One document of a contextualized response: its chunks' embeddings in order. */
export const ContextualizedEmbeddingDocumentSchema = z.looseObject({
  object: z.string(),
  index: z.int(),
  data: z.array(EmbeddingObjectSchema),
});

/** Response of `POST /v1/contextualizedembeddings` (spec 2.8). Lenient. */
export const ContextualizedEmbeddingsResponseSchema = z.looseObject({
  object: z.string(),
  data: z.array(ContextualizedEmbeddingDocumentSchema),
  model: z.string(),
  usage: z.looseObject({ prompt_tokens: z.int(), total_tokens: z.int() }),
});

/** Embedding encoding. */
export type EmbeddingEncoding = z.infer<typeof EmbeddingEncodingSchema>;
/** Standard embeddings body as callers write it. */
export type EmbeddingsRequest = z.input<typeof EmbeddingsRequestSchema>;
/** Standard embeddings body after parsing. */
export type EmbeddingsRequestParsed = z.output<typeof EmbeddingsRequestSchema>;
/** Contextualized body as callers write it. */
export type ContextualizedEmbeddingsRequest = z.input<typeof ContextualizedEmbeddingsRequestSchema>;
/** Contextualized body after parsing. */
export type ContextualizedEmbeddingsRequestParsed = z.output<
  typeof ContextualizedEmbeddingsRequestSchema
>;
/** One embedding object. */
export type EmbeddingObject = z.infer<typeof EmbeddingObjectSchema>;
/** Standard embeddings response. */
export type EmbeddingsResponse = z.infer<typeof EmbeddingsResponseSchema>;
/** One contextualized document. */
export type ContextualizedEmbeddingDocument = z.infer<typeof ContextualizedEmbeddingDocumentSchema>;
/** Contextualized embeddings response. */
export type ContextualizedEmbeddingsResponse = z.infer<
  typeof ContextualizedEmbeddingsResponseSchema
>;
