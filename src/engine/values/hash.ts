// MurmurHash3's x86 128-bit function (Austin Appleby, public domain): four 32-bit lanes,
// cross-mixed, so it needs only 32-bit integer arithmetic and stays fast without BigInt.
// Used for the digests of state parts (encoding.ts) and for state fingerprints.

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

/**
 * Hashes the bytes [start, start + len) of `view` into out[0..3] (four unsigned 32-bit words).
 * The blocks are read as little-endian words through the DataView, which V8 compiles to one load
 * each: assembling each word from four byte loads took 14% of a plain TwoPhase search, and this
 * cut the search by a tenth (bench/README.md, tenth run).
 */
export function murmur3x86_128(view: DataView, start: number, len: number, out: Uint32Array, seed = 0): void {
  hashFrom(view, start, len, out, seed, seed, seed, seed, 0);
}

/**
 * The lanes after hashing the whole 16-byte blocks of `bytes` (seed 0): a prefix that many values
 * begin with, hashed once, for murmur3x86_128Resume. Its last `bytes.length % 16` bytes are not
 * in it; they begin the rest.
 */
export function murmur3x86_128Prefix(bytes: Uint8Array): Int32Array {
  const n = bytes.length & ~15;
  const view = new DataView(bytes.buffer, bytes.byteOffset, n);
  const lanes = new Int32Array(4);
  for (let i = 0; i < n; i += 16) {
    const k1 = Math.imul(rotl(Math.imul(view.getInt32(i, true), C1), 15), C2);
    let h1 = lanes[0] ^ k1;
    h1 = (Math.imul(rotl(h1, 19) + lanes[1], 5) + 0x561ccd1b) | 0;
    const k2 = Math.imul(rotl(Math.imul(view.getInt32(i + 4, true), C2), 16), C3);
    let h2 = lanes[1] ^ k2;
    h2 = (Math.imul(rotl(h2, 17) + lanes[2], 5) + 0x0bcaa747) | 0;
    const k3 = Math.imul(rotl(Math.imul(view.getInt32(i + 8, true), C3), 17), C4);
    let h3 = lanes[2] ^ k3;
    h3 = (Math.imul(rotl(h3, 15) + lanes[3], 5) + 0x96cd1c35) | 0;
    const k4 = Math.imul(rotl(Math.imul(view.getInt32(i + 12, true), C4), 18), C1);
    let h4 = lanes[3] ^ k4;
    h4 = (Math.imul(rotl(h4, 13) + h1, 5) + 0x32ac3b17) | 0;
    lanes[0] = h1;
    lanes[1] = h2;
    lanes[2] = h3;
    lanes[3] = h4;
  }
  return lanes;
}

/**
 * The hash of a prefix's whole blocks (`lanes`, from murmur3x86_128Prefix, covering `prefixLength`
 * bytes) followed by the bytes [start, start + len) of `view`: the same digest as hashing the two
 * in one buffer, without reading the prefix again.
 */
export function murmur3x86_128Resume(
  view: DataView,
  start: number,
  len: number,
  out: Uint32Array,
  lanes: Int32Array,
  prefixLength: number,
): void {
  hashFrom(view, start, len, out, lanes[0], lanes[1], lanes[2], lanes[3], prefixLength);
}

/** The function itself, from lanes h1..h4 that have taken `before` bytes already. */
function hashFrom(
  view: DataView,
  start: number,
  len: number,
  out: Uint32Array,
  h1: number,
  h2: number,
  h3: number,
  h4: number,
  before: number,
): void {
  const blocks = start + (len & ~15);
  let i = start;
  for (; i < blocks; i += 16) {
    let k1 = view.getInt32(i, true);
    let k2 = view.getInt32(i + 4, true);
    let k3 = view.getInt32(i + 8, true);
    let k4 = view.getInt32(i + 12, true);

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
  // The tail: up to 15 bytes, little-endian into k1..k4.
  const rest = len & 15;
  if (rest > 0) {
    let k1 = 0;
    let k2 = 0;
    let k3 = 0;
    let k4 = 0;
    for (let j = rest - 1; j >= 0; j--) {
      const byte = view.getUint8(i + j);
      if (j >= 12) k4 = (k4 << 8) | byte;
      else if (j >= 8) k3 = (k3 << 8) | byte;
      else if (j >= 4) k2 = (k2 << 8) | byte;
      else k1 = (k1 << 8) | byte;
    }
    if (rest > 12) {
      k4 = Math.imul(rotl(Math.imul(k4, C4), 18), C1);
      h4 ^= k4;
    }
    if (rest > 8) {
      k3 = Math.imul(rotl(Math.imul(k3, C3), 17), C4);
      h3 ^= k3;
    }
    if (rest > 4) {
      k2 = Math.imul(rotl(Math.imul(k2, C2), 16), C3);
      h2 ^= k2;
    }
    k1 = Math.imul(rotl(Math.imul(k1, C1), 15), C2);
    h1 ^= k1;
  }
  const total = len + before;
  h1 ^= total;
  h2 ^= total;
  h3 ^= total;
  h4 ^= total;
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
  h3 = (h3 + h1) | 0;
  h4 = (h4 + h1) | 0;
  out[0] = h1;
  out[1] = h2;
  out[2] = h3;
  out[3] = h4;
}
