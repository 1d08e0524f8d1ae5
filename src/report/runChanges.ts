// What moved between two runs of one model (--watch): a property that became violated or proved,
// a verdict, a count. One phrase per change, in the variants' order then the properties'.
import type { PropertyStatus } from '../engine/result.ts';
import type { VariantSummary } from './text.ts';

/** A property's status as a run reports it: "holds" is proved only by a search that finished. */
function shown(status: PropertyStatus, complete: boolean): string {
  if (status === 'holds') return complete ? 'proved' : 'not violated so far';
  return status;
}

const count = (n: number) => n.toLocaleString('en-US');

/** The changes from `before` to `after`; empty when nothing moved. */
export function runChanges(before: readonly VariantSummary[], after: readonly VariantSummary[]): string[] {
  const out: string[] = [];
  const earlier = new Map(before.map((v) => [v.variant, v]));
  for (const now of after) {
    const was = earlier.get(now.variant);
    const complete = now.verdict !== 'incomplete';
    if (was === undefined) {
      out.push(`variant ${now.variant} is new: ${now.verdict}`);
      continue;
    }
    const wasComplete = was.verdict !== 'incomplete';
    const props = new Map(was.properties.map((p) => [p.name, p]));
    const moved: string[] = [];
    for (const p of now.properties) {
      const old = props.get(p.name);
      const status = shown(p.status, complete);
      if (old === undefined) moved.push(`${p.name} in ${now.variant} is new: ${status}`);
      else if (shown(old.status, wasComplete) !== status)
        moved.push(`${p.name} in ${now.variant}: now ${status} (was ${shown(old.status, wasComplete)})`);
    }
    const kept = new Set(now.properties.map((p) => p.name));
    for (const p of was.properties) if (!kept.has(p.name)) moved.push(`${p.name} in ${now.variant} is no longer checked`);
    out.push(...moved);
    // (A verdict that moved with a property is said by the property; the summary above says whether expectations are met.)
    if (was.verdict !== now.verdict && moved.length === 0) out.push(`${now.variant}: now ${now.verdict} (was ${was.verdict})`);
    if (was.distinctStates !== now.distinctStates || was.depth !== now.depth) {
      const states = was.distinctStates !== now.distinctStates ? `${count(was.distinctStates)} -> ${count(now.distinctStates)} states` : '';
      const depth = was.depth !== now.depth ? `depth ${was.depth} -> ${now.depth}` : '';
      out.push(`${now.variant}: ${[states, depth].filter((x) => x !== '').join(', ')}`);
    }
  }
  const remaining = new Set(after.map((v) => v.variant));
  for (const v of before) if (!remaining.has(v.variant)) out.push(`variant ${v.variant} is gone`);
  return out;
}
