// The trace log: for every distinct state, its predecessor, the action that reached it and its
// fingerprint, in typed arrays. Whole states are not kept. A counterexample is rebuilt as TLC
// does: walk the predecessor links back to an initial state, then replay forward, at each step
// regenerating the recorded action's successors and taking the one whose fingerprint matches.
import type { Action, StepEvent, Variant } from './model.ts';
import { stepLabel } from './model.ts';
import type { Fingerprint } from './fingerprint.ts';
import type { StateFingerprinter } from './symmetry.ts';

export interface TraceStep<S = unknown> {
  /** `null` for the initial state; otherwise the step's label, e.g. `mover.delete(Cluster/c1)`. */
  readonly action: string | null;
  readonly state: S;
  /** What the step did as its action told it (requests and answers, notes); none for the initial state. */
  readonly events?: readonly StepEvent[];
  /** The state as the variant's `view` shows it to readers, when the variant has one. */
  readonly view?: unknown;
}

/** Adds each state's reader's view, for a variant that declares one. */
export function withViews<S>(trace: TraceStep<S>[], view: ((s: S) => unknown) | undefined): TraceStep<S>[] {
  return view ? trace.map((step) => ({ ...step, view: view(step.state) })) : trace;
}

/** The action of an initial state, in the log's 16-bit action array. */
const NO_ACTION = 0xffff;

/**
 * 14 bytes a state: parent, action (16 bits: a variant has fewer than 65,535 actions) and
 * fingerprint. Depths are not stored per state: breadth-first search stores states in order of
 * depth, so the first id of each depth is enough.
 */
export class StateLog {
  private parent = new Int32Array(1024);
  private action = new Uint16Array(1024);
  private fpHi = new Uint32Array(1024);
  private fpLo = new Uint32Array(1024);
  /** levelStart[d - 1]: the first id at depth d. */
  private readonly levelStart: number[] = [];
  private count = 0;

  get size(): number {
    return this.count;
  }

  /** Bytes held by the log's arrays. */
  get bytes(): number {
    return this.parent.byteLength + this.action.byteLength + this.fpHi.byteLength + this.fpLo.byteLength + 8 * this.levelStart.length;
  }

  /**
   * Records a new state and returns its id. `parent` and `action` are -1 for an initial state.
   * States come in order of depth (each depth at most one more than the last), as BFS stores them.
   */
  add(parent: number, action: number, fp: Fingerprint, depth: number): number {
    if (this.count === this.parent.length) this.grow();
    const id = this.count++;
    while (this.levelStart.length < depth) this.levelStart.push(id);
    if (depth < this.levelStart.length) throw new Error(`state log: a state at depth ${depth} after one at depth ${this.levelStart.length}`);
    this.parent[id] = parent;
    this.action[id] = action === -1 ? NO_ACTION : action;
    this.fpHi[id] = fp.hi;
    this.fpLo[id] = fp.lo;
    return id;
  }

  /** The depth of state `id` (initial states: 1), from the first ids of the depths. */
  depth(id: number): number {
    const starts = this.levelStart;
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid] <= id) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  }

  /** The ids from an initial state to `id`, inclusive. */
  pathTo(id: number): number[] {
    const path: number[] = [];
    for (let i = id; i !== -1; i = this.parent[i]) path.push(i);
    return path.reverse();
  }

  actionOf(id: number): number {
    const a = this.action[id];
    return a === NO_ACTION ? -1 : a;
  }

  fingerprintOf(id: number, out: Fingerprint): void {
    out.hi = this.fpHi[id];
    out.lo = this.fpLo[id];
  }

  matches(id: number, fp: Fingerprint): boolean {
    return this.fpHi[id] === fp.hi && this.fpLo[id] === fp.lo;
  }

  private grow(): void {
    const n = this.parent.length * 2;
    const g = <T extends Int32Array | Uint32Array | Uint16Array>(a: T, make: (n: number) => T): T => {
      const b = make(n);
      b.set(a);
      return b;
    };
    this.parent = g(this.parent, (k) => new Int32Array(k));
    this.action = g(this.action, (k) => new Uint16Array(k));
    this.fpHi = g(this.fpHi, (k) => new Uint32Array(k));
    this.fpLo = g(this.fpLo, (k) => new Uint32Array(k));
  }
}

/** Thrown when replay cannot find a recorded step again: the model is not deterministic. */
export class ReplayError extends Error {}

/** Finds the successor of `s` by `a` whose fingerprint matches `want`. */
export function replayStep<S>(
  a: Action<S, unknown>,
  s: S,
  want: (fp: Fingerprint) => boolean,
  fingerprinter: StateFingerprinter,
  paramOk?: (p: unknown) => boolean,
): TraceStep<S> | undefined {
  const fp = { hi: 0, lo: 0 };
  const params = a.params ? a.params(s) : [undefined];
  for (const p of params) {
    if (paramOk && !paramOk(p)) continue;
    const events: StepEvent[] = [];
    const t = a.next(s, p, events);
    if (t === undefined) continue;
    fingerprinter.of(t, fp);
    if (want(fp)) return { action: stepLabel(a, p), state: t, events };
  }
  return undefined;
}

/** Rebuilds the trace from an initial state to state `id`. */
export function rebuildTrace<S>(
  variant: Variant<S>,
  log: StateLog,
  id: number,
  fingerprinter: StateFingerprinter,
): TraceStep<S>[] {
  const path = log.pathTo(id);
  const fp = { hi: 0, lo: 0 };
  let first: S | undefined;
  for (const s of variant.init()) {
    fingerprinter.of(s, fp);
    if (log.matches(path[0], fp)) {
      first = s;
      break;
    }
  }
  if (first === undefined) throw new ReplayError('no initial state matches the recorded one');
  const trace: TraceStep<S>[] = [{ action: null, state: first }];
  let s: S = first;
  for (let k = 1; k < path.length; k++) {
    const a = variant.actions[log.actionOf(path[k])] as Action<S, unknown>;
    const step = replayStep(a, s, (f) => log.matches(path[k], f), fingerprinter);
    if (!step) {
      throw new ReplayError(
        `action ${a.name} no longer produces the successor it produced during the search`,
      );
    }
    trace.push(step);
    s = step.state;
  }
  return trace;
}
