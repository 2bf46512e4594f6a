/**
 * Claim verification: pure language work (no browser, no network) that decides whether a passage
 * supports a claim, contradicts it, or is about something else. Used by the evidence recipes after
 * a passage is located, and importable on its own.
 */
export { verifyClaim, statedKeyTerms, wordSwapsOnly, CLAIM_DEFAULTS } from './verify-claim.js';
export { areAntonyms } from './words.js';
export { statementsOf } from './statements.js';
export type {
  ClaimVerdict,
  ClaimVerification,
  Conflict,
  ConflictKind,
  VerifyClaimOptions,
} from './verify-claim.js';
export { analyze } from './analyze.js';
export type { Analysis, Comparative, KeyTerm, Token } from './analyze.js';
export { compareQuantities, comparable } from './compare-quantities.js';
export { extractQuantities } from './quantities.js';
export type { Bound, Quantity, QuantityKind } from './quantities.js';
export { loadWordNet } from './wordnet.js';
export type { WordNet, WordNetPos } from './wordnet.js';
