// A counterexample as its readers see it, step by step: who acted, what it asked and what it was
// answered, and what changed, as data. The text trace, the sequence diagram and the generated
// docs all render this one reading, so they cannot disagree.
import type { StepEvent } from '../engine/model.ts';
import type { Violation } from '../engine/result.ts';
import type { TraceStep } from '../engine/search/trace.ts';
import { diff, formatValue, leaves, type Change } from './diff.ts';

/**
 * The actor of a step: its action's name up to the first dot (`mover.delete(Cluster/c1)` ->
 * `mover`); an undotted name is its own actor (`release(0)` -> `release`).
 */
export function actorOf(label: string): string {
  const paren = label.indexOf('(');
  const name = paren < 0 ? label : label.slice(0, paren);
  const dot = name.indexOf('.');
  return dot < 0 ? name : name.slice(0, dot);
}

export interface StepReading {
  /** 1-based, as printed. */
  readonly number: number;
  /** `null` for the initial state. */
  readonly label: string | null;
  /** Who took the step (the action's name up to its first dot); null for the initial state. */
  readonly actor: string | null;
  /** Requests, answers and notes, each request's sender filled in. */
  readonly events: readonly StepEvent[];
  /** What changed from the previous state; for the initial state, every part of it. */
  readonly changes: readonly Change[];
  /** Whether changes are over the variant's view (subjects first) rather than the raw state. */
  readonly viewed: boolean;
}

export interface CounterexampleReading {
  readonly steps: readonly StepReading[];
  /** For a lasso: the step back to the cycle's first state, read like the others. */
  readonly closing?: StepReading;
  /** For a lasso: the 0-based index of the cycle's first state. */
  readonly loop?: number;
}

function shown(step: TraceStep): unknown {
  return step.view !== undefined ? step.view : step.state;
}

function withSender(events: readonly StepEvent[] | undefined, actor: string | null): StepEvent[] {
  return (events ?? []).map((e) => (e.kind === 'request' && e.from === undefined && actor !== null ? { ...e, from: actor } : e));
}

/** A trace read step by step: a counterexample, or any path (the explorer's), which has no loop. */
export function readCounterexample(x: Pick<Violation, 'trace' | 'loop' | 'loopAction' | 'loopEvents'>): CounterexampleReading {
  const steps = x.trace.map((step, i): StepReading => {
    const actor = step.action === null ? null : actorOf(step.action);
    return {
      number: i + 1,
      label: step.action,
      actor,
      events: withSender(step.events, actor),
      changes: i === 0 ? leaves(shown(step)) : diff(shown(x.trace[i - 1]), shown(step)),
      viewed: step.view !== undefined,
    };
  });
  if (x.loop === undefined) return { steps };
  const last = x.trace[x.trace.length - 1];
  const closing: StepReading | undefined =
    x.loopAction === null || x.loopAction === undefined
      ? undefined
      : {
          number: x.trace.length + 1,
          label: x.loopAction,
          actor: actorOf(x.loopAction),
          events: withSender(x.loopEvents, actorOf(x.loopAction)),
          changes: diff(shown(last), shown(x.trace[x.loop])),
          viewed: last.view !== undefined,
        };
  return { steps, closing, loop: x.loop };
}

/** How one initial state differs from another (empty when they are equal), over their views. */
export function initialDifference(earlier: TraceStep, later: TraceStep): Change[] {
  return diff(shown(earlier), shown(later));
}

/** Every part of a state, as `path = value` lines: how `--trace full` shows a step. */
export function fullState(step: TraceStep): Change[] {
  return leaves(shown(step));
}

/**
 * A change's path as text. Over a view the first part is a subject (`source Cluster/c1`) and the
 * rest its field (`metadata.finalizers`); over a raw state, the parts joined by dots.
 */
export function pathText(ch: Change, viewed: boolean): string {
  if (ch.path.length === 0) return '(state)';
  if (!viewed) return ch.path.join('.');
  const [subject, ...field] = ch.path;
  return field.length === 0 ? subject : `${subject} ${field.join('.')}`;
}

/** A change as plain text: `path: before -> after`, `path: added x`, or a queue's edits. */
export function changeText(ch: Change, viewed: boolean): string {
  const p = pathText(ch, viewed);
  if (ch.listEdit) {
    const parts = [
      ...ch.listEdit.shifted.map((x) => `took ${formatValue(x)}`),
      ...ch.listEdit.pushed.map((x) => `appended ${formatValue(x)}`),
    ];
    return `${p}: ${parts.join('; ')}`;
  }
  if (ch.before === undefined) return `${p}: added ${formatValue(ch.after)}`;
  if (ch.after === undefined) return `${p}: removed ${formatValue(ch.before)}`;
  return `${p}: ${formatValue(ch.before)} -> ${formatValue(ch.after)}`;
}

/** A request as one line: `mover -> source API server: DELETE Cluster/c1`. */
export function requestText(e: StepEvent & { kind: 'request' }): string {
  return `${e.from ?? '?'} -> ${e.to}: ${e.request}`;
}
