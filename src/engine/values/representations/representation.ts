// What a representation of state values owns. A state may be built of immutable.js collections
// and Records, FlatRecords, packed values, or plain arrays and objects, mixed at will; each of
// these is one module in this folder, which says how to tell its values (its kind test), how
// they are written for fingerprints (the canonical write), how they are kept at rest in the
// frontier (the codec's write and read) and how the reports see them (the view). The encoder,
// the codec and the reports know the byte formats and the layouts; they ask the table
// (table.ts) which representation a value is, and never test for one themselves.
import type { CanonicalEncoder } from '../encoding.ts';
import type { StateCodec } from '../stateCodec.ts';

/**
 * How the canonical encoder writes the values of one prototype: found once per prototype (the
 * encoder keeps it), so one lookup stands for every kind test of a part.
 */
export class CanonicalPart {
  constructor(
    /** Writes `v` (of this part's prototype) through the encoder. */
    readonly write: (out: CanonicalEncoder, v: object, part: CanonicalPart) => void,
    /**
     * Whether a part is written as its digest in digest mode and memoized in full mode. Packed
     * values and plain ones are written in place: their words (their fields) are what a
     * successor copies, so they cannot carry a digest of their own.
     */
    readonly digested: boolean,
    /** A Record type's layout (RecordLayout, made by the encoder), or null for anything else. */
    readonly layout: RecordLayout | null,
    /** Anything else the representation wants at hand for this prototype (a collection's tag, say). */
    readonly tag: number,
  ) {}

  /**
   * What the representation keeps between writes of this prototype's parts, for the encoder that
   * made this part (each encoder makes its own: CanonicalEncoder.partOf): FlatRecords keep the
   * digests of their reference's fields (flatRecords.ts, CanonicalEncoder.reference).
   */
  kept: unknown = undefined;
}

/** A Record type's layout, computed once per type by the encoder: its name and field names, encoded. */
export interface RecordLayout {
  readonly keys: readonly string[];
  readonly header: Uint8Array;
  readonly keyBytes: readonly Uint8Array[];
  /**
   * Digest mode: a part is written as the header followed by every field name, once, then the
   * values alone. A Record's field names are its type's, so they say nothing a value does not:
   * one copy per part rather than one per field (a part's bytes are hashed, and a KubeObject's
   * names were about half of its). That header's whole 16-byte blocks are hashed once per type
   * (`prefixLanes`, over `prefixLength` bytes) and each part resumes the hash from there, writing
   * only the rest (`digestTail`): the digest is the same as hashing the whole header with each
   * part, and the move model's world record (13 fields, about 340 bytes of names, a third of the
   * bytes its successors hashed) no longer reads its names each time.
   */
  readonly prefixLanes: Int32Array;
  readonly prefixLength: number;
  readonly digestTail: Uint8Array;
}

/** How the state codec keeps one representation's values at rest (stateCodec.ts). */
export interface AtRest {
  /** Writes `v` against `prev`, the corresponding part of the state written before it (any value, or undefined). */
  write(out: StateCodec, v: object, prev: unknown): void;
  /** The codec tags this representation writes and reads (restTags.ts). */
  readonly tags: readonly number[];
  /** Reads a value written under `tag`, against `prev`. */
  read(input: StateCodec, tag: number, prev: unknown): unknown;
}

/**
 * A state value as the reports read it, whatever holds it: `record` for immutable.js Records,
 * FlatRecords and packed records; `object` and `array` for plain ones; `list`, `map` and `set`
 * for the collections; `scalar` for anything else (a string, a number, null).
 */
export type ValueView =
  | {
      readonly kind: 'record';
      readonly fields: readonly (readonly [string, unknown])[];
      get(field: string): unknown;
      /**
       * The field's value in a record of this type made without values, for a report that
       * leaves out fields at their defaults; undefined when every field should be shown (a
       * packed record's defaults are its types' first values, not "absent").
       */
      readonly defaultOf: ((field: string) => unknown) | undefined;
    }
  | {
      readonly kind: 'map';
      readonly ordered: boolean;
      readonly entries: readonly (readonly [unknown, unknown])[];
      has(k: unknown): boolean;
      get(k: unknown): unknown;
    }
  | { readonly kind: 'set'; readonly ordered: boolean; readonly items: readonly unknown[] }
  | { readonly kind: 'list'; readonly items: readonly unknown[] }
  | { readonly kind: 'array'; readonly items: readonly unknown[] }
  | { readonly kind: 'object'; readonly value: { readonly [key: string]: unknown } }
  | { readonly kind: 'scalar'; readonly value: unknown };

export interface Representation {
  /** For messages: `immutable.js`, `FlatRecord`, `packed`, `plain`. */
  readonly name: string;
  /**
   * Whether `v`, an object whose prototype is `proto`, is one of this representation's values.
   * The encoder and the codec ask once per prototype and keep the answer.
   */
  owns(v: object, proto: object | null): boolean;
  /** How the canonical encoder writes values of `v`'s prototype (asked once per prototype). */
  canonicalPart(out: CanonicalEncoder, v: object, proto: object): CanonicalPart;
  readonly atRest: AtRest;
  /** The value as the reports see it. */
  view(v: object): ValueView;
  /** The value the reports show in this one's place, if not this one itself (a packed value's immutable.js counterpart). */
  presentAs?(v: object): unknown;
  /** Whether two values of this representation are equal as state values. */
  equals(a: object, b: unknown): boolean;
  /**
   * For a value no representation owns but that looks like one of this one's (an immutable.js
   * Seq): what to call it in the error, else undefined.
   */
  refusal?(v: object): string | undefined;
}
