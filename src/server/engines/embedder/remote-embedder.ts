import { fetch } from 'undici';
import { resolveModel } from './local-models.js';
import { mixContext } from './vector-ops.js';

/** Where to find an OpenAI-compatible `/embeddings` endpoint that replaces the local model. */
export interface RemoteEmbedderConfig {
  /** Base URL; `/embeddings` is appended (e.g. `http://127.0.0.1:11434/v1`). */
  baseUrl: string;
  /** Sent as `Authorization: Bearer <apiKey>` when set. */
  apiKey?: string | undefined;
  /** Remote model name. @default the spec model name of the request */
  model?: string | undefined;
  /** Per-request timeout in ms. @default 60_000 */
  timeout?: number | undefined;
  /** Most texts per upstream request. @default 128 */
  batchSize?: number | undefined;
}

/** Defaults of the remote adapter. */
export const REMOTE_DEFAULTS = { timeout: 60_000, batchSize: 128 } as const;

/** The upstream embeddings endpoint failed or answered something that is not an embeddings list. */
export class RemoteEmbeddingError extends Error {
  /** Stable error code. */
  readonly code = 'remote_embedding_failed';
  /** Upstream HTTP status, when there was a response. */
  readonly status: number | undefined;

  /** @param status upstream HTTP status, if any. */
  constructor(message: string, status?: number, options?: ErrorOptions) {
    super(message, options);
    this.name = 'RemoteEmbeddingError';
    this.status = status;
  }
}

interface UpstreamItem {
  index?: unknown;
  embedding?: unknown;
}

function toVector(e: unknown): Float32Array {
  if (Array.isArray(e) && e.every((x) => typeof x === 'number')) return Float32Array.from(e);
  // `encoding_format: "base64"` upstreams send little-endian float32 bytes.
  if (typeof e === 'string') {
    const buf = Buffer.from(e, 'base64');
    return new Float32Array(buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength));
  }
  throw new RemoteEmbeddingError('remote embeddings: item without a numeric embedding');
}

/**
 * Fit an upstream vector to `dims` and normalise: longer vectors are truncated (matryoshka), shorter
 * ones zero-padded, which keeps every cosine between vectors of the same upstream model unchanged.
 */
function fit(v: Float32Array, dims: number): Float32Array {
  const out = new Float32Array(dims);
  out.set(v.length > dims ? v.subarray(0, dims) : v);
  let sum = 0;
  for (let i = 0; i < dims; i++) sum += out[i]! * out[i]!;
  if (sum === 0) out[0] = 1;
  else {
    const inv = 1 / Math.sqrt(sum);
    for (let i = 0; i < dims; i++) out[i]! *= inv;
  }
  return out;
}

async function requestBatch(
  cfg: RemoteEmbedderConfig,
  model: string,
  input: readonly string[],
  signal: AbortSignal | undefined,
): Promise<Float32Array[]> {
  const url = `${cfg.baseUrl.replace(/\/+$/, '')}/embeddings`;
  const timeout = AbortSignal.timeout(cfg.timeout ?? REMOTE_DEFAULTS.timeout);
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (cfg.apiKey) headers.authorization = `Bearer ${cfg.apiKey}`;
  let res;
  try {
    res = await fetch(url, {
      method: 'POST',
      headers,
      body: JSON.stringify({ input, model: cfg.model ?? model, encoding_format: 'float' }),
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
    });
  } catch (err) {
    throw new RemoteEmbeddingError(`remote embeddings: POST ${url}: request failed`, undefined, {
      cause: err,
    });
  }
  if (!res.ok) {
    const text = (await res.text().catch(() => '')).slice(0, 300);
    throw new RemoteEmbeddingError(
      `remote embeddings: POST ${url}: ${res.status} ${text}`,
      res.status,
    );
  }
  const body = (await res.json()) as { data?: unknown };
  if (!Array.isArray(body.data) || body.data.length !== input.length) {
    throw new RemoteEmbeddingError(
      `remote embeddings: POST ${url}: expected ${input.length} items`,
    );
  }
  const out = new Array<Float32Array>(input.length);
  (body.data as UpstreamItem[]).forEach((item, pos) => {
    const idx = typeof item.index === 'number' ? item.index : pos;
    if (!Number.isInteger(idx) || idx < 0 || idx >= input.length || out[idx]) {
      throw new RemoteEmbeddingError(`remote embeddings: POST ${url}: bad item index ${idx}`);
    }
    out[idx] = toVector(item.embedding);
  });
  return out;
}

/**
 * Embed texts through the configured OpenAI-compatible endpoint, in batches of `batchSize`, then
 * fit every vector to `dimensions` (truncate or zero-pad) and L2-normalise, as the local model does.
 * @param dimensions output size. @default the spec model's full dimension
 * @throws RangeError for an unknown spec model or out-of-range `dimensions`.
 * @throws RemoteEmbeddingError when the upstream fails, times out or answers malformed data.
 */
export async function embedTextsRemote(
  cfg: RemoteEmbedderConfig,
  texts: readonly string[],
  model: string,
  dimensions?: number,
  signal?: AbortSignal,
): Promise<Float32Array[]> {
  const [, dims] = resolveModel(model, dimensions);
  const size = cfg.batchSize ?? REMOTE_DEFAULTS.batchSize;
  const out: Float32Array[] = [];
  for (let i = 0; i < texts.length; i += size) {
    const batch = await requestBatch(cfg, model, texts.slice(i, i + size), signal);
    for (const v of batch) out.push(fit(v, dims));
  }
  return out;
}

/**
 * Contextualized embeddings through the upstream: every chunk is embedded at the spec model's full
 * dimension, mixed with its document's context exactly like the local model, then truncated.
 * @throws RangeError for an unknown spec model or out-of-range `dimensions`.
 * @throws RemoteEmbeddingError when the upstream fails.
 */
export async function embedDocumentsRemote(
  cfg: RemoteEmbedderConfig,
  docs: readonly (readonly string[])[],
  model: string,
  dimensions?: number,
  signal?: AbortSignal,
): Promise<Float32Array[][]> {
  const [local, dims] = resolveModel(model, dimensions);
  const flat = await embedTextsRemote(cfg, docs.flat(), model, local.dimensions, signal);
  let at = 0;
  return docs.map((chunks) => {
    const vs = flat.slice(at, at + chunks.length);
    at += chunks.length;
    mixContext(vs, local.contextAlpha);
    return dims === local.dimensions ? vs : vs.map((v) => fit(v, dims));
  });
}
