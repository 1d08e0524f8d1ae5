// 64-bit fingerprints of states: MurmurHash3 x86_128 (hash.ts) of the state's canonical
// encoding (encoding.ts), cut to 64 bits; for a state that is a Record or collection, the digest
// the encoding already computed.
import { CanonicalEncoder, TAG_DIGEST } from './encoding.ts';
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
