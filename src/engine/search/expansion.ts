// The one successor loop. Every search mode generates a state's successors here, and only
// here: each action, each of its parameters, next(), the fingerprint, with every check that
// belongs to a step: the model's faults as MC errors (modelCalls.ts), the determinism sample,
// step properties, whether the state is settled (all its steps stutter), and the liveness
// properties' labels of a state. What to do with a successor (test-and-insert it in a visited
// set, report it to another thread, pick one at random, draw it) is the caller's, through a
// Visitor, as TLC's Worker hands each successor to its state queue. Breadth-first search
// (bfs.ts), the parallel expanders (parallel/expander.ts), simulation (simulate.ts), the drawn
// graph (smallGraph.ts) and trace replay (trace.ts) all drive this module.
import type { Action, LivenessProperty, StepEvent, Variant } from '../model.ts';
import { normalizeVariant, stepLabel } from '../model.ts';
import { Fingerprinter, type Fingerprint } from '../values/fingerprint.ts';
import { SymmetricFingerprinter, type StateFingerprinter } from './symmetry.ts';
import {
  ModelCalls,
  initialStates,
  parameterKey,
  sampledForDeterminism,
  splitProperties,
  DETERMINISM_HINT,
  UNNAMED_RECORD_HINT,
  type SafetyProperty,
} from '../modelCalls.ts';
import type { TraceStep } from './trace.ts';
import { compileFairness } from './liveness.ts';
import { UnnamedRecord } from '../values/encoding.ts';
import type { StateQueue } from './stateQueue.ts';

/** What a caller does with the successors of the state being expanded. */
export interface Visitor<S> {
  /** Whether a violation of variant.properties[pi] found now is wanted (none recorded yet, say). */
  wants(pi: number): boolean;
  /** Invariant variant.properties[pi] is violated in the state `id` just checked. */
  stateViolated(pi: number, id: number): void;
  /**
   * Step property variant.properties[pi] is violated by the step just generated, the `seq`th
   * successor (from 0) of the state, by action `ai`, to the state with fingerprint `fp`.
   * Called before `successor` hears of that step.
   */
  stepViolated(pi: number, seq: number, ai: number, fp: Fingerprint): void;
  /**
   * A successor `t` of the state, by action `ai` with parameter `p`, its fingerprint in `fp`
   * (valid during the call). Return false to stop expanding the state (a bound was reached):
   * the state is then neither sampled for determinism nor checked as settled.
   */
  successor(ai: number, p: unknown, t: S, fp: Fingerprint): boolean;
  /**
   * A successor by action `ai` that fails the variant's state constraint: counted, checked
   * against the invariants (a violation comes through `stepViolated`), and neither stored nor
   * expanded. Visitors of variants without a constraint need not have it.
   */
  excluded?(ai: number, p: unknown, t: S, fp: Fingerprint): void;
}

/** expand() stopped because the visitor said so. */
export const STOPPED = -1;
/** Bits of what expand() returns otherwise. */
export const HAS_SUCCESSOR = 1;
export const SETTLED = 2;

/** In `settled` after expanding a settled state: the property's premise held; and it was violated there. */
export const PREMISE_HELD = 1;
export const VIOLATED = 2;

export class Expansion<S> {
  /** States' fingerprints; with symmetry reduction, their classes' (the least among the images). */
  readonly fingerprinter: StateFingerprinter;
  readonly symmetric: SymmetricFingerprinter | undefined;
  readonly calls: ModelCalls<S>;
  readonly actions: readonly Action<S, unknown>[];
  readonly invariants: SafetyProperty<S>[];
  readonly stepProperties: SafetyProperty<S>[];
  readonly settledProperties: SafetyProperty<S>[];
  readonly livenessProperties: LivenessProperty<S>[];
  /** Per action: whether fairness per parameter needs its steps' parameters (paramKey). */
  readonly paramKeyed: Uint8Array;
  /** Per invariant and per liveness property: the states checked where its premise held. */
  readonly invariantPremise: number[];
  readonly livenessPremise: number[];
  /** After checkState: per liveness property, its predicates' bits (1: p, 2: q of a leadsTo). */
  readonly labels: Uint8Array;
  /** After expand() of a settled state: per settled-state property, PREMISE_HELD and VIOLATED bits. */
  readonly settled: Uint8Array;
  private readonly invariantIndex: number[];
  private readonly stepIndex: number[];
  private readonly settledIndex: number[];
  private readonly actionNames: string[];
  private readonly fp: Fingerprint = { hi: 0, lo: 0 };
  private readonly sourceRaw: Fingerprint = { hi: 0, lo: 0 };
  /** A sampled state's successors as (action, fingerprint hi, lo) triples, from each of two calls. */
  private readonly firstCall: number[] = [];
  private readonly secondCall: number[] = [];
  /** For object parameters of per-parameter fairness; made on first use. */
  private paramPrinter: Fingerprinter | undefined;
  private readonly paramFp: Fingerprint = { hi: 0, lo: 0 };
  /** The variant's state constraint (TLC's CONSTRAINT), if it has one. */
  readonly constraint: ((s: S) => boolean) | undefined;

  constructor(
    readonly variant: Variant<S>,
    options: { readonly symmetry?: boolean } = {},
  ) {
    const symmetry = options.symmetry === false ? undefined : variant.symmetry;
    if (symmetry !== undefined) {
      this.symmetric = new SymmetricFingerprinter(new Fingerprinter(), symmetry.permutations as ((s: unknown) => unknown)[]);
      this.fingerprinter = this.symmetric;
    } else {
      this.fingerprinter = new Fingerprinter();
    }
    this.calls = new ModelCalls<S>(this.fingerprinter, symmetry?.name);
    const split = splitProperties(variant.properties);
    this.invariants = split.invariants;
    this.stepProperties = split.stepProperties;
    this.settledProperties = split.settledProperties;
    this.livenessProperties = split.livenessProperties;
    const indexOf = (list: SafetyProperty<S>[]) => list.map((p) => variant.properties.indexOf(p));
    this.invariantIndex = indexOf(this.invariants);
    this.stepIndex = indexOf(this.stepProperties);
    this.settledIndex = indexOf(this.settledProperties);
    this.actions = variant.actions as Action<S, unknown>[];
    this.actionNames = this.actions.map((a) => a.name);
    this.paramKeyed = new Uint8Array(this.actions.length);
    for (const f of compileFairness(normalizeVariant(variant).fairness, this.actionNames)) {
      if (f.perParameter) for (let a = 0; a < this.actions.length; a++) this.paramKeyed[a] |= f.inGroup[a];
    }
    this.invariantPremise = this.invariants.map(() => 0);
    this.livenessPremise = this.livenessProperties.map(() => 0);
    this.labels = new Uint8Array(this.livenessProperties.length);
    this.settled = new Uint8Array(this.settledProperties.length);
    this.constraint = variant.constraint;
  }

  /** The initial states, each with its fingerprint in `fp` (valid during the call). */
  initialStates(each: (s: S, fp: Fingerprint) => void): void {
    const fp = this.fp;
    for (const s of initialStates(() => this.variant.init(), this.calls)) {
      this.calls.fingerprint(s, fp, 'init', -1);
      each(s, fp);
    }
  }

  /**
   * Puts `s`, the state numbered `id` made by `subject` (an action's name, or 'init'), in
   * `queue`; a Record type the codec cannot register is the fault MC112.
   */
  hold(queue: StateQueue<S>, s: S, subject: string, id: number): void {
    try {
      queue.push(s);
    } catch (e) {
      if (!(e instanceof UnnamedRecord)) throw e;
      const where = subject === 'init' ? 'an initial state' : `the successor produced by ${subject}`;
      throw this.calls.fail('MC112_UNNAMED_RECORD', `${where} holds ${e.message}`, subject, id, {
        hint: UNNAMED_RECORD_HINT,
      });
    }
  }

  /**
   * A state just rebuilt from bytes shares its unchanged parts with the state rebuilt before it,
   * but its changed parts are new objects: digest them once, now, rather than in every
   * successor's fingerprint.
   */
  prime(s: S): void {
    this.fingerprinter.prime(s);
  }

  /** Keeps the digests of the state fingerprinted last, for its successors (it was new). */
  keep(): void {
    this.fingerprinter.keep();
  }

  /** Whether `s`, made by `subject` from state `id` (-1 and 'init' for an initial state), is within the state constraint. */
  admitted(s: S, id: number, subject: string): boolean {
    return this.constraint === undefined || this.calls.admits(this.constraint, id, s, subject);
  }

  /**
   * The invariants that `t`, a state outside the state constraint made from state `id`, breaks
   * and a violation of which `v` still wants: each to `each` (properties' indices). No premise
   * is counted: such a state is checked each time it is made, as TLC does.
   */
  excludedViolations(t: S, id: number, v: Visitor<S>, each: (pi: number) => void): void {
    const ps = this.invariants;
    for (let i = 0; i < ps.length; i++) {
      const pi = this.invariantIndex[i];
      if (v.wants(pi) && this.calls.premise(ps[i], id, t) && !this.calls.holds(ps[i], id, t)) each(pi);
    }
  }

  /** Checks the invariants in state `id` (counting premises), and sets its liveness labels. */
  checkState(s: S, id: number, v: Visitor<S>): void {
    const ps = this.invariants;
    for (let i = 0; i < ps.length; i++) {
      const p = ps[i];
      // The premise is counted in every state, also after a violation: the count does not
      // depend on the order states are checked in, so parallel searches report the same.
      if (!this.calls.premise(p, id, s)) continue;
      this.invariantPremise[i]++;
      const pi = this.invariantIndex[i];
      if (v.wants(pi) && !this.calls.holds(p, id, s)) v.stateViolated(pi, id);
    }
    const ls = this.livenessProperties;
    for (let i = 0; i < ls.length; i++) {
      const p = ls[i];
      const f = p.formula;
      let bits = this.calls.evaluate(p, f.p, id, s) ? 1 : 0;
      if (f.op === 'leadsTo' && bits === 1) this.livenessPremise[i]++;
      if (f.op === 'leadsTo' && this.calls.evaluate(p, f.q, id, s)) bits |= 2;
      this.labels[i] = bits;
    }
  }

  /**
   * Generates the successors of `s`, the state numbered `id` whose fingerprint is (ownHi,
   * ownLo), handing each to `v` after the step's properties are checked. Returns STOPPED if
   * `v` stopped it, else HAS_SUCCESSOR and SETTLED bits; for a settled state, `settled` then
   * holds its settled-state properties' verdicts.
   */
  expand(s: S, id: number, ownHi: number, ownLo: number, v: Visitor<S>): number {
    const sym = this.symmetric;
    // With symmetry, a step to another member of the class is not stuttering: compare states.
    if (sym) sym.rawOf(s, this.sourceRaw);
    const sampled = sampledForDeterminism(id);
    const first = this.firstCall;
    if (sampled) first.length = 0;
    let hasSuccessor = false;
    let settled = true;
    let seq = 0;
    const steps = this.stepProperties;
    const completed = this.successors(s, id, (ai, p, t, fp) => {
      hasSuccessor = true;
      if (sampled) first.push(ai, fp.hi, fp.lo);
      // A step that leads back to its own state is stuttering: the state may be settled.
      if (sym) {
        if (sym.raw.hi !== this.sourceRaw.hi || sym.raw.lo !== this.sourceRaw.lo) settled = false;
      } else if (fp.hi !== ownHi || fp.lo !== ownLo) settled = false;
      for (let j = 0; j < steps.length; j++) {
        const pj = this.stepIndex[j];
        if (v.wants(pj) && !this.calls.holds(steps[j], id, s, t)) v.stepViolated(pj, seq, ai, fp);
      }
      if (this.constraint !== undefined && !this.calls.admits(this.constraint, id, t, this.actionNames[ai])) {
        const at = seq++;
        this.excludedViolations(t, id, v, (pi) => v.stepViolated(pi, at, ai, fp));
        v.excluded?.(ai, p, t, fp);
        return true;
      }
      seq++;
      return v.successor(ai, p, t, fp);
    });
    if (!completed) return STOPPED;
    if (sampled) this.checkDeterminism(s, id);
    if (settled) this.checkSettled(s, id, v);
    return (hasSuccessor ? HAS_SUCCESSOR : 0) | (settled ? SETTLED : 0);
  }

  /**
   * The loop itself: each action (or only action `only`), each parameter, next(), the
   * fingerprint; `each` gets the successors in order and returns false to stop (then so does
   * this, returning false). With `events`, each step's events are collected there (replay).
   */
  successors(s: S, id: number, each: (ai: number, p: unknown, t: S, fp: Fingerprint) => boolean, only = -1, events?: StepEvent[]): boolean {
    const actions = this.actions;
    const fp = this.fp;
    const from = only === -1 ? 0 : only;
    const to = only === -1 ? actions.length : only + 1;
    this.fingerprinter.reference(s);
    for (let ai = from; ai < to; ai++) {
      const a = actions[ai];
      for (const p of this.calls.paramsOf(a, s, id)) {
        if (events) events.length = 0;
        const t = this.calls.nextOf(a, s, p, id, events);
        if (t === undefined) continue;
        this.calls.fingerprint(t, fp, a.name, id);
        if (!each(ai, p, t, fp)) return false;
      }
    }
    return true;
  }

  /**
   * Finds the step out of `s` by action `ai` to a state whose fingerprint `want` accepts (and,
   * with `paramOk`, whose parameter it accepts), with its label and events: one step of a trace
   * rebuilt by replay. Undefined if the action no longer makes it (the model is not deterministic).
   */
  replay(s: S, ai: number, want: (fp: Fingerprint) => boolean, paramOk?: (p: unknown) => boolean): TraceStep<S> | undefined {
    const events: StepEvent[] = [];
    let found: TraceStep<S> | undefined;
    this.successors(
      s,
      -1,
      (_ai, p, t, fp) => {
        if ((paramOk && !paramOk(p)) || !want(fp)) return true;
        // The step's state is the one fingerprinted last (with symmetry, its last image: the parts
        // they share): its parts' digests kept, the next step's successors are fingerprinted from
        // them rather than from every part again. A cache either way.
        this.keep();
        found = { action: stepLabel(this.actions[ai], p), state: t, events: [...events] };
        return false;
      },
      ai,
      events,
    );
    return found;
  }

  /** The step out of `s` by action `ai` with parameter `p`, labelled, with its events (for a trace). */
  step(s: S, ai: number, p: unknown): TraceStep<S> {
    const events: StepEvent[] = [];
    const t = this.calls.nextOf(this.actions[ai], s, p, -1, events);
    return { action: stepLabel(this.actions[ai], p), state: t as S, events };
  }

  /** The parameter of a step as fairness per parameter tells it apart; undefined if not needed. */
  paramKey(ai: number, p: unknown): unknown {
    if (this.paramKeyed[ai] === 0) return undefined;
    this.paramPrinter ??= new Fingerprinter();
    return parameterKey(this.actions[ai], p, this.paramPrinter, this.paramFp);
  }

  private checkSettled(s: S, id: number, v: Visitor<S>): void {
    const ps = this.settledProperties;
    for (let i = 0; i < ps.length; i++) {
      const p = ps[i];
      this.settled[i] = 0;
      if (!this.calls.premise(p, id, s)) continue;
      this.settled[i] = PREMISE_HELD;
      if (v.wants(this.settledIndex[i]) && !this.calls.holds(p, id, s)) this.settled[i] |= VIOLATED;
    }
  }

  /** Expands `s` again; its successors must be those just found, in order. */
  private checkDeterminism(s: S, id: number): void {
    const second = this.secondCall;
    second.length = 0;
    this.successors(s, id, (ai, _p, _t, fp) => {
      second.push(ai, fp.hi, fp.lo);
      return true;
    });
    const differ = nondeterminism(this.actionNames, this.firstCall, second);
    if (differ === undefined) return;
    throw this.calls.fail(
      'MC107_NOT_DETERMINISTIC',
      `action ${differ.action} is not deterministic: called twice on the same state, it gave ${differ.how}`,
      differ.action,
      id,
      { hint: DETERMINISM_HINT },
    );
  }
}

/**
 * Names the first action whose successors differ between two expansions of one state, each a
 * list of (action, fingerprint hi, lo) triples, and says how; undefined if they are the same.
 */
export function nondeterminism(
  actionNames: readonly string[],
  first: readonly number[],
  second: readonly number[],
): { action: string; how: string } | undefined {
  if (first.length === second.length && first.every((x, i) => x === second[i])) return undefined;
  const of = (list: readonly number[], ai: number) => {
    const out: string[] = [];
    for (let i = 0; i < list.length; i += 3) if (list[i] === ai) out.push(`${list[i + 1]}:${list[i + 2]}`);
    return out;
  };
  let culprit = 0;
  while (culprit < actionNames.length - 1 && of(first, culprit).join() === of(second, culprit).join()) culprit++;
  const [n1, n2] = [of(first, culprit).length, of(second, culprit).length];
  const how = n1 !== n2 ? `${n1} successor${n1 === 1 ? '' : 's'}, then ${n2}` : 'different successors';
  return { action: actionNames[culprit], how };
}
