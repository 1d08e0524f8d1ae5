// Random simulation, for models too large to search exhaustively: many random behaviours from
// the initial states, each at most `depth` states long, every step chosen uniformly among all
// the enabled steps (every action, every parameter). As TLC's -simulate, it finds violations
// quickly where they are common and proves nothing: its verdict is never "proved".
//
// Each run draws from its own generator, seeded from the simulation's seed and the run's
// number, so a run that found a violation can be repeated from the two numbers alone. Every
// successor computed is checked (invariants in it, action properties on the step to it), not
// only the one the run moves to, so a violation one step off the run's path is found too; its
// trace is the run's path then that step. Of the violations of a property found, the shortest
// is reported (the first, among equals). Deadlocks and settled states are checked where a run
// ends in one. Liveness properties are not checked: a finite random prefix says nothing about
// what happens for ever.
import type { Action, Property, StepEvent, Variant } from './model.ts';
import { stepLabel } from './model.ts';
import { Fingerprinter, type Fingerprint } from './fingerprint.ts';
import { SeenSet, NEW } from './seenSet.ts';
import { ModelError, noInitialState } from './errors.ts';
import { StopPoll, type StopOptions } from './stopPoll.ts';
import { withViews, withViewsIfTheyWork, type TraceStep } from './trace.ts';
import { describeFairness, validateVariant } from './bfs.ts';
import { DEADLOCK_PROPERTY, ModelCalls, initialStates, splitProperties, type SafetyProperty } from './modelCalls.ts';
import type { PropertyResult, VariantResult, Violation } from './result.ts';

export interface SimulationOptions extends StopOptions {
  /** Behaviours to draw. */
  readonly runs: number;
  /** The most states in one behaviour (its initial state included), as TLC's -depth. */
  readonly depth: number;
  /** The seed that makes the whole simulation reproducible. */
  readonly seed: number;
  readonly modelName?: string;
}

/** One step the run could take: its action, parameter and successor, with its fingerprint. */
interface Step<S> {
  readonly action: number;
  readonly param: unknown;
  readonly state: S;
  readonly hi: number;
  readonly lo: number;
}

/** mulberry32: a small, fast generator, good enough to choose steps, and reproducible. */
export function generator(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The seed of run `run` (from 1) of a simulation seeded `seed`. */
export function runSeed(seed: number, run: number): number {
  return (Math.imul(seed ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(run, 0xc2b2ae35)) >>> 0;
}

export function simulateVariant<S>(variant: Variant<S>, options: SimulationOptions): VariantResult<S> {
  return new Simulation(variant, options).run();
}

class Simulation<S> {
  private readonly modelName: string;
  private readonly fingerprinter = new Fingerprinter();
  private readonly seen = new SeenSet();
  private readonly invariants: SafetyProperty<S>[];
  private readonly stepProperties: SafetyProperty<S>[];
  private readonly settledProperties: SafetyProperty<S>[];
  private readonly livenessNames: string[];
  private readonly checkDeadlock: boolean;
  /** Per property, the shortest violating trace found, and the run that found it. */
  private readonly found = new Map<string, { trace: TraceStep<S>[]; run: number }>();
  private generated = 0;
  private longest = 0;
  private runsDone = 0;
  private stopped = false;
  private readonly calls: ModelCalls<S>;
  /** The path to the state the model's code is called on, for the errors of calls (see calls). */
  private context: Step<S>[] = [];

  constructor(
    private readonly variant: Variant<S>,
    private readonly options: SimulationOptions,
  ) {
    this.modelName = options.modelName ?? '(model)';
    validateVariant(variant, this.modelName);
    const split = splitProperties(variant.properties);
    this.invariants = split.invariants;
    this.stepProperties = split.stepProperties;
    this.settledProperties = split.settledProperties;
    this.livenessNames = split.livenessProperties.map((p) => p.name);
    this.checkDeadlock = variant.checkDeadlock ?? true;
    // A fault is reported with the run's path to the state it happened in (this.context).
    this.calls = new ModelCalls<S>(
      (code, message, subject, _id, extra) =>
        new ModelError(code, message, {
          ...this.details(subject, this.context),
          ...(extra?.cause !== undefined ? { cause: extra.cause } : {}),
          ...(extra?.hint ? { hint: extra.hint } : {}),
        }),
      this.fingerprinter,
    );
  }

  run(): VariantResult<S> {
    const started = performance.now();
    const poll = new StopPoll(this.options, started);
    this.context = [];
    const inits = [...initialStates(() => this.variant.init(), this.calls)];
    if (inits.length === 0) {
      throw noInitialState(this.modelName, this.variant.name);
    }
    this.generated = inits.length;
    const initFps = inits.map((s) => this.visit(s, []));
    let steps = 0;
    for (let run = 1; run <= this.options.runs && !this.stopped; run++) {
      const random = generator(runSeed(this.options.seed, run));
      // The run's path: its states and the steps between them.
      const first = Math.floor(random() * inits.length);
      const path: Step<S>[] = [{ action: -1, param: undefined, state: inits[first], ...initFps[first] }];
      this.checkState(path[0].state, path, run);
      while (path.length < this.options.depth) {
        const s = path[path.length - 1].state;
        const next = this.successors(s, path, run);
        if ((++steps & 255) === 0 && poll.check() !== undefined) {
          this.stopped = true;
          break;
        }
        if (next.length === 0) {
          if (this.checkDeadlock) this.record(DEADLOCK_PROPERTY.name, path, run);
          break;
        }
        // A state whose every step stutters is settled: the run would stay in it for ever.
        const here = path[path.length - 1];
        if (next.every((t) => t.hi === here.hi && t.lo === here.lo)) {
          this.checkSettled(s, path, run);
          break;
        }
        path.push(next[Math.floor(random() * next.length)]);
      }
      this.longest = Math.max(this.longest, path.length);
      if (!this.stopped) this.runsDone = run;
    }
    return this.result((performance.now() - started) / 1000);
  }

  /** Every enabled step out of `s`, each checked: the step's properties and its successor's invariants. */
  private successors(s: S, path: Step<S>[], run: number): Step<S>[] {
    const out: Step<S>[] = [];
    const actions = this.variant.actions;
    for (let ai = 0; ai < actions.length; ai++) {
      const a = actions[ai] as Action<S, unknown>;
      this.context = path;
      for (const p of this.calls.paramsOf(a, s, -1)) {
        this.context = path;
        const t = this.calls.nextOf(a, s, p, -1);
        if (t === undefined) continue;
        this.generated++;
        // The path, extended by this step while it is checked (records copy what they keep).
        path.push({ action: ai, param: p, state: t, hi: 0, lo: 0 });
        const fp = this.visit(t, path);
        const step = { action: ai, param: p, state: t, hi: fp.hi, lo: fp.lo };
        path[path.length - 1] = step;
        this.context = path;
        for (const q of this.stepProperties) {
          if (this.wanted(q.name, path) && !this.calls.holds(q, -1, s, t)) this.record(q.name, path, run);
        }
        this.checkState(t, path, run);
        path.pop();
        out.push(step);
      }
    }
    return out;
  }

  private checkState(s: S, path: Step<S>[], run: number): void {
    this.check(this.invariants, s, path, run);
  }

  private checkSettled(s: S, path: Step<S>[], run: number): void {
    this.check(this.settledProperties, s, path, run);
  }

  private check(ps: SafetyProperty<S>[], s: S, path: Step<S>[], run: number): void {
    this.context = path;
    for (const p of ps) {
      if (!this.wanted(p.name, path) || !this.calls.premise(p, -1, s)) continue;
      if (!this.calls.holds(p, -1, s)) this.record(p.name, path, run);
    }
  }

  /**
   * Counts a state as seen (for the distinct-state figure) and returns its fingerprint; a value
   * that is not a state value is an error. `path` ends with the step that made `s`, if any.
   */
  private visit(s: S, path: Step<S>[]): Fingerprint {
    const subject = path.length === 0 ? 'init' : this.variant.actions[path[path.length - 1].action].name;
    const fp: Fingerprint = { hi: 0, lo: 0 };
    this.context = path.slice(0, -1);
    this.calls.fingerprint(s, fp, subject, -1);
    if (this.seen.put(fp.hi, fp.lo, this.seen.size) === NEW) this.fingerprinter.keep();
    return fp;
  }

  /** Whether a violation of `name` here would be news: none found yet, or only a longer one. */
  private wanted(name: string, path: Step<S>[]): boolean {
    const old = this.found.get(name);
    return old === undefined || path.length < old.trace.length;
  }

  private record(name: string, path: Step<S>[], run: number): void {
    if (this.wanted(name, path)) this.found.set(name, { trace: this.trace(path), run });
  }

  /** The run's path as a trace, each step replayed once more for what it tells its readers. */
  private trace(path: Step<S>[]): TraceStep<S>[] {
    const trace: TraceStep<S>[] = [{ action: null, state: path[0].state }];
    for (let k = 1; k < path.length; k++) {
      const a = this.variant.actions[path[k].action] as Action<S, unknown>;
      const events: StepEvent[] = [];
      a.next(path[k - 1].state, path[k].param, events);
      trace.push({ action: stepLabel(a, path[k].param), state: path[k].state, events });
    }
    return trace;
  }

  private details(subject: string, path: Step<S>[]) {
    let trace: TraceStep[] | undefined;
    try {
      trace = path.length > 0 ? (withViewsIfTheyWork(this.trace(path), this.variant.view) as TraceStep[]) : undefined;
    } catch {
      trace = undefined; // the trace is a courtesy; the error itself is what matters
    }
    return { model: this.modelName, variant: this.variant.name, subject, trace, depth: path.length || undefined };
  }

  private result(seconds: number): VariantResult<S> {
    const v = this.variant;
    const expected = v.expectedViolations ?? [];
    const all: { name: string; kind: Property<S>['kind'] | 'deadlock'; statement: string }[] = [...v.properties];
    if (this.checkDeadlock) all.push(DEADLOCK_PROPERTY);
    const properties: PropertyResult[] = all.map((p) => ({
      name: p.name,
      kind: p.kind,
      statement: p.statement,
      status: this.found.has(p.name) ? 'violated' : 'unknown',
      expectedViolated: expected.includes(p.name),
      vacuous: false,
    }));
    const violations: Violation<S>[] = all
      .filter((p) => this.found.has(p.name))
      .map((p) => ({ property: p.name, kind: p.kind, statement: p.statement, trace: withViews(this.found.get(p.name)!.trace, v.view) }));
    const violated = new Set(violations.map((x) => x.property));
    const n = this.seen.size;
    const warnings =
      this.livenessNames.length > 0
        ? [
            `liveness properties (${this.livenessNames.join(', ')}) are not checked by simulation: a finite random run says nothing about what happens for ever`,
          ]
        : [];
    return {
      model: this.modelName,
      variant: v.name,
      description: v.description,
      assumptions: v.assumptions ?? [],
      verdict: violations.length > 0 ? 'violated' : 'incomplete',
      incompleteReason: 'simulation',
      expectedViolations: expected,
      // Each expected violation was found by a real trace, and nothing else was seen violated;
      // the simulation cannot show that nothing else is.
      metExpectations: violated.size === expected.length && expected.every((x) => violated.has(x)),
      properties,
      violations,
      stats: {
        distinctStates: n,
        statesGenerated: this.generated,
        depth: this.longest,
        seconds,
        statesPerSecond: seconds > 0 ? n / seconds : n,
        collisionProbability: (n * Math.max(0, this.generated - n)) / 2 ** 64,
        storedBytes: this.seen.bytes,
        coverage: [],
      },
      bounds: { timeoutSeconds: this.options.timeoutSeconds, maxMemoryMiB: this.options.maxMemoryMiB },
      simulation: {
        runs: this.options.runs,
        depth: this.options.depth,
        seed: this.options.seed,
        runsDone: this.runsDone,
        foundIn: Object.fromEntries([...this.found].map(([name, f]) => [name, f.run])),
      },
      checkedDeadlock: this.checkDeadlock,
      fairness: (v.fairness ?? []).map(describeFairness),
      warnings,
    };
  }
}
