// Whole states again from the trace log, for a search resumed from a checkpoint. A checkpoint
// keeps no states, only each state's parent, action and fingerprint (trace.ts); the states of
// the level to expand next are rebuilt as counterexamples are: from the initial states,
// replaying at each step the recorded action and taking the successor whose fingerprint is the
// recorded one. All the level's states are rebuilt in one pass over their ancestors, level by
// level, each ancestor once, and an ancestor is let go once its last child is rebuilt. Since
// the search keeps the first successor it meets of each new state, and replay takes the first
// match in the same order, the rebuilt states are the very values the interrupted search held.
import type { Expansion } from './expansion.ts';
import type { StateLog } from './trace.ts';
import { FaultThrown } from '../errors.ts';
import { DETERMINISM_HINT } from '../modelCalls.ts';

/** A step of the log the model no longer makes: MC107, as for a trace that cannot be rebuilt. */
function notReplayed(subject: string, message: string): FaultThrown {
  return new FaultThrown({
    code: 'MC107_NOT_DETERMINISTIC',
    message: `cannot rebuild the states to resume from: ${message}`,
    subject,
    id: -1,
    hint: DETERMINISM_HINT,
  });
}

/**
 * The states to rebuild and every ancestor of theirs, in id order (plain typed arrays, so that
 * they cross to another thread): per entry its id, the index of its parent's entry (-1 for an
 * initial state), the action that first reached it and its fingerprint.
 */
export interface Ancestry {
  readonly ids: Int32Array;
  readonly parent: Int32Array;
  readonly action: Int32Array;
  readonly hi: Uint32Array;
  readonly lo: Uint32Array;
  /** The entries from this one on are the states asked for. */
  readonly firstWanted: number;
}

/** The ancestry of states [from, to) of `log`, which must be one level (or the level's tail). */
export function ancestryOf(log: StateLog, from: number, to: number): Ancestry {
  const needed = new Uint8Array(to);
  needed.fill(1, from, to);
  let count = to - from;
  for (let id = to - 1; id >= 0; id--) {
    if (needed[id] === 0) continue;
    const p = log.parentOf(id);
    if (p >= 0 && needed[p] === 0) {
      needed[p] = 1;
      count++;
    }
  }
  const ids = new Int32Array(count);
  const index = new Int32Array(to);
  let k = 0;
  for (let id = 0; id < to; id++) {
    if (needed[id] === 0) continue;
    index[id] = k;
    ids[k++] = id;
  }
  const parent = new Int32Array(count);
  const action = new Int32Array(count);
  const hi = new Uint32Array(count);
  const lo = new Uint32Array(count);
  for (let i = 0; i < count; i++) {
    const id = ids[i];
    const p = log.parentOf(id);
    parent[i] = p >= 0 ? index[p] : -1;
    action[i] = log.actionOf(id);
    hi[i] = log.hiOf(id);
    lo[i] = log.loOf(id);
  }
  return { ids, parent, action, hi, lo, firstWanted: count - (to - from) };
}

/**
 * Rebuilds the states an ancestry asks for, calling `each(id, state, hi, lo)` in id order. A step the
 * model no longer makes is the fault MC107 (the model is not deterministic).
 */
export function replayAncestry<S>(x: Expansion<S>, a: Ancestry, each: (id: number, s: S, hi: number, lo: number) => void): void {
  const n = a.ids.length;
  const states: (S | undefined)[] = new Array(n);
  // How many children of each entry are still to be rebuilt.
  const children = new Int32Array(n);
  for (let i = 0; i < n; i++) if (a.parent[i] >= 0) children[a.parent[i]]++;
  const initial = new Map<string, S>();
  x.initialStates((s, fp) => {
    const key = `${fp.hi}:${fp.lo}`;
    if (!initial.has(key)) initial.set(key, s);
  });
  for (let i = 0; i < n; i++) {
    const p = a.parent[i];
    const hi = a.hi[i];
    const lo = a.lo[i];
    let s: S | undefined;
    if (p < 0) {
      s = initial.get(`${hi}:${lo}`);
      if (s === undefined) throw notReplayed('init', `no initial state has the fingerprint recorded for state ${a.ids[i]}`);
    } else {
      const from = states[p];
      if (from === undefined) throw new Error(`frontier replay: the parent of state ${a.ids[i]} is not at hand`);
      x.successors(
        from,
        -1,
        (_ai, _p, t, fp) => {
          if (fp.hi !== hi || fp.lo !== lo) return true;
          // The state fingerprinted last (with symmetry, its last image: the parts they share): its
          // parts' digests kept, its own successors' fingerprints are cheaper. A cache either way.
          x.keep();
          s = t;
          return false;
        },
        a.action[i],
      );
      if (s === undefined) {
        const name = x.actions[a.action[i]].name;
        throw notReplayed(name, `action ${name} no longer produces state ${a.ids[i]} from state ${a.ids[p]}`);
      }
      if (--children[p] === 0) states[p] = undefined;
    }
    if (i >= a.firstWanted) each(a.ids[i], s, hi, lo);
    if (children[i] > 0) states[i] = s;
  }
}
