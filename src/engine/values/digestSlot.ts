// Where the canonical encoder (encoding.ts) keeps each immutable part's digest, in a module of its
// own so that value types (flatRecord.ts) can give their instances the slot from birth.
/**
 * Where digest mode keeps a part's digest: on the part itself, so that the digest lives and dies
 * with the part. A memo by identity beside the parts (a Map of up to 2^20 parts, emptied when
 * full) held the parts alive past their use: on the move model's v1.9.3 variant it took 400 MiB
 * of a 1.7 GiB peak (bench/README.md). A part's digest depends on its contents only, so every
 * encoder in the thread may read what another wrote.
 */
export const DIGEST_OF = Symbol('modelcheck.digest');
/**
 * Kept as a string of 8 UTF-16 code units, the digest's four words low half first: about 32
 * bytes of heap, where a Uint32Array of 4 takes about 150 (its object, its buffer, its store).
 */
export type Digested = { [DIGEST_OF]?: string };

/** A digest's four 32-bit words as the string kept in the slot (also a content key: Fingerprinter.key). */
export function digestString(w0: number, w1: number, w2: number, w3: number): string {
  return String.fromCharCode(w0 & 0xffff, w0 >>> 16, w1 & 0xffff, w1 >>> 16, w2 & 0xffff, w2 >>> 16, w3 & 0xffff, w3 >>> 16);
}

/** Word `w` (0 to 3) of the digest kept as `slot` (digestString's inverse, word by word). */
export function digestWord(slot: string, w: number): number {
  return (slot.charCodeAt(2 * w) | (slot.charCodeAt(2 * w + 1) << 16)) >>> 0;
}
