// Symmetry reduction: a model whose identities are interchangeable (resource managers, clusters
// with identical roles) declares them, and the search keeps one state per class of states that
// differ only by a renaming of those identities, as TLC's SYMMETRY does. A state's fingerprint
// becomes the least fingerprint among its images under the group, so every member of a class
// lands on the same entry. The frontier keeps the actual states, and traces are rebuilt by
// matching these fingerprints, so each trace is a real behaviour (of some member of each class).
//
// Sound for safety only when the model really is symmetric (its initial states, steps and
// properties commute with every renaming); the checker cannot verify that. With liveness it is
// refused: a cycle among classes need not be a cycle among states.
import type { Fingerprint, Fingerprinter } from '../values/fingerprint.ts';

/** What the search needs of a fingerprinter: the fingerprint of a state, and keeping its parts. */
export interface StateFingerprinter {
  of(state: unknown, out: Fingerprint): void;
  keep(): void;
  /** Digests `state`'s parts and keeps them, for its successors (a state rebuilt from bytes). */
  prime(state: unknown): void;
  /** The states fingerprinted next are successors of `parent` (Fingerprinter.reference). */
  reference(parent: unknown): void;
}

/** The fingerprint of a class: the least, as a 64-bit number, of its members' fingerprints. */
export class SymmetricFingerprinter implements StateFingerprinter {
  /** The fingerprint of the state itself (not of its class), from the last call of `of`. */
  readonly raw: Fingerprint = { hi: 0, lo: 0 };
  /** How many different states the class of the last state has (its orbit), at most the group's order. */
  orbit = 1;
  private readonly image: Fingerprint = { hi: 0, lo: 0 };
  private readonly his: number[] = [];
  private readonly los: number[] = [];

  constructor(
    private readonly base: Fingerprinter,
    private readonly permutations: readonly ((s: unknown) => unknown)[],
  ) {}

  of(state: unknown, out: Fingerprint): void {
    this.base.of(state, out);
    this.raw.hi = out.hi;
    this.raw.lo = out.lo;
    const his = this.his;
    const los = this.los;
    his.length = 0;
    los.length = 0;
    his.push(out.hi);
    los.push(out.lo);
    const image = this.image;
    for (const permute of this.permutations) {
      this.base.of(permute(state), image);
      let known = false;
      for (let i = 0; i < his.length && !known; i++) known = his[i] === image.hi && los[i] === image.lo;
      if (known) continue;
      his.push(image.hi);
      los.push(image.lo);
      if (image.hi < out.hi || (image.hi === out.hi && image.lo < out.lo)) {
        out.hi = image.hi;
        out.lo = image.lo;
      }
    }
    this.orbit = his.length;
  }

  /** The fingerprint of the state itself, not of its class. */
  rawOf(state: unknown, out: Fingerprint): void {
    this.base.of(state, out);
  }

  keep(): void {
    // Only the last image's parts are pending; the memo is a cache, so keeping fewer is safe.
    this.base.keep();
  }

  prime(state: unknown): void {
    this.base.prime(state);
  }

  reference(parent: unknown): void {
    this.base.reference(parent);
  }
}
