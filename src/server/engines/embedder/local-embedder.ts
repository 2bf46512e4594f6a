import { FeatureCounts, countFeatures } from './features.js';
import type { HashCounter } from './hash-counter.js';
import { resolveModel } from './local-models.js';
import type { LocalModelConfig } from './local-models.js';
import { mixContext, truncateNormalized } from './vector-ops.js';

/** Per-model scratch state, reused by every call (the engine runs on one thread). */
interface Scratch {
  readonly acc: Float32Array;
  readonly counts: FeatureCounts;
  // Slot constants are copied into typed arrays so the hot loop reads no JS objects.
  readonly ranges: Int32Array;
  readonly slotWeights: Float32Array;
  readonly slotSalts: Int32Array;
}

const scratch = new Map<string, Scratch>();

function scratchFor(cfg: LocalModelConfig): Scratch {
  let s = scratch.get(cfg.name);
  if (!s) {
    s = {
      acc: new Float32Array(cfg.dimensions),
      counts: new FeatureCounts(),
      ranges: Int32Array.from(cfg.slotRanges),
      slotWeights: Float32Array.from(cfg.slotWeights),
      slotSalts: Int32Array.from(cfg.slotRanges, (_, j) => Math.imul(j + 1, 0x9e3779b9) ^ cfg.seed),
    };
    scratch.set(cfg.name, s);
  }
  return s;
}

/**
 * Add every feature of `counts` with weight `w * (1 + ln tf)` (sublinear TF) into its slots: each
 * slot gets a position in its nested range and a sign, both from one mixed 32-bit hash.
 */
function accumulate(counter: HashCounter, w: number, s: Scratch): void {
  if (w === 0) return;
  const { acc, ranges, slotWeights, slotSalts } = s;
  const k = ranges.length;
  for (let n = 0; n < counter.size; n++) {
    const h = counter.keyAt(n);
    const tf = counter.countAt(n);
    const fw = tf === 1 ? w : w * (1 + Math.log(tf));
    for (let j = 0; j < k; j++) {
      // fmix32 (hashing.ts) inlined: this is the innermost loop of the engine.
      let x = (h + slotSalts[j]!) | 0;
      x ^= x >>> 16;
      x = Math.imul(x, 0x85ebca6b);
      x ^= x >>> 13;
      x = Math.imul(x, 0xc2b2ae35);
      x ^= x >>> 16;
      const pos = (x & 0x7fffffff) % ranges[j]!;
      const v = fw * slotWeights[j]!;
      acc[pos]! += x & 0x80000000 ? -v : v;
    }
  }
}

/** Full-dimension, L2-normalised embedding of one text (a fresh array). */
function embedFull(text: string, cfg: LocalModelConfig): Float32Array {
  const s = scratchFor(cfg);
  const { acc, counts } = s;
  acc.fill(0);
  countFeatures(text, cfg, counts);
  const wt = cfg.weights;
  accumulate(counts.unigrams, wt.unigram, s);
  accumulate(counts.stopwords, wt.stopword, s);
  accumulate(counts.bigrams, wt.bigram, s);
  accumulate(counts.skipBigrams, wt.skipBigram, s);
  accumulate(counts.charGrams, wt.charGram, s);
  // Mean pooling over tokens; the L2 normalisation in truncateNormalized follows.
  const inv = counts.tokens > 0 ? 1 / counts.tokens : 1;
  for (let i = 0; i < acc.length; i++) acc[i]! *= inv;
  return truncateNormalized(acc, cfg.dimensions);
}

/**
 * Embed independent texts with a local model: deterministic feature hashing, mean pooling, L2
 * normalisation, then matryoshka truncation to `dimensions` and renormalisation. A contextualized
 * model name embeds each text as its own one-chunk document (which equals its plain vector).
 * @param dimensions output size. @default the model's full dimension
 * @returns one unit-length `Float32Array` per text, in input order.
 * @throws RangeError for an unknown model or an out-of-range `dimensions`.
 * @example embedTexts(['hello world'], 'svc-embed-v1-0.6b', 256)[0].length // 256
 */
export function embedTexts(
  texts: readonly string[],
  model: string,
  dimensions?: number,
): Float32Array[] {
  const [cfg, dims] = resolveModel(model, dimensions);
  const out = new Array<Float32Array>(texts.length);
  for (let i = 0; i < texts.length; i++) {
    const full = embedFull(texts[i]!, cfg);
    out[i] = dims === cfg.dimensions ? full : truncateNormalized(full, dims);
  }
  return out;
}

/**
 * Embed the chunks of several documents (spec 4.9). Each chunk vector is mixed with its document's
 * context, `normalize(chunk + alpha * normalize(sum of the document's chunks))`, at full dimension
 * before truncation, so chunks of one document sit measurably closer together. A one-chunk document
 * (a query sent as `[[query]]`) is unchanged by the mixing. A standard model name uses alpha = 0.
 * @param dimensions output size. @default the model's full dimension
 * @returns per document, one unit-length `Float32Array` per chunk, in input order.
 * @throws RangeError for an unknown model or an out-of-range `dimensions`.
 */
export function embedDocuments(
  docs: readonly (readonly string[])[],
  model: string,
  dimensions?: number,
): Float32Array[][] {
  const [cfg, dims] = resolveModel(model, dimensions);
  return docs.map((chunks) => {
    const full = chunks.map((c) => embedFull(c, cfg));
    mixContext(full, cfg.contextAlpha);
    return dims === cfg.dimensions ? full : full.map((v) => truncateNormalized(v, dims));
  });
}
