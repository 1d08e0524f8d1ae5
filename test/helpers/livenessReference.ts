// A deliberately simple reference for liveness checking, used by
// test/engine/livenessReference.test.ts to compare the checker with brute force on thousands of
// small random transition systems.
//
// It shares no code with src/engine/search/liveness.ts and works differently: instead of Tarjan's
// components refined for strong fairness, it enumerates every subset of the reachable states and
// keeps those that could be the states a lasso's cycle visits. That costs 2^states, so the models
// stay at a handful of states; in exchange each step is easy to check by eye.
//
// Semantics, as in TLA+: a behaviour may stutter for ever in any state unless fairness forbids it;
// a step counts as taken, and a group as enabled, only when it changes the state; WF/SF apply to a
// group of actions; with `perParameter` there is one constraint per parameter value across the
// group's actions (the value, not the action name, identifies it).
//
// A model may have a state constraint, `inside`: as in TLC, states outside it are never stored or
// expanded, so paths and cycles keep to the states inside; but a fair group is enabled wherever it
// has a step at all, into the constraint or out of it (TLC reads ENABLED on the spec). `cut(m)`
// is the same model read on the constrained graph alone: its steps out of the constraint removed.
import {
  action,
  always,
  eventually,
  eventuallyAlways,
  leadsTo,
  liveness,
  strongFairness,
  weakFairness,
  type Action,
  type Temporal,
  type Variant,
  type Violation,
} from 'modelcheck';
import { generator } from '../../src/engine/search/simulate.ts';

// ---------- models ----------

export type Shape = 'eventually' | 'infinitelyOften' | 'eventuallyAlways' | 'leadsTo';
export const SHAPES: readonly Shape[] = ['eventually', 'infinitelyOften', 'eventuallyAlways', 'leadsTo'];

/** An action as a table: `next[i][s]` is the successor of state `s` for parameter `params[i]`. */
export interface RandomAction {
  readonly name: string;
  /** The parameter values; empty for an action without parameters (then `next` has one row). */
  readonly params: readonly number[];
  readonly next: readonly (readonly (number | undefined)[])[];
}

export interface RandomFairness {
  readonly kind: 'weak' | 'strong';
  /** Indices into the model's actions. */
  readonly actions: readonly number[];
  readonly perParameter: boolean;
}

export interface RandomProperty {
  readonly shape: Shape;
  /** Truth of the property's first and second predicate in each state (q only for leadsTo). */
  readonly p: readonly boolean[];
  readonly q: readonly boolean[];
}

/** A transition system over the states 0 .. states - 1, with one property of each shape. */
export interface RandomModel {
  readonly seed: number;
  readonly states: number;
  readonly init: readonly number[];
  readonly actions: readonly RandomAction[];
  readonly fairness: readonly RandomFairness[];
  readonly properties: readonly RandomProperty[];
  /** The state constraint: whether each state is inside it (absent: no constraint). */
  readonly inside?: readonly boolean[];
}

export interface GenerateOptions {
  /** States per model, at least 2. Default 8: the reference enumerates 2^states subsets. */
  readonly maxStates?: number;
  /** Initial states drawn (duplicates collapse). Default 2. */
  readonly maxInit?: number;
  /** Default 3. */
  readonly maxActions?: number;
  /** Parameter values of an action that has parameters (half of them do). Default 3. */
  readonly maxParams?: number;
  /** Range of the per-model chance that an action is enabled for a (state, parameter). */
  readonly density?: readonly [number, number];
  /** Chance that an enabled entry is forced to be a self-loop (else its target is uniform). */
  readonly selfLoops?: number;
  /** Range of the number of fairness constraints. Default [0, 3]. */
  readonly fairness?: readonly [number, number];
  /** Chance that a constraint is weak rather than strong. Default 0.5. */
  readonly weak?: number;
  /** Chance that a constraint is per parameter. Default 0.5. */
  readonly perParameter?: number;
  /** With a state constraint: the chance that a state is outside it (an initial state stays inside). Default: no constraint. */
  readonly outside?: number;
}

/** mulberry32 (the simulator's own generator): well mixed, so that consecutive seeds give unrelated models. */
export const prng = generator;

export function generate(seed: number, o: GenerateOptions = {}): RandomModel {
  const rnd = prng(seed);
  const int = (lo: number, hi: number) => lo + Math.floor(rnd() * (hi - lo + 1));
  const n = int(2, o.maxStates ?? 8);
  const init = [...new Set(Array.from({ length: int(1, o.maxInit ?? 2) }, () => int(0, n - 1)))];
  const [dLo, dHi] = o.density ?? [0.2, 0.8];
  const density = dLo + rnd() * (dHi - dLo);
  const actions: RandomAction[] = [];
  for (let a = 0, na = int(1, o.maxActions ?? 3); a < na; a++) {
    // Parameter values 0, 1, ... for every action, so that actions of one group share values.
    const params = rnd() < 0.5 ? [] : Array.from({ length: int(1, o.maxParams ?? 3) }, (_, i) => i);
    const next = Array.from({ length: Math.max(1, params.length) }, () =>
      Array.from({ length: n }, (_, s) => {
        if (rnd() >= density) return undefined;
        return rnd() < (o.selfLoops ?? 0) ? s : int(0, n - 1);
      }),
    );
    actions.push({ name: `a${a}`, params, next });
  }
  const fairness: RandomFairness[] = [];
  const [fLo, fHi] = o.fairness ?? [0, 3];
  for (let i = 0, nf = int(fLo, fHi); i < nf; i++) {
    let group = actions.map((_, k) => k).filter(() => rnd() < 0.5);
    if (group.length === 0) group = [int(0, actions.length - 1)];
    const kind = rnd() < (o.weak ?? 0.5) ? 'weak' : 'strong';
    fairness.push({ kind, actions: group, perParameter: rnd() < (o.perParameter ?? 0.5) });
  }
  const predicate = () => Array.from({ length: n }, () => rnd() < 0.5);
  const properties = SHAPES.map((shape) => ({ shape, p: predicate(), q: predicate() }));
  // Drawn last, so that the models of seeds drawn without a constraint stay as they were.
  if (o.outside === undefined) return { seed, states: n, init, actions, fairness, properties };
  const inside = Array.from({ length: n }, (_, s) => s === init[0] || rnd() >= o.outside!);
  return { seed, states: n, init, actions, fairness, properties, inside };
}

/** The model read on its constrained graph alone: every step into or out of a state outside the constraint removed. */
export function cut(m: RandomModel): RandomModel {
  const inside = m.inside;
  if (inside === undefined) return m;
  const actions = m.actions.map((a) => ({
    ...a,
    next: a.next.map((row) => row.map((t, s) => (t !== undefined && inside[s] && inside[t] ? t : undefined))),
  }));
  return { ...m, actions };
}

/** The model with each action's parameter values made its own (action a: 10a, 10a + 1, ...). */
export function withDistinctParameters(m: RandomModel): RandomModel {
  return { ...m, actions: m.actions.map((a, k) => ({ ...a, params: a.params.map((_, i) => 10 * k + i) })) };
}

export function propertyName(m: RandomModel, i: number): string {
  return `P${i}:${m.properties[i].shape}`;
}

/** The model as a variant for the checker. */
export function variantOf(m: RandomModel): Variant<number> {
  const actions: Action<number, any>[] = m.actions.map((a) =>
    a.params.length === 0
      ? action<number>(a.name, { next: (s) => a.next[0][s] })
      : action<number, number>(a.name, { params: () => a.params, next: (s, p) => a.next[a.params.indexOf(p)][s] }),
  );
  const properties = m.properties.map((prop, i) => {
    const p = (s: number) => prop.p[s];
    const q = (s: number) => prop.q[s];
    const formula: Temporal<number> =
      prop.shape === 'eventually'
        ? eventually(p)
        : prop.shape === 'infinitelyOften'
          ? always(eventually(p))
          : prop.shape === 'eventuallyAlways'
            ? eventuallyAlways(p)
            : leadsTo(p, q);
    return liveness(propertyName(m, i), prop.shape, formula);
  });
  const fairness = m.fairness.map((f, i) =>
    (f.kind === 'weak' ? weakFairness : strongFairness)(
      `F${i}`,
      f.actions.map((k) => m.actions[k].name),
      {
        perParameter: f.perParameter,
      },
    ),
  );
  const inside = m.inside;
  return {
    name: `seed${m.seed}`,
    init: () => m.init,
    actions,
    properties,
    fairness,
    checkDeadlock: false,
    ...(inside ? { constraint: (s: number) => inside[s] } : {}),
  };
}

// ---------- the reference decision ----------

/** A step that changes the state; `param` is an index into the action's `params`. */
interface Step {
  readonly from: number;
  readonly to: number;
  readonly action: number;
  readonly param: number;
}

/** The steps of the constrained graph: both ends inside the constraint. */
function graphSteps(m: RandomModel): Step[] {
  const inside = m.inside;
  return stepsOf(m).filter((e) => inside === undefined || (inside[e.from] && inside[e.to]));
}

/** The initial states inside the constraint (the others are checked, never explored). */
function initInside(m: RandomModel): number[] {
  return m.init.filter((s) => m.inside === undefined || m.inside[s]);
}

/** All steps of the model, self-loops left out: they are stuttering and count for nothing. */
function stepsOf(m: RandomModel): Step[] {
  const out: Step[] = [];
  for (const [action, a] of m.actions.entries()) {
    for (const [param, row] of a.next.entries()) {
      row.forEach((to, from) => {
        if (to !== undefined && to !== from) out.push({ from, to, action, param });
      });
    }
  }
  return out;
}

/**
 * Which instance of constraint `f` a step belongs to, or undefined if none. Per parameter, the
 * instance is the parameter's value, whichever action of the group takes it; actions without
 * parameters all have the same (absent) value and so share one instance.
 */
function instanceOf(m: RandomModel, f: RandomFairness, e: Step): string | undefined {
  if (!f.actions.includes(e.action)) return undefined;
  if (!f.perParameter) return 'group';
  const params = m.actions[e.action].params;
  return params.length === 0 ? 'none' : String(params[e.param]);
}

/** Whether a cycle that visits exactly `visited` and takes exactly `taken` meets all fairness. */
function fair(m: RandomModel, steps: readonly Step[], visited: readonly number[], taken: readonly Step[]): boolean {
  for (const f of m.fairness) {
    const instances = new Set(steps.map((e) => instanceOf(m, f, e)).filter((k) => k !== undefined));
    for (const k of instances) {
      if (taken.some((e) => instanceOf(m, f, e) === k)) continue;
      const enabled = (s: number) => steps.some((e) => e.from === s && instanceOf(m, f, e) === k);
      // WF: never taken, so it must be disabled somewhere on the cycle; SF: everywhere.
      if (f.kind === 'weak' ? visited.every(enabled) : visited.some(enabled)) return false;
    }
  }
  return true;
}

/** Whether `states` are strongly connected by `edges` (one state is: it may stutter). */
function stronglyConnected(states: readonly number[], edges: readonly Step[]): boolean {
  const covers = (forward: boolean) => {
    const seen = new Set([states[0]]);
    const todo = [states[0]];
    while (todo.length > 0) {
      const x = todo.pop()!;
      for (const e of edges) {
        const [u, v] = forward ? [e.from, e.to] : [e.to, e.from];
        if (u === x && !seen.has(v)) {
          seen.add(v);
          todo.push(v);
        }
      }
    }
    return seen.size === states.length;
  };
  return covers(true) && covers(false);
}

/** Breadth-first distances from `from`, moving only through states where `allowed` holds. */
function distances(m: RandomModel, steps: readonly Step[], from: readonly number[], allowed: (s: number) => boolean) {
  const d: number[] = new Array(m.states).fill(Infinity);
  const queue = from.filter(allowed);
  for (const s of queue) d[s] = 0;
  for (let h = 0; h < queue.length; h++) {
    for (const e of steps) {
      if (e.from === queue[h] && allowed(e.to) && d[e.to] === Infinity) {
        d[e.to] = d[queue[h]] + 1;
        queue.push(e.to);
      }
    }
  }
  return d;
}

/**
 * Every set of reachable states that the cycle of a fair lasso can visit, exactly.
 *
 * A cycle that visits exactly the set C may as well take every step between states of C: they
 * are strongly connected by those steps, and taking more steps never breaks fairness, since
 * enabledness depends only on the states visited. So a fair cycle on exactly C exists iff C is
 * strongly connected by its internal steps and fair with all of them taken. The sets do not
 * depend on the property: compute them once per model.
 */
export function fairCycles(m: RandomModel): number[][] {
  const steps = graphSteps(m);
  const fromInit = distances(m, steps, initInside(m), () => true);
  const reachable = [...Array(m.states).keys()].filter((s) => fromInit[s] < Infinity);
  const out: number[][] = [];
  for (let mask = 1; mask < 1 << reachable.length; mask++) {
    const cycle = reachable.filter((_, i) => mask & (1 << i));
    const inside = steps.filter((e) => cycle.includes(e.from) && cycle.includes(e.to));
    if (stronglyConnected(cycle, inside) && fair(m, stepsOf(m), cycle, inside)) out.push(cycle);
  }
  return out;
}

/**
 * The length of the shortest prefix (steps before the cycle) of a fair lasso that violates the
 * property, or undefined when the property holds. The prefix ends in the cycle's state nearest
 * to an initial state, by paths that meet the property's conditions on the prefix.
 */
export function shortestViolation(
  m: RandomModel,
  prop: RandomProperty,
  cycles: readonly (readonly number[])[] = fairCycles(m),
): number | undefined {
  const steps = graphSteps(m);
  const { p, q } = prop;
  const init = initInside(m);
  const fromInit = distances(m, steps, init, () => true);
  // <>p: the whole behaviour avoids p, prefix included.
  const avoidingP = distances(m, steps, init, (s) => !p[s]);
  // p ~> q with the p-state before the cycle: a shortest path to a p-and-not-q state, then only
  // not-q states up to the cycle.
  const afterTrigger: number[] = new Array(m.states).fill(Infinity);
  if (prop.shape === 'leadsTo') {
    for (let s = 0; s < m.states; s++) {
      if (fromInit[s] === Infinity || !p[s] || q[s]) continue;
      const d = distances(m, steps, [s], (x) => !q[x]);
      for (let x = 0; x < m.states; x++) afterTrigger[x] = Math.min(afterTrigger[x], fromInit[s] + d[x]);
    }
  }
  let best = Infinity;
  for (const cycle of cycles) {
    const entry = (d: readonly number[]) => Math.min(...cycle.map((s) => d[s]));
    let prefix = Infinity;
    switch (prop.shape) {
      case 'eventually':
        if (!cycle.some((s) => p[s])) prefix = entry(avoidingP);
        break;
      case 'infinitelyOften':
        if (!cycle.some((s) => p[s])) prefix = entry(fromInit);
        break;
      case 'eventuallyAlways':
        if (cycle.some((s) => !p[s])) prefix = entry(fromInit);
        break;
      case 'leadsTo':
        // A p-state on the cycle recurs for ever; otherwise the p-state is in the prefix.
        if (!cycle.some((s) => q[s])) prefix = cycle.some((s) => p[s]) ? entry(fromInit) : entry(afterTrigger);
        break;
    }
    best = Math.min(best, prefix);
  }
  return best === Infinity ? undefined : best;
}

// ---------- the lasso validator ----------

/** The action and parameter index a trace label such as `a1` or `a1(2)` names, if any. */
function parseLabel(m: RandomModel, label: string | null | undefined): { action: number; param: number } | undefined {
  const match = /^(a\d+)(?:\((-?\d+)\))?$/.exec(label ?? '');
  if (!match) return undefined;
  const action = m.actions.findIndex((a) => a.name === match[1]);
  if (action < 0) return undefined;
  const params = m.actions[action].params;
  if ((match[2] === undefined) !== (params.length === 0)) return undefined;
  const param = match[2] === undefined ? 0 : params.indexOf(Number(match[2]));
  return param < 0 ? undefined : { action, param };
}

/**
 * What is wrong with a lasso the checker reported, given the reference's shortest prefix: each
 * step must be a real step of the model, the cycle must close and be fair, the lasso must violate
 * the property, and no fair violating lasso may have a shorter prefix. Empty when all is well.
 */
export function lassoProblems(m: RandomModel, prop: RandomProperty, v: Violation<number>, shortest: number | undefined): string[] {
  const problems: string[] = [];
  const trace = v.trace;
  const loop = v.loop;
  if (trace.length === 0 || loop === undefined || !Number.isInteger(loop) || loop < 0 || loop >= trace.length) {
    return [`malformed lasso: ${trace.length} states, loop ${loop}`];
  }
  const states = trace.map((t) => t.state);
  if (trace[0].action !== null || !m.init.includes(states[0])) problems.push(`trace[0] = ${states[0]} is not an initial state`);
  const outside = states.filter((s) => m.inside !== undefined && !m.inside[s]);
  if (outside.length > 0) problems.push(`the lasso visits ${outside.join(',')}, outside the state constraint`);
  // A step of the lasso: `label` from `from` must lead to `to`, a different state.
  const step = (from: number, to: number, label: string | null | undefined, where: string): Step | undefined => {
    const a = parseLabel(m, label);
    if (!a) problems.push(`${where}: unknown label ${label}`);
    else if (m.actions[a.action].next[a.param][from] !== to) problems.push(`${where}: ${label} does not lead from ${from} to ${to}`);
    else if (from === to) problems.push(`${where}: ${label} from ${from} is a self-loop, i.e. stuttering`);
    else return { from, to, ...a };
    return undefined;
  };
  const taken: Step[] = [];
  for (let i = 1; i < trace.length; i++) {
    const e = step(states[i - 1], states[i], trace[i].action, `step ${i}`);
    if (e && i > loop) taken.push(e);
  }
  const last = states[states.length - 1];
  if (v.loopAction === null || v.loopAction === undefined) {
    // Stuttering for ever: only in the last state.
    if (loop !== trace.length - 1) problems.push(`stuttering cycle but loop ${loop} is not the last state`);
  } else {
    const e = step(last, states[loop], v.loopAction, 'closing step');
    if (e) taken.push(e);
  }
  const cycle = [...new Set(states.slice(loop))];
  if (!fair(m, stepsOf(m), cycle, taken)) problems.push(`cycle through ${cycle.join(',')} is unfair`);
  const { p, q } = prop;
  const violates =
    prop.shape === 'eventually'
      ? states.every((s) => !p[s])
      : prop.shape === 'infinitelyOften'
        ? cycle.every((s) => !p[s])
        : prop.shape === 'eventuallyAlways'
          ? cycle.some((s) => !p[s])
          : cycle.every((s) => !q[s]) && states.some((s, i) => p[s] && states.slice(i).every((x) => !q[x]));
  if (!violates) problems.push('the lasso does not violate the property');
  if (shortest !== undefined && loop !== shortest) problems.push(`prefix of ${loop} steps, but the shortest is ${shortest}`);
  return problems;
}
