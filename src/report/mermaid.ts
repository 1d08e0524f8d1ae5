// A counterexample as a Mermaid sequence diagram, which GitHub renders in Markdown: each actor
// and each server a participant, each request an arrow and its answer a return arrow (crossed
// when it failed), each step without a request a note over its actor, and a lasso's cycle in a
// `loop` block. Built from the same step reading as the text trace.
import type { StepEvent } from '../engine/model.ts';
import type { VariantResult, Violation } from '../engine/result.ts';
import { readCounterexample, type StepReading } from './steps.ts';

/**
 * A participant id Mermaid accepts: letters, digits and underscores, prefixed so that no id is
 * one of Mermaid's keywords (`actor`, `loop`, `end`, ...); the name itself is the alias shown.
 */
function idOf(name: string): string {
  return `p_${name.replace(/[^A-Za-z0-9_]/g, '_')}`;
}

/**
 * Message text Mermaid will not misread: `;` ends a statement and `#` starts an entity code, so
 * both are written as entity codes; line breaks become spaces.
 */
export function mermaidText(text: string): string {
  return text.replace(/[#;]/g, (c) => (c === '#' ? '#35;' : '#59;')).replace(/[\r\n]+/g, ' ');
}

/** The actors in order of appearance, then those who only answer (the servers). */
function participantsOf(steps: readonly StepReading[]): string[] {
  const actors: string[] = [];
  const answering: string[] = [];
  const add = (list: string[], p: string) => {
    if (!list.includes(p)) list.push(p);
  };
  for (const step of steps) {
    if (step.actor === null) continue;
    if (step.events.length === 0) add(actors, step.actor);
    for (const e of step.events) {
      if (e.kind === 'request') {
        add(actors, e.from ?? step.actor);
        add(answering, e.to);
      } else for (const p of e.over ?? [step.actor]) add(actors, p);
    }
  }
  return [...actors, ...answering.filter((p) => !actors.includes(p))];
}

function stepLines(step: StepReading, indent: string): string[] {
  const out: string[] = [];
  const actor = step.actor!;
  const requests = step.events.filter((e): e is StepEvent & { kind: 'request' } => e.kind === 'request');
  const notes = step.events.filter((e): e is StepEvent & { kind: 'note' } => e.kind === 'note');
  if (requests.length === 0 && notes.length === 0) {
    // The actor is the participant; the note says which of its steps this is.
    const label = step.label!.startsWith(`${actor}.`) ? step.label!.slice(actor.length + 1) : step.label!;
    out.push(`${indent}Note over ${idOf(actor)}: ${step.number}. ${mermaidText(label)}`);
  }
  for (const n of notes) {
    const over = n.over ?? [actor];
    const span = over.length === 1 ? idOf(over[0]) : `${idOf(over[0])},${idOf(over[over.length - 1])}`;
    out.push(`${indent}Note over ${span}: ${step.number}. ${mermaidText(n.text)}`);
  }
  for (const r of requests) {
    const from = idOf(r.from ?? actor);
    const to = idOf(r.to);
    out.push(`${indent}${from}->>${to}: ${step.number}. ${mermaidText(r.request)}`);
    out.push(`${indent}${to}${r.ok ? '-->>' : '--x'}${from}: ${mermaidText(r.answer)}`);
  }
  return out;
}

/** The diagram's source, without Markdown fences. */
export function violationToMermaid(x: Violation): string {
  return diagram(x, `${x.property} is violated`);
}

/** A path's diagram (the explorer's, as it grows), ending with a note of `ending` (what the last state is). */
export function pathToMermaid(trace: Violation['trace'], ending: string): string {
  return diagram({ trace }, ending);
}

function diagram(x: Pick<Violation, 'trace' | 'loop' | 'loopAction' | 'loopEvents'>, ending: string): string {
  const reading = readCounterexample(x);
  const acting = reading.steps.slice(1);
  const all = reading.closing ? [...acting, reading.closing] : acting;
  const participants = participantsOf(all);
  const lines = ['sequenceDiagram'];
  for (const p of participants) lines.push(`  participant ${idOf(p)} as ${mermaidText(p)}`);
  if (participants.length === 0) lines.push(`  participant ${idOf('model')} as model`);
  const first = participants[0] ?? 'model';
  lines.push(`  Note over ${idOf(first)}: 1. initial state`);
  const loopAt = reading.loop;
  // The cycle's first state is state loopAt + 1; the steps after it, and the closing step back
  // to it, are the cycle.
  const openLoop = () => lines.push(`  loop states ${loopAt! + 1} to ${x.trace.length} repeat for ever`);
  if (loopAt === 0) openLoop();
  for (const step of acting) {
    lines.push(...stepLines(step, loopAt !== undefined && step.number > loopAt + 1 ? '    ' : '  '));
    if (loopAt !== undefined && loopAt > 0 && step.number === loopAt + 1) openLoop();
  }
  if (loopAt !== undefined) {
    if (reading.closing) {
      lines.push(...stepLines(reading.closing, '    '));
      lines.push(`    Note over ${idOf(reading.closing.actor!)}: back to state ${loopAt + 1}`);
    } else lines.push(`    Note over ${idOf(first)}: state ${x.trace.length} repeats for ever (stuttering)`);
    lines.push('  end');
  }
  const lastActor = all.length > 0 ? all[all.length - 1].actor! : first;
  lines.push(`  Note over ${idOf(participants.includes(lastActor) ? lastActor : first)}: ${mermaidText(ending)}`);
  return lines.join('\n');
}

/** A Markdown page GitHub renders: the property's statement, then the diagram. */
export function violationToMermaidMarkdown(v: VariantResult, x: Violation): string {
  return [
    `# ${v.model}, variant ${v.variant}: ${x.property} is violated`,
    '',
    `> ${x.statement}`,
    '',
    '```mermaid',
    violationToMermaid(x),
    '```',
    '',
  ].join('\n');
}
