// Non-cryptographic 32-bit hashing used by the local embedding model. Everything here is pure and
// allocation-free: the feature extractor calls it once per n-gram of every word.

/** FNV-1a 32-bit offset basis. */
export const FNV_OFFSET = 0x811c9dc5;

/** FNV-1a 32-bit prime. */
export const FNV_PRIME = 0x01000193;

/**
 * Feed one UTF-16 code unit into an FNV-1a 32-bit state.
 * @example fnvStep(FNV_OFFSET, 97)
 */
export function fnvStep(h: number, code: number): number {
  return Math.imul(h ^ code, FNV_PRIME);
}

/**
 * FNV-1a 32-bit hash of `s` (UTF-16 code units), seeded by `seed` so feature kinds never collide by
 * construction.
 * @default seed FNV_OFFSET
 */
export function fnv1a(s: string, seed: number = FNV_OFFSET): number {
  let h = seed | 0;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), FNV_PRIME);
  return h >>> 0;
}

/**
 * MurmurHash3 finaliser: spreads every input bit over the whole word, so positions and signs derived
 * from FNV states (whose low bits mix poorly) stay uniform.
 */
export function fmix32(x: number): number {
  let h = x | 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** Combine two 32-bit hashes into one (order-sensitive), for word bigrams. */
export function combineHashes(a: number, b: number, salt: number): number {
  return fmix32(Math.imul(a ^ salt, 0x9e3779b1) ^ fmix32(b + salt));
}
