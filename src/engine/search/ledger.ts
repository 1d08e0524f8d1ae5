// The books of one breadth-first search: the visited set, the trace log, the findings, the
// counts, the state graph for liveness, and the result made of them at the end. The drivers
// (bfs.ts with one thread, parallel/coordinator.ts with several) decide the order in which
// successors arrive; everything that follows from a successor's arrival (is it new, is a bound
// reached, its id, its edge in the graph, its coverage counts) happens here, once.
import type { Fairness, LivenessProperty, NormalVariant, PropertyKind, StepEvent, Variant } from '../model.ts';
import { DEADLOCK, normalizeVariant, stepLabel } from '../model.ts';
import { StateGraph } from './stateGraph.ts';
import { LivenessChecker, compileFairness, type CompiledFairness, type Lasso } from './liveness.ts';
import { cycleFairness } from './cycleFairness.ts';
import { constraintWarning, type ConstraintNote } from './constraintNotes.ts';
import type { Fingerprint } from '../values/fingerprint.ts';
import { Expansion, PREMISE_HELD, VIOLATED } from './expansion.ts';
import { visitedSet, NEW, type VisitedSet } from './visited.ts';
import { StateLog, rebuildTrace, ReplayError, withViews, withViewsIfTheyWork, type TraceStep } from './trace.ts';
import { FaultThrown, ModelError, toModelError, type ModelFault } from '../errors.ts';
import { DEADLOCK_PROPERTY, DETERMINISM_HINT, propertyResults, reportedProperties } from '../modelCalls.ts';
import { StopPoll, Stopped, type StopOptions } from './stopPoll.ts';
import { Storage, type StorageOptions, type StorageStats } from './storage.ts';
import { stoppedEarly, type CycleFairness, type IncompleteReason, type Stats, type VariantResult, type Violation } from '../result.ts';
import { Checkpoints, type CheckpointOptions, type Resumed } from './checkpoint.ts';

export interface SearchOptions extends StopOptions, StorageOptions {
  /** Stop, incomplete, rather than store more distinct states than this. */
  readonly maxStates?: number;
  /** Stop, incomplete, rather than explore states deeper than this (initial states: 1). */
  readonly maxDepth?: number;
  /**
   * Store every state's full canonical encoding and compare states by it, not by fingerprint:
   * a proof without the collision caveat, for more memory and time.
   */
  readonly exact?: boolean;
  /** Use the variant's declared symmetry (default true); false searches every state. */
  readonly symmetry?: boolean;
  /** The model's name, for results and error messages. */
  readonly modelName?: string;
  /** Called about once a second with the search's progress. */
  readonly onProgress?: (p: Progress) => void;
  /** Write checkpoints of the search, and resume from one (checkpoint.ts). */
  readonly checkpoint?: CheckpointOptions;
  /**
   * Called with each property's counterexample soon after the search first finds it, at the
   * driver's next progress point (every 1,024 states with one thread, every level with several),
   * before the search ends: the same trace the result will hold. A search that ends first, and
   * lassos (liveness, found after the search of states), give theirs with the result only.
   */
  readonly onFinding?: (x: Violation<unknown>) => void;
}

/**
 * The search's small books at a level boundary (checkpoint.ts): what a checkpoint saves besides
 * the trace log and the state graph, whose first logSize states and graphEdges edges it saves.
 */
export interface Books {
  /** The first id of the level about to be expanded (-1: the search has ended). */
  readonly levelStart: number;
  readonly logSize: number;
  readonly depth: number;
  readonly generated: number;
  readonly fullStates: number;
  readonly incomplete: IncompleteReason | null;
  readonly enabledCount: readonly number[];
  readonly newCount: readonly number[];
  readonly invariantPremise: readonly number[];
  readonly settledPremise: readonly number[];
  readonly livenessPremise: readonly number[];
  /** Per property violated: its name, the state, and for a step property the step. */
  readonly findings: readonly { name: string; stateId: number; step?: { action: number; hi: number; lo: number } }[];
  /** The states whose edges the graph holds (those expanded), its edges, its interned parameters. */
  readonly graphStates: number;
  readonly graphEdges: number;
  readonly graphParams: number;
  /** The search's seconds so far, over every run that made it. */
  readonly seconds: number;
  /** The coverage labels the model's steps noted so far (model.ts Coverage). */
  readonly coverage?: readonly string[];
}

export interface Progress {
  readonly variant: string;
  readonly distinctStates: number;
  readonly statesGenerated: number;
  readonly depth: number;
  readonly queue: number;
  readonly seconds: number;
}

/** What storeSuccessor did with a successor, when it did not store it as a new state (its id). */
export const KNOWN = -1;
/** New, but past the depth bound: not stored, and the search is incomplete. */
export const BEYOND_DEPTH = -2;
/** New, but past the state bound: not stored, and the search stops here. */
export const CUT = -3;

/**
 * Where a property was first broken: a state, or a step out of a state. An initial state that
 * fails the state constraint is never stored: its finding has stateId -1 and a step with action
 * -1 whose target is that initial state's fingerprint.
 */
interface Finding {
  readonly property: { readonly name: string; readonly kind: PropertyKind; readonly statement: string };
  readonly stateId: number;
  readonly step?: { readonly action: number; readonly target: Fingerprint };
  readonly lasso?: Lasso;
}

export class Ledger<S> {
  readonly log = new StateLog();
  readonly visited: VisitedSet;
  /** This thread's successor loop: for replaying traces, and for the one-thread search. */
  readonly expansion: Expansion<S>;
  /** The state graph, kept only when there are liveness properties to check on it. */
  readonly graph: StateGraph | undefined;
  readonly modelName: string;
  readonly checkDeadlock: boolean;
  readonly maxStates: number;
  readonly maxDepth: number;
  /** The depth of the level being expanded (initial states: 1). */
  depth = 0;
  generated = 0;
  /** With symmetry reduction: the states the reduced ones stand for (the sum of their orbits). */
  fullStates = 0;
  incomplete: IncompleteReason | undefined;
  /** Set by a parallel search (parallel/): the threads used, and why one if more were offered. */
  threads: Stats['threads'];
  readonly enabledCount: number[];
  readonly newCount: number[];
  readonly invariantPremise: number[];
  readonly settledPremise: number[];
  readonly livenessPremise: number[];
  readonly stopPoll: StopPoll;
  /** The coverage labels noted so far, by this thread's model and the expanders' (model.ts Coverage). */
  private readonly coverageSeen = new Set<string>();
  /** Where this thread's frontier is kept (objects, bytes, or spill files); the others' report theirs. */
  readonly storage: Storage;
  private readonly otherStorage: StorageStats[] = [];
  readonly started = performance.now();
  private readonly findings = new Map<string, Finding>();
  /** The findings onFinding has been told of. */
  private readonly announced = new Set<string>();
  /** (property, state id or -1, action or -1, hi, lo) per violation in a state outside the state constraint, until recordOutside. */
  private readonly outside: number[] = [];
  private readonly fairness: CompiledFairness[];
  private livenessSeconds = 0;
  /** The liveness properties left unchecked when a limit stopped the liveness phase. */
  private readonly livenessUnchecked = new Set<string>();
  /** Liveness verdicts that depend on the state constraint (see constraintNotes.ts). */
  private readonly constraintNotes: ConstraintNote[] = [];
  private lastProgress = this.started;
  /** The seconds spent on this search by the runs before a resume. */
  private priorSeconds = 0;
  /** Writes checkpoints, when asked to (checkpoint.ts). */
  readonly checkpoints: Checkpoints | undefined;

  /** The variant, its defaults resolved (normalizeVariant). */
  readonly variant: NormalVariant<S>;

  constructor(
    given: Variant<S>,
    readonly options: SearchOptions,
  ) {
    const variant = normalizeVariant(given);
    this.variant = variant;
    // (What an earlier search in this process left noted is not this one's.)
    variant.coverage?.reset();
    this.modelName = options.modelName ?? '(model)';
    validateVariant(variant, this.modelName);
    const livenessCount = variant.properties.filter((p) => p.kind === 'liveness').length;
    const symmetry = options.symmetry === false ? undefined : variant.symmetry;
    if (symmetry !== undefined) {
      const refuse = (why: string) =>
        new ModelError('MC110_SYMMETRY_REFUSED', `symmetry ${symmetry.name} of variant ${variant.name} is refused: ${why}`, {
          model: this.modelName,
          variant: variant.name,
          subject: symmetry.name,
          hint: 'run with --no-symmetry (every state searched)',
        });
      if (livenessCount > 0) {
        throw refuse(
          'symmetry reduction is sound for safety only, and the variant has liveness properties (a cycle among classes of states need not be a cycle among states)',
        );
      }
      if (options.exact) throw refuse('--exact compares whole states, and symmetry reduction compares classes of states');
    }
    this.expansion = new Expansion(variant, { symmetry: options.symmetry });
    this.visited = visitedSet(this.log, options.exact === true);
    this.fairness = compileFairness(
      variant.fairness,
      variant.actions.map((a) => a.name),
    );
    this.graph = livenessCount > 0 ? new StateGraph(livenessCount) : undefined;
    const x = this.expansion;
    this.invariantPremise = x.invariants.map(() => 0);
    this.settledPremise = x.settledProperties.map(() => 0);
    this.livenessPremise = x.livenessProperties.map(() => 0);
    this.enabledCount = variant.actions.map(() => 0);
    this.newCount = variant.actions.map(() => 0);
    this.checkDeadlock = variant.checkDeadlock;
    this.maxStates = options.maxStates ?? Infinity;
    this.maxDepth = options.maxDepth ?? Infinity;
    this.stopPoll = new StopPoll(options, this.started);
    this.storage = new Storage(options);
    if (options.checkpoint !== undefined) {
      if (options.exact) {
        throw new ModelError(
          'MC007_CHECKPOINT_REFUSED',
          `variant ${variant.name}: --exact keeps whole states, which a checkpoint does not save`,
          {
            model: this.modelName,
            variant: variant.name,
            hint: 'check without --exact, or without --checkpoint',
          },
        );
      }
      this.checkpoints = new Checkpoints(options.checkpoint, this as Ledger<unknown>);
    }
  }

  /**
   * Takes back the books of a checkpoint when resuming from one: where the search goes on
   * from (complete: it had ended, and only its result is to be made), or undefined to start.
   */
  resume(): Resumed | undefined {
    return this.checkpoints?.restore();
  }

  /**
   * A level boundary (checkpoint.ts): the states from `levelStart` on are stored and checked,
   * and none expanded yet. A checkpoint is written here when one is due.
   */
  boundary(levelStart: number): void {
    this.noteCoverage();
    // After a stop, the level before was not expanded in full: no boundary.
    if (stoppedEarly(this.incomplete)) return;
    // Memory short: the parents and actions of the log's full chunks go to a file too.
    if (this.storage.toDisk()) this.log.spill(() => this.storage.newFile());
    this.checkpoints?.boundary(levelStart);
  }

  /** The small books as they stand, for a checkpoint at level boundary `levelStart` (-1: the end). */
  books(levelStart: number): Books {
    const g = this.graph;
    return {
      levelStart,
      logSize: this.log.size,
      depth: this.depth,
      generated: this.generated,
      fullStates: this.fullStates,
      // A stop (Ctrl-C, a time or memory limit) belongs to the level under way, not to the boundary.
      incomplete: stoppedEarly(this.incomplete) ? null : (this.incomplete ?? null),
      enabledCount: [...this.enabledCount],
      newCount: [...this.newCount],
      invariantPremise: [...this.invariantPremise],
      settledPremise: [...this.settledPremise],
      livenessPremise: [...this.livenessPremise],
      findings: [...this.findings.values()].map((f) => ({
        name: f.property.name,
        stateId: f.stateId,
        ...(f.step ? { step: { action: f.step.action, hi: f.step.target.hi, lo: f.step.target.lo } } : {}),
      })),
      graphStates: g ? (levelStart >= 0 ? levelStart : g.stateCount) : 0,
      graphEdges: g ? (levelStart >= 0 ? g.start[levelStart] : g.edgeCount) : 0,
      graphParams: g ? g.paramCount : 0,
      seconds: this.priorSeconds + (performance.now() - this.started) / 1000,
      coverage: [...this.coverageSeen],
    };
  }

  /** Takes back books saved by books() (the log and graph are the checkpoint's to restore). */
  restoreBooks(b: Books): void {
    this.depth = b.depth;
    this.generated = b.generated;
    this.fullStates = b.fullStates;
    this.incomplete = b.incomplete ?? undefined;
    const copy = (to: number[], from: readonly number[]) => {
      for (let i = 0; i < from.length; i++) to[i] = from[i];
    };
    copy(this.enabledCount, b.enabledCount);
    copy(this.newCount, b.newCount);
    copy(this.invariantPremise, b.invariantPremise);
    copy(this.settledPremise, b.settledPremise);
    copy(this.livenessPremise, b.livenessPremise);
    for (const label of b.coverage ?? []) this.coverageSeen.add(label);
    this.findings.clear();
    for (const f of b.findings) {
      const property = f.name === DEADLOCK_PROPERTY.name ? DEADLOCK_PROPERTY : this.variant.properties.find((p) => p.name === f.name);
      if (property === undefined) throw new Error(`checkpoint: no property ${f.name} in variant ${this.variant.name}`);
      this.findings.set(f.name, {
        property,
        stateId: f.stateId,
        ...(f.step ? { step: { action: f.step.action, target: { hi: f.step.hi, lo: f.step.lo } } } : {}),
      });
    }
    this.priorSeconds = b.seconds;
  }

  /** The storage figures of another thread's frontier, for the report. */
  addStorage(stats: StorageStats): void {
    this.otherStorage.push(stats);
  }

  /** Stores an initial state: its id, KNOWN, or CUT (the state bound). `s` may be undefined unless visited.needsStates. */
  storeInitial(fp: Fingerprint, s: S | undefined, orbit: number): number {
    this.generated++;
    if (this.visited.get(fp, s) !== -1) return KNOWN;
    if (this.log.size >= this.maxStates) {
      this.incomplete = 'maxStates';
      return CUT;
    }
    this.visited.put(fp, s, this.log.size);
    this.fullStates += orbit;
    return this.log.add(-1, -1, fp, 1);
  }

  /**
   * Takes the successor of state `parent` by action `ai` (fingerprint `fp`, state `s` or
   * undefined unless visited.needsStates): counts it, adds its edge to the graph (with `param`,
   * the key of its parameter when fairness per parameter needs one), and stores it if it is
   * new and within the bounds. Returns its new id, or KNOWN, BEYOND_DEPTH or CUT. Successors
   * must arrive in the order of a one-thread search.
   */
  storeSuccessor(parent: number, ai: number, fp: Fingerprint, s: S | undefined, param: unknown, orbit: number): number {
    this.generated++;
    this.enabledCount[ai]++;
    const graph = this.graph;
    const pid = graph && this.expansion.paramKeyed[ai] === 1 ? graph.paramId(param) : -1;
    // States at the depth limit are expanded, so that deadlocks, settled states and steps are
    // checked there, but their new successors are not stored: finding one makes the search
    // incomplete. A graph exactly maxDepth deep is searched completely.
    const atDepthLimit = this.depth >= this.maxDepth;
    if (atDepthLimit || this.log.size >= this.maxStates) {
      // Near a limit, look before inserting: a state over the limit is not stored.
      const old = this.visited.get(fp, s);
      if (old !== -1) {
        if (graph) graph.addEdge(parent, old, ai, pid);
        return KNOWN;
      }
      if (atDepthLimit) {
        this.incomplete = 'maxDepth';
        return BEYOND_DEPTH;
      }
      this.incomplete = 'maxStates';
      return CUT;
    }
    const known = this.visited.put(fp, s, this.log.size);
    if (graph) graph.addEdge(parent, known === NEW ? this.log.size : known, ai, pid);
    if (known !== NEW) return KNOWN;
    this.fullStates += orbit;
    this.newCount[ai]++;
    return this.log.add(parent, ai, fp, this.depth + 1);
  }

  /**
   * Counts a state that fails the state constraint, made by action `ai` from state `parent`
   * (-1 and -1: an initial state): generated, never stored. In the state graph it is an edge
   * to OUTSIDE (with `param`, as storeSuccessor's), so that fairness reads the action as
   * enabled in `parent`, as TLC's ENABLED does.
   */
  excluded(ai: number, parent = -1, param?: unknown): void {
    this.generated++;
    if (ai < 0) return;
    this.enabledCount[ai]++;
    const graph = this.graph;
    if (graph) graph.addOutside(parent, ai, this.expansion.paramKeyed[ai] === 1 ? graph.paramId(param) : -1);
  }

  /**
   * A violation of an invariant in an initial state that fails the state constraint
   * (fingerprint `fp`): held, as recordStep holds one in a successor outside it, until
   * recordOutside.
   */
  recordInitial(pi: number, fp: Fingerprint): void {
    this.outside.push(pi, -1, -1, fp.hi, fp.lo);
  }

  /**
   * Records the violations held for states outside the state constraint. A driver calls it once
   * the states inside the constraint at their depth are checked, so that at one depth a
   * violation inside the constraint is preferred: the one order that the one-thread search and
   * the parallel coordinator (which checks those states a round later) can both keep.
   */
  recordOutside(): void {
    const o = this.outside;
    for (let k = 0; k < o.length; k += 5) {
      const p = this.variant.properties[o[k]];
      if (this.findings.has(p.name)) continue;
      this.findings.set(p.name, { property: p, stateId: o[k + 1], step: { action: o[k + 2], target: { hi: o[k + 3], lo: o[k + 4] } } });
    }
    o.length = 0;
  }

  /** Whether a violation of variant.properties[pi] is still news (none recorded). */
  open(pi: number): boolean {
    return !this.findings.has(this.variant.properties[pi].name);
  }

  /** Records a violation of a state property (or deadlock) in state `id`, unless one is recorded. */
  record(p: Finding['property'], id: number): void {
    if (!this.findings.has(p.name)) this.findings.set(p.name, { property: p, stateId: id });
  }

  recordState(pi: number, id: number): void {
    this.record(this.variant.properties[pi], id);
  }

  /**
   * Records a violation of a step property by the step from state `id` by `action` to
   * `target`; for an invariant (broken in a successor outside the state constraint), holds it
   * until recordOutside.
   */
  recordStep(pi: number, id: number, action: number, target: Fingerprint): void {
    const p = this.variant.properties[pi];
    if (p.kind === 'invariant') {
      this.outside.push(pi, id, action, target.hi, target.lo);
      return;
    }
    if (this.findings.has(p.name)) return;
    this.findings.set(p.name, { property: p, stateId: id, step: { action, target: { hi: target.hi, lo: target.lo } } });
  }

  /** The end of state `id`'s expansion: deadlock, and settled-state properties' verdicts (bits as Expansion.settled). */
  endState(id: number, hasSuccessor: boolean, settled: ArrayLike<number> | undefined): void {
    if (!hasSuccessor && this.checkDeadlock) this.record(DEADLOCK_PROPERTY, id);
    if (settled === undefined) return;
    const ps = this.expansion.settledProperties;
    for (let i = 0; i < ps.length; i++) {
      if (settled[i] & PREMISE_HELD) this.settledPremise[i]++;
      if (settled[i] & VIOLATED) this.record(ps[i], id);
    }
  }

  /**
   * Takes in coverage labels: `labels`, an expander's, or else what this thread's copy of the
   * model noted since the last call.
   */
  noteCoverage(labels: readonly string[] | undefined = this.variant.coverage?.drain()): void {
    if (labels !== undefined) for (const label of labels) this.coverageSeen.add(label);
  }

  /** Adds the premise counts of checkState calls (Expansion's invariantPremise and livenessPremise). */
  addPremises(invariant: readonly number[], liveness: readonly number[]): void {
    for (let i = 0; i < invariant.length; i++) this.invariantPremise[i] += invariant[i];
    for (let i = 0; i < liveness.length; i++) this.livenessPremise[i] += liveness[i];
  }

  /** Labels state `id` in the graph (per liveness property, its bits). */
  label(id: number, bits: (i: number) => number): void {
    const graph = this.graph;
    if (!graph) return;
    for (let i = 0; i < this.expansion.livenessProperties.length; i++) graph.label(id, i, bits(i));
  }

  /** Polls the stop conditions; records why the search must stop, and says whether it must. */
  mustStop(): boolean {
    const stop = this.stopPoll.check();
    if (stop === undefined) return false;
    this.incomplete = stop;
    return true;
  }

  /** Reports progress, at most once a second; `queue`: states stored and not yet expanded. */
  progress(queue: number): void {
    if (this.options.onFinding !== undefined && this.findings.size > this.announced.size) this.announce(this.options.onFinding);
    const onProgress = this.options.onProgress;
    if (!onProgress) return;
    const now = performance.now();
    if (now - this.lastProgress < 1000) return;
    this.lastProgress = now;
    onProgress({
      variant: this.variant.name,
      distinctStates: this.log.size,
      statesGenerated: this.generated,
      depth: this.depth,
      queue,
      seconds: (now - this.started) / 1000,
    });
  }

  /** Tells onFinding of each finding not yet told (a driver calls progress() between states, where a trace can be rebuilt). */
  private announce(onFinding: (x: Violation<unknown>) => void): void {
    for (const [name, f] of this.findings) {
      if (this.announced.has(name)) continue;
      this.announced.add(name);
      onFinding(this.violationOf(f) as Violation<unknown>);
    }
  }

  /** A finding as the result reports it: its property, and its trace with the model's views. */
  private violationOf(f: Finding): Violation<S> {
    const t = this.traceOf(f);
    const p = f.property;
    return { property: p.name, kind: p.kind, statement: p.statement, ...t, trace: withViews(t.trace, this.variant.view) };
  }

  /** The user-facing error of a fault met at the state it names, with that state's trace. */
  error(f: ModelFault, original?: unknown): ModelError {
    let trace: TraceStep[] | undefined;
    if (f.id >= 0) {
      try {
        trace = withViewsIfTheyWork(rebuildTrace(this.expansion, this.log, f.id), this.variant.view) as TraceStep[];
      } catch {
        trace = undefined; // the trace is a courtesy; the error itself is what matters
      }
    }
    return toModelError(
      f,
      { model: this.modelName, variant: this.variant.name, trace, depth: f.id >= 0 ? this.log.depth(f.id) : undefined },
      original,
    );
  }

  /** Runs `search`, turning a fault of the model's met in it into a ModelError with its trace. */
  guard<T>(search: () => T): T {
    try {
      return search();
    } catch (e) {
      try {
        if (e instanceof FaultThrown) throw this.error(e.fault, e.original);
        throw e;
      } finally {
        this.closeFiles();
      }
    }
  }

  /** The end of the breadth-first search: the liveness phase, then the result. */
  finish(): VariantResult<S> {
    this.noteCoverage();
    // BFS stores states in order of depth, so the last one stored is the deepest.
    this.depth = this.log.size > 0 ? this.log.depth(this.log.size - 1) : 0;
    this.checkpoints?.end();
    const seconds = this.priorSeconds + (performance.now() - this.started) / 1000;
    // Liveness needs the whole graph: a search cut short has states whose steps were never
    // generated, which would look like states where the system stops.
    if (this.graph && !this.incomplete) this.checkLiveness(this.graph);
    try {
      return this.guard(() => this.result(seconds));
    } finally {
      this.closeFiles();
    }
  }

  /** The search is over: its spill files (the frontier's, the log's) are removed. */
  private closeFiles(): void {
    this.log.close();
    this.storage.close();
  }

  private checkLiveness(graph: StateGraph): void {
    const started = performance.now();
    graph.seal();
    let initialCount = 0;
    while (initialCount < this.log.size && this.log.depth(initialCount) === 1) initialCount++;
    const poll = (): void => {
      const stop = this.stopPoll.check();
      if (stop !== undefined) throw new Stopped(stop);
    };
    const checker = new LivenessChecker(graph, this.fairness, {
      depth: (id) => this.log.depth(id),
      initialCount,
      poll,
    });
    const ps = this.expansion.livenessProperties;
    // Only where a fair action can step out of the constraint can the two readings of
    // enabledness (TLC's, on the spec; and on the constrained graph alone) disagree.
    const constrained = checker.constrained;
    /** A fair behaviour of any kind (null: none), found once when first needed. */
    let fair: Lasso | null | undefined;
    try {
      for (let i = 0; i < ps.length; i++) {
        poll();
        const p = ps[i];
        const lasso = checker.check(p as LivenessProperty<unknown>, i);
        if (lasso) this.findings.set(p.name, { property: p, stateId: lasso.prefixEnd, lasso });
        // A lasso is a behaviour of the spec, fair as TLC reads fairness: a violation whatever
        // the constraint. Only a verdict that a property holds can rest on the constraint.
        if (!constrained || lasso) continue;
        fair ??= checker.anyFairBehaviour() ?? null;
        // Read on the graph alone, the behaviour the constraint made unfair: it names the state.
        checker.enabledness = 'graph';
        const unfair = fair === null ? checker.anyFairBehaviour() : checker.check(p as LivenessProperty<unknown>, i);
        checker.enabledness = 'spec';
        const cut = unfair && checker.cutOff(unfair);
        if (unfair && cut) {
          const kind = fair === null ? 'noFairBehaviour' : 'decided';
          this.constraintNotes.push({ kind, property: p.name, state: cut.state, action: cut.action, stops: unfair.cycle.length === 0 });
        }
      }
    } catch (e) {
      if (!(e instanceof Stopped)) throw e;
      // The graph is complete, so the safety verdicts stand; the liveness properties not yet
      // decided are unknown.
      this.incomplete = e.reason;
      for (const p of ps) if (!this.findings.has(p.name)) this.livenessUnchecked.add(p.name);
    }
    this.livenessSeconds = (performance.now() - started) / 1000;
  }

  /** The trace of a finding; for a lasso also where its cycle starts and the step that closes it. */
  private traceOf(f: Finding): {
    trace: TraceStep<S>[];
    loop?: number;
    loopAction?: string | null;
    loopEvents?: readonly StepEvent[];
    cycleFairness?: CycleFairness;
  } {
    try {
      if (f.stateId === -1 && f.step) return { trace: [this.excludedInitial(f.step.target)] };
      const trace = rebuildTrace(this.expansion, this.log, f.stateId);
      if (f.lasso) return this.lassoTrace(f.lasso, trace);
      if (f.step) {
        const { action, target } = f.step;
        const last = trace[trace.length - 1].state;
        const step = this.expansion.replay(last, action, (fp) => fp.hi === target.hi && fp.lo === target.lo);
        if (!step)
          throw new ReplayError(`action ${this.variant.actions[action].name} no longer produces the step it produced during the search`);
        trace.push(step);
      }
      return { trace };
    } catch (cause) {
      if (!(cause instanceof ReplayError)) throw cause;
      throw new ModelError('MC107_NOT_DETERMINISTIC', `cannot rebuild the trace for ${f.property.name}: ${cause.message}`, {
        model: this.modelName,
        variant: this.variant.name,
        subject: f.property.name,
        hint: DETERMINISM_HINT,
      });
    }
  }

  /** The initial state with fingerprint `target` (one the state constraint kept out of the log). */
  private excludedInitial(target: Fingerprint): TraceStep<S> {
    let found: S | undefined;
    this.expansion.initialStates((s, fp) => {
      if (found === undefined && fp.hi === target.hi && fp.lo === target.lo) found = s;
    });
    if (found === undefined) throw new ReplayError('no initial state matches the recorded one');
    return { action: null, state: found };
  }

  /** Extends the prefix's trace along the lasso's stem and cycle, replaying each recorded edge. */
  private lassoTrace(lasso: Lasso, trace: TraceStep<S>[]) {
    const graph = this.graph!;
    const want = { hi: 0, lo: 0 };
    const follow = (edge: number): TraceStep<S> => {
      const ai = graph.action[edge];
      this.log.fingerprintOf(graph.target[edge], want);
      const from = trace[trace.length - 1].state;
      const key = graph.param[edge];
      const step = this.expansion.replay(
        from,
        ai,
        (fp) => fp.hi === want.hi && fp.lo === want.lo,
        key === -1 ? undefined : (p) => graph.paramId(this.expansion.paramKey(ai, p)) === key,
      );
      if (!step) throw new ReplayError(`action ${this.variant.actions[ai].name} no longer produces the step it produced during the search`);
      return step;
    };
    for (const e of lasso.stem) trace.push(follow(e));
    const loop = trace.length - 1;
    const cycle = lasso.cycle;
    for (let k = 0; k + 1 < cycle.length; k++) trace.push(follow(cycle[k]));
    const closing = cycle.length > 0 ? follow(cycle[cycle.length - 1]) : null;
    const last = cycle.length - 1;
    const fairness = cycleFairness(
      this.expansion,
      this.fairness,
      trace,
      loop,
      cycle.slice(0, last).map((e) => graph.action[e]),
      closing ? { action: graph.action[cycle[last]], label: closing.action ?? '' } : undefined,
    );
    return { trace, loop, loopAction: closing?.action ?? null, loopEvents: closing?.events, cycleFairness: fairness };
  }

  private result(seconds: number): VariantResult<S> {
    const v = this.variant;
    const expected = v.expectedViolations;
    const all = reportedProperties(v, this.checkDeadlock);
    const properties = propertyResults(
      v,
      this.checkDeadlock,
      (name) => (this.findings.has(name) ? 'violated' : this.unknown(name) ? 'unknown' : 'holds'),
      (p) => this.premiseOf(p),
    );
    const violations: Violation<S>[] = all
      .filter((p) => this.findings.has(p.name))
      .map((p) => this.violationOf(this.findings.get(p.name)!));
    const violated = new Set(violations.map((x) => x.property));
    const metExpectations = !this.incomplete && violated.size === expected.length && expected.every((n) => violated.has(n));
    const n = this.log.size;
    const g = this.generated;
    const exact = this.visited.collisions !== undefined;
    const symmetric = this.expansion.symmetric !== undefined;
    const stats: Stats = {
      distinctStates: n,
      statesGenerated: g,
      depth: this.depth,
      seconds,
      livenessSeconds: this.graph ? this.livenessSeconds : undefined,
      storedBytes: this.visited.bytes + this.log.bytes,
      graphBytes: this.graph ? this.graph.bytes : undefined,
      statesPerSecond: seconds > 0 ? n / seconds : n,
      collisionProbability: exact ? 0 : (n * (g - n)) / 2 ** 64,
      exact: exact ? { collisions: this.visited.collisions!, bytes: this.visited.bytes } : undefined,
      symmetry: symmetric
        ? { name: this.variant.symmetry!.name, renamings: this.variant.symmetry!.permutations.length + 1, fullStates: this.fullStates }
        : undefined,
      threads: this.threads,
      frontier: [this.storage.stats, ...this.otherStorage].reduce((a, b) => ({
        encodedStates: a.encodedStates + b.encodedStates,
        encodedBytes: a.encodedBytes + b.encodedBytes,
        spilledBytes: a.spilledBytes + b.spilledBytes,
      })),
      coverage: v.actions.map((a, i) => ({
        action: a.name,
        enabled: this.enabledCount[i],
        newStates: this.newCount[i],
      })),
    };
    return {
      model: this.modelName,
      variant: v.name,
      description: v.description,
      assumptions: v.assumptions,
      verdict: violations.length > 0 ? 'violated' : this.incomplete ? 'incomplete' : 'proved',
      incompleteReason: this.incomplete,
      expectedViolations: expected,
      metExpectations,
      properties,
      violations,
      stats,
      bounds: {
        maxStates: this.options.maxStates,
        maxDepth: this.options.maxDepth,
        timeoutSeconds: this.options.timeoutSeconds,
        maxMemoryMiB: this.options.maxMemoryMiB,
        ...(v.constraint !== undefined ? { stateConstraint: true as const } : {}),
      },
      checkedDeadlock: this.checkDeadlock,
      fairness: v.fairness.map(describeFairness),
      warnings: this.warnings(),
    };
  }

  /** A constraint note as a warning: the state it names by the steps that reach it, and the step out of the constraint. */
  private constraintWarning(note: ConstraintNote): string {
    const trace = rebuildTrace(this.expansion, this.log, note.state);
    const last = trace[trace.length - 1].state;
    let out: string | undefined;
    this.expansion.successors(
      last,
      note.state,
      (ai, p, t) => {
        if (this.expansion.admitted(t, note.state, this.variant.actions[ai].name)) return true;
        out = stepLabel(this.variant.actions[ai], p);
        return false;
      },
      note.action,
    );
    return constraintWarning(
      note,
      trace.slice(1).map((step) => step.action ?? ''),
      out ?? this.variant.actions[note.action].name,
    );
  }

  /** Whether the search stopped before it could decide `name` (and found no violation of it). */
  private unknown(name: string): boolean {
    if (this.incomplete === undefined) return false;
    return !this.livenessPhaseStopped() || this.livenessUnchecked.has(name);
  }

  /** A limit stopped the liveness phase, after the breadth-first search had finished. */
  private livenessPhaseStopped(): boolean {
    return this.livenessUnchecked.size > 0;
  }

  /** How often `p`'s premise held, for properties that have one; vacuous if never, in a complete search. */
  private premiseOf(p: { name: string; kind: string }): {
    premiseStates?: number;
    vacuous: boolean;
    vacuity?: 'premise' | 'noFairBehaviour';
  } {
    const x = this.expansion;
    let n: number | undefined;
    const i = (list: { name: string }[]) => list.findIndex((q) => q.name === p.name);
    if (p.kind === 'invariant') {
      const k = i(x.invariants);
      if (x.invariants[k].kind === 'invariant' && (x.invariants[k] as { premise?: unknown }).premise) n = this.invariantPremise[k];
    } else if (p.kind === 'settled') n = this.settledPremise[i(x.settledProperties)];
    else if (p.kind === 'liveness') {
      const k = i(x.livenessProperties);
      if (x.livenessProperties[k].formula.op === 'leadsTo') n = this.livenessPremise[k];
    }
    const holds = !this.findings.has(p.name) && !this.unknown(p.name);
    const premise = holds && n === 0;
    const noFair = holds && this.constraintNotes.some((c) => c.property === p.name && c.kind === 'noFairBehaviour');
    return {
      ...(n !== undefined ? { premiseStates: n } : {}),
      vacuous: premise || noFair,
      ...(premise ? { vacuity: 'premise' as const } : noFair ? { vacuity: 'noFairBehaviour' as const } : {}),
    };
  }

  private warnings(): string[] {
    const x = this.expansion;
    const out: string[] = [];
    if (!this.incomplete) {
      this.variant.actions.forEach((a, i) => {
        if (this.enabledCount[i] === 0 && a.optional !== true) out.push(`action ${a.name} is never enabled in any reachable state`);
      });
      const all = [...x.invariants, ...x.settledProperties, ...x.livenessProperties];
      for (const p of all) {
        const { vacuity } = this.premiseOf(p);
        if (vacuity !== 'premise') continue;
        const why =
          p.kind === 'settled'
            ? (p as { premise?: unknown }).premise
              ? 'no settled state satisfies its premise'
              : 'no settled state is reachable'
            : p.kind === 'liveness'
              ? 'the left side of its leadsTo never holds'
              : 'its premise never holds';
        out.push(`${p.name} holds only vacuously: ${why}`);
      }
      for (const note of this.constraintNotes) out.push(this.constraintWarning(note));
      if (this.variant.coverage !== undefined) out.push(...this.variant.coverage.warnings(this.coverageSeen));
    }
    if (x.livenessProperties.length > 0 && this.variant.fairness.length === 0) {
      out.push(
        `liveness properties (${x.livenessProperties.map((p) => p.name).join(', ')}) are checked with no fairness at all: ` +
          'any behaviour may stop (stutter) in any state for ever, so they rarely hold. Declare fairness in the variant.',
      );
    }
    return out;
  }
}

export function describeFairness(f: Fairness): string {
  const kind = f.kind === 'weak' ? 'weak' : 'strong';
  return `${kind} fairness of ${f.name}${f.perParameter ? ' (per parameter)' : ''}: ${f.actions.join(', ')}`;
}

/** Rejects duplicate names and expectations that name no property, before searching. */
export function validateVariant<S>(given: Variant<S>, model: string): void {
  const v = normalizeVariant(given);
  const dup = (names: string[], what: string) => {
    const seen = new Set<string>();
    for (const n of names) {
      if (seen.has(n)) {
        throw new ModelError('MC105_DUPLICATE_NAME', `two ${what} of variant ${v.name} are named ${n}`, {
          model,
          variant: v.name,
          subject: n,
        });
      }
      seen.add(n);
    }
  };
  dup(
    v.actions.map((a) => a.name),
    'actions',
  );
  dup([...v.properties.map((p) => p.name), ...(v.checkDeadlock ? [DEADLOCK] : [])], 'properties');
  const actionNames = new Set(v.actions.map((a) => a.name));
  for (const f of v.fairness) {
    const unknown = f.actions.filter((a) => !actionNames.has(a));
    if (f.actions.length === 0 || unknown.length > 0) {
      throw new ModelError(
        'MC108_UNKNOWN_FAIRNESS_ACTION',
        f.actions.length === 0
          ? `fairness ${f.name} of variant ${v.name} names no action`
          : `fairness ${f.name} of variant ${v.name} names ${unknown.join(', ')}, which ${unknown.length === 1 ? 'is not an action' : 'are not actions'} of the variant`,
        { model, variant: v.name, subject: f.name, hint: `its actions: ${[...actionNames].join(', ')}` },
      );
    }
  }
  const known = new Set(v.properties.map((p) => p.name));
  if (v.checkDeadlock) known.add(DEADLOCK);
  for (const e of v.expectedViolations) {
    if (!known.has(e)) {
      throw new ModelError('MC106_UNKNOWN_EXPECTATION', `variant ${v.name} expects ${e} to be violated, but has no property of that name`, {
        model,
        variant: v.name,
        subject: e,
        hint: `known: ${[...known].join(', ')}`,
      });
    }
  }
}
