// The visited set of a search, behind one interface with two implementations, chosen once when
// the search starts (as TLC's FPSetFactory picks an FPSet): by fingerprint (the default: 4 bytes
// a state beside the trace log's 14), or by the state's whole canonical encoding (--exact, a
// proof without the collision caveat). Both answer test-and-insert in one call, as BFS needs.
import type { Fingerprint } from '../values/fingerprint.ts';
import { LogIndex, NEW } from './logIndex.ts';
import { ExactSeenSet } from './exactSet.ts';
import { CanonicalEncoder } from '../values/encoding.ts';
import type { StateLog } from './trace.ts';

export { NEW };

export interface VisitedSet {
  /**
   * Test-and-insert: the id of the state already stored equal to `s` (fingerprint `fp`), or
   * NEW after storing it under `newId`, the id the trace log gives it next. The fingerprint
   * set looks only at `fp`; a caller that holds no state (the parallel coordinator) passes
   * undefined, which only the fingerprint set accepts (see `needsStates`).
   */
  put(fp: Fingerprint, s: unknown, newId: number): number;
  /** The id of the stored state equal to `s`, or -1; nothing is stored. */
  get(fp: Fingerprint, s: unknown): number;
  /** Whether put and get compare the states themselves, so a caller must pass them. */
  readonly needsStates: boolean;
  /** Bytes held (the fingerprints in the trace log are counted with the log). */
  readonly bytes: number;
  /** For an exact set: the distinct states that shared a fingerprint with another. */
  readonly collisions: number | undefined;
}

/** The visited set of a search: exact, or over the trace log's fingerprints. */
export function visitedSet(log: StateLog, exact: boolean): VisitedSet {
  return exact ? new ExactVisited() : new FingerprintVisited(log);
}

class FingerprintVisited implements VisitedSet {
  private readonly index: LogIndex;
  readonly needsStates = false;
  readonly collisions = undefined;

  constructor(log: StateLog) {
    this.index = new LogIndex(log);
  }

  put(fp: Fingerprint, _s: unknown, newId: number): number {
    return this.index.put(fp.hi, fp.lo, newId);
  }

  get(fp: Fingerprint): number {
    return this.index.get(fp.hi, fp.lo);
  }

  get bytes(): number {
    return this.index.bytes;
  }
}

class ExactVisited implements VisitedSet {
  private readonly set = new ExactSeenSet();
  private readonly encoder = new CanonicalEncoder('full');
  readonly needsStates = true;

  put(fp: Fingerprint, s: unknown, newId: number): number {
    const len = this.encoder.encode(s);
    return this.set.put(fp.hi, fp.lo, this.encoder.bytes, len, newId);
  }

  get(fp: Fingerprint, s: unknown): number {
    const len = this.encoder.encode(s);
    return this.set.get(fp.hi, fp.lo, this.encoder.bytes, len);
  }

  get bytes(): number {
    return this.set.bytes;
  }

  get collisions(): number {
    return this.set.collisions;
  }
}
