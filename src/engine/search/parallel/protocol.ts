// What the coordinator of a parallel search and its expanders say to each other. Plain data
// and typed arrays only, so that it crosses threads by structured clone (the arrays by
// transfer, without a copy).
import type { ModelFault } from '../../errors.ts';
import type { StorageStats } from '../storage.ts';
import type { IncompleteReason } from '../../result.ts';
import type { Ancestry } from '../frontierReplay.ts';

/**
 * Successors are reported as records of RECORD words: parent id, action index, fingerprint hi,
 * fingerprint lo, and an extra word: bit 0 set when the expander kept the successor as a
 * candidate (it had not reported that fingerprint before), the rest the successor's orbit
 * under symmetry reduction. Each state's successors end with a marker record whose action is
 * END (or END_DEADLOCK when it had none): hi holds the bits of the settled-state properties
 * whose premise held there, lo those violated there, extra 1 when the state is settled.
 */
export const RECORD = 5;
/** The orbit's bits in a record's extra word: (extra >>> 1) & ORBIT. */
export const ORBIT = (1 << 29) - 1;
/**
 * In a record's extra word: the successor is outside the variant's state constraint (counted,
 * never stored; never a candidate). For an initial state, the record's parent is -1.
 */
export const EXCLUDED = 1 << 31;
export const END = -1;
export const END_DEADLOCK = -2;

export type Order =
  | { readonly kind: 'init' }
  /** Resuming from a checkpoint: rebuild the states the ancestry asks for, and hold them all as candidates, in id order. */
  | { readonly kind: 'resume'; readonly ancestry: Ancestry }
  | {
      readonly kind: 'level';
      /** Pairs (index among this expander's last candidates, state id), by id. */
      readonly assign: Int32Array;
      /** false: only check the states' invariants (the search ends after this level). */
      readonly expand: boolean;
      /** A replica in the warm-up: do the work, to hold the same states, but report nothing. */
      readonly quiet: boolean;
      /** Indices in variant.properties of the properties already violated. */
      readonly violated: readonly number[];
      /** The states were checked before a checkpoint: expand them, without checking them again. */
      readonly checked?: boolean;
    }
  | { readonly kind: 'close' };

/** A fault in the model met by an expander (errors.ts), met while checking invariants (before expanding) or while expanding. */
export type ExpanderFailure = ModelFault & { readonly phase: 'check' | 'expand' };

export interface Report {
  /** count * RECORD words. */
  readonly records: Int32Array;
  readonly count: number;
  /** Per invariant: the assigned states where its premise held. */
  readonly invariantPremise: readonly number[];
  /** Pairs (index in variant.properties, id): each invariant's first violation here. */
  readonly invariantFindings: readonly number[];
  /** (index in variant.properties, parent id, successor index, action, hi, lo) per step property. */
  readonly stepFindings: readonly number[];
  /** (index in variant.properties, hi, lo) per invariant violated in an initial state outside the state constraint. */
  readonly initialFindings?: readonly number[];
  /**
   * Liveness: pairs (id, labels) for the assigned states, liveness property i's two predicate
   * bits at bits 2i and 2i + 1; per liveness property, the states where a leadsTo's premise held.
   */
  readonly labels: readonly number[];
  readonly livenessPremise: readonly number[];
  /**
   * For fairness per parameter: the key of each step's parameter (parameterKey), one per
   * successor record of an action that needs it, in record order.
   */
  readonly params: readonly unknown[];
  /** This thread's frontier storage so far (storage.ts). */
  readonly storage: StorageStats;
  /** The coverage labels this thread's model noted since its last report (model.ts Coverage). */
  readonly coverage?: readonly string[];
  readonly failure?: ExpanderFailure;
  readonly stopped?: IncompleteReason;
}

/** How the coordinator reaches an expander, in its own thread or in another. */
export interface ExpanderLink {
  send(order: Order): void;
  /** The report on the last order sent. */
  report(): Promise<Report>;
  /**
   * For an expander still starting (a thread loading the model): whether it can take orders
   * yet, and a promise settled when it can (rejected if its thread died first). The coordinator
   * searches with the links ready so far and brings the others in at the first level it splits
   * among threads, so that a small search never waits for a thread to load. A link without
   * these is ready at once.
   */
  isReady?(): boolean;
  whenReady?(): Promise<void>;
}
