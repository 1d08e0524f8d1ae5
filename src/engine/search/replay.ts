// A path named by its steps' labels, replayed through a variant: the initial state numbered
// `init` (in the order init() gives them), then each step by its label (`mover.delete(Cluster/c1)`,
// as traces print them). The docs pages are rendered this way from the record of a run
// (report/docs.ts), in seconds rather than a search: the record keeps what the search found (the
// labels), and the model, replayed today, says again what each step did.
import { Expansion } from './expansion.ts';
import type { Fingerprint } from '../values/fingerprint.ts';
import { stepLabel, type Variant } from '../model.ts';
import type { TraceStep } from './trace.ts';

/** A replayed lasso or finite path: its states from the initial one, and for a lasso the step back to its cycle. */
export interface ReplayedPath<S> {
  readonly trace: TraceStep<S>[];
  /** The closing step of a lasso (from the last state back to the cycle's first), when it has one. */
  readonly closing?: TraceStep<S>;
}

/** Why a path could not be replayed: its step `at` (0: the initial state) is not there. */
export interface ReplayRefusal {
  readonly at: number;
  readonly why: string;
}

/** Replays paths of one variant; its initial states are generated once. */
export class PathReplayer<S> {
  private readonly x: Expansion<S>;
  private initials: { state: S; hi: number; lo: number }[] | undefined;

  constructor(readonly variant: Variant<S>) {
    // Whole states, no reduction: replay follows the model as written.
    this.x = new Expansion(variant, { symmetry: false });
  }

  /** The variant's initial states, in the order init() gives them, with their fingerprints. */
  private initialStates(): { state: S; hi: number; lo: number }[] {
    if (this.initials === undefined) {
      const out: { state: S; hi: number; lo: number }[] = [];
      this.x.initialStates((state, fp) => out.push({ state, hi: fp.hi, lo: fp.lo }));
      this.initials = out;
    }
    return this.initials;
  }

  /** The number (from 0) of the initial state equal to `s`, or -1 if `s` is none of them. */
  initialIndex(s: S): number {
    const fp: Fingerprint = { hi: 0, lo: 0 };
    this.x.calls.fingerprint(s, fp, 'init', -1);
    return this.initialStates().findIndex((i) => i.hi === fp.hi && i.lo === fp.lo);
  }

  /**
   * The path from initial state number `init` through the steps `labels`, and for a lasso the
   * step `closing` from its last state; a refusal where a step is not enabled. A model fault is
   * thrown as in a search (FaultThrown).
   */
  replay(init: number, labels: readonly string[], closing?: string): ReplayedPath<S> | ReplayRefusal {
    const initials = this.initialStates();
    if (init < 0 || init >= initials.length) {
      return {
        at: 0,
        why: `the variant has ${initials.length} initial state${initials.length === 1 ? '' : 's'}, not a number ${init + 1}`,
      };
    }
    const trace: TraceStep<S>[] = [{ action: null, state: initials[init].state }];
    for (let k = 0; k < labels.length; k++) {
      const step = this.step(trace[k].state, labels[k]);
      if (step === undefined) return { at: k + 1, why: `${labels[k]} is not enabled in state ${k + 1}` };
      trace.push(step);
    }
    if (closing === undefined) return { trace };
    const back = this.step(trace[trace.length - 1].state, closing);
    if (back === undefined) return { at: labels.length + 1, why: `the closing step ${closing} is not enabled in state ${trace.length}` };
    return { trace, closing: back };
  }

  /** The step labelled `label` out of `s`, with its events; undefined if no action takes it there. */
  private step(s: S, label: string): TraceStep<S> | undefined {
    const actions = this.x.actions;
    for (let ai = 0; ai < actions.length; ai++) {
      const a = actions[ai];
      if (label !== a.name && !label.startsWith(`${a.name}(`)) continue;
      const found = this.x.replay(
        s,
        ai,
        () => true,
        (p) => stepLabel(a, p) === label,
      );
      if (found) return found;
    }
    return undefined;
  }
}
