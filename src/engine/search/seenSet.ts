// The set of visited fingerprints: open addressing over typed arrays, so it holds no object per
// state and is not bounded by the 2^24 entries of a JS Map. `put` is the test-and-insert that
// breadth-first search needs: it answers "already seen?" and inserts in one probe sequence.

/** Returned by `put` for a fingerprint that was not there before. */
export const NEW = -1;

export class SeenSet {
  private hi: Uint32Array;
  private lo: Uint32Array;
  private id: Int32Array; // -1 marks an empty slot
  private mask: number;
  private count = 0;

  constructor(initialCapacity = 1 << 12) {
    let cap = 16;
    while (cap < initialCapacity) cap *= 2;
    this.hi = new Uint32Array(cap);
    this.lo = new Uint32Array(cap);
    this.id = new Int32Array(cap).fill(-1);
    this.mask = cap - 1;
  }

  get size(): number {
    return this.count;
  }

  /** Bytes held by the table's arrays. */
  get bytes(): number {
    return this.hi.byteLength + this.lo.byteLength + this.id.byteLength;
  }

  /**
   * Inserts (hi, lo) with `newId` unless present. Returns NEW if inserted, else the id stored
   * with the fingerprint when it was first seen.
   */
  put(hi: number, lo: number, newId: number): number {
    let i = (lo ^ Math.imul(hi, 0x9e3779b1)) & this.mask;
    for (;;) {
      const found = this.id[i];
      if (found === -1) {
        this.hi[i] = hi;
        this.lo[i] = lo;
        this.id[i] = newId;
        if (++this.count * 2 > this.mask) this.grow();
        return NEW;
      }
      if (this.lo[i] === lo && this.hi[i] === hi) return found;
      i = (i + 1) & this.mask;
    }
  }

  /** The id stored with (hi, lo), or -1. */
  get(hi: number, lo: number): number {
    let i = (lo ^ Math.imul(hi, 0x9e3779b1)) & this.mask;
    for (;;) {
      const found = this.id[i];
      if (found === -1) return -1;
      if (this.lo[i] === lo && this.hi[i] === hi) return found;
      i = (i + 1) & this.mask;
    }
  }

  private grow(): void {
    const { hi, lo, id } = this;
    const cap = hi.length * 2;
    this.hi = new Uint32Array(cap);
    this.lo = new Uint32Array(cap);
    this.id = new Int32Array(cap).fill(-1);
    this.mask = cap - 1;
    for (let j = 0; j < hi.length; j++) {
      if (id[j] === -1) continue;
      let i = (lo[j] ^ Math.imul(hi[j], 0x9e3779b1)) & this.mask;
      while (this.id[i] !== -1) i = (i + 1) & this.mask;
      this.hi[i] = hi[j];
      this.lo[i] = lo[j];
      this.id[i] = id[j];
    }
  }
}
