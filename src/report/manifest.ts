// What the docs record keeps of each variant's run: what the search found, and nothing the model
// says by itself. The counts, the verdicts, the warnings, and each counterexample as the labels of
// its steps (its initial state by number, then each step's label, and for a lasso where its cycle
// starts and the step back to it). The pages are rendered from this record by replaying those
// labels through the model (report/docs.ts), in seconds; the model's own text (descriptions,
// statements, citations) and what each step does come from the model as it is now.
//
// An end-to-end test computes the record of a run from the CLI's --json output, the generator from
// the result itself: the two must agree (test/report/manifest.test.ts), but for the initial state's
// number, which only the model knows (the JSON has the state itself).
import { createHash } from 'node:crypto';
import type { VariantResult, Violation } from '../engine/result.ts';
import type { Reproduction } from '../engine/model.ts';
import type { Json } from './stateJson.ts';

export interface VariantManifest {
  readonly verdict: string;
  readonly metExpectations: boolean;
  readonly distinctStates: number;
  readonly statesGenerated: number;
  readonly depth: number;
  /** Each property's status, in the model's order ("vacuous" when it held only vacuously). */
  readonly properties: Readonly<Record<string, string>>;
  readonly warnings: readonly string[];
  readonly violations: readonly RecordedCounterexample[];
  /** The search's seconds when the record was made, to a tenth (for docs/bugs.md; compared with nothing). */
  readonly seconds?: number;
}

/** A counterexample as the record keeps it: enough to replay it through the model. */
export interface RecordedCounterexample {
  readonly property: string;
  /** The trace's length in states. */
  readonly states: number;
  /** A lasso's cycle start (an index into the states), or null for a finite trace. */
  readonly loop: number | null;
  /**
   * The number (from 0) of its initial state among the variant's initial states, in the order
   * init() gives them; absent in a record made from --json output, which has the state instead.
   */
  readonly init?: number;
  /** Each step's label after the initial state, as the trace prints it. */
  readonly steps: readonly string[];
  /** A lasso's step from its last state back to the cycle (null: it stutters); null for a finite trace. */
  readonly loopAction: string | null;
}

/** The fields of variantToJson's output that the manifest reads. */
interface JsonVariant {
  readonly verdict: string;
  readonly metExpectations: boolean;
  readonly distinctStates: number;
  readonly statesGenerated: number;
  readonly depth: number;
  readonly warnings: readonly string[];
  readonly properties: readonly { readonly name: string; readonly status: string; readonly vacuous: boolean }[];
  readonly violations: readonly {
    readonly property: string;
    readonly trace: readonly { readonly action: string | null }[];
    readonly loop?: number;
    readonly loopAction?: string | null;
  }[];
}

/** SHA-256 of a text, or of a value's JSON, cut to its first 16 hex digits. */
export function shortDigest(value: unknown): string {
  return createHash('sha256')
    .update(typeof value === 'string' || Buffer.isBuffer(value) ? value : JSON.stringify(value))
    .digest('hex')
    .slice(0, 16);
}

/** The manifest entry of one variant, from its --json object (`variantToJson`, or parsed CLI output). */
export function variantManifest(json: Json): VariantManifest {
  return recordOf(json as unknown as JsonVariant);
}

/**
 * The same record, from the result itself (the generator's side), with each counterexample's
 * initial state numbered by `initialIndex`.
 */
export function variantManifestOf(v: VariantResult, initialIndex: (x: Violation) => number): VariantManifest {
  const record = recordOf({
    verdict: v.verdict,
    metExpectations: v.metExpectations,
    distinctStates: v.stats.distinctStates,
    statesGenerated: v.stats.statesGenerated,
    depth: v.stats.depth,
    warnings: v.warnings,
    properties: v.properties,
    violations: v.violations,
  });
  const violations = record.violations.map(({ property, states, loop, steps, loopAction }, i) => ({
    property,
    states,
    loop,
    init: initialIndex(v.violations[i]),
    steps,
    loopAction,
  }));
  return { ...record, violations, seconds: Math.round(v.stats.seconds * 10) / 10 };
}

function recordOf(v: JsonVariant): VariantManifest {
  return {
    verdict: v.verdict,
    metExpectations: v.metExpectations,
    distinctStates: v.distinctStates,
    statesGenerated: v.statesGenerated,
    depth: v.depth,
    properties: Object.fromEntries(v.properties.map((p) => [p.name, p.vacuous ? 'vacuous' : p.status])),
    warnings: [...v.warnings],
    violations: v.violations.map((x) => ({
      property: x.property,
      states: x.trace.length,
      loop: x.loop ?? null,
      steps: x.trace.slice(1).map((t) => t.action ?? ''),
      loopAction: x.loopAction ?? null,
    })),
  };
}

function num(n: number): string {
  return n.toLocaleString('en-US');
}

/**
 * How a run differs from what a page records, one line per difference, each naming the variant
 * and what changed; empty when they agree.
 */
export function manifestDifferences(variant: string, recorded: VariantManifest | undefined, actual: VariantManifest): string[] {
  if (recorded === undefined) return [`${variant}: not on the page`];
  const out: string[] = [];
  const field = (label: string, a: string, b: string) => {
    if (a !== b) out.push(`${variant}: ${label} ${a} -> ${b}`);
  };
  field('verdict', recorded.verdict, actual.verdict);
  field('expectations met', String(recorded.metExpectations), String(actual.metExpectations));
  field('distinct states', num(recorded.distinctStates), num(actual.distinctStates));
  field('states generated', num(recorded.statesGenerated), num(actual.statesGenerated));
  field('depth', String(recorded.depth), String(actual.depth));
  const names = [...new Set([...Object.keys(recorded.properties), ...Object.keys(actual.properties)])];
  for (const p of names) field(`${p}`, recorded.properties[p] ?? '(absent)', actual.properties[p] ?? '(absent)');
  const before = out.length;
  for (const w of recorded.warnings) if (!actual.warnings.includes(w)) out.push(`${variant}: warning no longer given: ${w}`);
  for (const w of actual.warnings) if (!recorded.warnings.includes(w)) out.push(`${variant}: new warning: ${w}`);
  if (out.length === before && recorded.warnings.join('\n') !== actual.warnings.join('\n')) {
    out.push(`${variant}: the warnings come in another order`);
  }
  for (const x of actual.violations) {
    const r = recorded.violations.find((y) => y.property === x.property);
    if (r === undefined) continue; // the property's status line above says it
    if (r.states !== x.states || r.loop !== x.loop) {
      const shape = (y: RecordedCounterexample) => `${y.states} states${y.loop === null ? '' : `, cycle from state ${y.loop + 1}`}`;
      out.push(`${variant}: ${x.property}'s counterexample ${shape(r)} -> ${shape(x)}`);
      continue;
    }
    const k = r.steps.findIndex((label, i) => label !== x.steps[i]);
    if (k >= 0) out.push(`${variant}: ${x.property}'s counterexample, step ${k + 2}: ${r.steps[k]} -> ${x.steps[k]}`);
    else if (r.loopAction !== x.loopAction) out.push(`${variant}: ${x.property}'s closing step ${r.loopAction} -> ${x.loopAction}`);
    else if (r.init !== undefined && x.init !== undefined && r.init !== x.init)
      out.push(`${variant}: ${x.property}'s counterexample starts from initial state ${r.init + 1} -> ${x.init + 1}`);
  }
  return out;
}

/** The record a model's docs pages are rendered from (`docs/<model>.manifest.json`). */
export interface DocsManifest {
  /** The command that ran the searches and wrote the record. */
  readonly generatedBy: string;
  /** The pages' file names, beside the record. */
  readonly pages: readonly string[];
  /** Each variant's results, by name, in the model's order. */
  readonly variants: Readonly<Record<string, VariantManifest>>;
  /** The model's Reproduction, for a model of a reported bug (docs/bugs.md is rendered from the records). */
  readonly reproduces?: Reproduction;
}
