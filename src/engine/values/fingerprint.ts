// 64-bit fingerprints of states: MurmurHash3 x86_128 (hash.ts) of the state's canonical
// encoding (encoding.ts), cut to 64 bits; for a state that is a Record or collection, the digest
// the encoding already computed.
import { CanonicalEncoder, TAG_DIGEST } from './encoding.ts';
import { digestString } from './digestSlot.ts';
import { murmur3x86_128 } from './hash.ts';

/** A digest reference: its tag and four 32-bit words. */
const DIGEST_LENGTH = 17;

/** A fingerprint as two unsigned 32-bit halves; written into `out` to avoid allocation. */
export interface Fingerprint {
  hi: number;
  lo: number;
}

/** Encodes and fingerprints states, reusing one buffer. One per search (not thread-safe). */
export class Fingerprinter {
  private readonly encoder = new CanonicalEncoder('digest');
  private readonly words = new Uint32Array(4);

  /** Writes the fingerprint of `state` into `out`. Throws NotAStateValue for a bad value. */
  of(state: unknown, out: Fingerprint): void {
    const len = this.encoder.encode(state);
    const b = this.encoder.bytes;
    if (len === DIGEST_LENGTH && b[0] === TAG_DIGEST) {
      // A state that is a collection or Record is encoded as its digest, already a MurmurHash3
      // of its canonical encoding: its first 64 bits are the fingerprint, not hashed again.
      out.hi = (b[1] | (b[2] << 8) | (b[3] << 16) | (b[4] << 24)) >>> 0;
      out.lo = (b[5] | (b[6] << 8) | (b[7] << 16) | (b[8] << 24)) >>> 0;
      return;
    }
    murmur3x86_128(this.encoder.dataView, 0, len, this.words);
    out.hi = this.words[0];
    out.lo = this.words[1];
  }

  /**
   * The 128-bit digest of `value`'s canonical encoding, as a string of 8 UTF-16 code units
   * (the first word's low half first): equal values give equal keys, and two different values
   * one key only with the odds the digests of state parts already take (about 2^-128 a pair).
   * For memos by content: the Kubernetes library's API server keeps what a write did by the
   * stored version and this key of the write's body. Throws NotAStateValue for a value no state
   * could hold. The parts' digests are not kept (a key's value is usually short-lived).
   */
  key(value: unknown): string {
    const len = this.encoder.encode(value);
    const b = this.encoder.bytes;
    const w = this.words;
    if (len === DIGEST_LENGTH && b[0] === TAG_DIGEST) {
      for (let i = 0; i < 4; i++) w[i] = (b[1 + 4 * i] | (b[2 + 4 * i] << 8) | (b[3 + 4 * i] << 16) | (b[4 + 4 * i] << 24)) >>> 0;
    } else {
      murmur3x86_128(this.encoder.dataView, 0, len, w);
    }
    return digestString(w[0], w[1], w[2], w[3]);
  }

  /** The states fingerprinted next are successors of `parent` (CanonicalEncoder.reference): the same fingerprints, written faster. */
  reference(parent: unknown): void {
    this.encoder.reference(parent);
  }

  /** The last state fingerprinted is new: keep its parts' digests for its successors. */
  keep(): void {
    this.encoder.keepPending();
  }

  /** Digests `state`'s parts and keeps them, for its successors (a state rebuilt from bytes). */
  prime(state: unknown): void {
    this.encoder.encode(state);
    this.encoder.keepPending();
  }

  /** The fingerprint as a 16-digit hex string, for tests and display. */
  hex(state: unknown): string {
    const out = { hi: 0, lo: 0 };
    this.of(state, out);
    return hexOf(out);
  }
}

/** A fingerprint as a 16-digit hex string. */
export function hexOf(fp: Fingerprint): string {
  return fp.hi.toString(16).padStart(8, '0') + fp.lo.toString(16).padStart(8, '0');
}
