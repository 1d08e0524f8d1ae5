// The visited set of an exact search (--exact): every state's full canonical encoding is kept,
// and two states are the same only when their encodings are equal byte for byte. The 64-bit
// fingerprint still places a state in the table and rejects most unequal states at once, but
// a fingerprint collision can no longer merge two different states: it is counted instead.
// TLC has no such mode; it is here to confirm a proof without the collision caveat, at the
// cost of memory proportional to the states' size.
import { NEW } from './seenSet.ts';

/** Encodings are stored in chunks of this size, so no single buffer has to hold them all. */
const CHUNK = 1 << 24;

export class ExactSeenSet {
  private hi: Uint32Array;
  private lo: Uint32Array;
  private slotId: Int32Array; // -1 marks an empty slot
  private mask: number;
  private count = 0;
  /** Per id: which chunk holds its encoding, where in it, and how long it is. */
  private chunkOf = new Uint32Array(1024);
  private offsetOf = new Uint32Array(1024);
  private lengthOf = new Uint32Array(1024);
  private readonly chunks: Uint8Array[] = [];
  private used = CHUNK; // bytes used in the last chunk; full at the start, so one is made
  private storedBytes = 0;
  /** Distinct states found to share a fingerprint with an earlier, different state. */
  collisions = 0;

  constructor(initialCapacity = 1 << 12) {
    let cap = 16;
    while (cap < initialCapacity) cap *= 2;
    this.hi = new Uint32Array(cap);
    this.lo = new Uint32Array(cap);
    this.slotId = new Int32Array(cap).fill(-1);
    this.mask = cap - 1;
  }

  get size(): number {
    return this.count;
  }

  /** Bytes held: the table, the per-state indexes and the encodings. */
  get bytes(): number {
    return this.hi.byteLength * 3 + this.chunkOf.byteLength * 3 + this.storedBytes;
  }

  /**
   * Inserts the state encoded as `bytes[0, len)`, with fingerprint (hi, lo), under `newId`
   * (ids come in order 0, 1, 2, ...) unless an equal state is there. Returns NEW if inserted,
   * else the id of the equal state.
   */
  put(hi: number, lo: number, bytes: Uint8Array, len: number, newId: number): number {
    const i = this.find(hi, lo, bytes, len);
    if (this.slotId[i] !== -1) return this.slotId[i];
    this.hi[i] = hi;
    this.lo[i] = lo;
    this.slotId[i] = newId;
    this.store(newId, bytes, len);
    if (++this.count * 2 > this.mask) this.grow();
    return NEW;
  }

  /** The id of the state encoded as `bytes[0, len)`, or -1. */
  get(hi: number, lo: number, bytes: Uint8Array, len: number): number {
    return this.slotId[this.find(hi, lo, bytes, len)];
  }

  /** The slot holding the equal state, or the empty slot where it would go. */
  private find(hi: number, lo: number, bytes: Uint8Array, len: number): number {
    let i = (lo ^ Math.imul(hi, 0x9e3779b1)) & this.mask;
    for (;;) {
      const id = this.slotId[i];
      if (id === -1) return i;
      if (this.lo[i] === lo && this.hi[i] === hi) {
        if (this.equal(id, bytes, len)) return i;
        this.collisions++;
      }
      i = (i + 1) & this.mask;
    }
  }

  private equal(id: number, bytes: Uint8Array, len: number): boolean {
    if (this.lengthOf[id] !== len) return false;
    const chunk = this.chunks[this.chunkOf[id]];
    const at = this.offsetOf[id];
    for (let k = 0; k < len; k++) if (chunk[at + k] !== bytes[k]) return false;
    return true;
  }

  private store(id: number, bytes: Uint8Array, len: number): void {
    if (id >= this.chunkOf.length) {
      const grow = (a: Uint32Array) => {
        const b = new Uint32Array(Math.max(a.length * 2, id + 1));
        b.set(a);
        return b;
      };
      this.chunkOf = grow(this.chunkOf);
      this.offsetOf = grow(this.offsetOf);
      this.lengthOf = grow(this.lengthOf);
    }
    if (this.used + len > CHUNK || this.chunks.length === 0) {
      this.chunks.push(new Uint8Array(Math.max(CHUNK, len)));
      this.used = 0;
    }
    const last = this.chunks.length - 1;
    this.chunks[last].set(bytes.subarray(0, len), this.used);
    this.chunkOf[id] = last;
    this.offsetOf[id] = this.used;
    this.lengthOf[id] = len;
    this.used += len;
    this.storedBytes += len;
  }

  private grow(): void {
    const { hi, lo, slotId } = this;
    const cap = hi.length * 2;
    this.hi = new Uint32Array(cap);
    this.lo = new Uint32Array(cap);
    this.slotId = new Int32Array(cap).fill(-1);
    this.mask = cap - 1;
    for (let j = 0; j < hi.length; j++) {
      if (slotId[j] === -1) continue;
      let i = (lo[j] ^ Math.imul(hi[j], 0x9e3779b1)) & this.mask;
      while (this.slotId[i] !== -1) i = (i + 1) & this.mask;
      this.hi[i] = hi[j];
      this.lo[i] = lo[j];
      this.slotId[i] = slotId[j];
    }
  }
}
