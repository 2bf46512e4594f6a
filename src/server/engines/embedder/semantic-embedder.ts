import type { Database } from 'better-sqlite3';
import { embedDocuments, embedTexts } from './local-embedder.js';
import { resolveModel } from './local-models.js';
import type { LocalModelConfig } from './local-models.js';
import { BASE_DIMENSIONS, projectionFor } from './projection.js';
import { SentenceEncoderUnavailableError, sharedSentenceEncoder } from './sentence-encoder.js';
import type { SentenceEncoder, SentenceEncoderOptions } from './sentence-encoder.js';
import { VectorCache } from './vector-cache.js';
import { mixContext, truncateNormalized } from './vector-ops.js';

/** Which model computes the vectors. */
export type EmbedderEngine = 'use-lite' | 'hashing' | 'remote';

/** Which local model to run: the sentence encoder when installed (else hashing), or hashing. */
export type LocalEngineChoice = 'auto' | 'hashing';

/** Defaults of {@link SemanticEmbedder}. */
export const SEMANTIC_DEFAULTS = {
  /** @default 'auto' */
  engine: 'auto',
  /**
   * Longest piece given to the encoder in one go, in characters; a longer text is cut at sentence
   * or word boundaries and its vector is the length-weighted mean of its pieces (mean pooling).
   * @default 800
   */
  pieceChars: 800,
  /**
   * Weight of the document context mixed into each contextualized chunk. Lower than the hashing
   * model's: the encoder's chunk vectors already carry meaning, the context only nudges them.
   * @default 0.3
   */
  contextAlpha: 0.3,
} as const;

/** Options of {@link SemanticEmbedder}. */
export interface SemanticEmbedderOptions {
  /** @default 'auto' */
  engine?: LocalEngineChoice | undefined;
  /** Persist encoder vectors in this database, so a text is embedded once across restarts. */
  db?: Database | undefined;
  /** Told once when the encoder cannot be loaded and the hashing model takes over. */
  onFallback?: ((reason: string) => void) | undefined;
  /** Encoder packages (tests point this at an absent package to exercise the fallback). */
  encoder?: SentenceEncoderOptions | undefined;
}

/**
 * The local embedder: the Universal Sentence Encoder lite (512 dimensions) mapped to each spec
 * model by a fixed isometric projection, or the deterministic hashing model when the encoder's
 * package is absent, fails to load, or `engine: 'hashing'` is asked for.
 */
export class SemanticEmbedder {
  private readonly encoder: SentenceEncoder | undefined;
  private readonly cache: VectorCache | undefined;
  private readonly onFallback: ((reason: string) => void) | undefined;
  private readonly pending = new Map<string, Promise<Float32Array>>();
  private fallback: string | undefined;

  constructor(options: SemanticEmbedderOptions = {}) {
    this.onFallback = options.onFallback;
    if ((options.engine ?? SEMANTIC_DEFAULTS.engine) === 'hashing') {
      this.fallback = 'hashing model requested';
      return;
    }
    this.encoder = sharedSentenceEncoder(options.encoder);
    this.cache = new VectorCache(this.encoder.id, { db: options.db });
  }

  /** The model answering now: `use-lite` until the encoder fails to load, then `hashing`. */
  get engine(): 'use-lite' | 'hashing' {
    return this.fallback === undefined ? 'use-lite' : 'hashing';
  }

  /** Why the hashing model answers, or `undefined` while the encoder does. */
  get fallbackReason(): string | undefined {
    return this.fallback;
  }

  /**
   * Unit vectors for independent texts (spec 4.8). A contextualized model name embeds each text
   * as its own one-chunk document, which equals its plain vector.
   * @throws RangeError for an unknown model or an out-of-range `dimensions`.
   */
  async embedTexts(
    texts: readonly string[],
    model: string,
    dimensions?: number,
  ): Promise<Float32Array[]> {
    const [cfg, dims] = resolveModel(model, dimensions);
    const base = await this.base(texts);
    if (!base) return embedTexts(texts, model, dimensions);
    return base.map((v) => output(v, cfg, dims));
  }

  /**
   * Context-mixed unit vectors per document chunk (spec 4.9): each chunk's encoder vector becomes
   * `normalize(v + alpha * normalize(sum of the document's vectors))` before projection. A
   * one-chunk document (a query sent as `[[query]]`) is unchanged; a standard model uses alpha 0.
   * @throws RangeError for an unknown model or an out-of-range `dimensions`.
   */
  async embedDocuments(
    docs: readonly (readonly string[])[],
    model: string,
    dimensions?: number,
  ): Promise<Float32Array[][]> {
    const [cfg, dims] = resolveModel(model, dimensions);
    const base = await this.base(docs.flat());
    if (!base) return embedDocuments(docs, model, dimensions);
    const alpha = cfg.contextAlpha > 0 ? SEMANTIC_DEFAULTS.contextAlpha : 0;
    let at = 0;
    return docs.map((chunks) => {
      // Copies: cached vectors are shared and mixContext works in place.
      const vs = base.slice(at, (at += chunks.length)).map((v) => Float32Array.from(v));
      mixContext(vs, alpha);
      return vs.map((v) => output(v, cfg, dims));
    });
  }

  /** 512-dim encoder vectors, or `undefined` when the hashing model must answer. */
  private async base(texts: readonly string[]): Promise<Float32Array[] | undefined> {
    if (this.fallback !== undefined || !this.encoder || !this.cache) return undefined;
    try {
      return await Promise.all(texts.map((t) => this.one(t)));
    } catch (error) {
      if (!(error instanceof SentenceEncoderUnavailableError)) throw error;
      if (this.fallback === undefined) {
        this.fallback = error.message;
        this.onFallback?.(error.message);
      }
      return undefined;
    }
  }

  // One text: from the cache, from a request already computing it, or from the encoder. The
  // encoder batches the pieces of concurrent calls itself.
  private one(text: string): Promise<Float32Array> {
    const cache = this.cache!;
    const key = cache.keyOf(text);
    const hit = cache.lookup(key);
    if (hit) return Promise.resolve(hit);
    let p = this.pending.get(key);
    if (!p) {
      p = this.compute(text).then(
        (v) => {
          this.pending.delete(key);
          cache.store([[key, v]]);
          return v;
        },
        (error: unknown) => {
          this.pending.delete(key);
          throw error;
        },
      );
      this.pending.set(key, p);
    }
    return p;
  }

  private async compute(text: string): Promise<Float32Array> {
    const pieces = splitPieces(text, SEMANTIC_DEFAULTS.pieceChars);
    if (pieces.length === 0) return basis();
    const vectors = await this.encoder!.embed(pieces);
    const sum = new Float64Array(BASE_DIMENSIONS);
    vectors.forEach((v, i) => {
      const w = pieces[i]!.length;
      for (let d = 0; d < BASE_DIMENSIONS; d++) sum[d]! += w * v[d]!;
    });
    return truncateNormalized(sum, BASE_DIMENSIONS);
  }
}

/** Projection to the model's full dimension, then matryoshka truncation and renormalisation. */
function output(v: Float32Array, cfg: LocalModelConfig, dims: number): Float32Array {
  const full = projectionFor(cfg.dimensions, cfg.seed).apply(v);
  return dims === cfg.dimensions ? full : truncateNormalized(full, dims);
}

/** The first basis vector: what a text without any content embeds to (as in the hashing model). */
function basis(): Float32Array {
  const v = new Float32Array(BASE_DIMENSIONS);
  v[0] = 1;
  return v;
}

/**
 * Cuts `text` into pieces of at most `max` characters at sentence ends, else at spaces, else hard;
 * whitespace-only pieces are dropped.
 */
export function splitPieces(text: string, max: number): string[] {
  const out: string[] = [];
  let rest = text.trim();
  while (rest.length > max) {
    const window = rest.slice(0, max + 1);
    let cut = Math.max(window.lastIndexOf('. '), window.lastIndexOf('\n'));
    if (cut < max / 2) cut = window.lastIndexOf(' ');
    if (cut < max / 2) cut = max - 1;
    out.push(rest.slice(0, cut + 1).trim());
    rest = rest.slice(cut + 1).trim();
  }
  if (rest) out.push(rest);
  return out.filter((p) => p.length > 0);
}
