// What a check returns: verdicts as data. An incomplete search is its own verdict and can
// never be read as a proof.
import type { PropertyKind, StepEvent } from './model.ts';
import type { TraceStep } from './search/trace.ts';
import type { StorageStats } from './search/storage.ts';

export type Verdict = 'proved' | 'violated' | 'incomplete';
/**
 * Why a search stopped before it was complete: its state or depth bound, its time limit, its
 * memory ceiling (or V8's heap nearly full), or a request from outside such as Ctrl-C; or it
 * was never meant to be complete: a random simulation.
 */
export type IncompleteReason = 'maxStates' | 'maxDepth' | 'timeout' | 'memory' | 'interrupted' | 'simulation';

/**
 * Whether a search was stopped from outside (Ctrl-C, a time or memory limit) rather than by a
 * bound that is part of its result (states, depth): a stopped search can be resumed from its
 * checkpoint, and goes on to the result it would have had.
 */
export function stoppedEarly(reason: IncompleteReason | undefined): boolean {
  return reason === 'interrupted' || reason === 'timeout' || reason === 'memory';
}

export interface ActionCoverage {
  readonly action: string;
  /** How many successors the action produced (TLC's "states found" per action). */
  readonly enabled: number;
  /** How many of those were new distinct states. */
  readonly newStates: number;
}

export interface Stats {
  readonly distinctStates: number;
  /** Successors computed, initial states included, as TLC counts "states generated". */
  readonly statesGenerated: number;
  /** Length of the longest shortest path; initial states are at depth 1, as in TLC. */
  readonly depth: number;
  /** The breadth-first search's time: safety checking, and building the graph if kept. */
  readonly seconds: number;
  /** The liveness phase's time, when the variant has liveness properties and the search finished. */
  readonly livenessSeconds?: number;
  /**
   * Bytes held by the visited set (with --exact, the encodings too) and the trace log: what the
   * states cost once they have left the frontier, as typed arrays (grown by doubling).
   */
  readonly storedBytes: number;
  /** Bytes held by the state graph kept for liveness checking. */
  readonly graphBytes?: number;
  readonly statesPerSecond: number;
  /** TLC's optimistic fingerprint-collision estimate n*(g-n)/2^64; 0 in an exact search. */
  readonly collisionProbability: number;
  /**
   * For an exact search (states compared by their full encodings): how many times two
   * different states shared a fingerprint (each was kept apart), and the bytes the encodings took.
   */
  readonly exact?: { readonly collisions: number; readonly bytes: number };
  /**
   * With symmetry reduction: the symmetry's name, the order of its group (renamings, the
   * identity included), and how many states the distinct ones stand for: the sum of their
   * classes' sizes, which is the unreduced count when the model really is symmetric.
   */
  readonly symmetry?: { readonly name: string; readonly renamings: number; readonly fullStates: number };
  readonly coverage: readonly ActionCoverage[];
  /**
   * The threads that shared the search, and, when the search was given more threads than it
   * used, why it could not split (liveness, --exact). The results do not depend on the number.
   */
  readonly threads?: { readonly used: number; readonly why?: string };
  /**
   * Where the breadth-first frontier was kept (storage.ts): the states written as bytes and
   * their bytes, and the bytes spilled to files, over all threads. Absent for a simulation.
   */
  readonly frontier?: StorageStats;
}

export interface Violation<S = unknown> {
  readonly property: string;
  readonly kind: PropertyKind;
  readonly statement: string;
  /** From an initial state (`action: null`) to the state, or the step, that breaks the property. */
  readonly trace: readonly TraceStep<S>[];
  /**
   * For a liveness violation, a lasso: the index in `trace` of the first state of the cycle.
   * After the last state the behaviour goes back to `trace[loop]`, by `loopAction`, and repeats.
   */
  readonly loop?: number;
  /** The step from the last state back to `trace[loop]`; null when the cycle is stuttering. */
  readonly loopAction?: string | null;
  /** What the closing step did, as its action told it. */
  readonly loopEvents?: readonly StepEvent[];
  /** For a lasso: why fairness lets its cycle repeat for ever, read off the cycle's states. */
  readonly cycleFairness?: CycleFairness;
}

/**
 * What fairness finds on a lasso's cycle (a stuttering cycle: its one state). Fair steps are
 * named as the trace names steps where their fairness is per parameter, else by their action.
 */
export interface CycleFairness {
  /** The fair steps the cycle takes, in the order it first takes them (none when it stutters). */
  readonly taken: readonly string[];
  /**
   * Each fair step the cycle does not take, with the first state of the cycle (its index in
   * the trace) where it cannot change the state: it has no step there ('disabled'), or only
   * steps that change nothing ('unchanging'); failing both, one where its only steps that change
   * the state leave the state constraint ('outside'). A fair step that changes the state
   * everywhere on the cycle is not listed: another action of its fairness group is taken.
   */
  readonly idle: readonly IdleFairStep[];
}

export interface IdleFairStep {
  readonly step: string;
  readonly how: 'disabled' | 'unchanging' | 'outside';
  readonly state: number;
}

export type PropertyStatus = 'holds' | 'violated' | 'unknown';

export interface PropertyResult {
  readonly name: string;
  readonly kind: PropertyKind;
  readonly statement: string;
  readonly status: PropertyStatus;
  readonly expectedViolated: boolean;
  /**
   * For a property with a premise (an invariant's `premise`, a settled-state invariant's
   * settled states, a leadsTo's p): in how many reachable states it held. Counted fully only
   * for a property that holds; absent for properties without a premise.
   */
  readonly premiseStates?: number;
  /** The property holds only vacuously: see `vacuity` for why. */
  readonly vacuous: boolean;
  /**
   * Why it holds vacuously: its premise never held ('premise'), or no fair behaviour stays
   * inside the state constraint ('noFairBehaviour'), so that liveness holds of none.
   */
  readonly vacuity?: 'premise' | 'noFairBehaviour';
}

export interface VariantResult<S = unknown> {
  readonly model: string;
  readonly variant: string;
  readonly description?: string;
  readonly assumptions: readonly string[];
  readonly verdict: Verdict;
  readonly incompleteReason?: IncompleteReason;
  readonly expectedViolations: readonly string[];
  /** Exactly the expected properties were violated and the search was complete. */
  readonly metExpectations: boolean;
  readonly properties: readonly PropertyResult[];
  readonly violations: readonly Violation<S>[];
  readonly stats: Stats;
  /** The limits the search ran under (absent: none). */
  readonly bounds: {
    readonly maxStates?: number;
    readonly maxDepth?: number;
    readonly timeoutSeconds?: number;
    readonly maxMemoryMiB?: number;
    /** The variant has a state constraint (Variant.constraint): the states outside it were not explored. */
    readonly stateConstraint?: true;
  };
  /** For a random simulation (never a proof): how it was drawn, and which run found each violation. */
  readonly simulation?: SimulationFacts;
  readonly checkedDeadlock: boolean;
  /** The fairness constraints the liveness properties were checked under, as readable text. */
  readonly fairness: readonly string[];
  /** Things the user most likely did not mean, such as liveness with no fairness. */
  readonly warnings: readonly string[];
}

export interface SimulationFacts {
  readonly runs: number;
  /** The most states in one run. */
  readonly depth: number;
  readonly seed: number;
  /** Runs finished (fewer than `runs` when a limit stopped the simulation). */
  readonly runsDone: number;
  /** Per violated property, the run (from 1) whose trace is reported. */
  readonly foundIn: Readonly<Record<string, number>>;
  /** The actions no run took (SimulationOptions.avoid), when some were avoided. */
  readonly avoid?: readonly string[];
}

export interface ModelResult {
  readonly model: string;
  readonly description?: string;
  readonly variants: readonly VariantResult[];
}
