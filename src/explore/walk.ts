// A variant walked by hand, one state at a time: its initial states, the steps enabled in a
// state, a path replayed from its steps' labels, and every property's value along it. This is
// what `modelcheck explore` serves; a search has its own successor loop (engine/expansion.ts),
// built for speed, where this one is built to say what happened. The model's own code is called
// through ModelCalls, so that a fault here reads as it does in a search: one error shape.
import { ModelError, FaultThrown, toModelError } from '../engine/errors.ts';
import { Fingerprinter, hexOf, type Fingerprint } from '../engine/values/fingerprint.ts';
import { DEADLOCK, normalizeVariant, stepLabel, type Action, type Property, type StepEvent, type Variant } from '../engine/model.ts';
import { initialStates, ModelCalls } from '../engine/modelCalls.ts';
import type { TraceStep } from '../engine/search/trace.ts';
import { actorOf } from '../report/steps.ts';

/** A step enabled in a state: its label (`mover.delete(Cluster/c1)`), who takes it, and where it leads. */
export interface EnabledStep<S> {
  readonly label: string;
  readonly actor: string;
  readonly state: S;
  readonly events: readonly StepEvent[];
  /** The step leaves the state as it is. */
  readonly stutters: boolean;
  /** The new state fails the variant's state constraint: a search would count it, not explore it. */
  readonly outsideConstraint: boolean;
}

/** A property's value in a path's last state. */
export interface PropertyValue {
  readonly name: string;
  readonly kind: Property<unknown>['kind'] | 'deadlock';
  readonly statement: string;
  /**
   * holds, violated; `premise` when its premise is false here (it holds, vacuously);
   * `unsettled` for a settled-state property in a state that can still change; `initial` for a
   * step property before any step; `search` for a liveness property, judged over whole behaviours;
   * `outside` where a search judges nothing: past a state outside the state constraint (which
   * a search counts but never expands), or, in such a state, whether it is settled or stuck.
   */
  readonly value: 'holds' | 'violated' | 'premise' | 'unsettled' | 'initial' | 'search' | 'outside';
  /** Violated here and not in the state before: the path's last step violated it. */
  readonly justViolated: boolean;
}

/** Why a path cannot be followed: its step `at` (0 is the choice of initial state) is not enabled. */
export interface PathRefusal {
  readonly at: number;
  readonly label: string;
  readonly reason: string;
  /** The labels that are enabled there. */
  readonly enabled: readonly string[];
}

export interface Walked<S> {
  /** The states of the path that could be followed, the initial one first. */
  readonly trace: TraceStep<S>[];
  readonly refusal?: PathRefusal;
}

/** The label a path gives its initial state: `init` for the only one, `init(2)` for the second of several. */
export function initLabel(index: number, count: number): string {
  return count === 1 ? 'init' : `init(${index + 1})`;
}

export class Walk<S> {
  private readonly printer = new Fingerprinter();
  private readonly calls = new ModelCalls<S>(this.printer);
  private readonly fp: Fingerprint = { hi: 0, lo: 0 };
  private initials: S[] | undefined;

  constructor(
    readonly model: string,
    readonly variant: Variant<S>,
  ) {}

  /**
   * The variant's distinct initial states, in the order init() first gives them: a state given
   * twice is one state, as a search counts it (the move model's v1.9.3 gives 81, of which 27
   * differ). Throws ModelError.
   */
  initialStates(): readonly S[] {
    if (this.initials === undefined) {
      const out: S[] = [];
      const seen = new Set<string>();
      this.guard([], () => {
        for (const s of initialStates(() => this.variant.init(), this.calls)) {
          this.calls.fingerprint(s, this.fp, 'init', -1);
          const key = hexOf(this.fp);
          if (seen.has(key)) continue;
          seen.add(key);
          out.push(s);
        }
      });
      if (out.length === 0)
        throw new ModelError('MC100_NO_INIT_STATE', `variant ${this.variant.name} has no initial state`, this.where([]));
      this.initials = out;
    }
    return this.initials;
  }

  /** The steps enabled after `trace`'s last state, in the order of the variant's actions and their parameters. Throws ModelError. */
  enabled(trace: readonly TraceStep<S>[]): EnabledStep<S>[] {
    const s = trace[trace.length - 1].state;
    // Stuttering as a search judges it: a successor with the state's own fingerprint.
    this.printer.of(s, this.fp);
    const ownHi = this.fp.hi;
    const ownLo = this.fp.lo;
    const out: EnabledStep<S>[] = [];
    this.guard(trace, () => {
      for (const a of this.variant.actions as readonly Action<S, unknown>[]) {
        for (const p of this.calls.paramsOf(a, s, -1)) {
          const events: StepEvent[] = [];
          const t = this.calls.nextOf(a, s, p, -1, events);
          if (t === undefined) continue;
          const label = stepLabel(a, p);
          this.calls.fingerprint(t, this.fp, label, -1);
          const constraint = this.variant.constraint;
          out.push({
            label,
            actor: actorOf(label),
            state: t,
            events,
            stutters: this.fp.hi === ownHi && this.fp.lo === ownLo,
            outsideConstraint: constraint !== undefined && !this.calls.admits(constraint, -1, t, label),
          });
        }
      }
    });
    return out;
  }

  /**
   * Follows a path: the initial state numbered `init` (0-based), then each label in turn, as far
   * as each is enabled. Where one is not, the refusal says which and why. Throws ModelError.
   */
  walk(init: number, labels: readonly string[]): Walked<S> {
    const initials = this.initialStates();
    if (!Number.isSafeInteger(init) || init < 0 || init >= initials.length) {
      const count = initials.length;
      return {
        trace: [],
        refusal: {
          at: 0,
          label: `init(${init + 1})`,
          reason: `variant ${this.variant.name} has ${count} initial state${count === 1 ? '' : 's'}`,
          enabled: initials.map((_, i) => initLabel(i, count)),
        },
      };
    }
    const trace: TraceStep<S>[] = [{ action: null, state: initials[init] }];
    for (let i = 0; i < labels.length; i++) {
      const steps = this.enabled(trace);
      const step = steps.find((x) => x.label === labels[i]);
      if (step === undefined) {
        const action = this.variant.actions.find((a) => a.name === labels[i] || labels[i].startsWith(`${a.name}(`));
        const state = `state ${trace.length} (after ${trace.length === 1 ? 'the initial state' : trace[trace.length - 1].action})`;
        let reason = `variant ${this.variant.name} has no action ${labels[i].replace(/\(.*$/, '')}`;
        if (action !== undefined) {
          // Why: the action does not offer that parameter there, or it does and its next() declines (its guard is false).
          const s = trace[trace.length - 1].state;
          const offered = this.calls.paramsOf(action as Action<S, unknown>, s, -1);
          const has = [...offered].some((p) => stepLabel(action as Action<S, unknown>, p) === labels[i]);
          reason = has
            ? `${labels[i]} is not enabled in ${state}: its guard is false there (next() returned undefined)`
            : `${labels[i]} is not enabled in ${state}: ${action.name} does not offer that parameter there`;
        }
        return { trace, refusal: { at: i + 1, label: labels[i], reason, enabled: steps.map((x) => x.label) } };
      }
      trace.push({ action: step.label, state: step.state, events: step.events });
    }
    return { trace };
  }

  /** Every property's value in `trace`'s last state (see PropertyValue); `enabled` is what enabled() gave for it. Throws ModelError. */
  properties(trace: readonly TraceStep<S>[], enabled: readonly EnabledStep<S>[]): PropertyValue[] {
    const n = trace.length;
    const value = (p: Property<S>, at: number, steps: readonly EnabledStep<S>[] | undefined): PropertyValue['value'] => {
      const s = trace[at].state;
      switch (p.kind) {
        case 'liveness':
          return 'search';
        case 'action':
          return at === 0 ? 'initial' : this.calls.holds(p, -1, trace[at - 1].state, s) ? 'holds' : 'violated';
        case 'settled':
          // (A state before the last is not expanded again: its settled properties are left unjudged.)
          if (steps === undefined || !steps.every((x) => x.stutters)) return 'unsettled';
          if (!this.calls.premise(p, -1, s)) return 'premise';
          return this.calls.holds(p, -1, s) ? 'holds' : 'violated';
        case 'invariant':
          if (!this.calls.premise(p, -1, s)) return 'premise';
          return this.calls.holds(p, -1, s) ? 'holds' : 'violated';
      }
    };
    const constraint = this.variant.constraint;
    let outside = -1;
    const out: PropertyValue[] = [];
    this.guard(trace, () => {
      if (constraint !== undefined) outside = trace.findIndex((t) => !this.calls.admits(constraint, -1, t.state, t.action ?? 'init'));
      for (const p of this.variant.properties) {
        // The last state outside the constraint: its invariants and the step into it are judged, not what needs it expanded.
        const unexpanded = outside === n - 1 && (p.kind === 'settled' || p.kind === 'liveness');
        if ((outside >= 0 && outside < n - 1) || unexpanded) {
          out.push({ name: p.name, kind: p.kind, statement: p.statement, value: 'outside', justViolated: false });
          continue;
        }
        const now = value(p, n - 1, enabled);
        const before = n > 1 ? value(p, n - 2, undefined) : 'holds';
        out.push({
          name: p.name,
          kind: p.kind,
          statement: p.statement,
          value: now,
          // A step property is judged per step: each violating step violates it anew.
          justViolated: now === 'violated' && (p.kind === 'action' || before !== 'violated'),
        });
      }
    });
    if (normalizeVariant(this.variant).checkDeadlock) {
      const stuck = enabled.length === 0;
      const judged = outside < 0;
      out.push({
        name: DEADLOCK,
        kind: 'deadlock',
        statement: 'Some step is enabled in every reachable state.',
        value: !judged ? 'outside' : stuck ? 'violated' : 'holds',
        justViolated: judged && stuck,
      });
    }
    return out;
  }

  /** The state's fingerprint as 16 hex digits: equal states, equal fingerprints. */
  fingerprint(s: S): string {
    this.printer.of(s, this.fp);
    return hexOf(this.fp);
  }

  /** The variant's view of a state, or the state itself when it has none. Throws ModelError. */
  view(trace: readonly TraceStep<S>[], s: S): unknown {
    const view = this.variant.view;
    if (view === undefined) return s;
    let out: unknown;
    this.guard(trace, () => {
      try {
        out = view(s);
      } catch (cause) {
        throw this.calls.threw('MC103_PREDICATE_THREW', 'view', cause, -1);
      }
    });
    return out;
  }

  private where(trace: readonly TraceStep<S>[]) {
    return { model: this.model, variant: this.variant.name, ...(trace.length > 0 ? { trace, depth: trace.length } : {}) };
  }

  /** Runs `f`, turning a fault in the model's code into the ModelError a search would report, with the path as its trace. */
  private guard(trace: readonly TraceStep<S>[], f: () => void): void {
    try {
      f();
    } catch (e) {
      if (e instanceof FaultThrown) throw toModelError(e.fault, this.where(trace), e.original);
      throw e;
    }
  }
}
