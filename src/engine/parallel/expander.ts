// One thread's share of a parallel breadth-first search (coordinator.ts). An expander holds
// the states it generated that the coordinator gave it, checks their invariants, expands them
// in id order, and reports every successor as a fixed-size record (protocol.ts). It does not
// decide what is new: the coordinator alone holds the visited set, numbers the new states as a
// one-thread search would, and says which of each expander's successors to keep. No state
// crosses threads: a state is expanded by a thread that generated it.
import type { Action, Variant } from '../model.ts';
import { Fingerprinter, type Fingerprint } from '../fingerprint.ts';
import { SymmetricFingerprinter, type StateFingerprinter } from '../symmetry.ts';
import { SeenSet, NEW } from '../seenSet.ts';
import { StopPoll, type StopOptions } from '../stopPoll.ts';
import type { ModelErrorCode } from '../errors.ts';
import {
  DETERMINISM_HINT,
  ModelCalls,
  parameterKey,
  initialStates,
  nondeterminism,
  sampledForDeterminism,
  splitProperties,
  successorPrints,
  type SafetyProperty,
} from '../modelCalls.ts';
import type { LivenessProperty } from '../model.ts';
import { compileFairness } from '../liveness.ts';
import { END, END_DEADLOCK, RECORD, type ExpanderFailure, type Order, type Report } from './protocol.ts';

/**
 * The fingerprints an expander has reported, so that a successor it reported before is not
 * kept again (the coordinator has it already). A cache: emptied when it reaches this size,
 * which only makes more candidates, never fewer.
 */
const LOCAL_LIMIT = 1 << 22;

/** A fault in the model, carried out of the expansion to the report. */
class Fault extends Error {
  constructor(readonly failure: Omit<ExpanderFailure, 'phase'>) {
    super(failure.message);
  }
}

export interface ExpanderOptions extends StopOptions {
  /** Use the variant's declared symmetry (default true). */
  readonly symmetry?: boolean;
}

export class Expander<S> {
  private readonly calls: ModelCalls<S>;
  private readonly fingerprinter: StateFingerprinter;
  private readonly symmetric: SymmetricFingerprinter | undefined;
  private readonly invariants: SafetyProperty<S>[];
  private readonly stepProperties: SafetyProperty<S>[];
  private readonly settledProperties: SafetyProperty<S>[];
  /** Index in variant.properties of each invariant, step property and settled property. */
  private readonly invariantIndex: number[];
  private readonly stepIndex: number[];
  private readonly settledIndex: number[];
  private readonly actions: Action<S, unknown>[];
  private readonly actionNames: string[];
  private candidates: S[] = [];
  /** Each candidate's fingerprint (hi, lo), so that it is not computed again when expanded. */
  private candidateFps: number[] = [];
  private local = new SeenSet();
  private records = new Int32Array(RECORD * 4096);
  private count = 0;
  private readonly stopPoll: StopPoll;
  private expanded = 0;
  private readonly livenessProperties: LivenessProperty<S>[];
  /** Per action: whether fairness per parameter needs its steps' parameters. */
  private readonly paramKeyed: Uint8Array;
  private readonly paramPrinter = new Fingerprinter();
  private readonly paramFp: Fingerprint = { hi: 0, lo: 0 };
  private params: unknown[] = [];
  private readonly firstCall: number[] = [];
  private readonly secondCall: number[] = [];

  constructor(
    private readonly variant: Variant<S>,
    options: ExpanderOptions,
  ) {
    const symmetry = options.symmetry === false ? undefined : variant.symmetry;
    if (symmetry !== undefined) {
      this.symmetric = new SymmetricFingerprinter(new Fingerprinter(), symmetry.permutations as ((s: unknown) => unknown)[]);
      this.fingerprinter = this.symmetric;
    } else {
      this.fingerprinter = new Fingerprinter();
    }
    this.calls = new ModelCalls<S>(
      (code: ModelErrorCode, message, subject, id, extra) => {
        const c = extra?.cause;
        const cause =
          c instanceof Error
            ? { name: c.name, message: c.message, stack: c.stack }
            : c === undefined
              ? undefined
              : { name: 'Error', message: String(c) };
        return new Fault({ code, message, subject, id, hint: extra?.hint, cause });
      },
      this.fingerprinter,
      symmetry?.name,
    );
    const split = splitProperties(variant.properties);
    this.invariants = split.invariants;
    this.stepProperties = split.stepProperties;
    this.settledProperties = split.settledProperties;
    const indexOf = (list: SafetyProperty<S>[]) => list.map((p) => variant.properties.indexOf(p));
    this.invariantIndex = indexOf(this.invariants);
    this.stepIndex = indexOf(this.stepProperties);
    this.settledIndex = indexOf(this.settledProperties);
    this.livenessProperties = split.livenessProperties;
    this.actions = variant.actions as Action<S, unknown>[];
    this.actionNames = this.actions.map((a) => a.name);
    this.paramKeyed = new Uint8Array(this.actions.length);
    for (const f of compileFairness(variant.fairness ?? [], this.actionNames)) {
      if (f.perParameter) for (let a = 0; a < this.actions.length; a++) this.paramKeyed[a] |= f.inGroup[a];
    }
    this.stopPoll = new StopPoll(options, performance.now());
  }

  handle(order: Exclude<Order, { kind: 'close' }>): Report {
    return order.kind === 'init' ? this.initial() : this.level(order.assign, order.expand, order.quiet, order.violated);
  }

  /** The initial states, every one a candidate (each expander holds them all). */
  private initial(): Report {
    this.count = 0;
    const fp: Fingerprint = { hi: 0, lo: 0 };
    try {
      for (const s of initialStates(() => this.variant.init(), this.calls)) {
        this.calls.fingerprint(s, fp, 'init', -1);
        this.fingerprinter.keep();
        this.candidates.push(s);
        this.candidateFps.push(fp.hi, fp.lo);
        this.push(-1, 0, fp.hi, fp.lo, ((this.symmetric?.orbit ?? 1) << 1) | 1);
      }
    } catch (e) {
      if (e instanceof Fault) return this.report({}, { ...e.failure, phase: 'check' });
      throw e;
    }
    return this.report({});
  }

  private level(assign: Int32Array, expand: boolean, quiet: boolean, violatedList: readonly number[]): Report {
    const n = assign.length >> 1;
    const states: S[] = new Array(n);
    const ids = new Int32Array(n);
    const own = new Uint32Array(2 * n);
    for (let k = 0; k < n; k++) {
      const c = assign[2 * k];
      states[k] = this.candidates[c];
      ids[k] = assign[2 * k + 1];
      own[2 * k] = this.candidateFps[2 * c];
      own[2 * k + 1] = this.candidateFps[2 * c + 1];
    }
    this.candidates = [];
    this.candidateFps = [];
    this.count = 0;
    this.params = [];
    const violated = new Set(violatedList);
    const premise = this.invariants.map(() => 0);
    const invariantFindings: number[] = [];
    const stepFindings: number[] = [];
    const labels: number[] = [];
    const livenessPremise = this.livenessProperties.map(() => 0);
    const found = { invariantPremise: premise, invariantFindings, stepFindings, labels, livenessPremise };
    let phase: 'check' | 'expand' = 'check';
    let stopped: Report['stopped'];
    try {
      // The states' invariants, as a one-thread search checks them when it stores them.
      for (let k = 0; k < n; k++) {
        const s = states[k];
        const id = ids[k];
        for (let i = 0; i < this.invariants.length; i++) {
          const p = this.invariants[i];
          if (!this.calls.premise(p, id, s)) continue;
          premise[i]++;
          const pi = this.invariantIndex[i];
          if (violated.has(pi) || this.calls.holds(p, id, s)) continue;
          violated.add(pi);
          invariantFindings.push(pi, id);
        }
        if (this.livenessProperties.length > 0) labels.push(id, this.label(s, id, livenessPremise));
      }
      phase = 'expand';
      if (expand) stopped = this.expand(states, ids, own, violated, stepFindings);
    } catch (e) {
      if (e instanceof Fault) return this.report(found, { ...e.failure, phase });
      throw e;
    }
    if (quiet) {
      this.count = 0;
      this.params = [];
    }
    return this.report(found, undefined, stopped);
  }

  /** The liveness properties' predicates in `s`, packed two bits a property; counts leadsTo premises. */
  private label(s: S, id: number, premise: number[]): number {
    let packed = 0;
    this.livenessProperties.forEach((p, i) => {
      const f = p.formula;
      let bits = this.calls.evaluate(p, f.p, id, s) ? 1 : 0;
      if (f.op === 'leadsTo' && bits === 1) premise[i]++;
      if (f.op === 'leadsTo' && this.calls.evaluate(p, f.q, id, s)) bits |= 2;
      packed |= bits << (2 * i);
    });
    return packed;
  }

  private expand(states: S[], ids: Int32Array, own: Uint32Array, violated: Set<number>, stepFindings: number[]): Report['stopped'] {
    const actions = this.actions;
    const sym = this.symmetric;
    const sourceRaw: Fingerprint = { hi: 0, lo: 0 };
    const fp: Fingerprint = { hi: 0, lo: 0 };
    for (let k = 0; k < states.length; k++) {
      const s = states[k];
      const id = ids[k];
      const ownHi = own[2 * k];
      const ownLo = own[2 * k + 1];
      let hasSuccessor = false;
      let settled = true;
      let seq = 0;
      const sampled = sampledForDeterminism(id);
      if (sampled) this.firstCall.length = 0;
      if (sym) sym.rawOf(s, sourceRaw);
      for (let ai = 0; ai < actions.length; ai++) {
        const a = actions[ai];
        for (const p of this.calls.paramsOf(a, s, id)) {
          const t = this.calls.nextOf(a, s, p, id);
          if (t === undefined) continue;
          hasSuccessor = true;
          this.calls.fingerprint(t, fp, a.name, id);
          if (sampled) this.firstCall.push(ai, fp.hi, fp.lo);
          // A step that leads back to its own state is stuttering: the state may be settled.
          // (With symmetry, a step to another member of the class is not: compare states.)
          if (sym) {
            if (sym.raw.hi !== sourceRaw.hi || sym.raw.lo !== sourceRaw.lo) settled = false;
          } else if (fp.hi !== ownHi || fp.lo !== ownLo) settled = false;
          for (let j = 0; j < this.stepProperties.length; j++) {
            const pj = this.stepIndex[j];
            if (violated.has(pj) || this.calls.holds(this.stepProperties[j], id, s, t)) continue;
            violated.add(pj);
            stepFindings.push(pj, id, seq, ai, fp.hi, fp.lo);
          }
          let extra = 0;
          if (this.local.put(fp.hi, fp.lo, 0) === NEW) {
            if (this.local.size >= LOCAL_LIMIT) this.local = new SeenSet();
            // Most candidates are new states: keep their parts' digests for their successors,
            // as the one-thread search does for a new state.
            this.fingerprinter.keep();
            this.candidates.push(t);
            this.candidateFps.push(fp.hi, fp.lo);
            extra = ((sym?.orbit ?? 1) << 1) | 1;
          }
          this.push(id, ai, fp.hi, fp.lo, extra);
          if (this.paramKeyed[ai] === 1) this.params.push(parameterKey(a, p, this.paramPrinter, this.paramFp));
          seq++;
        }
      }
      if (sampled) {
        successorPrints(actions, this.calls, s, id, this.secondCall);
        const differ = nondeterminism(this.actionNames, this.firstCall, this.secondCall);
        if (differ !== undefined) {
          throw new Fault({
            code: 'MC107_NOT_DETERMINISTIC',
            message: `action ${differ.action} is not deterministic: called twice on the same state, it gave ${differ.how}`,
            subject: differ.action,
            id,
            hint: DETERMINISM_HINT,
          });
        }
      }
      let premiseBits = 0;
      let violatedBits = 0;
      if (settled) {
        for (let i = 0; i < this.settledProperties.length; i++) {
          const p = this.settledProperties[i];
          if (!this.calls.premise(p, id, s)) continue;
          premiseBits |= 1 << i;
          const pi = this.settledIndex[i];
          if (violated.has(pi) || this.calls.holds(p, id, s)) continue;
          violated.add(pi);
          violatedBits |= 1 << i;
        }
      }
      this.push(id, hasSuccessor ? END : END_DEADLOCK, premiseBits, violatedBits, settled ? 1 : 0);
      if ((++this.expanded & 255) === 0) {
        const stop = this.stopPoll.check();
        if (stop !== undefined) return stop;
      }
    }
    return undefined;
  }

  private push(a: number, b: number, c: number, d: number, e: number): void {
    let r = this.records;
    const at = this.count * RECORD;
    if (at + RECORD > r.length) {
      const grown = new Int32Array(r.length * 2);
      grown.set(r);
      this.records = r = grown;
    }
    r[at] = a;
    r[at + 1] = b;
    r[at + 2] = c;
    r[at + 3] = d;
    r[at + 4] = e;
    this.count++;
  }

  private report(
    found: Partial<Pick<Report, 'invariantPremise' | 'invariantFindings' | 'stepFindings' | 'labels' | 'livenessPremise'>>,
    failure?: ExpanderFailure,
    stopped?: Report['stopped'],
  ): Report {
    // A copy of the used part: the coordinator may keep it while this thread writes the next.
    const records = this.records.slice(0, this.count * RECORD);
    return {
      records,
      count: this.count,
      invariantPremise: found.invariantPremise ?? [],
      invariantFindings: found.invariantFindings ?? [],
      stepFindings: found.stepFindings ?? [],
      labels: found.labels ?? [],
      livenessPremise: found.livenessPremise ?? [],
      params: this.params,
      failure,
      stopped,
    };
  }
}
