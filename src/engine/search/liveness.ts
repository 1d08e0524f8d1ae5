// Liveness checking on the reachable state graph, after the breadth-first search has built it.
//
// Each temporal property is violated exactly when some fair behaviour avoids it for ever; such a
// behaviour can always be taken to be a lasso: a path from an initial state, then a cycle
// repeated for ever. So, as TLC and SPIN do, we look for cycles rather than behaviours:
//
//   <>p       a path from an initial state through not-p states into a fair cycle of not-p states
//   []<>p     a fair cycle of not-p states, reachable at all
//   <>[]p     a fair cycle that passes through a not-p state
//   p ~> q    from a reachable (p and not q) state, a path of not-q states into a fair cycle of them
//
// Behaviours may stutter, so every single state is a cycle (it may repeat for ever) and every
// strongly connected component is a candidate. A component is fair when a cycle through all of
// its states and edges is: a weakly fair group enabled in every state of it is taken on one of
// its edges; a strongly fair group enabled in some state of it is taken on one of its edges, and
// where it is not, the states that enable it are removed and the rest split into components
// again (the usual treatment of Streett conditions). Components come from an iterative Tarjan
// (scc.ts). Of the fair components we report the one reachable by the shortest prefix, and
// inside it build a cycle through just enough of it to be fair and, where the property asks,
// to pass through a not-p state.
//
// Enabledness is read as TLC reads ENABLED: on the spec, not on the graph a state constraint
// cuts. A step that leaves the constraint is an edge to OUTSIDE (stateGraph.ts): it belongs to
// no path or cycle, but it makes its action enabled in its state, so a behaviour that stops
// where a fair action could still step out of the bound is not fair (Specifying Systems 14.3.5;
// tlaplus/tlaplus#839). With `enabledness: 'graph'` OUTSIDE edges are ignored: the ledger asks
// that way too, to tell whether a verdict depends on the constraint.
import type { Fairness, LivenessProperty } from '../model.ts';
import { SccFinder } from './scc.ts';
import { OUTSIDE, type StateGraph } from './stateGraph.ts';

/** A fairness constraint with its actions as a mask over the variant's action indices. */
export interface CompiledFairness {
  readonly kind: Fairness['kind'];
  readonly name: string;
  readonly perParameter: boolean;
  readonly inGroup: Uint8Array;
}

export function compileFairness(fairness: readonly Fairness[], actionNames: readonly string[]): CompiledFairness[] {
  return fairness.map((f) => {
    const inGroup = new Uint8Array(actionNames.length);
    for (const name of f.actions) {
      const i = actionNames.indexOf(name);
      if (i >= 0) inGroup[i] = 1;
    }
    return { kind: f.kind, name: f.name, perParameter: f.perParameter, inGroup };
  });
}

/**
 * A lasso: the states from an initial state to `prefixEnd` are the search's own shortest path
 * (parent links); then `stem` edges lead to the cycle's first state; then `cycle` edges go round
 * back to it. An empty `cycle` means the behaviour stutters for ever in that state.
 */
export interface Lasso {
  readonly prefixEnd: number;
  readonly stem: readonly number[];
  readonly cycle: readonly number[];
}

/** What the liveness phase needs of the search besides the graph. */
export interface SearchFacts {
  /** The depth of each state (initial states: 1), nondecreasing in the state id. */
  readonly depth: (id: number) => number;
  /** The number of initial states; they are ids 0 to initialCount - 1. */
  readonly initialCount: number;
  /** Called now and then during long loops; throws (Stopped) to end the phase early. */
  readonly poll?: () => void;
}

/** A state of a lasso's cycle where a fair action is enabled only by steps that leave the state constraint. */
export interface CutOff {
  readonly state: number;
  readonly action: number;
}

interface Instance {
  readonly constraint: number;
  readonly param: number;
}

/** Bit 0 of a state's label: the property's first predicate; bit 1: its second. */
const P = 1;
const Q = 2;

export class LivenessChecker {
  private readonly n: number;
  private readonly scc: SccFinder;
  private readonly member: Int32Array;
  private token = 0;
  /** Per action: whether any fairness constraint names it. */
  private readonly fairAction: Uint8Array;
  /**
   * 'spec' (TLC's reading): a step that leaves the state constraint makes its action enabled;
   * 'graph': only steps inside the constraint do.
   */
  enabledness: 'spec' | 'graph' = 'spec';

  constructor(
    private readonly graph: StateGraph,
    private readonly fairness: readonly CompiledFairness[],
    private readonly facts: SearchFacts,
  ) {
    this.n = graph.stateCount;
    this.scc = new SccFinder(graph);
    this.member = new Int32Array(this.n);
    const actions = fairness.length > 0 ? fairness[0].inGroup.length : 0;
    this.fairAction = new Uint8Array(actions);
    for (const f of fairness) for (let a = 0; a < actions; a++) this.fairAction[a] |= f.inGroup[a];
  }

  /** Whether a fair action has a step out of the state constraint somewhere (then enabledness can be read two ways). */
  get constrained(): boolean {
    const { target, action } = this.graph;
    if (this.graph.outsideEdges === 0) return false;
    for (let e = 0; e < target.length; e++) if (target[e] === OUTSIDE && this.fairAction[action[e]] === 1) return true;
    return false;
  }

  /** A fair lasso that violates the property, or undefined when the property holds. */
  check(property: LivenessProperty<unknown>, index: number): Lasso | undefined {
    return this.search(property.formula.op, this.graph.labels[index]);
  }

  /**
   * A fair behaviour of any kind, as a lasso, or undefined when there is none: every behaviour
   * is unfair (only possible when a state constraint cuts off steps that fairness requires).
   */
  anyFairBehaviour(): Lasso | undefined {
    return this.search('eventually', new Uint8Array(this.n));
  }

  /** The states of a lasso's cycle, from its first state (a stuttering cycle: that state alone). */
  private cycleStates(lasso: Lasso): number[] {
    let entry = lasso.prefixEnd;
    if (lasso.stem.length > 0) entry = this.graph.target[lasso.stem[lasso.stem.length - 1]];
    const { target } = this.graph;
    return [entry, ...lasso.cycle.slice(0, -1).map((e) => target[e])];
  }

  /**
   * The first state of a lasso's cycle where a fairness instance is enabled only by steps that
   * leave the state constraint, with the action of one such step; undefined if there is none.
   */
  cutOff(lasso: Lasso): CutOff | undefined {
    const { start, target, action } = this.graph;
    for (const s of this.cycleStates(lasso)) {
      for (let e = start[s]; e < start[s + 1]; e++) {
        if (target[e] !== OUTSIDE || this.fairAction[action[e]] === 0) continue;
        for (let c = 0; c < this.fairness.length; c++) {
          if (this.fairness[c].inGroup[action[e]] === 0) continue;
          if (!this.enabledAt(s, { constraint: c, param: this.instanceOf(c, e) }, 'graph')) return { state: s, action: action[e] };
        }
      }
    }
    return undefined;
  }

  private search(op: LivenessProperty<unknown>['formula']['op'], labels: Uint8Array): Lasso | undefined {
    const n = this.n;
    // stay: the states the violating behaviour keeps to once its obligation has begun.
    const stay = new Uint8Array(n);
    // accept: a state the cycle must pass through (only <>[]p needs one).
    let accept: Uint8Array | undefined;
    for (let s = 0; s < n; s++) {
      const l = labels[s];
      if (op === 'eventuallyAlways') stay[s] = 1;
      else if (op === 'leadsTo') stay[s] = l & Q ? 0 : 1;
      else stay[s] = l & P ? 0 : 1;
    }
    if (op === 'eventuallyAlways') {
      accept = new Uint8Array(n);
      for (let s = 0; s < n; s++) accept[s] = labels[s] & P ? 0 : 1;
    }
    // Where the obligation begins, and how long the shortest path to there is.
    const isSource = (s: number): boolean => {
      if (op === 'eventually') return s < this.facts.initialCount && stay[s] === 1;
      if (op === 'leadsTo') return (labels[s] & P) !== 0 && stay[s] === 1;
      return stay[s] === 1;
    };
    const { dist, pred } = this.shortestPaths(stay, isSource);

    const direct = new Uint8Array(n);
    const reach: number[] = [];
    for (let s = 0; s < n; s++) if (dist[s] >= 0) reach.push(s);
    const token = ++this.token;
    for (const s of reach) this.member[s] = token;
    const comps = this.scc.run(reach, this.member, token);

    let best = -1;
    for (let c = 0; c < comps.count; c++) {
      if ((c & 1023) === 0) this.facts.poll?.();
      const from = comps.start[c];
      const to = comps.start[c + 1];
      if (to - from === 1) {
        // A single state: the cycle is stuttering in it, fair only if no fair group is enabled.
        const s = comps.nodes[from];
        if (accept && accept[s] === 0) continue;
        if (best !== -1 && !closer(dist, s, best)) continue;
        if (this.enablesNoFairGroup(s)) best = s;
        continue;
      }
      for (const fair of this.fairParts(Array.from(comps.nodes.subarray(from, to)), accept)) {
        if (op === 'leadsTo' && fair.some((s) => (labels[s] & P) !== 0)) {
          for (const s of fair)
            if (this.facts.depth(s) - 1 < dist[s]) {
              dist[s] = this.facts.depth(s) - 1;
              direct[s] = 1;
            }
        }
        let entry = fair[0];
        for (const s of fair) if (closer(dist, s, entry)) entry = s;
        if (best === -1 || closer(dist, entry, best)) best = entry;
      }
    }
    if (best === -1) return undefined;

    // Rebuild the fair part holding `best` (the component search above keeps no parts).
    const part = this.fairPartOf(best, reach, accept);
    const stem: number[] = [];
    let s = best;
    while (direct[best] === 0 && pred[s] !== -1) {
      stem.push(pred[s]);
      s = this.sourceOf(pred[s]);
    }
    stem.reverse();
    let mustVisit = accept;
    if (direct[best] === 1) {
      mustVisit = new Uint8Array(n);
      for (const x of part) mustVisit[x] = labels[x] & P ? 1 : 0;
    }
    return { prefixEnd: s, stem, cycle: this.buildCycle(best, part, mustVisit) };
  }

  /**
   * Shortest distances from an initial state to every state reachable through `stay` states
   * from a source state, where reaching a source costs its depth. Sources come in id order,
   * which is depth order, so merging them into a plain BFS queue keeps the queue sorted.
   */
  private shortestPaths(stay: Uint8Array, isSource: (s: number) => boolean) {
    const n = this.n;
    const { start, target } = this.graph;
    const dist = new Int32Array(n).fill(-1);
    const pred = new Int32Array(n).fill(-1); // the edge that reached the state
    const queue = new Int32Array(n);
    let head = 0;
    let tail = 0;
    let next = 0; // the next candidate source
    for (let round = 0; ; round++) {
      if ((round & 65535) === 0) this.facts.poll?.();
      while (next < n && !isSource(next)) next++;
      let s: number;
      if (next < n && (head === tail || this.facts.depth(next) - 1 <= dist[queue[head]])) {
        s = next++;
        if (dist[s] !== -1) continue;
        dist[s] = this.facts.depth(s) - 1;
      } else if (head < tail) {
        s = queue[head++];
      } else break;
      for (let e = start[s]; e < start[s + 1]; e++) {
        const t = target[e];
        if (t === OUTSIDE || stay[t] === 0 || dist[t] !== -1 || isSource(t)) continue;
        dist[t] = dist[s] + 1;
        pred[t] = e;
        queue[tail++] = t;
      }
    }
    return { dist, pred };
  }

  /** The state an edge leaves (a binary search over the row starts). */
  private sourceOf(edge: number): number {
    const { start } = this.graph;
    let lo = 0;
    let hi = this.n - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if (start[mid] <= edge) lo = mid;
      else hi = mid - 1;
    }
    // The last row starting at or before the edge: rows of states with no edges share a start
    // with the next row, and the owner is the last of them.
    return lo;
  }

  /** Whether an edge counts for enabledness: every edge read as the spec, only edges inside the constraint read as the graph. */
  private counts(e: number, reading = this.enabledness): boolean {
    return reading === 'spec' || this.graph.target[e] !== OUTSIDE;
  }

  private enablesNoFairGroup(s: number): boolean {
    const { start, action } = this.graph;
    for (let e = start[s]; e < start[s + 1]; e++) if (this.fairAction[action[e]] === 1 && this.counts(e)) return false;
    return true;
  }

  /** The fair parts of a component with more than one state (see the file comment). */
  private fairParts(component: number[], accept: Uint8Array | undefined): number[][] {
    const out: number[][] = [];
    const work: number[][] = [component];
    while (work.length > 0) {
      const part = work.pop()!;
      if (part.length === 1) {
        if ((!accept || accept[part[0]] === 1) && this.enablesNoFairGroup(part[0])) out.push(part);
        continue;
      }
      const token = ++this.token;
      for (const s of part) this.member[s] = token;
      const { weak, strong } = this.unfair(part, this.internalEdges(part, token));
      if (weak.length > 0) continue; // no cycle inside can take it, or avoid it
      if (strong.length > 0) {
        const keep = part.filter((s) => !strong.some((i) => this.enabledAt(s, i)));
        if (keep.length === 0) continue;
        const t2 = ++this.token;
        for (const s of keep) this.member[s] = t2;
        const sub = this.scc.run(keep, this.member, t2);
        for (let c = 0; c < sub.count; c++) work.push(Array.from(sub.nodes.subarray(sub.start[c], sub.start[c + 1])));
        continue;
      }
      if (accept && !part.some((s) => accept[s] === 1)) continue;
      out.push(part);
    }
    return out;
  }

  /** The fair part containing `s`, found again by the same procedure. */
  private fairPartOf(s: number, reach: number[], accept: Uint8Array | undefined): number[] {
    const token = ++this.token;
    for (const r of reach) this.member[r] = token;
    const comps = this.scc.run(reach, this.member, token);
    for (let c = 0; c < comps.count; c++) {
      const nodes = Array.from(comps.nodes.subarray(comps.start[c], comps.start[c + 1]));
      if (!nodes.includes(s)) continue;
      if (nodes.length === 1) return nodes;
      for (const part of this.fairParts(nodes, accept)) if (part.includes(s)) return part;
    }
    throw new Error(`internal: state ${s} is in no fair part`);
  }

  private internalEdges(states: readonly number[], token: number): number[] {
    const { start, target } = this.graph;
    const edges: number[] = [];
    for (const s of states)
      for (let e = start[s]; e < start[s + 1]; e++) if (target[e] !== OUTSIDE && this.member[target[e]] === token) edges.push(e);
    return edges;
  }

  private instanceOf(constraint: number, edge: number): number {
    return this.fairness[constraint].perParameter ? this.graph.param[edge] : 0;
  }

  private enabledAt(s: number, i: Instance, reading = this.enabledness): boolean {
    const { start, action } = this.graph;
    const f = this.fairness[i.constraint];
    for (let e = start[s]; e < start[s + 1]; e++) {
      if (f.inGroup[action[e]] === 1 && this.instanceOf(i.constraint, e) === i.param && this.counts(e, reading)) return true;
    }
    return false;
  }

  /**
   * The fairness instances a cycle through exactly `states` and `taken` would break: weak ones
   * enabled in every state and never taken, strong ones enabled in some state and never taken.
   */
  private unfair(states: readonly number[], taken: readonly number[]): { weak: Instance[]; strong: Instance[] } {
    const { start, action } = this.graph;
    const weak: Instance[] = [];
    const strong: Instance[] = [];
    for (let c = 0; c < this.fairness.length; c++) {
      const f = this.fairness[c];
      const count = new Map<number, number>();
      const last = new Map<number, number>();
      for (const s of states) {
        for (let e = start[s]; e < start[s + 1]; e++) {
          if (f.inGroup[action[e]] === 0 || !this.counts(e)) continue;
          const k = this.instanceOf(c, e);
          if (last.get(k) === s) continue;
          last.set(k, s);
          count.set(k, (count.get(k) ?? 0) + 1);
        }
      }
      if (count.size === 0) continue;
      const took = new Set<number>();
      for (const e of taken) if (f.inGroup[action[e]] === 1) took.add(this.instanceOf(c, e));
      const keys = [...count.keys()].sort((a, b) => a - b);
      for (const k of keys) {
        if (took.has(k)) continue;
        if (f.kind === 'strong') strong.push({ constraint: c, param: k });
        else if (count.get(k) === states.length) weak.push({ constraint: c, param: k });
      }
    }
    return { weak, strong };
  }

  /**
   * A cycle from `entry` through the fair part `part`: start with stuttering at `entry`, and
   * while the cycle is unfair (or misses an accepting state), add a waypoint that mends the
   * first complaint: the nearest state where the neglected group is disabled, or the nearest
   * step that takes it. Waypoints stay, so each complaint is mended once.
   */
  private buildCycle(entry: number, part: number[], accept: Uint8Array | undefined): number[] {
    const token = ++this.token;
    for (const s of part) this.member[s] = token;
    const { target } = this.graph;
    const waypoints: { state: number; edge: number }[] = [];
    for (;;) {
      const cycle: number[] = [];
      let at = entry;
      for (const w of waypoints) {
        cycle.push(...this.path(at, w.state, token));
        at = w.state;
        if (w.edge >= 0) {
          cycle.push(w.edge);
          at = target[w.edge];
        }
      }
      if (cycle.length > 0 || at !== entry) cycle.push(...this.path(at, entry, token));
      const states = [entry, ...cycle.slice(0, -1).map((e) => target[e])];
      if (accept && !states.some((s) => accept[s] === 1)) {
        waypoints.push({ state: this.nearest(entry, token, (s) => accept[s] === 1), edge: -1 });
        continue;
      }
      const { weak, strong } = this.unfair(states, cycle);
      const complaint = weak[0] ?? strong[0];
      if (!complaint) return cycle;
      waypoints.push(this.mend(entry, token, complaint, weak.length > 0));
    }
  }

  private mend(entry: number, token: number, i: Instance, weak: boolean): { state: number; edge: number } {
    const { start, target, action } = this.graph;
    const f = this.fairness[i.constraint];
    let edge = -1;
    const state = this.nearest(entry, token, (s) => {
      if (weak && !this.enabledAt(s, i)) return true;
      for (let e = start[s]; e < start[s + 1]; e++) {
        if (target[e] === OUTSIDE || this.member[target[e]] !== token || f.inGroup[action[e]] === 0) continue;
        if (this.instanceOf(i.constraint, e) !== i.param) continue;
        edge = e;
        return true;
      }
      return false;
    });
    return { state, edge };
  }

  /** The first state, in breadth-first order from `from` inside the part, where `ok` holds. */
  private nearest(from: number, token: number, ok: (s: number) => boolean): number {
    const { start, target } = this.graph;
    const seen = new Set<number>([from]);
    const queue = [from];
    for (let h = 0; h < queue.length; h++) {
      const s = queue[h];
      if (ok(s)) return s;
      for (let e = start[s]; e < start[s + 1]; e++) {
        const t = target[e];
        if (t === OUTSIDE || this.member[t] !== token || seen.has(t)) continue;
        seen.add(t);
        queue.push(t);
      }
    }
    throw new Error('internal: no state in a fair part mends its complaint');
  }

  /** The edges of a shortest path from `a` to `b` inside the part. */
  private path(a: number, b: number, token: number): number[] {
    if (a === b) return [];
    const { start, target } = this.graph;
    const via = new Map<number, number>([[a, -1]]);
    const queue = [a];
    for (let h = 0; h < queue.length; h++) {
      const s = queue[h];
      for (let e = start[s]; e < start[s + 1]; e++) {
        const t = target[e];
        if (t === OUTSIDE || this.member[t] !== token || via.has(t)) continue;
        via.set(t, e);
        if (t === b) {
          const edges: number[] = [];
          for (let x = b; x !== a; x = this.sourceOf(via.get(x)!)) edges.push(via.get(x)!);
          return edges.reverse();
        }
        queue.push(t);
      }
    }
    throw new Error('internal: a component is not strongly connected');
  }
}

/** Whether `a` is reached by a shorter prefix than `b` (ties: the earlier state). */
function closer(dist: Int32Array, a: number, b: number): boolean {
  return dist[a] < dist[b] || (dist[a] === dist[b] && a < b);
}
