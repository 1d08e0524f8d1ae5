// What a generated docs page records of each variant's run, so that a later run can be compared
// with the page without re-reading it: the counts, the verdicts, the warnings and a digest of each
// counterexample. An end-to-end test computes it from the CLI's --json output, the generator from
// the result itself (through the same state and event JSON, stateJson.ts): the two must agree,
// and test/report/manifest.test.ts checks that they do.
import { createHash } from 'node:crypto';
import type { VariantResult } from '../engine/result.ts';
import { eventsToJson, stateToJson, type Json } from './stateJson.ts';

export interface VariantManifest {
  readonly verdict: string;
  readonly metExpectations: boolean;
  readonly distinctStates: number;
  readonly statesGenerated: number;
  readonly depth: number;
  /** Each property's status, in the model's order ("vacuous" when it held only vacuously). */
  readonly properties: Readonly<Record<string, string>>;
  /** SHA-256 (first 16 hex digits) of every property's name, kind and statement, as the page shows them. */
  readonly statements: string;
  readonly warnings: readonly string[];
  /** The fairness the liveness properties were checked under, as the report states it. */
  readonly fairness: readonly string[];
  readonly violations: readonly {
    readonly property: string;
    /** The trace's length in states. */
    readonly states: number;
    /** A lasso's cycle start, or null for a finite trace. */
    readonly loop: number | null;
    /** SHA-256 (first 16 hex digits) of the trace's JSON: every step's action, events and state. */
    readonly trace: string;
  }[];
}

/** The fields of variantToJson's output that the manifest reads. */
interface JsonVariant {
  readonly verdict: string;
  readonly metExpectations: boolean;
  readonly distinctStates: number;
  readonly statesGenerated: number;
  readonly depth: number;
  readonly warnings: readonly string[];
  readonly fairness: readonly string[];
  readonly properties: readonly {
    readonly name: string;
    readonly kind: string;
    readonly statement: string;
    readonly status: string;
    readonly vacuous: boolean;
  }[];
  readonly violations: readonly {
    readonly property: string;
    readonly trace: readonly Json[];
    readonly loop?: number;
    readonly loopAction?: string | null;
    readonly loopEvents?: Json;
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
  const v = json as unknown as JsonVariant;
  return {
    verdict: v.verdict,
    metExpectations: v.metExpectations,
    distinctStates: v.distinctStates,
    statesGenerated: v.statesGenerated,
    depth: v.depth,
    properties: Object.fromEntries(v.properties.map((p) => [p.name, p.vacuous ? 'vacuous' : p.status])),
    statements: shortDigest(v.properties.map((p) => [p.name, p.kind, p.statement])),
    warnings: [...v.warnings],
    fairness: [...v.fairness],
    violations: v.violations.map((x) => ({
      property: x.property,
      states: x.trace.length,
      loop: x.loop ?? null,
      trace: shortDigest({ trace: x.trace, loop: x.loop ?? null, loopAction: x.loopAction ?? null, loopEvents: x.loopEvents ?? null }),
    })),
  };
}

/** The same record, from the result itself (the generator's side). */
export function variantManifestOf(v: VariantResult): VariantManifest {
  const json = {
    verdict: v.verdict,
    metExpectations: v.metExpectations,
    distinctStates: v.stats.distinctStates,
    statesGenerated: v.stats.statesGenerated,
    depth: v.stats.depth,
    warnings: [...v.warnings],
    fairness: [...v.fairness],
    properties: v.properties.map((p) => ({ name: p.name, kind: p.kind, statement: p.statement, status: p.status, vacuous: p.vacuous })),
    violations: v.violations.map((x) => ({
      property: x.property,
      trace: x.trace.map((step) => ({ action: step.action, events: eventsToJson(step.events), state: stateToJson(step.state) })),
      ...(x.loop !== undefined ? { loop: x.loop, loopAction: x.loopAction ?? null, loopEvents: eventsToJson(x.loopEvents) } : {}),
    })),
  };
  return variantManifest(json as unknown as Json);
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
  if (recorded.statements !== actual.statements) out.push(`${variant}: a property's kind or statement changed`);
  const before = out.length;
  for (const w of recorded.warnings) if (!actual.warnings.includes(w)) out.push(`${variant}: warning no longer given: ${w}`);
  for (const w of actual.warnings) if (!recorded.warnings.includes(w)) out.push(`${variant}: new warning: ${w}`);
  if (out.length === before && recorded.warnings.join('\n') !== actual.warnings.join('\n')) {
    out.push(`${variant}: the warnings come in another order`);
  }
  if (recorded.fairness.join('\n') !== actual.fairness.join('\n'))
    out.push(`${variant}: fairness ${recorded.fairness.join('; ')} -> ${actual.fairness.join('; ')}`);
  for (const x of actual.violations) {
    const r = recorded.violations.find((y) => y.property === x.property);
    if (r === undefined) continue; // the property's status line above says it
    if (r.states !== x.states || r.loop !== x.loop) {
      const shape = (y: VariantManifest['violations'][number]) =>
        `${y.states} states${y.loop === null ? '' : `, cycle from state ${y.loop + 1}`}`;
      out.push(`${variant}: ${x.property}'s counterexample ${shape(r)} -> ${shape(x)}`);
    } else if (r.trace !== x.trace) out.push(`${variant}: ${x.property}'s counterexample changed (same length, other steps or states)`);
  }
  return out;
}

/** The record a docs page keeps beside it (`docs/<model>.manifest.json`). */
export interface DocsManifest {
  /** The command that wrote the pages. */
  readonly generatedBy: string;
  /** Each page's file name (beside the record) and the digest of its text. */
  readonly pages: Readonly<Record<string, string>>;
  /** What the pages were made from: each input's digest (src/cli/docsInputs.ts). */
  readonly inputs: Readonly<Record<string, string>>;
  /** Each variant's results, by name, in the model's order. */
  readonly variants: Readonly<Record<string, VariantManifest>>;
}
