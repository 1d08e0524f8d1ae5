// One thread's share of a parallel breadth-first search (coordinator.ts). An expander holds
// the states it generated that the coordinator gave it, checks their invariants, expands them
// in id order, and reports every successor as a fixed-size record (protocol.ts). It does not
// decide what is new: the coordinator alone holds the visited set, numbers the new states as a
// one-thread search would, and says which of each expander's successors to keep. No state
// crosses threads: a state is expanded by a thread that generated it.
import type { Variant } from '../../model.ts';
import type { Fingerprint } from '../../values/fingerprint.ts';
import { Expansion, HAS_SUCCESSOR, SETTLED, PREMISE_HELD, VIOLATED, type Visitor } from '../expansion.ts';
import { SeenSet, NEW } from '../seenSet.ts';
import { StateCodec } from '../../values/stateCodec.ts';
import { StateQueue } from '../stateQueue.ts';
import { Storage, type StorageOptions } from '../storage.ts';
import { StopPoll, type StopOptions } from '../stopPoll.ts';
import { FaultThrown } from '../../errors.ts';
import { replayAncestry, type Ancestry } from '../frontierReplay.ts';
import { END, END_DEADLOCK, EXCLUDED, RECORD, type ExpanderFailure, type Order, type Report } from './protocol.ts';

/**
 * The fingerprints an expander has reported, so that a successor it reported before is not
 * kept again (the coordinator has it already). A cache: emptied when it reaches this size,
 * which only makes more candidates, never fewer.
 */
const LOCAL_LIMIT = 1 << 22;

export interface ExpanderOptions extends StopOptions, StorageOptions {
  /** Use the variant's declared symmetry (default true). */
  readonly symmetry?: boolean;
}

export class Expander<S> {
  private readonly x: Expansion<S>;
  private readonly codec = new StateCodec();
  private readonly storage: Storage;
  /** The states this thread generated and kept at the last level, as bytes, in the order kept. */
  private candidates: StateQueue<S>;
  /** Each candidate's fingerprint (hi, lo), so that it is not computed again when expanded. */
  private candidateFps: number[] = [];
  private local = new SeenSet();
  private records = new Int32Array(RECORD * 4096);
  private count = 0;
  private readonly stopPoll: StopPoll;
  private expanded = 0;
  private params: unknown[] = [];
  /** Indices in variant.properties of the properties violated, as far as this thread knows. */
  private violated = new Set<number>();
  private invariantFindings: number[] = [];
  private stepFindings: number[] = [];
  private initialFindings: number[] = [];
  /** The state being expanded. */
  private id = -1;
  private readonly visitor: Visitor<S>;

  /** The model's coverage labels (model.ts Coverage), sent with each report. */
  private readonly coverage: Variant<S>['coverage'];

  constructor(variant: Variant<S>, options: ExpanderOptions) {
    this.x = new Expansion(variant, { symmetry: options.symmetry });
    this.coverage = variant.coverage;
    // (What an earlier search in this thread left noted is not this one's.)
    this.coverage?.reset();
    this.storage = new Storage(options);
    this.candidates = new StateQueue<S>(this.codec, this.storage);
    this.stopPoll = new StopPoll(options, performance.now());
    this.visitor = {
      wants: (pi) => !this.violated.has(pi),
      stateViolated: (pi, id) => {
        this.violated.add(pi);
        this.invariantFindings.push(pi, id);
      },
      stepViolated: (pi, seq, ai, fp) => {
        this.violated.add(pi);
        this.stepFindings.push(pi, this.id, seq, ai, fp.hi, fp.lo);
      },
      successor: (ai, p, t, fp) => this.reportStep(ai, p, t, fp),
      // Outside the state constraint: reported for its count, never held.
      excluded: (ai, p, _t, fp) => {
        this.push(this.id, ai, fp.hi, fp.lo, EXCLUDED);
        if (this.x.paramKeyed[ai] === 1) this.params.push(this.x.paramKey(ai, p));
      },
    };
  }

  /** Reports a successor, kept as a candidate if new to this thread. */
  private reportStep(ai: number, p: unknown, t: S, fp: Fingerprint): boolean {
    const x = this.x;
    let extra = 0;
    if (this.local.put(fp.hi, fp.lo, 0) === NEW) {
      if (this.local.size >= LOCAL_LIMIT) this.local = new SeenSet();
      // Most candidates are new states: keep their parts' digests for their successors,
      // as the one-thread search does for a new state.
      x.keep();
      x.hold(this.candidates, t, x.actions[ai].name, this.id);
      this.candidateFps.push(fp.hi, fp.lo);
      extra |= ((x.symmetric?.orbit ?? 1) << 1) | 1;
    }
    this.push(this.id, ai, fp.hi, fp.lo, extra);
    if (x.paramKeyed[ai] === 1) this.params.push(x.paramKey(ai, p));
    return true;
  }

  /** The search is over: remove any spill files. */
  close(): void {
    this.candidates.close();
    this.storage.close();
  }

  handle(order: Exclude<Order, { kind: 'close' }>): Report {
    if (order.kind === 'init') return this.initial();
    if (order.kind === 'resume') return this.resume(order.ancestry);
    return this.level(order.assign, order.expand, order.quiet, order.violated, order.checked === true);
  }

  /** The level a checkpoint stopped before, rebuilt by replay; every state a candidate. */
  private resume(ancestry: Ancestry): Report {
    this.count = 0;
    // (A thread brought in mid-search rebuilds the level with the others, which let go of theirs.)
    this.candidates.close();
    this.candidates = new StateQueue<S>(this.codec, this.storage);
    this.candidateFps = [];
    const x = this.x;
    try {
      replayAncestry(x, ancestry, (id, s, hi, lo) => {
        x.hold(this.candidates, s, 'resume', id);
        this.candidateFps.push(hi, lo);
      });
    } catch (e) {
      if (e instanceof FaultThrown) return this.report({ ...e.fault, phase: 'check' });
      throw e;
    }
    return this.report();
  }

  /** The initial states, every one a candidate (each expander holds them all). */
  private initial(): Report {
    this.count = 0;
    this.initialFindings = [];
    const x = this.x;
    try {
      x.initialStates((s, fp: Fingerprint) => {
        if (!x.admitted(s, -1, 'init')) {
          this.push(-1, 0, fp.hi, fp.lo, EXCLUDED);
          x.excludedViolations(s, -1, this.visitor, (pi) => this.initialFindings.push(pi, fp.hi, fp.lo));
          return;
        }
        x.keep();
        x.hold(this.candidates, s, 'init', -1);
        this.candidateFps.push(fp.hi, fp.lo);
        this.push(-1, 0, fp.hi, fp.lo, ((x.symmetric?.orbit ?? 1) << 1) | 1);
      });
    } catch (e) {
      if (e instanceof FaultThrown) return this.report({ ...e.fault, phase: 'check' });
      throw e;
    }
    return this.report();
  }

  private level(assign: Int32Array, expand: boolean, quiet: boolean, violatedList: readonly number[], checked: boolean): Report {
    const x = this.x;
    const n = assign.length >> 1;
    const held = this.candidates;
    const heldFps = this.candidateFps;
    this.candidates = new StateQueue<S>(this.codec, this.storage);
    this.candidateFps = [];
    this.count = 0;
    this.params = [];
    this.violated = new Set(violatedList);
    this.invariantFindings = [];
    this.stepFindings = [];
    x.invariantPremise.fill(0);
    x.livenessPremise.fill(0);
    const labels: number[] = [];
    let failure: ExpanderFailure | undefined;
    let stopped: Report['stopped'];
    let next = 0;
    for (let k = 0; k < n; k++) {
      // The assigned candidates come in the order they were kept (by id): read on, skipping the others.
      const c = assign[2 * k];
      while (next < c) {
        held.take();
        next++;
      }
      const s = held.take();
      next++;
      if (held.decoded) x.prime(s);
      const id = assign[2 * k + 1];
      // (After a resume, the first level was checked before the checkpoint.)
      if (!checked) {
        try {
          // The state's invariants, as a one-thread search checks them when it stores it: every
          // assigned state's, even after a stop or a fault in an expansion, which they precede.
          x.checkState(s, id, this.visitor);
        } catch (e) {
          if (e instanceof FaultThrown) return this.report({ ...e.fault, phase: 'check' }, undefined, labels);
          throw e;
        }
        if (x.livenessProperties.length > 0) {
          let packed = 0;
          for (let i = 0; i < x.labels.length; i++) packed |= x.labels[i] << (2 * i);
          labels.push(id, packed);
        }
      }
      if (!expand || failure !== undefined || stopped !== undefined) continue;
      try {
        this.expandOne(s, id, heldFps[2 * c], heldFps[2 * c + 1]);
      } catch (e) {
        if (!(e instanceof FaultThrown)) throw e;
        failure = { ...e.fault, phase: 'expand' };
      }
      if ((++this.expanded & 255) === 0) stopped = this.stopPoll.check();
    }
    if (quiet) {
      this.count = 0;
      this.params = [];
    }
    return this.report(failure, stopped, labels);
  }

  private expandOne(s: S, id: number, ownHi: number, ownLo: number): void {
    const x = this.x;
    this.id = id;
    const end = x.expand(s, id, ownHi, ownLo, this.visitor);
    let premiseBits = 0;
    let violatedBits = 0;
    if (end & SETTLED) {
      for (let i = 0; i < x.settled.length; i++) {
        if (x.settled[i] & PREMISE_HELD) premiseBits |= 1 << i;
        if (x.settled[i] & VIOLATED) violatedBits |= 1 << i;
      }
    }
    this.push(id, end & HAS_SUCCESSOR ? END : END_DEADLOCK, premiseBits, violatedBits, end & SETTLED ? 1 : 0);
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

  private report(failure?: ExpanderFailure, stopped?: Report['stopped'], labels: number[] = []): Report {
    // A copy of the used part: the coordinator may keep it while this thread writes the next.
    const records = this.records.slice(0, this.count * RECORD);
    return {
      records,
      count: this.count,
      invariantPremise: [...this.x.invariantPremise],
      invariantFindings: this.invariantFindings,
      stepFindings: this.stepFindings,
      initialFindings: this.initialFindings,
      labels,
      livenessPremise: [...this.x.livenessPremise],
      params: this.params,
      storage: this.storage.stats,
      coverage: this.coverage?.drain(),
      failure,
      stopped,
    };
  }
}
