// Shared imports of the semantic embedder tests.
import { EMBEDDING_MODELS } from '../../../src/protocol/models.js';
import type { EmbeddingModel } from '../../../src/protocol/models.js';

export {
  ENCODER_ID,
  SemanticEmbedder,
  VectorCache,
  createEmbedder,
  embedDocuments,
  embedTexts,
  encodeEmbedding,
  splitPieces,
} from '../../../src/server/engines/embedder/index.js';

/** Every spec embedding model. */
export const EMBEDDING_MODEL_NAMES = Object.keys(EMBEDDING_MODELS) as EmbeddingModel[];
