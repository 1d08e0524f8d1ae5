// 64-bit fingerprints of states, computed from their canonical encoding (encoding.ts).
// The mixing is MurmurHash3's x86 128-bit function (four 32-bit lanes, cross-mixed), run over
// the zero-padded encoding with its length mixed in at the end, and cut to 64 bits. It needs
// only 32-bit integer arithmetic, so it stays fast without BigInt.
import { CanonicalEncoder } from './encoding.ts';

/** A fingerprint as two unsigned 32-bit halves; written into `out` to avoid allocation. */
export interface Fingerprint {
  hi: number;
  lo: number;
}

const C1 = 0x239b961b;
const C2 = 0xab0e9789;
const C3 = 0x38b34ae5;
const C4 = 0xa1e38b93;

function rotl(x: number, r: number): number {
  return (x << r) | (x >>> (32 - r));
}

function fmix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h;
}

function word(b: Uint8Array, i: number): number {
  return b[i] | (b[i + 1] << 8) | (b[i + 2] << 16) | (b[i + 3] << 24);
}

/** Hashes `len` bytes of `b` (which must be zero-padded to a multiple of 16) into `out`. */
export function hash64(b: Uint8Array, len: number, out: Fingerprint): void {
  let h1 = 0x9747b28c;
  let h2 = 0x9747b28c;
  let h3 = 0x9747b28c;
  let h4 = 0x9747b28c;
  const end = (len + 15) & ~15;
  for (let i = 0; i < end; i += 16) {
    let k1 = word(b, i);
    let k2 = word(b, i + 4);
    let k3 = word(b, i + 8);
    let k4 = word(b, i + 12);

    k1 = Math.imul(rotl(Math.imul(k1, C1), 15), C2);
    h1 ^= k1;
    h1 = rotl(h1, 19) + h2;
    h1 = (Math.imul(h1, 5) + 0x561ccd1b) | 0;

    k2 = Math.imul(rotl(Math.imul(k2, C2), 16), C3);
    h2 ^= k2;
    h2 = rotl(h2, 17) + h3;
    h2 = (Math.imul(h2, 5) + 0x0bcaa747) | 0;

    k3 = Math.imul(rotl(Math.imul(k3, C3), 17), C4);
    h3 ^= k3;
    h3 = rotl(h3, 15) + h4;
    h3 = (Math.imul(h3, 5) + 0x96cd1c35) | 0;

    k4 = Math.imul(rotl(Math.imul(k4, C4), 18), C1);
    h4 ^= k4;
    h4 = rotl(h4, 13) + h1;
    h4 = (Math.imul(h4, 5) + 0x32ac3b17) | 0;
  }
  h1 ^= len;
  h2 ^= len;
  h3 ^= len;
  h4 ^= len;
  h1 = (h1 + h2 + h3 + h4) | 0;
  h2 = (h2 + h1) | 0;
  h3 = (h3 + h1) | 0;
  h4 = (h4 + h1) | 0;
  h1 = fmix(h1);
  h2 = fmix(h2);
  h3 = fmix(h3);
  h4 = fmix(h4);
  h1 = (h1 + h2 + h3 + h4) | 0;
  h2 = (h2 + h1) | 0;
  out.hi = h1 >>> 0;
  out.lo = h2 >>> 0;
}

/** Encodes and fingerprints states, reusing one buffer. One per search (not thread-safe). */
export class Fingerprinter {
  private readonly encoder = new CanonicalEncoder();

  /** Writes the fingerprint of `state` into `out`. Throws NotAStateValue for a bad value. */
  of(state: unknown, out: Fingerprint): void {
    const len = this.encoder.encode(state);
    hash64(this.encoder.bytes, len, out);
  }

  /** The fingerprint as a 16-digit hex string, for tests and display. */
  hex(state: unknown): string {
    const out = { hi: 0, lo: 0 };
    this.of(state, out);
    return out.hi.toString(16).padStart(8, '0') + out.lo.toString(16).padStart(8, '0');
  }
}
