// Trace validation: is a recorded run a behaviour of the model? (Kuppe, Merz et al., "Validating
// traces of distributed programs against TLA+ specifications", 2024: TLC constrained by a log.)
// The log is a sequence of observations; a step of the model observes the events it emits that
// `observed` keeps (in the Kubernetes library: the requests a real API server's audit log would
// show), and must then match the next observations in order; a step that emits none is free (a
// cache catching up, a reconcile that only reads). The search keeps, position by position, every
// state consistent with the log so far: the states one step from the last position's, matched,
// closed under free steps. The log conforms when every observation is matched; else the answer
// is the first one no state can match, with what the model could have done there instead.
import { stepLabel, type StepEvent, type Variant } from '../model.ts';
import { Expansion } from './expansion.ts';

export interface FollowOptions<O> {
  /** Whether the model's event is one the log records. */
  readonly observed: (e: StepEvent) => boolean;
  /** Whether the model's event `e` is the recorded `o`. */
  readonly matches: (e: StepEvent, o: O) => boolean;
  /** At most this many states consistent with one position (default 1,000,000): past it the answer is "undecided". */
  readonly maxStatesPerPosition?: number;
}

/** A step of the path that matched the log: its label, and the observations it matched (their positions). */
export interface FollowedStep {
  readonly action: string;
  readonly matched: readonly number[];
}

export type FollowResult =
  | {
      readonly verdict: 'conforms';
      /** One path of the model through the log: its initial state's number and its steps. */
      readonly init: number;
      readonly steps: readonly FollowedStep[];
      /** Distinct (state, position) pairs visited. */
      readonly states: number;
    }
  | {
      readonly verdict: 'diverges';
      /** The first observation no state consistent with the log before it can match (its position). */
      readonly at: number;
      /** A path to one of those states (the shortest found). */
      readonly init: number;
      readonly steps: readonly FollowedStep[];
      /** How many states were consistent with the log up to `at`. */
      readonly consistent: number;
      /** What their steps emitted instead, observed events only, distinct, with a step that did (at most 20). */
      readonly instead: readonly { readonly event: StepEvent; readonly action: string }[];
      readonly states: number;
    }
  | { readonly verdict: 'undecided'; readonly at: number; readonly why: string; readonly states: number };

interface Node<S> {
  readonly state: S;
  readonly parent: Node<S> | undefined;
  readonly action: string | undefined;
  readonly matched: readonly number[];
  /** The initial state's number, for a root. */
  readonly init: number;
}

/** Follows `log` through `variant` (see the top of this file). */
export function followLog<S, O>(variant: Variant<S>, log: readonly O[], options: FollowOptions<O>): FollowResult {
  // Whole states, no symmetry: the log names particular objects.
  const x = new Expansion(variant, { symmetry: false });
  const max = options.maxStatesPerPosition ?? 1_000_000;
  const key = (fp: { hi: number; lo: number }) => `${fp.hi}:${fp.lo}`;
  let states = 0;
  // The states consistent with the log up to `pos` (before closing under free steps).
  let layer: Node<S>[] = [];
  let seen = new Set<string>();
  let init = 0;
  x.initialStates((s, fp) => {
    const k = key(fp);
    if (!seen.has(k)) {
      seen.add(k);
      // A state kept keeps its parts' digests, for its successors' fingerprints (as a search does).
      x.keep();
      layer.push({ state: s, parent: undefined, action: undefined, matched: [], init });
    }
    init++;
  });
  if (layer.length === 0) return { verdict: 'undecided', at: 0, why: 'the variant has no initial states', states: 0 };
  const events: StepEvent[] = [];
  // The furthest a step that sends several observed events got before one of them differed.
  let partial: { at: number; node: Node<S>; action: string; matched: number[]; event: StepEvent } | undefined;
  // The layers not yet processed, by position; a step that matches n observations adds to the
  // layer n further on, so the smallest position is complete when it is taken.
  const pending = new Map<number, { nodes: Node<S>[]; seen: Set<string> }>([[0, { nodes: layer, seen }]]);
  let dead: Extract<FollowResult, { verdict: 'diverges' }> | undefined;
  while (pending.size > 0) {
    const pos = Math.min(...pending.keys());
    ({ nodes: layer, seen } = pending.get(pos)!);
    pending.delete(pos);
    if (pos === log.length) return { verdict: 'conforms', ...pathTo(layer[0]), states: states + layer.length };
    const instead = new Map<string, { event: StepEvent; action: string }>();
    let advanced = false;
    for (let i = 0; i < layer.length; i++) {
      const node = layer[i];
      // A state outside the variant's constraint is not expanded, as in a search.
      if (variant.constraint !== undefined && !variant.constraint(node.state)) continue;
      x.successors(
        node.state,
        -1,
        (ai, p, t, fp) => {
          // (Nothing here may fingerprint with `x`: keep() below keeps the parts of the state
          // it fingerprinted last, which must be `t`.)
          const seenEvents = events.filter(options.observed);
          const action = stepLabel(x.actions[ai], p);
          const k = key(fp);
          if (seenEvents.length === 0) {
            // A free step: the same position.
            if (!seen.has(k)) {
              seen.add(k);
              x.keep();
              layer.push({ state: t, parent: node, action, matched: [], init: node.init });
            }
            return true;
          }
          const n = seenEvents.length;
          let j = 0;
          while (j < n && pos + j < log.length && options.matches(seenEvents[j], log[pos + j])) j++;
          if (j > 0 && j < n && (partial === undefined || pos + j > partial.at)) {
            partial = { at: pos + j, node, action, matched: Array.from({ length: j }, (_v, m) => pos + m), event: seenEvents[j] };
          }
          if (j === n) {
            advanced = true;
            const to = pending.get(pos + n) ?? { nodes: [], seen: new Set<string>() };
            pending.set(pos + n, to);
            if (!to.seen.has(k)) {
              to.seen.add(k);
              x.keep();
              to.nodes.push({ state: t, parent: node, action, matched: Array.from({ length: n }, (_v, j) => pos + j), init: node.init });
            }
          } else if (instead.size < 20) {
            const first = seenEvents[0];
            const what = first.kind === 'request' ? `${first.to} ${first.request} ${first.answer}` : first.text;
            if (!instead.has(what)) instead.set(what, { event: first, action });
          }
          return true;
        },
        -1,
        events,
      );
      if (layer.length > max) {
        return {
          verdict: 'undecided',
          at: pos,
          why: `more than ${max.toLocaleString('en-US')} states are consistent with the log up to observation ${pos + 1}`,
          states: states + layer.length,
        };
      }
    }
    states += layer.length;
    if (!advanced && (dead === undefined || pos > dead.at)) {
      dead = { verdict: 'diverges', at: pos, ...pathTo(layer[0]), consistent: layer.length, instead: [...instead.values()], states: 0 };
    }
  }
  if (partial !== undefined && (dead === undefined || partial.at > dead.at)) {
    // The step matched the observations before `at`, then sent another: the path ends with it.
    const path = pathTo(partial.node);
    return {
      verdict: 'diverges',
      at: partial.at,
      init: path.init,
      steps: [...path.steps, { action: partial.action, matched: partial.matched }],
      consistent: 1,
      instead: [{ event: partial.event, action: partial.action }],
      states,
    };
  }
  return { ...dead!, states };
}

function pathTo<S>(node: Node<S>): { init: number; steps: FollowedStep[] } {
  const steps: FollowedStep[] = [];
  let n: Node<S> | undefined = node;
  let init = node.init;
  while (n !== undefined) {
    if (n.action !== undefined) steps.push({ action: n.action, matched: n.matched });
    init = n.init;
    n = n.parent;
  }
  return { init, steps: steps.reverse() };
}
