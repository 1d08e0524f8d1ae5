// Every tag of the two byte formats in one place, so that no two representations write one tag:
// `C` for the canonical encoding (encoding.ts: fingerprints; changing a value changes every
// fingerprint), `R` for the state codec (stateCodec.ts: the frontier, checkpoints).

/** The canonical encoding's tags. */
export const C = {
  NULL: 1,
  FALSE: 2,
  TRUE: 3,
  NUMBER: 4,
  STRING: 5,
  LIST: 6,
  MAP: 7,
  SET: 8,
  ORDERED_MAP: 9,
  ORDERED_SET: 10,
  RECORD: 11,
  /** A part written as its digest (fingerprint.ts takes a top-level digest as it is). */
  DIGEST: 12,
  /** A number that is a 32-bit integer (most are): four bytes rather than a double's eight. */
  INT: 13,
  /** A plain array: its length, then its elements, in place (never as a digest). */
  ARRAY: 14,
  /** A plain object: its keys, sorted, then its values in that order, in place. */
  OBJECT: 15,
  /** A whole number from 0 to 255 (counters, clocks, indices): one byte. */
  BYTE: 16,
  /** A packed value: its type's id, then its words, each one byte below 255, else 255 and four bytes. */
  PACKED: 17,
  /** Digest mode: a Map or Set of at most SORTED_MAX entries, every key a string, sorted by key. */
  SMALL_MAP: 18,
  SMALL_SET: 19,
} as const;

/** The state codec's tags. */
export const R = {
  NULL: 0,
  FALSE: 1,
  TRUE: 2,
  /** A whole number in [-2^31, 2^31), zigzag varint. */
  INT: 3,
  FLOAT: 4,
  STRING: 5,
  LIST: 6,
  MAP: 7,
  ORDERED_MAP: 8,
  SET: 9,
  ORDERED_SET: 10,
  RECORD: 11,
  /** The same value as the corresponding part of the previous state (by identity). */
  SAME: 12,
  /** A Map or List with the same keys (indices), in the same order, as the previous state's: the changed entries only. */
  MAP_PATCH: 13,
  LIST_PATCH: 14,
  /** A plain array: its length and elements; FROZEN also marks one that was frozen, to rebuild it so. */
  ARRAY: 15,
  /** A plain object: its key count, then each key (a string index) and value, in its own key order. */
  OBJECT: 16,
  /** A packed value: its type's index among the packed types met so far, then its words (zigzag varints). */
  PACKED: 17,
  FROZEN: 0x80,
} as const;
