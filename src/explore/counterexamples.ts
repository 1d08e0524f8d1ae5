// The counterexamples the explorer offers: read from files (an `--out-itf` trace, or a `--json`
// report of any number of variants), or found by a search the page asks for, run in a worker
// thread as the CLI runs one. Each becomes a path: a variant, an initial state and step labels,
// which the explorer replays like any other path (walk.ts), so a trace that no longer matches the
// model is refused at the step that cannot be taken, not shown as if it were real. (The search
// itself is the CLI's to start: cli/commands/explore.ts, searchForExplorer.)
import { readFileSync } from 'node:fs';
import type { Progress } from '../engine/search/bfs.ts';
import { ModelError } from '../engine/errors.ts';
import { ACTION_TAKEN, toItfValue, variables } from '../report/itf.ts';
import { stateToJson } from '../report/stateJson.ts';
import type { Walk } from './walk.ts';

/** A counterexample as the explorer replays it. */
export interface Counterexample {
  readonly variant: string;
  readonly property: string;
  readonly kind: string;
  readonly statement: string;
  /** The step labels after the initial state. */
  readonly steps: readonly string[];
  /** For a lasso: the 0-based index of the state the cycle goes back to. */
  readonly loop?: number;
  /** Where it came from: a file's name, or `search`. */
  readonly source: string;
  /** Its first state as the file wrote it (JSON's stateToJson, or ITF's variables), to tell which initial state it starts from. */
  readonly first?: { readonly format: 'json' | 'itf'; readonly state: unknown };
}

export interface JsonViolation {
  property: string;
  kind: string;
  statement: string;
  trace: { action: string | null; state?: unknown }[];
  loop?: number;
}

/** The counterexamples in a `--json` report's variants (or one variant's JSON). */
export function fromReport(report: { variants?: { name: string; violations?: JsonViolation[] }[] }, source: string): Counterexample[] {
  return (report.variants ?? []).flatMap((v) =>
    (v.violations ?? []).map((x) => ({
      variant: v.name,
      property: x.property,
      kind: x.kind,
      statement: x.statement,
      steps: x.trace.slice(1).map((s) => String(s.action)),
      ...(x.loop !== undefined ? { loop: x.loop } : {}),
      ...(x.trace[0]?.state !== undefined ? { first: { format: 'json' as const, state: x.trace[0].state } } : {}),
      source,
    })),
  );
}

/**
 * Reads a trace file: an ITF file written by `--out-itf` (its `#meta` names the model and the
 * variant, each state's `#meta.action` its step) or a `--json` report. Throws ModelError when
 * the file cannot be read, is neither, or belongs to another model.
 */
export function readTraceFile(path: string, model: string): Counterexample[] {
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(path, 'utf8'));
  } catch (cause) {
    const why = cause instanceof Error ? cause.message : String(cause);
    throw new ModelError('MC002_MODEL_LOAD_FAILED', `cannot read the trace file ${path}: ${why}`, { model });
  }
  const d = data as {
    '#meta'?: { model?: string; variant?: string; property?: string; kind?: string; description?: string; loopAction?: string };
    states?: ({ '#meta'?: { action?: string } } & { [variable: string]: unknown })[];
    loop?: number;
    model?: string;
  };
  const other = (named: string | undefined) =>
    new ModelError('MC002_MODEL_LOAD_FAILED', `the trace file ${path} is of model ${named ?? '(unnamed)'}, not ${model}`, {
      model,
      hint: 'open it with the model it was written for',
    });
  if (d['#meta'] !== undefined && Array.isArray(d.states)) {
    const meta = d['#meta'];
    if (meta.model !== model) throw other(meta.model);
    return [
      {
        variant: String(meta.variant),
        property: String(meta.property ?? ''),
        kind: String(meta.kind ?? ''),
        statement: String(meta.description ?? ''),
        steps: d.states.slice(1).map((s) => String(s['#meta']?.action)),
        ...(d.loop !== undefined ? { loop: d.loop } : {}),
        ...(d.states[0] !== undefined ? { first: { format: 'itf' as const, state: withoutMeta(d.states[0]) } } : {}),
        source: path,
      },
    ];
  }
  if (typeof d.model === 'string') {
    if (d.model !== model) throw other(d.model);
    return fromReport(data as never, path);
  }
  throw new ModelError('MC002_MODEL_LOAD_FAILED', `the trace file ${path} is neither an ITF trace (--out-itf) nor a JSON report (--json)`, {
    model,
  });
}

/** An ITF state's variables: without its `#meta` and the action it records. */
function withoutMeta(state: { [variable: string]: unknown }): { [variable: string]: unknown } {
  return Object.fromEntries(Object.entries(state).filter(([k]) => k !== '#meta' && k !== ACTION_TAKEN));
}

/** A search the page asked for: how far it got, and what it found (as it finds it). */
export interface Run {
  /** cancelled: stopped by the page (or by the end of the server that ran it), keeping what it had found. */
  status: 'running' | 'done' | 'failed' | 'cancelled';
  progress?: Progress;
  counterexamples: Counterexample[];
  /** The verdict line, once done. */
  summary?: string;
  error?: string;
  /** When it ended (ISO 8601): a run kept from an earlier server says when it was found. */
  ended?: string;
  /** Read from the cache directory: found by an earlier server for this very model. */
  kept?: boolean;
}

/**
 * The initial state a trace starts from: the one its file wrote as its first state; failing
 * that (a file that wrote none), the first from which each of its steps can be taken.
 */
export function initialOf(walk: Walk<unknown>, x: Pick<Counterexample, 'steps' | 'first'>): number {
  const initials = walk.initialStates();
  if (x.first !== undefined) {
    const want = JSON.stringify(x.first.state);
    const written = (s: unknown): string[] =>
      x.first?.format === 'json'
        ? [JSON.stringify(stateToJson(s))]
        : [variables(s), [['state', s] as [string, unknown]]].map((vars) =>
            JSON.stringify(Object.fromEntries(vars.map(([k, v]) => [k, toItfValue(v)]))),
          );
    const found = initials.findIndex((s) => written(s).includes(want));
    if (found >= 0) return found;
  }
  for (let i = 0; i < initials.length; i++) if (walk.walk(i, x.steps).refusal === undefined) return i;
  return 0;
}
