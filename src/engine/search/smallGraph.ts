// The whole reachable graph of a small model, states included, for drawing it. The search
// proper keeps no states; this walk keeps them all, so it stops as soon as the graph is larger
// than the caller allows and says so rather than drawing part of it.
import type { Variant } from '../model.ts';
import { stepLabel } from '../model.ts';
import { hexOf, type Fingerprint } from '../values/fingerprint.ts';
import { FaultThrown, toModelError } from '../errors.ts';
import { Expansion } from './expansion.ts';

export interface SmallGraph<S> {
  readonly kind: 'graph';
  /** Every reachable state, in breadth-first order; ids are indices here. */
  readonly states: readonly S[];
  /** Their fingerprints as hex, to match a trace's states. */
  readonly fingerprints: readonly string[];
  readonly initial: readonly number[];
  /** Every step between different states (stuttering steps are left out), with its label. */
  readonly edges: readonly { readonly from: number; readonly to: number; readonly label: string }[];
}

export type SmallGraphResult<S> = SmallGraph<S> | { readonly kind: 'tooLarge'; readonly limit: number };

export function smallGraph<S>(variant: Variant<S>, maxStates: number, model?: string): SmallGraphResult<S> {
  // The model's code runs in the search's own successor loop, so a fault here (a model that is
  // not deterministic, say) is an MC error too, not a stack trace.
  const x = new Expansion(variant, { symmetry: false });
  try {
    return walk(x, maxStates);
  } catch (e) {
    if (e instanceof FaultThrown) throw toModelError(e.fault, { ...(model ? { model } : {}), variant: variant.name }, e.original);
    throw e;
  }
}

function walk<S>(x: Expansion<S>, maxStates: number): SmallGraphResult<S> {
  const ids = new Map<string, number>();
  const states: S[] = [];
  const fingerprints: string[] = [];
  const initial: number[] = [];
  const edges: { from: number; to: number; label: string }[] = [];
  let tooLarge = false;
  const idOf = (s: S, fp: Fingerprint): number | undefined => {
    const h = hexOf(fp);
    let id = ids.get(h);
    if (id === undefined) {
      if (states.length >= maxStates) return undefined;
      id = states.length;
      ids.set(h, id);
      states.push(s);
      fingerprints.push(h);
      x.keep();
    }
    return id;
  };
  // The graph the search explores: states outside the state constraint are left out.
  x.initialStates((s, fp) => {
    if (!x.admitted(s, -1, 'init')) return;
    const id = tooLarge ? undefined : idOf(s, fp);
    if (id === undefined) tooLarge = true;
    else if (!initial.includes(id)) initial.push(id);
  });
  for (let from = 0; from < states.length && !tooLarge; from++) {
    x.successors(states[from], from, (ai, p, t, fp) => {
      if (!x.admitted(t, from, x.actions[ai].name)) return true;
      const to = idOf(t, fp);
      if (to === undefined) {
        tooLarge = true;
        return false;
      }
      if (to !== from) edges.push({ from, to, label: stepLabel(x.actions[ai], p) });
      return true;
    });
  }
  if (tooLarge) return { kind: 'tooLarge', limit: maxStates };
  return { kind: 'graph', states, fingerprints, initial, edges };
}
