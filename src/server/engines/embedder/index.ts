import { embedDocuments, embedTexts } from './local-embedder.js';
import { embedDocumentsRemote, embedTextsRemote } from './remote-embedder.js';
import type { RemoteEmbedderConfig } from './remote-embedder.js';

export { embedDocuments, embedTexts } from './local-embedder.js';
export { encodeEmbedding } from './encode.js';
export type { EmbeddingEncodingFormat } from './encode.js';
export { LOCAL_MODELS, resolveModel } from './local-models.js';
export type { LocalModelConfig } from './local-models.js';
export {
  REMOTE_DEFAULTS,
  RemoteEmbeddingError,
  embedDocumentsRemote,
  embedTextsRemote,
} from './remote-embedder.js';
export type { RemoteEmbedderConfig } from './remote-embedder.js';
export { mixContext, truncateNormalized } from './vector-ops.js';

/** One embedding backend: the local deterministic model or an OpenAI-compatible upstream. */
export interface Embedder {
  /** `local` (hashing model) or `remote` (upstream endpoint). */
  readonly kind: 'local' | 'remote';
  /** Unit vectors for independent texts, in input order. See {@link embedTexts}. */
  embedTexts(
    texts: readonly string[],
    model: string,
    dimensions?: number,
    signal?: AbortSignal,
  ): Promise<Float32Array[]>;
  /** Context-mixed unit vectors per document chunk. See {@link embedDocuments}. */
  embedDocuments(
    docs: readonly (readonly string[])[],
    model: string,
    dimensions?: number,
    signal?: AbortSignal,
  ): Promise<Float32Array[][]>;
}

/**
 * Build the embedder the server uses: the local model, or the upstream named by `remote`.
 * @param remote upstream configuration. @default undefined (local model)
 * @throws TypeError when `remote.baseUrl` is not an http(s) URL.
 * @example createEmbedder(readEmbedderEnv(process.env))
 */
export function createEmbedder(remote?: RemoteEmbedderConfig): Embedder {
  if (!remote) {
    return {
      kind: 'local',
      embedTexts: (texts, model, dimensions) =>
        Promise.resolve(embedTexts(texts, model, dimensions)),
      embedDocuments: (docs, model, dimensions) =>
        Promise.resolve(embedDocuments(docs, model, dimensions)),
    };
  }
  if (!/^https?:\/\//.test(remote.baseUrl)) {
    throw new TypeError(`embedder baseUrl must be an http(s) URL, got ${remote.baseUrl}`);
  }
  return {
    kind: 'remote',
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
