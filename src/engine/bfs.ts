// Breadth-first search over every reachable state of one variant. Level by level, so the first
// violation found of each property has a shortest trace. The loop follows TLC's worker:
// take a state, generate its successors, test-and-insert each fingerprint, check properties,
// detect deadlock and settled states. Only the frontier holds whole states; everything else is
// fingerprints and parent links (trace.ts), and traces are rebuilt by replay at the end.
import type { Action, Fairness, LivenessProperty, Property, PropertyKind, StepEvent, Variant } from './model.ts';
import { DEADLOCK } from './model.ts';
import { StateGraph } from './stateGraph.ts';
import { LivenessChecker, compileFairness, type CompiledFairness, type Lasso } from './liveness.ts';
import { Fingerprinter, type Fingerprint } from './fingerprint.ts';
import { SymmetricFingerprinter, type StateFingerprinter } from './symmetry.ts';
import { CanonicalEncoder } from './encoding.ts';
import { ExactSeenSet } from './exactSet.ts';
import { LogIndex, NEW } from './logIndex.ts';
import { StateLog, rebuildTrace, replayStep, ReplayError, withViews, withViewsIfTheyWork, type TraceStep } from './trace.ts';
import { ModelError, noInitialState } from './errors.ts';
import {
  DEADLOCK_PROPERTY,
  DETERMINISM_HINT,
  ModelCalls,
  initialStates,
  nondeterminism,
  splitProperties,
  successorPrints,
  sampledForDeterminism,
  parameterKey,
  type SafetyProperty,
} from './modelCalls.ts';
import { StopPoll, Stopped, type StopOptions } from './stopPoll.ts';
import type { IncompleteReason, PropertyResult, Stats, VariantResult, Violation } from './result.ts';

export interface SearchOptions extends StopOptions {
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
}

export interface Progress {
  readonly variant: string;
  readonly distinctStates: number;
  readonly statesGenerated: number;
  readonly depth: number;
  readonly queue: number;
  readonly seconds: number;
}

/** Where a property was first broken: a state, or a step out of a state. */
interface Finding {
  readonly property: { readonly name: string; readonly kind: PropertyKind; readonly statement: string };
  readonly stateId: number;
  readonly step?: { readonly action: number; readonly target: Fingerprint };
  readonly lasso?: Lasso;
}

export function checkVariant<S>(variant: Variant<S>, options: SearchOptions = {}): VariantResult<S> {
  return new Search(variant, options).run();
}

/**
 * One variant's search: the loop below for one thread, and the bookkeeping (visited set, trace
 * log, findings, counts, the result) that the coordinator of a parallel search (parallel/)
 * shares; the fields without `private` are that shared part.
 */
export class Search<S> {
  /** States' fingerprints; with symmetry reduction, their classes' (the least among the images). */
  readonly fingerprinter: StateFingerprinter;
  readonly symmetric: SymmetricFingerprinter | undefined;
  /** With symmetry reduction: the states the reduced ones stand for (the sum of their orbits). */
  fullStates = 0;
  private readonly sourceRaw: Fingerprint = { hi: 0, lo: 0 };
  readonly log = new StateLog();
  /** The visited set: an index of the log's fingerprints. */
  readonly seen = new LogIndex(this.log);
  /** In an exact search, the visited set that compares full encodings (seen is then unused). */
  readonly exactSeen: ExactSeenSet | undefined;
  private readonly fullEncoder: CanonicalEncoder | undefined;
  readonly findings = new Map<string, Finding>();
  readonly invariants: SafetyProperty<S>[];
  readonly stepProperties: SafetyProperty<S>[];
  readonly settledProperties: SafetyProperty<S>[];
  readonly livenessProperties: LivenessProperty<S>[];
  /** The state graph, kept only when there are liveness properties to check on it. */
  readonly graph: StateGraph | undefined;
  private readonly fairness: CompiledFairness[];
  /** Per action: whether a per-parameter fairness constraint needs its edges' parameters. */
  readonly paramKeyed: Uint8Array;
  private livenessSeconds = 0;
  /** A sampled state's successors as (action, fingerprint hi, lo) triples, from the search. */
  private readonly firstCall: number[] = [];
  private readonly secondCall: number[] = [];
  /** For object parameters of per-parameter fairness; made on first use. */
  private paramPrinter: Fingerprinter | undefined;
  private readonly paramFp: Fingerprint = { hi: 0, lo: 0 };
  /** Per invariant, per settled-state invariant, per liveness property: states where its premise held. */
  readonly invariantPremise: number[];
  readonly settledPremise: number[];
  readonly livenessPremise: number[];
  readonly enabledCount: number[];
  readonly newCount: number[];
  readonly checkDeadlock: boolean;
  readonly modelName: string;
  generated = 0;
  depth = 0;
  incomplete: IncompleteReason | undefined;
  /** The liveness properties left unchecked when a limit stopped the liveness phase. */
  private readonly livenessUnchecked = new Set<string>();
  stopPoll!: StopPoll;
  /** Set by a parallel search (parallel/): the threads used, and why one if more were offered. */
  threads: Stats['threads'];
  private readonly calls: ModelCalls<S>;

  constructor(
    readonly variant: Variant<S>,
    readonly options: SearchOptions,
  ) {
    this.modelName = options.modelName ?? '(model)';
    validateVariant(variant, this.modelName);
    const split = splitProperties(variant.properties);
    this.invariants = split.invariants;
    this.stepProperties = split.stepProperties;
    this.settledProperties = split.settledProperties;
    this.livenessProperties = split.livenessProperties;
    const actionNames = variant.actions.map((a) => a.name);
    this.fairness = compileFairness(variant.fairness ?? [], actionNames);
    this.paramKeyed = new Uint8Array(actionNames.length);
    for (const f of this.fairness) {
      if (f.perParameter) for (let a = 0; a < actionNames.length; a++) this.paramKeyed[a] |= f.inGroup[a];
    }
    this.graph = this.livenessProperties.length > 0 ? new StateGraph(this.livenessProperties.length) : undefined;
    this.invariantPremise = this.invariants.map(() => 0);
    this.settledPremise = this.settledProperties.map(() => 0);
    this.livenessPremise = this.livenessProperties.map(() => 0);
    this.enabledCount = variant.actions.map(() => 0);
    this.newCount = variant.actions.map(() => 0);
    this.checkDeadlock = variant.checkDeadlock ?? true;
    if (options.exact) {
      this.exactSeen = new ExactSeenSet();
      this.fullEncoder = new CanonicalEncoder('full');
    }
    const symmetry = options.symmetry === false ? undefined : variant.symmetry;
    if (symmetry !== undefined) {
      const refuse = (why: string) =>
        new ModelError('MC110_SYMMETRY_REFUSED', `symmetry ${symmetry.name} of variant ${variant.name} is refused: ${why}`, {
          model: this.modelName,
          variant: variant.name,
          subject: symmetry.name,
          hint: 'run with --no-symmetry (every state searched)',
        });
      if (this.livenessProperties.length > 0) {
        throw refuse(
          'symmetry reduction is sound for safety only, and the variant has liveness properties (a cycle among classes of states need not be a cycle among states)',
        );
      }
      if (options.exact) throw refuse('--exact compares whole states, and symmetry reduction compares classes of states');
      this.symmetric = new SymmetricFingerprinter(new Fingerprinter(), symmetry.permutations as ((s: unknown) => unknown)[]);
      this.fingerprinter = this.symmetric;
    } else {
      this.fingerprinter = new Fingerprinter();
    }
    this.calls = new ModelCalls<S>(
      (code, message, subject, id, extra) =>
        new ModelError(code, message, { ...this.details(subject, id, extra?.cause), ...(extra?.hint ? { hint: extra.hint } : {}) }),
      this.fingerprinter,
      this.symmetric ? variant.symmetry!.name : undefined,
    );
  }

  run(): VariantResult<S> {
    const started = performance.now();
    this.stopPoll = new StopPoll(this.options, started);
    let lastProgress = started;
    const fp: Fingerprint = { hi: 0, lo: 0 };
    let frontier: S[] = [];
    let frontierIds: number[] = [];
    let expanded = 0;

    const maxStates = this.options.maxStates ?? Infinity;
    const maxDepth = this.options.maxDepth ?? Infinity;
    for (const s of initialStates(() => this.variant.init(), this.calls)) {
      this.generated++;
      this.calls.fingerprint(s, fp, 'init', -1);
      if (this.lookup(s, fp) !== -1) continue;
      if (this.log.size >= maxStates) {
        this.incomplete = 'maxStates';
        break;
      }
      this.insert(s, fp, this.log.size);
      if (this.symmetric) this.fullStates += this.symmetric.orbit;
      this.fingerprinter.keep();
      const id = this.log.add(-1, -1, fp, 1);
      this.checkInvariants(s, id);
      frontier.push(s);
      frontierIds.push(id);
    }
    if (frontier.length === 0) {
      throw noInitialState(this.modelName, this.variant.name);
    }
    this.depth = 1;

    const actions = this.variant.actions;
    search: while (frontier.length > 0 && !this.incomplete) {
      // States at the depth limit are expanded, so that deadlocks, settled states and steps are
      // checked there, but their new successors are not stored: finding one makes the search
      // incomplete. A graph exactly maxDepth deep is searched completely.
      const atDepthLimit = this.depth >= maxDepth;
      const next: S[] = [];
      const nextIds: number[] = [];
      for (let k = 0; k < frontier.length; k++) {
        const s = frontier[k];
        const id = frontierIds[k];
        const graph = this.graph;
        if (graph) graph.beginState(id);
        let hasSuccessor = false;
        let settled = true;
        const sampled = sampledForDeterminism(id);
        const sym = this.symmetric;
        // With symmetry, a step to another member of the class is not stuttering: compare states.
        if (sym) sym.rawOf(s, this.sourceRaw);
        if (sampled) this.firstCall.length = 0;
        for (let ai = 0; ai < actions.length; ai++) {
          const a = actions[ai] as Action<S, unknown>;
          for (const p of this.calls.paramsOf(a, s, id)) {
            const t = this.calls.nextOf(a, s, p, id);
            if (t === undefined) continue;
            this.generated++;
            this.enabledCount[ai]++;
            hasSuccessor = true;
            this.calls.fingerprint(t, fp, a.name, id);
            if (sampled) this.firstCall.push(ai, fp.hi, fp.lo);
            if (sym && (sym.raw.hi !== this.sourceRaw.hi || sym.raw.lo !== this.sourceRaw.lo)) settled = false;
            if (this.stepProperties.length > 0) this.checkStep(s, t, id, ai, fp);
            if (atDepthLimit || this.log.size >= maxStates) {
              // Near a limit, look before inserting: a state over the limit is not stored.
              const old = this.lookup(t, fp);
              if (old !== -1) {
                if (!sym && old !== id) settled = false;
                if (graph) graph.addEdge(id, old, ai, this.paramKey(ai, a, p));
                continue;
              }
              settled = false;
              if (atDepthLimit) {
                this.incomplete = 'maxDepth';
                continue;
              }
              this.incomplete = 'maxStates';
              break search;
            }
            const known = this.insert(t, fp, this.log.size);
            // A step that leads back to its own state is stuttering: the state may be settled.
            if (!sym && known !== id) settled = false;
            if (graph) graph.addEdge(id, known === NEW ? this.log.size : known, ai, this.paramKey(ai, a, p));
            if (known !== NEW) continue;
            if (sym) this.fullStates += sym.orbit;
            this.fingerprinter.keep();
            const tid = this.log.add(id, ai, fp, this.depth + 1);
            this.newCount[ai]++;
            this.checkInvariants(t, tid);
            next.push(t);
            nextIds.push(tid);
          }
        }
        if (sampled) this.checkDeterminism(s, id);
        if (!hasSuccessor && this.checkDeadlock) this.record(DEADLOCK_PROPERTY, id);
        if (settled) this.checkSettled(s, id);
        // Counted over the whole search, not per level: a model may have one state per level.
        if ((++expanded & 255) === 0) {
          const stop = this.stopPoll.check();
          if (stop !== undefined) {
            this.incomplete = stop;
            break search;
          }
        }
        if (this.options.onProgress && (expanded & 1023) === 0) {
          const now = performance.now();
          if (now - lastProgress > 1000) {
            lastProgress = now;
            this.options.onProgress({
              variant: this.variant.name,
              distinctStates: this.log.size,
              statesGenerated: this.generated,
              depth: this.depth,
              queue: frontier.length - k + next.length,
              seconds: (now - started) / 1000,
            });
          }
        }
      }
      frontier = next;
      frontierIds = nextIds;
      if (frontier.length > 0) this.depth++;
    }
    // BFS stores states in order of depth, so the last one stored is the deepest.
    this.depth = this.log.depth(this.log.size - 1);
    // Liveness needs the whole graph: a search cut short has states whose steps were never
    // generated, which would look like states where the system stops.
    const seconds = (performance.now() - started) / 1000;
    if (this.graph && !this.incomplete) this.checkLiveness(this.graph);
    return this.result(seconds);
  }

  checkLiveness(graph: StateGraph): void {
    const started = performance.now();
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
    const ps = this.livenessProperties;
    try {
      for (let i = 0; i < ps.length; i++) {
        poll();
        const p = ps[i];
        const lasso = checker.check(p as LivenessProperty<unknown>, i);
        if (lasso) this.findings.set(p.name, { property: p, stateId: lasso.prefixEnd, lasso });
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

  /** The parameter of a step as a small integer, for fairness per parameter; -1 if not needed. */
  private paramKey(ai: number, a: Action<S, unknown>, p: unknown): number {
    if (this.paramKeyed[ai] === 0) return -1;
    this.paramPrinter ??= new Fingerprinter();
    return this.graph!.paramId(parameterKey(a, p, this.paramPrinter, this.paramFp));
  }

  /** Evaluates the liveness properties' predicates in a new state, for the graph's labels. */
  private labelState(s: S, id: number): void {
    const graph = this.graph!;
    this.livenessProperties.forEach((p, i) => {
      const f = p.formula;
      let bits = this.calls.evaluate(p, f.p, id, s) ? 1 : 0;
      if (f.op === 'leadsTo' && bits === 1) this.livenessPremise[i]++;
      if (f.op === 'leadsTo' && this.calls.evaluate(p, f.q, id, s)) bits |= 2;
      graph.label(id, i, bits);
    });
  }

  /** Expands `s` again; its successors must be those the search just found, in order. */
  private checkDeterminism(s: S, id: number): void {
    const actions = this.variant.actions as Action<S, unknown>[];
    successorPrints(actions, this.calls, s, id, this.secondCall);
    const differ = nondeterminism(
      actions.map((a) => a.name),
      this.firstCall,
      this.secondCall,
    );
    if (differ === undefined) return;
    throw new ModelError(
      'MC107_NOT_DETERMINISTIC',
      `action ${differ.action} is not deterministic: called twice on the same state, it gave ${differ.how}`,
      { ...this.details(differ.action, id), hint: DETERMINISM_HINT },
    );
  }

  /** The id of the state `s` (fingerprint `fp`) if it was stored, else -1. */
  private lookup(s: S, fp: Fingerprint): number {
    const exact = this.exactSeen;
    if (exact === undefined) return this.seen.get(fp.hi, fp.lo);
    const len = this.fullEncoder!.encode(s);
    return exact.get(fp.hi, fp.lo, this.fullEncoder!.bytes, len);
  }

  /** Test-and-insert: NEW if `s` was stored now under `newId`, else the id it had. */
  private insert(s: S, fp: Fingerprint, newId: number): number {
    const exact = this.exactSeen;
    if (exact === undefined) return this.seen.put(fp.hi, fp.lo, newId);
    const len = this.fullEncoder!.encode(s);
    return exact.put(fp.hi, fp.lo, this.fullEncoder!.bytes, len, newId);
  }

  private checkInvariants(s: S, id: number): void {
    if (this.graph) this.labelState(s, id);
    const ps = this.invariants;
    for (let i = 0; i < ps.length; i++) {
      const p = ps[i];
      // The premise is counted in every state, also after a violation: the count does not
      // depend on the order states are checked in, so parallel searches report the same.
      if (!this.calls.premise(p, id, s)) continue;
      this.invariantPremise[i]++;
      if (!this.findings.has(p.name) && !this.calls.holds(p, id, s)) this.record(p, id);
    }
  }

  private checkSettled(s: S, id: number): void {
    const ps = this.settledProperties;
    for (let i = 0; i < ps.length; i++) {
      const p = ps[i];
      // The premise is counted in every state, also after a violation: the count does not
      // depend on the order states are checked in, so parallel searches report the same.
      if (!this.calls.premise(p, id, s)) continue;
      this.settledPremise[i]++;
      if (!this.findings.has(p.name) && !this.calls.holds(p, id, s)) this.record(p, id);
    }
  }

  private checkStep(s: S, t: S, id: number, action: number, target: Fingerprint): void {
    for (const p of this.stepProperties) {
      if (this.findings.has(p.name) || this.calls.holds(p, id, s, t)) continue;
      this.findings.set(p.name, {
        property: p,
        stateId: id,
        step: { action, target: { hi: target.hi, lo: target.lo } },
      });
    }
  }

  record(p: Finding['property'], id: number): void {
    if (!this.findings.has(p.name)) this.findings.set(p.name, { property: p, stateId: id });
  }

  details(subject: string, id: number, cause?: unknown) {
    let trace: TraceStep[] | undefined;
    if (id >= 0) {
      try {
        trace = withViewsIfTheyWork(rebuildTrace(this.variant, this.log, id, this.fingerprinter), this.variant.view) as TraceStep[];
      } catch {
        trace = undefined; // the trace is a courtesy; the error itself is what matters
      }
    }
    return {
      model: this.modelName,
      variant: this.variant.name,
      subject,
      trace,
      depth: id >= 0 ? this.log.depth(id) : undefined,
      cause,
    };
  }

  /** The trace of a finding; for a lasso also where its cycle starts and the step that closes it. */
  private traceOf(f: Finding): {
    trace: TraceStep<S>[];
    loop?: number;
    loopAction?: string | null;
    loopEvents?: readonly StepEvent[];
  } {
    try {
      const trace = rebuildTrace(this.variant, this.log, f.stateId, this.fingerprinter);
      if (f.lasso) return this.lassoTrace(f.lasso, trace);
      if (f.step) {
        const { action, target } = f.step;
        const a = this.variant.actions[action] as Action<S, unknown>;
        const last = trace[trace.length - 1].state;
        const step = replayStep(a, last, (fp) => fp.hi === target.hi && fp.lo === target.lo, this.fingerprinter);
        if (!step) throw new ReplayError(`action ${a.name} no longer produces the step it produced during the search`);
        trace.push(step);
      }
      return { trace };
    } catch (cause) {
      if (!(cause instanceof ReplayError)) throw cause;
      throw new ModelError('MC107_NOT_DETERMINISTIC', `cannot rebuild the trace for ${f.property.name}: ${cause.message}`, {
        model: this.modelName,
        variant: this.variant.name,
        subject: f.property.name,
        hint: 'init(), params() and next() must return the same values every time they are called with the same state',
      });
    }
  }

  /** Extends the prefix's trace along the lasso's stem and cycle, replaying each recorded edge. */
  private lassoTrace(lasso: Lasso, trace: TraceStep<S>[]) {
    const graph = this.graph!;
    const want = { hi: 0, lo: 0 };
    const follow = (edge: number): TraceStep<S> => {
      const a = this.variant.actions[graph.action[edge]] as Action<S, unknown>;
      this.log.fingerprintOf(graph.target[edge], want);
      const from = trace[trace.length - 1].state;
      const ai = graph.action[edge];
      const key = graph.param[edge];
      const step = replayStep(
        a,
        from,
        (fp) => fp.hi === want.hi && fp.lo === want.lo,
        this.fingerprinter,
        key === -1 ? undefined : (p) => this.paramKey(ai, a, p) === key,
      );
      if (!step) throw new ReplayError(`action ${a.name} no longer produces the step it produced during the search`);
      return step;
    };
    for (const e of lasso.stem) trace.push(follow(e));
    const loop = trace.length - 1;
    const cycle = lasso.cycle;
    for (let k = 0; k + 1 < cycle.length; k++) trace.push(follow(cycle[k]));
    const closing = cycle.length > 0 ? follow(cycle[cycle.length - 1]) : null;
    return { trace, loop, loopAction: closing?.action ?? null, loopEvents: closing?.events };
  }

  result(seconds: number): VariantResult<S> {
    const v = this.variant;
    const expected = v.expectedViolations ?? [];
    const all: { name: string; kind: Property<S>['kind'] | 'deadlock'; statement: string }[] = [...v.properties];
    if (this.checkDeadlock) all.push(DEADLOCK_PROPERTY);
    const properties: PropertyResult[] = all.map((p) => ({
      name: p.name,
      kind: p.kind,
      statement: p.statement,
      status: this.findings.has(p.name) ? 'violated' : this.unknown(p.name) ? 'unknown' : 'holds',
      expectedViolated: expected.includes(p.name),
      ...this.premiseOf(p),
    }));
    const violations: Violation<S>[] = all
      .filter((p) => this.findings.has(p.name))
      .map((p) => {
        const f = this.findings.get(p.name)!;
        const t = this.traceOf(f);
        return { property: p.name, kind: p.kind, statement: p.statement, ...t, trace: withViews(t.trace, this.variant.view) };
      });
    const violated = new Set(violations.map((x) => x.property));
    const metExpectations = !this.incomplete && violated.size === expected.length && expected.every((n) => violated.has(n));
    const n = this.log.size;
    const g = this.generated;
    const stats: Stats = {
      distinctStates: n,
      statesGenerated: g,
      depth: this.depth,
      seconds,
      livenessSeconds: this.graph ? this.livenessSeconds : undefined,
      storedBytes: (this.exactSeen ? this.exactSeen.bytes : this.seen.bytes) + this.log.bytes,
      graphBytes: this.graph ? this.graph.bytes : undefined,
      statesPerSecond: seconds > 0 ? n / seconds : n,
      collisionProbability: this.exactSeen ? 0 : (n * (g - n)) / 2 ** 64,
      exact: this.exactSeen ? { collisions: this.exactSeen.collisions, bytes: this.exactSeen.bytes } : undefined,
      symmetry: this.symmetric
        ? { name: this.variant.symmetry!.name, renamings: this.variant.symmetry!.permutations.length + 1, fullStates: this.fullStates }
        : undefined,
      threads: this.threads,
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
      assumptions: v.assumptions ?? [],
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
      },
      checkedDeadlock: this.checkDeadlock,
      fairness: (v.fairness ?? []).map(describeFairness),
      warnings: this.warnings(),
    };
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
  private premiseOf(p: { name: string; kind: string }): { premiseStates?: number; vacuous: boolean } {
    let n: number | undefined;
    const i = (list: { name: string }[]) => list.findIndex((q) => q.name === p.name);
    if (p.kind === 'invariant') {
      const k = i(this.invariants);
      if (this.invariants[k].kind === 'invariant' && (this.invariants[k] as { premise?: unknown }).premise) n = this.invariantPremise[k];
    } else if (p.kind === 'settled') n = this.settledPremise[i(this.settledProperties)];
    else if (p.kind === 'liveness') {
      const k = i(this.livenessProperties);
      if (this.livenessProperties[k].formula.op === 'leadsTo') n = this.livenessPremise[k];
    }
    const holds = !this.findings.has(p.name) && !this.unknown(p.name);
    return { ...(n !== undefined ? { premiseStates: n } : {}), vacuous: holds && n === 0 };
  }

  private warnings(): string[] {
    const out: string[] = [];
    if (!this.incomplete) {
      this.variant.actions.forEach((a, i) => {
        if (this.enabledCount[i] === 0) out.push(`action ${a.name} is never enabled in any reachable state`);
      });
      const all = [...this.invariants, ...this.settledProperties, ...this.livenessProperties];
      for (const p of all) {
        const { vacuous } = this.premiseOf(p);
        if (!vacuous) continue;
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
    }
    if (this.livenessProperties.length > 0 && (this.variant.fairness ?? []).length === 0) {
      out.push(
        `liveness properties (${this.livenessProperties.map((p) => p.name).join(', ')}) are checked with no fairness at all: ` +
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
export function validateVariant<S>(v: Variant<S>, model: string): void {
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
  dup([...v.properties.map((p) => p.name), ...((v.checkDeadlock ?? true) ? [DEADLOCK] : [])], 'properties');
  const actionNames = new Set(v.actions.map((a) => a.name));
  for (const f of v.fairness ?? []) {
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
  if (v.checkDeadlock ?? true) known.add(DEADLOCK);
  for (const e of v.expectedViolations ?? []) {
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
