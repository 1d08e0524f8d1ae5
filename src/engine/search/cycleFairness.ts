// Why a lasso's cycle is fair, read off the cycle's own states by expanding them again: the fair
// steps it takes, and for each fair step it does not take, a state of the cycle where that step
// cannot change the state. The report's closing sentence is made of this, so that it states what
// is true of those states (a reconcile that is enabled but changes nothing is said to be so, not
// to be disabled), rather than what the search concluded from its graph.
//
// Under TLA+'s WF_vars(A) and SF_vars(A), only a step that changes the state counts, as taken or
// as enabled; a step out of the state constraint counts as enabled (TLC's ENABLED is read on the
// spec), so it is told apart here: it is the one reading under which a constraint decides.
import type { Expansion } from './expansion.ts';
import type { Fingerprint } from '../values/fingerprint.ts';
import type { CompiledFairness } from './liveness.ts';
import { stepLabel } from '../model.ts';
import type { CycleFairness, IdleFairStep } from '../result.ts';
import type { TraceStep } from './trace.ts';

/** Per fair step and cycle state: what its steps there do. */
const CHANGES_INSIDE = 1; // changes the state, to a state inside the constraint
const CHANGES_OUTSIDE = 2; // changes the state, to a state outside it
const UNCHANGING = 4; // leads back to the same state

/**
 * `trace` ends with the cycle: `trace[loop]` to the last state, then back to `trace[loop]` by
 * the step of action `closing` (labelled `closingLabel`), or, with `closing` -1, stuttering.
 * `actions` are the actions of the steps into `trace[loop + 1]` onwards.
 */
export function cycleFairness<S>(
  x: Expansion<S>,
  fairness: readonly CompiledFairness[],
  trace: readonly TraceStep<S>[],
  loop: number,
  actions: readonly number[],
  closing: { readonly action: number; readonly label: string } | undefined,
): CycleFairness {
  const fair = new Uint8Array(x.actions.length);
  const perParameter = new Uint8Array(x.actions.length);
  for (const f of fairness)
    for (let a = 0; a < fair.length; a++) {
      fair[a] |= f.inGroup[a];
      if (f.perParameter) perParameter[a] |= f.inGroup[a];
    }
  const nameOf = (ai: number, p: unknown) => (perParameter[ai] === 1 ? stepLabel(x.actions[ai], p) : x.actions[ai].name);

  // The fair steps taken, by the name fairness knows them by.
  const taken: string[] = [];
  const took = (ai: number, label: string) => {
    if (fair[ai] === 0) return;
    const name = perParameter[ai] === 1 ? label : x.actions[ai].name;
    if (!taken.includes(name)) taken.push(name);
  };
  for (let k = 0; k < actions.length; k++) took(actions[k], trace[loop + 1 + k].action ?? '');
  if (closing) took(closing.action, closing.label);

  // Per fair step (a fair action as a whole, or per parameter), its flags in each cycle state.
  const steps = new Map<string, { readonly action: number; readonly flags: number[] }>();
  const cycle = trace.length - loop;
  for (let a = 0; a < fair.length; a++)
    if (fair[a] === 1 && perParameter[a] === 0) steps.set(x.actions[a].name, { action: a, flags: new Array<number>(cycle).fill(0) });
  const own: Fingerprint = { hi: 0, lo: 0 };
  for (let j = 0; j < cycle; j++) {
    const s = trace[loop + j].state;
    x.calls.fingerprint(s, own, 'replay', -1);
    const hi = own.hi;
    const lo = own.lo;
    x.successors(s, -1, (ai, p, t, fp) => {
      if (fair[ai] === 0) return true;
      const name = nameOf(ai, p);
      let entry = steps.get(name);
      if (entry === undefined) {
        entry = { action: ai, flags: new Array<number>(cycle).fill(0) };
        steps.set(name, entry);
      }
      if (fp.hi === hi && fp.lo === lo) entry.flags[j] |= UNCHANGING;
      else entry.flags[j] |= x.admitted(t, -1, x.actions[ai].name) ? CHANGES_INSIDE : CHANGES_OUTSIDE;
      return true;
    });
  }

  // A fair action per parameter with no step anywhere on the cycle is disabled there as a whole.
  for (let a = 0; a < fair.length; a++) {
    if (perParameter[a] === 0 || [...steps.values()].some((e) => e.action === a)) continue;
    steps.set(x.actions[a].name, { action: a, flags: new Array<number>(cycle).fill(0) });
  }

  const idle: IdleFairStep[] = [];
  const ordered = [...steps.entries()].sort((a, b) => a[1].action - b[1].action);
  for (const [step, { flags }] of ordered) {
    if (taken.includes(step)) continue;
    // Where it cannot change the state at all; failing that, where it can only by leaving the constraint.
    let j = flags.findIndex((f) => (f & (CHANGES_INSIDE | CHANGES_OUTSIDE)) === 0);
    let how: IdleFairStep['how'] | undefined;
    if (j >= 0) how = flags[j] === 0 ? 'disabled' : 'unchanging';
    else {
      j = flags.findIndex((f) => (f & CHANGES_INSIDE) === 0);
      if (j >= 0) how = 'outside';
    }
    if (how !== undefined) idle.push({ step, how, state: loop + j });
  }
  return { taken, idle };
}
