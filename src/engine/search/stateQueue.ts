// A first-in, first-out queue of states: a level of the breadth-first frontier, or an
// expander's kept states. States are held as objects while memory allows (a packed state as its
// words, in a typed array: pushWords); past the storage policy's thresholds (storage.ts) they
// are written as bytes (stateCodec.ts), and past the next, those bytes go to a file, a chunk
// at a time (sequential writes and reads). Whatever the tier, the states come out equal to
// what went in, in the same order, so a search's results do not depend on where its frontier
// was kept.
//
// As bytes, each state is written as its difference from the state pushed before it and
// rebuilt from the state taken before it: consecutive states in a level are mostly siblings,
// made from one parent, and share most of their parts.
import type { StateCodec } from '../values/stateCodec.ts';
import { heldAsWords, zeros, type PackedType, type PackedValue } from '../values/packed/packedType.ts';
import { BYTES, DISK, type SpillFile, type Storage } from './storage.ts';

/** Words per chunk of a words segment (1 MiB). */
const WORDS_CHUNK = 1 << 18;
/**
 * Chunks of words segments read to their end, for the next to reuse (up to 64 MiB): a new
 * chunk's pages are the system's to zero and map on first touch, for every level again.
 */
const freeChunks: Int32Array[] = [];
const MAX_FREE_CHUNKS = 64;

function takeChunk(n: number): Int32Array {
  if (n <= WORDS_CHUNK) return freeChunks.pop() ?? new Int32Array(WORDS_CHUNK);
  return new Int32Array(n);
}

function giveChunk(c: Int32Array): void {
  if (c.length === WORDS_CHUNK && freeChunks.length < MAX_FREE_CHUNKS) freeChunks.push(c);
}

type Segment<S> =
  | { kind: 'objects'; items: S[]; read: number }
  | { kind: 'words'; type: PackedType<unknown, unknown>; zeros: number[]; chunk: Int32Array; used: number; read: number }
  | { kind: 'bytes'; chunk: Uint8Array; used: number; read: number }
  | { kind: 'disk'; offset: number; length: number };

export class StateQueue<S> {
  private readonly segments: Segment<S>[] = [];
  /** The first segment not yet read to its end. */
  private head = 0;
  private count = 0;
  private taken = 0;
  /** The last state pushed and the last taken: bytes are written and read against them. */
  private lastPushed: S | undefined;
  private lastTaken: S | undefined;
  private file: SpillFile | undefined;
  /** Whether the state take() returned last was rebuilt from bytes (its changed parts are new objects). */
  decoded = false;

  constructor(
    private readonly codec: StateCodec,
    private readonly storage: Storage,
  ) {}

  /** States pushed and not yet taken. */
  get size(): number {
    return this.count - this.taken;
  }

  push(s: S): void {
    const tier = this.storage.tier();
    const last = this.segments[this.segments.length - 1];
    if (tier < BYTES) {
      const words = heldAsWords(s);
      if (words !== undefined) this.pushWords(words, last);
      else if (last?.kind === 'objects') last.items.push(s);
      else this.segments.push({ kind: 'objects', items: [s], read: 0 });
    } else {
      this.pushBytes(s, last, tier);
    }
    this.lastPushed = s;
    this.count++;
  }

  /**
   * A packed state, held as its words in a typed array: the heap holds nothing per state, so
   * the collector never copies a waiting state from the young generation to the old (as it
   * does each state object while a level fills: a tenth of LamportMutex's search).
   */
  private pushWords(s: PackedValue, last: Segment<S> | undefined): void {
    const type = s.$type;
    const n = type.slots;
    let seg = last;
    if (seg?.kind !== 'words' || seg.type !== type || seg.used + n > seg.chunk.length) {
      seg = { kind: 'words', type, zeros: zeros(n), chunk: takeChunk(n), used: 0, read: 0 };
      this.segments.push(seg);
    }
    const chunk = seg.chunk;
    const w = s.$w;
    const o = s.$o;
    const p = seg.used;
    for (let i = 0; i < n; i++) chunk[p + i] = w[o + i];
    seg.used = p + n;
  }

  private pushBytes(s: S, last: Segment<S> | undefined, tier: number): void {
    const len = this.codec.encode(s, this.lastPushed);
    this.storage.encoded(len);
    const need = len + 5;
    let seg = last;
    if (seg?.kind !== 'bytes' || seg.used + need > seg.chunk.length) {
      // A full chunk goes to disk when memory is short; then so does every full chunk after it.
      if (seg?.kind === 'bytes' && tier >= DISK) this.toDisk(this.segments.length - 1);
      seg = { kind: 'bytes', chunk: new Uint8Array(Math.max(this.storage.chunkBytes, need)), used: 0, read: 0 };
      this.segments.push(seg);
    }
    const chunk = seg.chunk;
    let p = seg.used;
    let n = len;
    while (n >= 0x80) {
      chunk[p++] = (n & 0x7f) | 0x80;
      n >>>= 7;
    }
    chunk[p++] = n;
    chunk.set(this.codec.bytes.subarray(0, len), p);
    seg.used = p + len;
  }

  /** Writes segment `i`'s chunk to the spill file and lets the chunk go. */
  private toDisk(i: number): void {
    const seg = this.segments[i];
    if (seg.kind !== 'bytes') return;
    this.file ??= this.storage.newFile();
    const offset = this.file.append(seg.chunk.subarray(0, seg.used));
    this.segments[i] = { kind: 'disk', offset, length: seg.used };
  }

  /** Everything pushed has been taken: let the segments and the spill file go. */
  private drained(): void {
    this.segments.length = 0;
    this.head = 0;
    this.file?.remove();
    this.file = undefined;
  }

  /** Lets go of everything (a search that ends before the queue is drained). */
  close(): void {
    this.drained();
  }

  /** The next state. The queue must not be empty. */
  take(): S {
    let seg = this.segments[this.head];
    for (;;) {
      if (seg.kind === 'disk') {
        // Read back from the file, to be read like a chunk held in memory.
        const chunk = this.file!.read(seg.offset, seg.length);
        seg = this.segments[this.head] = { kind: 'bytes', chunk, used: seg.length, read: 0 };
      }
      if (seg.read < (seg.kind === 'objects' ? seg.items.length : seg.used)) break;
      // Done with this segment: let it go.
      if (seg.kind === 'words') giveChunk(seg.chunk);
      this.segments[this.head] = { kind: 'objects', items: [], read: 0 };
      seg = this.segments[++this.head];
    }
    let s: S;
    this.decoded = seg.kind === 'bytes';
    if (seg.kind === 'objects') {
      s = seg.items[seg.read];
      seg.items[seg.read++] = undefined as S;
    } else if (seg.kind === 'words') {
      const n = seg.type.slots;
      const chunk = seg.chunk;
      const p = seg.read;
      // (A copy of an array of n zeros: one V8 keeps packed, of small integers, as a packed value's.)
      const w = seg.zeros.slice();
      for (let i = 0; i < n; i++) w[i] = chunk[p + i];
      s = seg.type.read(w, 0) as S;
      seg.read = p + n;
    } else {
      const chunk = seg.chunk;
      let p = seg.read;
      let len = 0;
      let shift = 0;
      for (;;) {
        const x = chunk[p++];
        len |= (x & 0x7f) << shift;
        if (x < 0x80) break;
        shift += 7;
      }
      s = this.codec.decode(chunk, p, p + len, this.lastTaken) as S;
      seg.read = p + len;
    }
    this.lastTaken = s;
    if (++this.taken === this.count) this.drained();
    return s;
  }
}
