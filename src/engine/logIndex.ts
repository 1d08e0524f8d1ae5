// The visited set of a search: a hash index over the trace log's fingerprints. Each slot holds
// only a state's id (4 bytes); the fingerprint it is compared with is read from the log, which
// keeps every state's fingerprint anyway (for replay). So a visited state costs the log's 14
// bytes plus 4 bytes per slot, instead of a second copy of its fingerprint beside its id.
//
// The table's size is not a power of two: it grows by half when three quarters full, so it is
// always between half and three quarters full (a doubling table falls to three eighths). A
// fingerprint's slot is its mixed hash scaled to the table (multiply-shift), and probing is
// linear.
import { NEW } from './seenSet.ts';
import type { StateLog } from './trace.ts';

export { NEW };

const MAX_LOAD = 0.75;
const GROWTH = 1.5;

export class LogIndex {
  /** id + 1 per slot; 0 marks an empty one. */
  private slots: Uint32Array;
  private count = 0;
  private limit: number;

  constructor(
    private readonly log: StateLog,
    initialCapacity = 1 << 12,
  ) {
    this.slots = new Uint32Array(Math.max(16, initialCapacity));
    this.limit = Math.floor(this.slots.length * MAX_LOAD);
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
    if (s !== 0) return s - 1;
    this.slots[i] = newId + 1;
    this.count++;
    return NEW;
  }

  /** The id of the state with fingerprint (hi, lo), or -1. */
  get(hi: number, lo: number): number {
    return this.slots[this.probe(hi, lo)] - 1;
  }

  /** The slot holding (hi, lo)'s id, or the empty slot where it would go. */
  private probe(hi: number, lo: number): number {
    const slots = this.slots;
    const cap = slots.length;
    const log = this.log;
    let i = slotOf(hi, lo, cap);
    for (;;) {
      const s = slots[i];
      if (s === 0) return i;
      if (log.loOf(s - 1) === lo && log.hiOf(s - 1) === hi) return i;
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
    for (let id = 0; id < this.count; id++) {
      let i = slotOf(log.hiOf(id), log.loOf(id), cap);
      while (slots[i] !== 0) if (++i === cap) i = 0;
      slots[i] = id + 1;
    }
    this.slots = slots;
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
