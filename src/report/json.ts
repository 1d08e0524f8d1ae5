// The --json document. Field names here are a public contract: they keep their names.
import { isList, isMap, isOrdered, isRecord, isSet } from 'immutable';
import type { ModelResult, VariantResult } from '../engine/result.ts';
import type { StepEvent } from '../engine/model.ts';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/**
 * A state value as JSON: Records and Maps become objects (keys as strings), Lists and Sets
 * arrays. Unordered Sets and Maps are written in sorted order, so equal states print equally.
 */
export function stateToJson(v: unknown): Json {
  if (v === null || typeof v === 'boolean' || typeof v === 'number' || typeof v === 'string') return v;
  if (isRecord(v)) {
    const out: { [key: string]: Json } = {};
    for (const [k, x] of v.toSeq().entries()) out[String(k)] = stateToJson(x);
    return out;
  }
  if (isMap(v)) {
    const entries = [...v.entries()].map(([k, x]) => [typeof k === 'string' ? k : JSON.stringify(stateToJson(k)), stateToJson(x)] as const);
    if (!isOrdered(v)) entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return Object.fromEntries(entries);
  }
  if (isList(v)) return [...v].map(stateToJson);
  if (isSet(v)) {
    const items = [...v].map(stateToJson);
    if (!isOrdered(v)) items.sort((a, b) => cmp(JSON.stringify(a), JSON.stringify(b)));
    return items;
  }
  return String(v);
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export function variantToJson(v: VariantResult): Json {
  return {
    name: v.variant,
    description: v.description ?? null,
    assumptions: [...v.assumptions],
    verdict: v.verdict,
    incompleteReason: v.incompleteReason ?? null,
    expectedViolations: [...v.expectedViolations],
    metExpectations: v.metExpectations,
    distinctStates: v.stats.distinctStates,
    statesGenerated: v.stats.statesGenerated,
    depth: v.stats.depth,
    seconds: v.stats.seconds,
    livenessSeconds: v.stats.livenessSeconds ?? null,
    statesPerSecond: v.stats.statesPerSecond,
    threads: v.stats.threads?.used ?? 1,
    storedBytes: v.stats.storedBytes,
    collisionProbability: v.stats.collisionProbability,
    exact: v.stats.exact ? { collisions: v.stats.exact.collisions, bytes: v.stats.exact.bytes } : null,
    symmetry: v.stats.symmetry ? { ...v.stats.symmetry } : null,
    simulation: v.simulation ? { ...v.simulation, foundIn: { ...v.simulation.foundIn } } : null,
    bounds: {
      maxStates: v.bounds.maxStates ?? null,
      maxDepth: v.bounds.maxDepth ?? null,
      timeoutSeconds: v.bounds.timeoutSeconds ?? null,
      maxMemoryMiB: v.bounds.maxMemoryMiB ?? null,
    },
    checkedDeadlock: v.checkedDeadlock,
    fairness: [...v.fairness],
    warnings: [...v.warnings],
    properties: v.properties.map((p) => ({
      name: p.name,
      kind: p.kind,
      statement: p.statement,
      status: p.status,
      expectedViolated: p.expectedViolated,
      premiseStates: p.premiseStates ?? null,
      vacuous: p.vacuous,
    })),
    coverage: v.stats.coverage.map((c) => ({ action: c.action, enabled: c.enabled, newStates: c.newStates })),
    violations: v.violations.map((x) => ({
      property: x.property,
      kind: x.kind,
      statement: x.statement,
      trace: x.trace.map((step) => ({ action: step.action, events: eventsToJson(step.events), state: stateToJson(step.state) })),
      // A lasso: the index of the cycle's first state, and the step back to it (null: stuttering).
      ...(x.loop !== undefined ? { loop: x.loop, loopAction: x.loopAction ?? null, loopEvents: eventsToJson(x.loopEvents) } : {}),
    })),
  };
}

/** What a step told of itself: requests with their answers, and notes. */
function eventsToJson(events: readonly StepEvent[] | undefined): Json {
  return (events ?? []).map(
    (e): Json =>
      e.kind === 'request'
        ? { kind: 'request', from: e.from ?? null, to: e.to, request: e.request, answer: e.answer, ok: e.ok }
        : { kind: 'note', over: e.over ? [...e.over] : null, text: e.text },
  );
}

export function resultToJson(r: ModelResult): Json {
  return { model: r.model, description: r.description ?? null, variants: r.variants.map(variantToJson) };
}
