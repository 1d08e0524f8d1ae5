// The whole reachable graph of a small model, states included, for drawing it. The search
// proper keeps no states; this walk keeps them all, so it stops as soon as the graph is larger
// than the caller allows and says so rather than drawing part of it.
import type { Action, Variant } from './model.ts';
import { stepLabel } from './model.ts';
import { Fingerprinter } from './fingerprint.ts';
import { ModelError } from './errors.ts';
import { ModelCalls, initialStates } from './modelCalls.ts';

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
  const fp = new Fingerprinter();
  // The model's code runs through the same wrappers as in the search, so a fault here (a model
  // that is not deterministic, say) is an MC error too, not a stack trace.
  const calls = new ModelCalls<S>(
    (code, message, subject, _id, extra) =>
      new ModelError(code, message, {
        ...(model ? { model } : {}),
        variant: variant.name,
        subject,
        ...(extra?.cause !== undefined ? { cause: extra.cause } : {}),
      }),
    fp,
  );
  const ids = new Map<string, number>();
  const states: S[] = [];
  const fingerprints: string[] = [];
  const initial: number[] = [];
  const edges: { from: number; to: number; label: string }[] = [];
  const idOf = (s: S): number | undefined => {
    const h = fp.hex(s);
    let id = ids.get(h);
    if (id === undefined) {
      if (states.length >= maxStates) return undefined;
      id = states.length;
      ids.set(h, id);
      states.push(s);
      fingerprints.push(h);
    }
    return id;
  };
  for (const s of initialStates(() => variant.init(), calls)) {
    const id = idOf(s);
    if (id === undefined) return { kind: 'tooLarge', limit: maxStates };
    if (!initial.includes(id)) initial.push(id);
  }
  for (let from = 0; from < states.length; from++) {
    const s = states[from];
    for (const a of variant.actions as readonly Action<S, unknown>[]) {
      for (const p of calls.paramsOf(a, s, from)) {
        const t = calls.nextOf(a, s, p, from);
        if (t === undefined) continue;
        const to = idOf(t);
        if (to === undefined) return { kind: 'tooLarge', limit: maxStates };
        if (to !== from) edges.push({ from, to, label: stepLabel(a, p) });
      }
    }
  }
  return { kind: 'graph', states, fingerprints, initial, edges };
}
