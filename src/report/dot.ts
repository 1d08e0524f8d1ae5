// A small model's reachable graph in Graphviz DOT, the counterexample drawn over it: its states
// and steps in red, its first state doubled, a lasso's closing step included. Each node shows
// its state as the variant's view reads it; initial states are bold.
import { Fingerprinter } from '../engine/values/fingerprint.ts';
import type { Violation } from '../engine/result.ts';
import type { SmallGraph } from '../engine/search/smallGraph.ts';
import { formatValue, leaves } from './diff.ts';
import { pathText } from './steps.ts';

/** A DOT string literal. */
function quote(text: string): string {
  return `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`;
}

function stateLabel(state: unknown, view: ((s: unknown) => unknown) | undefined): string {
  const shown = view ? view(state) : state;
  return leaves(shown)
    .map((ch) => `${pathText(ch, view !== undefined)} = ${formatValue(ch.after)}`)
    .join('\n');
}

export function graphToDot<S>(name: string, g: SmallGraph<S>, violation: Violation<S> | undefined, view?: (s: S) => unknown): string {
  const onTrace = new Set<number>();
  const traceEdges = new Set<string>();
  if (violation) {
    const fp = new Fingerprinter();
    const index = new Map(g.fingerprints.map((h, i) => [h, i]));
    const ids = violation.trace.map((step) => index.get(fp.hex(step.state)));
    for (const id of ids) if (id !== undefined) onTrace.add(id);
    for (let i = 1; i < ids.length; i++) traceEdges.add(`${ids[i - 1]}>${ids[i]}>${violation.trace[i].action}`);
    if (violation.loop !== undefined && violation.loopAction) {
      traceEdges.add(`${ids[ids.length - 1]}>${ids[violation.loop]}>${violation.loopAction}`);
    }
  }
  const lines = [
    `digraph ${quote(name)} {`,
    '  node [shape=box, fontname="monospace", fontsize=10];',
    '  edge [fontname="monospace", fontsize=9];',
  ];
  if (violation) lines.push(`  label=${quote(`${violation.property} is violated: the counterexample is drawn in red`)};`);
  g.states.forEach((s, i) => {
    const attrs = [`label=${quote(stateLabel(s, view as ((s: unknown) => unknown) | undefined))}`];
    if (g.initial.includes(i)) attrs.push('style=bold');
    if (onTrace.has(i)) attrs.push('color=red', 'fontcolor=red');
    if (violation && i === [...onTrace][0]) attrs.push('peripheries=2');
    lines.push(`  s${i} [${attrs.join(', ')}];`);
  });
  for (const e of g.edges) {
    const attrs = [`label=${quote(e.label)}`];
    if (traceEdges.has(`${e.from}>${e.to}>${e.label}`)) attrs.push('color=red', 'fontcolor=red', 'penwidth=2');
    lines.push(`  s${e.from} -> s${e.to} [${attrs.join(', ')}];`);
  }
  lines.push('}');
  return `${lines.join('\n')}\n`;
}
