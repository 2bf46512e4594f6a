import { cosineSimilarity, hammingSimilarity } from '../../client/embedding-math.js';
import {
  EMBEDDING_ENCODINGS,
  EMBEDDING_MODELS,
  STANDARD_EMBEDDING_MODELS,
  decodeBinary,
  decodeInt8,
  unpackBits,
} from '../../protocol/index.js';
import type { EmbeddingsResponse } from '../../protocol/index.js';
import { defineCommand } from '../command.js';
import { EXIT, UsageError } from '../common.js';
import { choiceOption, formatTable, printJson, rangeOption } from '../output.js';

const DEFAULT_MODEL = 'svc-embed-v1-0.6b';
const SHOWN_VALUES = 8;

/** `svc embed <text...>`: dims, encoding, first values and the similarity matrix. */
export const embedCommand = defineCommand({
  name: 'embed',
  summary: 'embeddings of texts, and how similar they are',
  usage: 'svc embed <text>... [options]      (each argument is one text; quote multi-word texts)',
  positionals: true,
  options: {
    model: {
      type: 'string',
      arg: '<m>',
      help: `${STANDARD_EMBEDDING_MODELS.join(', ')} (default ${DEFAULT_MODEL})`,
    },
    dimensions: {
      type: 'string',
      arg: '<n>',
      help: "matryoshka dimension, 128..the model's full size (default full)",
    },
    encoding: {
      type: 'string',
      arg: '<e>',
      help: `${EMBEDDING_ENCODINGS.join(' or ')} (default base64_int8)`,
    },
  },
  json: 'print the response, plus the similarity matrix, as JSON',
  dataDir: true,
  notes: `Prints each vector's dimension, encoding and first values; for two or more texts, the cosine
similarity matrix (Hamming similarity for base64_binary).`,
  examples: [
    'svc embed "lithium iron phosphate" "LFP battery" "coral reef bleaching"',
    'svc embed "hello world" --dimensions 256 --encoding base64_binary',
    'svc embed "a" "b" --json | jq .similarity',
  ],
  async run(ctx) {
    const { values, positionals } = ctx;
    if (positionals.length === 0 || positionals.some((t) => t.trim() === '')) {
      throw new UsageError('embed: give one or more non-empty texts (svc embed --help)');
    }
    const model =
      choiceOption('embed', 'model', values.model, STANDARD_EMBEDDING_MODELS) ?? DEFAULT_MODEL;
    const info = EMBEDDING_MODELS[model];
    const dimensions = rangeOption(
      'embed',
      'dimensions',
      values.dimensions,
      info.minDimensions,
      info.dimensions,
    );
    const encoding =
      choiceOption('embed', 'encoding', values.encoding, EMBEDDING_ENCODINGS) ?? 'base64_int8';

    const { client } = await ctx.service();
    const signal = ctx.signal;
    const response = await client.embeddings.create(
      {
        model,
        input: positionals,
        encoding_format: encoding,
        ...(dimensions !== undefined && { dimensions }),
      },
      { signal },
    );
    const dims = dimensions ?? info.dimensions;
    const vectors = decodeAll(response, encoding, dims);
    const similarity = positionals.length > 1 ? similarityMatrix(vectors, encoding, dims) : null;
    if (ctx.json) {
      printJson({ ...response, dimensions: dims, encoding_format: encoding, similarity });
      return EXIT.ok;
    }
    process.stdout.write(
      `model ${response.model} · ${dims} dimensions · ${encoding} · ${response.usage.total_tokens} tokens\n\n`,
    );
    positionals.forEach((text, i) => {
      const v = vectors[i];
      const shown = v === undefined ? [] : firstValues(v, encoding, dims);
      process.stdout.write(
        `[${i + 1}] ${JSON.stringify(text.length > 60 ? `${text.slice(0, 59)}…` : text)}\n` +
          `    ${encoding === 'base64_int8' ? 'int8' : 'bits'}: ${shown.join(' ')}${dims > SHOWN_VALUES ? ' …' : ''}\n`,
      );
    });
    if (similarity) {
      const kind = encoding === 'base64_int8' ? 'cosine' : 'hamming';
      process.stdout.write(`\nSimilarity (${kind}):\n`);
      process.stdout.write(
        formatTable(
          ['', ...positionals.map((_, i) => `[${i + 1}]`)],
          similarity.map((row, i) => [`[${i + 1}]`, ...row.map((s) => s.toFixed(3))]),
          { alignRight: positionals.map((_, i) => i + 1) },
        ),
      );
    }
    return EXIT.ok;
  },
});

type Vector = Int8Array | Uint8Array;

function decodeAll(response: EmbeddingsResponse, encoding: string, dims: number): Vector[] {
  // `index` says which input a vector belongs to; do not trust the order of `data`.
  const out: Vector[] = [];
  for (const item of response.data) {
    out[item.index] =
      encoding === 'base64_int8' ? decodeInt8(item.embedding) : decodeBinary(item.embedding);
  }
  for (const [i, v] of out.entries()) {
    const expected = encoding === 'base64_int8' ? dims : Math.ceil(dims / 8);
    if (v === undefined || v.length !== expected) {
      throw new Error(
        `embed: vector ${i + 1} has ${v?.length ?? 0} values, expected ${expected} for ${dims} dimensions`,
      );
    }
  }
  return out;
}

function firstValues(v: Vector, encoding: string, dims: number): number[] {
  if (encoding === 'base64_int8') return Array.from(v.subarray(0, SHOWN_VALUES));
  return Array.from(unpackBits(v as Uint8Array, dims).subarray(0, SHOWN_VALUES));
}

function similarityMatrix(vectors: Vector[], encoding: string, dims: number): number[][] {
  return vectors.map((a) =>
    vectors.map((b) =>
      encoding === 'base64_int8'
        ? cosineSimilarity(a as Int8Array, b as Int8Array)
        : hammingSimilarity(a as Uint8Array, b as Uint8Array, dims),
    ),
  );
}
