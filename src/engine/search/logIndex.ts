// The visited set of a search: a hash index over the trace log's fingerprints. Each slot holds
// only a state's id (4 bytes); the fingerprint it is compared with is read from the log, which
// keeps every state's fingerprint anyway (for replay). So a visited state costs the log's 14
// bytes plus 4 bytes per slot, instead of a second copy of its fingerprint beside its id.
//
// The table's size is not a power of two: it grows by half when three quarters full, so it is
// always between half and three quarters full (a doubling table falls to three eighths). A
// fingerprint's slot is its mixed hash scaled to the table (multiply-shift), and probing is
// linear.
//
// A slot's id needs only as many bits as the table has slots; the bits above it hold the low
// bits of the fingerprint's `lo` (a tag, independent of the slot's position). A probe reads the
// log only where the tag matches: the log's fingerprints are a cache miss away, and before the
// tags a new state's probe read the log once per occupied slot it passed (LamportMutex's
// search spent 4% on that read).
import { NEW } from './seenSet.ts';
import type { StateLog } from './trace.ts';

export { NEW };

const MAX_LOAD = 0.75;
const GROWTH = 1.5;

export class LogIndex {
  /** Per slot, id + 1 in its low idBits bits, the tag above; 0 marks an empty slot. */
  private slots: Uint32Array;
  private count = 0;
  private limit: number;
  /** Bits of a slot for id + 1: enough for the table's size (ids stay below it). */
  private idBits = 0;
  /** The low idBits bits set, as a signed 32-bit integer (-1 with all 32). */
  private idMask = 0;

  constructor(
    private readonly log: StateLog,
    initialCapacity = 1 << 12,
  ) {
    this.slots = new Uint32Array(Math.max(16, initialCapacity));
    this.limit = Math.floor(this.slots.length * MAX_LOAD);
    this.layout();
  }

  /** The id's and the tag's bits for the table's size. */
  private layout(): void {
    this.idBits = 32 - Math.clz32(this.slots.length);
    this.idMask = this.idBits === 32 ? -1 : (2 ** this.idBits - 1) | 0;
  }

  /** (hi, lo)'s tag, where a slot holds it: `lo`'s low bits, above the id's. */
  private tagOf(lo: number): number {
    return this.idBits === 32 ? 0 : (lo << this.idBits) >>> 0;
  }

  get size(): number {
    return this.count;
  }

  /** Bytes held by the table (the fingerprints are counted with the log). */
  get bytes(): number {
    return this.slots.byteLength;
  }

  /**
   * Test-and-insert. Returns the id of the state with fingerprint (hi, lo) if there is one; else
   * stores `newId` and returns NEW. `newId` must be the log's size, the id the log gives the
   * state next, and the caller must add the state, with this fingerprint, to the log before it
   * calls this index again: the index reads fingerprints only from the log.
   */
  put(hi: number, lo: number, newId: number): number {
    // Grow before probing, not after inserting: every id in the table is then in the log.
    if (this.count >= this.limit) this.grow();
    const i = this.probe(hi, lo);
    const s = this.slots[i];
    if (s !== 0) return ((s & this.idMask) >>> 0) - 1;
    this.slots[i] = (this.tagOf(lo) | (newId + 1)) >>> 0;
    this.count++;
    return NEW;
  }

  /** The id of the state with fingerprint (hi, lo), or -1. */
  get(hi: number, lo: number): number {
    return ((this.slots[this.probe(hi, lo)] & this.idMask) >>> 0) - 1;
  }

  /** The slot holding (hi, lo)'s id, or the empty slot where it would go. */
  private probe(hi: number, lo: number): number {
    const slots = this.slots;
    const cap = slots.length;
    const log = this.log;
    const idMask = this.idMask;
    const tag = this.tagOf(lo);
    let i = slotOf(hi, lo, cap);
    for (;;) {
      const s = slots[i];
      if (s === 0) return i;
      // (~idMask: the tag's bits; none when the id takes all 32.)
      if (((s ^ tag) & ~idMask) === 0) {
        const id = ((s & idMask) >>> 0) - 1;
        if (log.loOf(id) === lo && log.hiOf(id) === hi) return i;
      }
      if (++i === cap) i = 0;
    }
  }

  /** A table half as large again, filled from the log in id order (sequential reads). */
  private grow(): void {
    const cap = Math.ceil(this.slots.length * GROWTH);
    const slots = new Uint32Array(cap);
    const log = this.log;
    // The table holds exactly the ids below count: each new one was the log's size, and logged.
    if (log.size < this.count) throw new Error(`visited set: ${this.count} ids stored but only ${log.size} states logged`);
    this.slots = slots;
    this.layout();
    for (let id = 0; id < this.count; id++) {
      const lo = log.loOf(id);
      let i = slotOf(log.hiOf(id), lo, cap);
      while (slots[i] !== 0) if (++i === cap) i = 0;
      slots[i] = (this.tagOf(lo) | (id + 1)) >>> 0;
    }
    this.limit = Math.floor(cap * MAX_LOAD);
  }
}

/** The slot of (hi, lo) in a table of `cap` slots: the mixed 32-bit hash, scaled. */
function slotOf(hi: number, lo: number, cap: number): number {
  const h = (lo ^ Math.imul(hi, 0x9e3779b1)) >>> 0;
  // h * cap < 2^63: the product is rounded, but stays below cap (cap / 2^32 is far above the
  // rounding error), and equal inputs give equal slots.
  return Math.floor((h * cap) / 4294967296);
}
