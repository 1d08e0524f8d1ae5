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
import { normalizeVariant, type NormalVariant, type Variant } from '../model.ts';
import { SeenSet, NEW } from './seenSet.ts';
import { FaultThrown, ModelError, noInitialState, toModelError } from '../errors.ts';
import { StopPoll, type StopOptions } from './stopPoll.ts';
import { withViews, withViewsIfTheyWork, type TraceStep } from './trace.ts';
import { describeFairness, validateVariant } from './ledger.ts';
import { Expansion, HAS_SUCCESSOR, SETTLED, VIOLATED, type Visitor } from './expansion.ts';
import { DEADLOCK_PROPERTY, propertyResults, reportedProperties } from '../modelCalls.ts';
import type { VariantResult, Violation } from '../result.ts';

export interface SimulationOptions extends StopOptions {
  /** Behaviours to draw. */
  readonly runs: number;
  /** The most states in one behaviour (its initial state included), as TLC's -depth. */
  readonly depth: number;
  /** The seed that makes the whole simulation reproducible. */
  readonly seed: number;
  readonly modelName?: string;
  /**
   * Actions a run never takes (a swarm's diversification: a shard that leaves some faults out
   * goes deeper into the rest). They are still computed and checked in every state a run
   * reaches, so a deadlock or a settled state is judged on every action, and a violation one such
   * step away is still found; a state whose only steps are avoided ends the run, no deadlock.
   */
  readonly avoid?: readonly string[];
}

/** How a simulation draws its runs: what a CLI run, a worker and a swarm's shard pass on. */
export type SimulationDraw = Pick<SimulationOptions, 'runs' | 'depth' | 'seed' | 'avoid'>;

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
  private readonly x: Expansion<S>;
  private readonly seen = new SeenSet();
  private readonly livenessNames: string[];
  private readonly checkDeadlock: boolean;
  /** Per property, the shortest violating trace found, and the run that found it. */
  private readonly found = new Map<string, { trace: TraceStep<S>[]; run: number }>();
  private generated = 0;
  /**
   * Per action (coverage): the successors it produced, counted at every expansion (a state two runs
   * pass through counts twice), and how many were states the simulation had not met before.
   */
  private readonly enabledCount: number[];
  private readonly newCount: number[];
  private longest = 0;
  private runsDone = 0;
  private stopped = false;
  /** Expansions so far: the id of a state expanded, for the determinism sample. */
  private expansions = 0;
  /** The run's path to the state the model's code is working on: a fault's trace. */
  private path: Step<S>[] = [];
  private currentRun = 0;
  /** The steps out of the state being expanded, and the step properties its next step violates. */
  private next: Step<S>[] = [];
  private readonly pendingSteps: number[] = [];
  private readonly visitor: Visitor<S>;

  /** The variant, its defaults resolved (normalizeVariant). */
  private readonly variant: NormalVariant<S>;

  constructor(
    given: Variant<S>,
    private readonly options: SimulationOptions,
  ) {
    const variant = normalizeVariant(given);
    this.variant = variant;
    this.modelName = options.modelName ?? '(model)';
    validateVariant(variant, this.modelName);
    this.x = new Expansion(variant, { symmetry: false });
    this.livenessNames = this.x.livenessProperties.map((p) => p.name);
    this.enabledCount = variant.actions.map(() => 0);
    this.newCount = variant.actions.map(() => 0);
    this.checkDeadlock = variant.checkDeadlock;
    const properties = variant.properties;
    this.visitor = {
      // A step property's violation is the path and the step to come; any other's, the path.
      wants: (pi) => this.wanted(properties[pi].name, this.path.length + (properties[pi].kind === 'action' ? 1 : 0)),
      stateViolated: (pi) => this.record(properties[pi].name),
      stepViolated: (pi) => {
        this.pendingSteps.push(pi);
      },
      // Outside the state constraint: checked with the path extended by its step, never taken.
      excluded: (ai, p, t, fp) => {
        this.generated++;
        this.enabledCount[ai]++;
        this.path.push({ action: ai, param: p, state: t, hi: fp.hi, lo: fp.lo });
        for (const pi of this.pendingSteps) this.record(properties[pi].name);
        this.pendingSteps.length = 0;
        this.path.pop();
      },
      successor: (ai, p, t, fp) => {
        this.generated++;
        this.enabledCount[ai]++;
        if (this.seen.put(fp.hi, fp.lo, this.seen.size) === NEW) {
          this.x.keep();
          this.newCount[ai]++;
        }
        const step = { action: ai, param: p, state: t, hi: fp.hi, lo: fp.lo };
        // Every successor is checked, with the path extended by the step that made it.
        this.path.push(step);
        for (const pi of this.pendingSteps) this.record(properties[pi].name);
        this.pendingSteps.length = 0;
        this.x.checkState(t, -1, this.visitor);
        this.path.pop();
        this.next.push(step);
        return true;
      },
    };
  }

  run(): VariantResult<S> {
    try {
      return this.simulate();
    } catch (e) {
      if (e instanceof FaultThrown) throw toModelError(e.fault, this.where(), e.original);
      throw e;
    }
  }

  private simulate(): VariantResult<S> {
    const started = performance.now();
    const poll = new StopPoll(this.options, started);
    const x = this.x;
    const inits: Step<S>[] = [];
    let made = 0;
    x.initialStates((s, fp) => {
      made++;
      const init = { action: -1, param: undefined, state: s, hi: fp.hi, lo: fp.lo };
      if (!x.admitted(s, -1, 'init')) {
        // Checked, never a run's start.
        this.path = [init];
        x.excludedViolations(s, -1, this.visitor, (pi) => this.record(this.variant.properties[pi].name));
        return;
      }
      if (this.seen.put(fp.hi, fp.lo, this.seen.size) === NEW) x.keep();
      inits.push(init);
    });
    if (made === 0) {
      throw noInitialState(this.modelName, this.variant.name);
    }
    this.generated = made;
    const avoided = this.avoidedActions();
    let steps = 0;
    // Every initial state outside the state constraint: nothing to run.
    for (let run = 1; run <= this.options.runs && !this.stopped && inits.length > 0; run++) {
      this.currentRun = run;
      const random = generator(runSeed(this.options.seed, run));
      // The run's path: its states and the steps between them.
      const path: Step<S>[] = [inits[Math.floor(random() * inits.length)]];
      this.path = path;
      x.checkState(path[0].state, -1, this.visitor);
      while (path.length < this.options.depth) {
        const here = path[path.length - 1];
        this.next = [];
        const end = x.expand(here.state, this.expansions++, here.hi, here.lo, this.visitor);
        const next = this.next;
        if ((++steps & 255) === 0 && poll.check() !== undefined) {
          this.stopped = true;
          break;
        }
        if (next.length === 0) {
          // Steps that only leave the state constraint end the run, but it is no deadlock.
          if (this.checkDeadlock && !(end & HAS_SUCCESSOR)) this.record(DEADLOCK_PROPERTY.name);
          break;
        }
        // A state whose every step stutters is settled: the run would stay in it for ever.
        if (end & SETTLED) {
          x.settledProperties.forEach((p, i) => {
            if (x.settled[i] & VIOLATED) this.record(p.name);
          });
          break;
        }
        const choices = avoided.size === 0 ? next : next.filter((step) => !avoided.has(step.action));
        if (choices.length === 0) break;
        path.push(choices[Math.floor(random() * choices.length)]);
      }
      this.longest = Math.max(this.longest, path.length);
      if (!this.stopped) this.runsDone = run;
    }
    return this.result((performance.now() - started) / 1000);
  }

  /** The indices of the actions to avoid; a name the variant has no action of is a model error. */
  private avoidedActions(): Set<number> {
    const out = new Set<number>();
    for (const name of this.options.avoid ?? []) {
      const i = this.variant.actions.findIndex((a) => a.name === name);
      if (i < 0) {
        throw new ModelError('MC113_UNKNOWN_ACTION', `variant ${this.variant.name} has no action ${name} to avoid`, {
          model: this.modelName,
          variant: this.variant.name,
          hint: `its actions: ${this.variant.actions.map((a) => a.name).join(', ')}`,
        });
      }
      out.add(i);
    }
    return out;
  }

  /** Whether a violation of `name` with a trace `length` states long would be news: none found yet, or only a longer one. */
  private wanted(name: string, length: number): boolean {
    const old = this.found.get(name);
    return old === undefined || length < old.trace.length;
  }

  /** Records a violation of `name` whose trace is the path. */
  private record(name: string): void {
    if (this.wanted(name, this.path.length)) this.found.set(name, { trace: this.trace(this.path), run: this.currentRun });
  }

  /** The run's path as a trace, each step replayed once more for what it tells its readers. */
  private trace(path: Step<S>[]): TraceStep<S>[] {
    const trace: TraceStep<S>[] = [{ action: null, state: path[0].state }];
    for (let k = 1; k < path.length; k++)
      trace.push({ ...this.x.step(path[k - 1].state, path[k].action, path[k].param), state: path[k].state });
    return trace;
  }

  /** What a fault's error says of where it happened: the run's path to it. */
  private where() {
    const path = this.path;
    let trace: TraceStep[] | undefined;
    try {
      trace = path.length > 0 ? (withViewsIfTheyWork(this.trace(path), this.variant.view) as TraceStep[]) : undefined;
    } catch {
      trace = undefined; // the trace is a courtesy; the error itself is what matters
    }
    return { model: this.modelName, variant: this.variant.name, trace, depth: path.length || undefined };
  }

  private result(seconds: number): VariantResult<S> {
    const v = this.variant;
    const expected = v.expectedViolations;
    const all = reportedProperties(v, this.checkDeadlock);
    const properties = propertyResults(
      v,
      this.checkDeadlock,
      (name) => (this.found.has(name) ? 'violated' : 'unknown'),
      () => ({ vacuous: false }),
    );
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
      assumptions: v.assumptions,
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
        // As a search's, over the states the runs computed: an action never enabled here may
        // still be enabled in a state no run reached.
        coverage: v.actions.map((a, i) => ({ action: a.name, enabled: this.enabledCount[i], newStates: this.newCount[i] })),
      },
      bounds: {
        timeoutSeconds: this.options.timeoutSeconds,
        maxMemoryMiB: this.options.maxMemoryMiB,
        ...(this.variant.constraint !== undefined ? { stateConstraint: true as const } : {}),
      },
      simulation: {
        runs: this.options.runs,
        depth: this.options.depth,
        seed: this.options.seed,
        runsDone: this.runsDone,
        foundIn: Object.fromEntries([...this.found].map(([name, f]) => [name, f.run])),
        ...(this.options.avoid !== undefined && this.options.avoid.length > 0 ? { avoid: [...this.options.avoid] } : {}),
      },
      checkedDeadlock: this.checkDeadlock,
      fairness: v.fairness.map(describeFairness),
      warnings,
    };
  }
}
