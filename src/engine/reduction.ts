// Partial-order reduction: expand, in a state, only a stubborn set of its steps when the others
// are independent of them, so that the many orders of independent steps (two caches taking in
// events, two controllers reading their own caches) are not all explored.
//
// A transition is an action with one parameter from its declared domain, its footprint the
// locations it reads and writes in every state (model.ts Footprint). From the footprints, once:
// `dep[t]`, the transitions that conflict with t (one writes what the other reads or writes,
// unless both are updates that commute: model.ts Footprint); `enablers[t]`, the transitions
// that write what t's guard reads (only they can make a disabled t possible), and `movers[t]`,
// those that write anything t reads or writes (only they can make a stuttering t take a real
// step); and whether t is visible (writes what an invariant or action property reads). Per state, the
// stubborn set is closed from a seed (Valmari's stubborn sets, in the guard-free form of
// Laarman, Pater, van de Pol and Weber, "Guard-based partial-order reduction", SPIN 2013, as
// LTSmin's pins2pins-por computes them):
// - an enabled step that changes the state brings in every transition of dep[t], and, if it is
//   visible, every visible transition (condition V);
// - a disabled one brings in enablers[t], a stuttering one movers[t] (necessary enabling sets:
//   a stuttering step counts as disabled, so that settled states are kept as deadlocks are);
// and the smallest over the seeds is taken. Deadlocks and settled states need nothing more.
// Invariants and action properties also need the ignoring proviso. The depth-first one (no
// chosen successor on the stack) does not carry over to breadth-first search; Bošnački, Leue
// and Lluch-Lafuente ("Partial-order reduction for general state exploring algorithms", SPIN
// 2006, STTT 11(1) 2009) state provisos over the open and closed sets instead, and SPIN's
// breadth-first search (Q_PROVISO) accepts a reduced expansion only when a successor is new or
// still queued. Ours is that rule over state numbers: a reduced state must have a chosen
// successor that is new or numbered after it, else it is expanded in full. Why it suffices:
// following such successors the numbers strictly climb, so every chain of reduced states ends
// at a fully expanded one, and a step left out on the way stays enabled (it is independent of
// the chosen ones), so it is taken there. Liveness is not reduced (fairness speaks of enabledness, which a reduced graph
// hides): a variant with liveness properties is searched whole.
import type { Action, Footprint } from './model.ts';

/** What the reduction needs of a property: its kind and the locations it reads. */
type Watched = { readonly kind: string; readonly reads?: readonly string[] };
import { Fingerprinter, type Fingerprint } from './fingerprint.ts';
import { parameterKey } from './modelCalls.ts';

const READ = 0;
const WRITE = 1;
/** Commuting updates of kind k have mode COMMUTING + k; kinds 0 and 1 are append and take. */
const COMMUTING = 2;
const APPEND = COMMUTING;
const TAKE = COMMUTING + 1;

/** Why a variant is not reduced, or undefined when it is. */
export function reductionRefused(
  actions: readonly Action<unknown, unknown>[],
  properties: readonly Watched[],
  options: { readonly partialOrder?: boolean; readonly symmetric: boolean; readonly constrained?: boolean },
): string | undefined {
  if (options.partialOrder === false) return 'turned off (--no-por)';
  const missing = actions.filter((a) => a.footprint === undefined || (a.params !== undefined && a.domain === undefined));
  if (missing.length === actions.length) return 'no action declares a footprint';
  if (missing.length > 0) return `action ${missing[0].name} declares no footprint and domain`;
  if (properties.some((p) => p.kind === 'liveness')) return 'liveness properties are checked on the whole graph';
  if (options.symmetric) return 'not combined with symmetry reduction';
  // A state the constraint keeps out is never expanded: the ignoring proviso would count it as new.
  if (options.constrained) return 'not combined with a state constraint';
  return undefined;
}

export class Reduction {
  /** How many transitions the actions' domains make. */
  readonly size: number;
  /** Per transition: its action. */
  readonly actionOf: Int32Array;
  /** Per transition: whether it is visible to an invariant or action property. */
  readonly visible: Uint8Array;
  /** Whether any property needs the proviso (invariants and action properties do). */
  readonly proviso: boolean;
  private readonly dep: Int32Array[];
  private readonly enablers: Int32Array[];
  private readonly movers: Int32Array[];
  /** Per action: its parameters' keys to their transitions. */
  private readonly byKey: Map<unknown, number>[];
  private readonly printer = new Fingerprinter();
  private readonly keyFp: Fingerprint = { hi: 0, lo: 0 };
  // Per-state scratch, stamped rather than cleared.
  private readonly enabledAt: Int32Array;
  private readonly inSet: Int32Array;
  private stamp = 0;
  private readonly work: number[] = [];

  constructor(
    private readonly actions: readonly Action<unknown, unknown>[],
    properties: readonly Watched[],
  ) {
    const footprints: Footprint[] = [];
    const actionOf: number[] = [];
    this.byKey = actions.map((a, ai) => {
      const keys = new Map<unknown, number>();
      const domain = a.params ? [...a.domain!()] : [undefined];
      for (const p of domain) {
        const key = this.keyOf(ai, p);
        if (keys.has(key)) continue;
        keys.set(key, actionOf.length);
        actionOf.push(ai);
        footprints.push(a.footprint!(p));
      }
      return keys;
    });
    this.size = actionOf.length;
    this.actionOf = Int32Array.from(actionOf);
    const locations = new Locations();
    const watched = properties.filter((p) => p.kind === 'invariant' || p.kind === 'action');
    for (const p of watched) for (const name of p.reads ?? []) locations.id(name);
    const accesses = footprints.map((f) => accessesOf(f, locations));
    for (const f of footprints) for (const name of f.guard ?? []) locations.id(name);
    const byLocation: { t: number; mode: number }[][] = locations.names.map(() => []);
    accesses.forEach((list, t) => {
      for (const { at, mode } of list) byLocation[at].push({ t, mode });
    });
    const overlaps = locations.overlaps();
    const dep: Set<number>[] = accesses.map(() => new Set());
    const enablers: Set<number>[] = accesses.map(() => new Set());
    const movers: Set<number>[] = accesses.map(() => new Set());
    const writersOf = (at: number, t: number, into: Set<number>) => {
      for (const other of overlaps[at]) for (const u of byLocation[other]) if (u.t !== t && u.mode !== READ) into.add(u.t);
    };
    accesses.forEach((list, t) => {
      for (const { at, mode } of list) {
        for (const other of overlaps[at]) {
          for (const u of byLocation[other]) {
            if (u.t !== t && conflict(mode, u.mode)) dep[t].add(u.t);
          }
        }
        writersOf(at, t, movers[t]);
      }
      const guard = footprints[t].guard;
      if (guard === undefined) for (const u of movers[t]) enablers[t].add(u);
      else for (const name of guard) writersOf(locations.id(name), t, enablers[t]);
    });
    const sorted = (d: Set<number>) => Int32Array.from([...d].sort((a, b) => a - b));
    this.dep = dep.map(sorted);
    this.enablers = enablers.map(sorted);
    this.movers = movers.map(sorted);
    // Visible: writes a location that an invariant or action property reads (all of them, for
    // one that does not say what it reads).
    this.proviso = watched.length > 0;
    const readAll = watched.some((p) => p.reads === undefined);
    const seen = new Set<number>();
    for (const p of watched) for (const name of p.reads ?? []) for (const o of overlaps[locations.id(name)]) seen.add(o);
    this.visible = Uint8Array.from(accesses, (list) => (list.some((x) => x.mode !== READ && (readAll || seen.has(x.at))) ? 1 : 0));
    this.enabledAt = new Int32Array(this.size);
    this.inSet = new Int32Array(this.size);
  }

  /** The transition of action `ai` with parameter `p`, or -1 when `p` is not in its domain. */
  transition(ai: number, p: unknown): number {
    return this.byKey[ai].get(this.keyOf(ai, p)) ?? -1;
  }

  /**
   * Whether transition u is declared able to make w possible where it was disabled (u writes
   * w's guard), or, with `stuttering`, make w take a real step where it stuttered (u writes
   * something w reads or writes).
   */
  enables(u: number, w: number, stuttering: boolean): boolean {
    return binarySearch(stuttering ? this.movers[w] : this.enablers[w], u) >= 0;
  }

  /** Whether transitions t and u are declared independent. */
  independent(t: number, u: number): boolean {
    return t !== u && binarySearch(this.dep[t], u) < 0;
  }

  /**
   * The stubborn set's enabled transitions among `steps` (the transitions that take a real
   * step in this state, each once), in no particular order; all of them when no seed does better.
   */
  choose(steps: readonly number[], stuttering: readonly number[]): readonly number[] {
    if (steps.length <= 1) return steps;
    const on = ++this.stamp;
    for (const t of steps) this.enabledAt[t] = on;
    // Stuttering here: marked -on (a real step needs a mover, not only an enabler).
    for (const t of stuttering) if (this.enabledAt[t] !== on) this.enabledAt[t] = -on;
    let best = steps;
    // Invisible seeds first: a visible one brings in every visible transition.
    for (const pass of [0, 1]) {
      for (const seed of steps) {
        if (this.visible[seed] !== pass) continue;
        const got = this.close(seed, on, best.length);
        if (got === undefined) continue;
        best = got;
        if (best.length === 1) return best;
      }
    }
    return best;
  }

  /** The enabled members of the set closed from `seed`, if fewer than `limit`; else undefined. */
  private close(seed: number, on: number, limit: number): number[] | undefined {
    const mark = ++this.stamp;
    const inSet = this.inSet;
    const work = this.work;
    const out: number[] = [];
    work.length = 0;
    work.push(seed);
    inSet[seed] = mark;
    let visibleAdded = false;
    while (work.length > 0) {
      const t = work.pop()!;
      let next: Int32Array;
      if (this.enabledAt[t] === on) {
        out.push(t);
        if (out.length >= limit) return undefined;
        next = this.dep[t];
        if (this.visible[t] === 1 && !visibleAdded) {
          visibleAdded = true;
          for (let u = 0; u < this.size; u++) {
            if (this.visible[u] === 1 && inSet[u] !== mark) {
              inSet[u] = mark;
              work.push(u);
            }
          }
        }
      } else {
        next = this.enabledAt[t] === -on ? this.movers[t] : this.enablers[t];
      }
      for (let i = 0; i < next.length; i++) {
        const u = next[i];
        if (inSet[u] === mark) continue;
        inSet[u] = mark;
        work.push(u);
      }
    }
    return out;
  }

  private keyOf(ai: number, p: unknown): unknown {
    return parameterKey(this.actions[ai], p, this.printer, this.keyFp);
  }
}

/** Whether an access of mode `a` and one of mode `b` to overlapping locations conflict. */
function conflict(a: number, b: number): boolean {
  if (a === READ && b === READ) return false;
  if ((a === APPEND && b === TAKE) || (a === TAKE && b === APPEND)) return false;
  if (a > TAKE && a === b) return false;
  return true;
}

function accessesOf(f: Footprint, locations: Locations): { at: number; mode: number }[] {
  const out: { at: number; mode: number }[] = [];
  for (const r of f.reads ?? []) out.push({ at: locations.id(r), mode: READ });
  for (const w of f.writes ?? []) out.push({ at: locations.id(w), mode: WRITE });
  for (const [at, kind] of Object.entries(f.commuting ?? {})) out.push({ at: locations.id(at), mode: COMMUTING + locations.kind(kind) });
  return out;
}

/** The location names met, numbered; a name ending in `*` stands for all it is a prefix of. */
class Locations {
  readonly names: string[] = [];
  private readonly ids = new Map<string, number>();
  private readonly kinds = new Map<string, number>();

  id(name: string): number {
    let id = this.ids.get(name);
    if (id === undefined) {
      id = this.names.length;
      this.names.push(name);
      this.ids.set(name, id);
    }
    return id;
  }

  kind(name: string): number {
    if (name === 'append') return 0;
    if (name === 'take') return 1;
    let k = this.kinds.get(name);
    if (k === undefined) {
      k = this.kinds.size + 2;
      this.kinds.set(name, k);
    }
    return k;
  }

  /** Per location, the locations it overlaps (itself included). */
  overlaps(): number[][] {
    const out = this.names.map((_, i) => [i]);
    const wild = this.names.map((n, i) => ({ i, prefix: n.slice(0, -1) })).filter((w) => this.names[w.i].endsWith('*'));
    for (const w of wild) {
      this.names.forEach((n, j) => {
        if (j === w.i) return;
        const other = n.endsWith('*') ? n.slice(0, -1) : n;
        // Two patterns overlap when one's prefix begins the other's; a name, when the prefix begins it.
        const meets = other.startsWith(w.prefix) || (n.endsWith('*') && w.prefix.startsWith(other));
        if (!meets) return;
        out[w.i].push(j);
        if (!n.endsWith('*')) out[j].push(w.i);
      });
    }
    return out;
  }
}

function binarySearch(a: Int32Array, x: number): number {
  let lo = 0;
  let hi = a.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    if (a[mid] === x) return mid;
    if (a[mid] < x) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}
