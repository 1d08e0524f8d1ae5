// The sentence that closes a lasso: why fairness lets its cycle repeat for ever, said of the
// cycle's states as they are (engine/cycleFairness.ts reads them): which fair steps the cycle
// takes, which are disabled, which are enabled only as steps that change nothing (a reconcile
// that requeues and writes nothing), which only as steps out of the state constraint.
import type { CycleFairness, IdleFairStep } from '../engine/result.ts';

/** At most this many names in one list; the rest are counted. */
const NAMES = 6;

/**
 * The clauses for a lasso whose cycle starts at `loop` (trace index): for a stuttering cycle,
 * said of "it", its one state; else of numbered states (from 1). Undefined when no fairness
 * is declared (no fair step at all).
 */
export function fairnessClauses(f: CycleFairness, stuttering: boolean): string | undefined {
  if (f.taken.length === 0 && f.idle.length === 0) return undefined;
  const groups: { how: IdleFairStep['how']; state: number; steps: string[] }[] = [];
  for (const i of f.idle) {
    const g = groups.find((x) => x.how === i.how && x.state === i.state);
    if (g) g.steps.push(i.step);
    else groups.push({ how: i.how, state: i.state, steps: [i.step] });
  }
  const clauses = groups.map((g) => {
    const one = g.steps.length === 1;
    const what =
      g.how === 'disabled'
        ? `${one ? 'is' : 'are'} disabled`
        : g.how === 'unchanging'
          ? `${one ? 'is' : 'are'} enabled only as ${one ? 'a step that changes' : 'steps that change'} nothing`
          : `${one ? 'is' : 'are'} enabled only as ${one ? 'a step' : 'steps'} out of the state constraint`;
    return `${names(g.steps)} ${what} ${stuttering ? 'in it' : `in state ${g.state + 1}`}`;
  });
  if (!stuttering && f.taken.length > 0) clauses.unshift(`it takes ${names(f.taken)}`);
  return clauses.join('; ');
}

function names(list: readonly string[]): string {
  const shown = list.length > NAMES ? list.slice(0, NAMES - 1) : list;
  const rest = list.length - shown.length;
  const tail = rest > 0 ? [`${rest} more`] : [];
  const all = [...shown, ...tail];
  return all.length === 1 ? all[0] : `${all.slice(0, -1).join(', ')} and ${all[all.length - 1]}`;
}
