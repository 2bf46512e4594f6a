/**
 * Open-addressing counter of 32-bit feature hashes in typed arrays: no per-feature allocation and no
 * boxed keys (a `Map` with uint32 keys boxes every key above 2^30). Reused across texts: `clear()`
 * resets only the used slots.
 */
export class HashCounter {
  private keys: Int32Array;
  private counts: Int32Array;
  private used: Int32Array;
  private mask: number;
  /** Number of distinct keys. */
  size = 0;

  /** @param capacity initial slot count, rounded up to a power of two. @default 1024 */
  constructor(capacity = 1024) {
    const cap = 1 << Math.ceil(Math.log2(Math.max(16, capacity)));
    this.keys = new Int32Array(cap);
    this.counts = new Int32Array(cap);
    this.used = new Int32Array(cap);
    this.mask = cap - 1;
  }

  /** Count one occurrence of `key`. */
  add(key: number): void {
    const k = key | 0;
    const { keys, counts, mask } = this;
    let i = (k ^ (k >>> 15)) & mask;
    while (counts[i] !== 0 && keys[i] !== k) i = (i + 1) & mask;
    if (counts[i] === 0) {
      keys[i] = k;
      this.used[this.size++] = i;
      counts[i] = 1;
      // Keep the load factor under 1/2 so probes stay short.
      if (this.size * 2 > mask) this.grow();
    } else {
      counts[i]!++;
    }
  }

  /** The `n`-th distinct key (0 <= n < size), in insertion order. */
  keyAt(n: number): number {
    return this.keys[this.used[n]!]!;
  }

  /** The count of the `n`-th distinct key. */
  countAt(n: number): number {
    return this.counts[this.used[n]!]!;
  }

  /** Forget every key, keeping the allocated capacity. */
  clear(): void {
    for (let n = 0; n < this.size; n++) this.counts[this.used[n]!] = 0;
    this.size = 0;
  }

  private grow(): void {
    const oldKeys = this.keys;
    const oldCounts = this.counts;
    const oldUsed = this.used;
    const n = this.size;
    const cap = (this.mask + 1) * 2;
    this.keys = new Int32Array(cap);
    this.counts = new Int32Array(cap);
    this.used = new Int32Array(cap);
    this.mask = cap - 1;
    this.size = 0;
    for (let j = 0; j < n; j++) {
      const i = oldUsed[j]!;
      const k = oldKeys[i]!;
      const c = oldCounts[i]!;
      let p = (k ^ (k >>> 15)) & this.mask;
      while (this.counts[p] !== 0) p = (p + 1) & this.mask;
      this.keys[p] = k;
      this.counts[p] = c;
      this.used[this.size++] = p;
    }
  }
}
