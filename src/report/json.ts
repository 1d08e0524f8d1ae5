// The --json document. Field names here are a public contract: they keep their names.
import type { ModelResult, VariantResult, Violation } from '../engine/result.ts';
import { eventsToJson, stateToJson, type Json } from './stateJson.ts';

export { stateToJson, type Json };

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
    frontier: v.stats.frontier ? { ...v.stats.frontier } : null,
    collisionProbability: v.stats.collisionProbability,
    exact: v.stats.exact ? { collisions: v.stats.exact.collisions, bytes: v.stats.exact.bytes } : null,
    symmetry: v.stats.symmetry ? { ...v.stats.symmetry } : null,
    simulation: v.simulation
      ? {
          runs: v.simulation.runs,
          depth: v.simulation.depth,
          seed: v.simulation.seed,
          runsDone: v.simulation.runsDone,
          foundIn: { ...v.simulation.foundIn },
          ...(v.simulation.avoid !== undefined ? { avoid: [...v.simulation.avoid] } : {}),
        }
      : null,
    bounds: {
      maxStates: v.bounds.maxStates ?? null,
      maxDepth: v.bounds.maxDepth ?? null,
      timeoutSeconds: v.bounds.timeoutSeconds ?? null,
      maxMemoryMiB: v.bounds.maxMemoryMiB ?? null,
      ...(v.bounds.stateConstraint ? { stateConstraint: true } : {}),
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
      vacuity: p.vacuity ?? null,
    })),
    coverage: v.stats.coverage.map((c) => ({ action: c.action, enabled: c.enabled, newStates: c.newStates })),
    violations: v.violations.map(violationToJson),
  };
}

/** One counterexample as the JSON report writes it. */
export function violationToJson(x: Violation): Json {
  return {
    property: x.property,
    kind: x.kind,
    statement: x.statement,
    trace: x.trace.map((step) => ({ action: step.action, events: eventsToJson(step.events), state: stateToJson(step.state) })),
    // A lasso: the index of the cycle's first state, the step back to it (null: stuttering), and what fairness finds on it.
    ...(x.loop !== undefined
      ? {
          loop: x.loop,
          loopAction: x.loopAction ?? null,
          loopEvents: eventsToJson(x.loopEvents),
          cycleFairness: {
            taken: [...(x.cycleFairness?.taken ?? [])],
            idle: (x.cycleFairness?.idle ?? []).map((i) => ({ step: i.step, how: i.how, state: i.state })),
          },
        }
      : {}),
  };
}

export function resultToJson(r: ModelResult): Json {
  return modelJson({ name: r.model, description: r.description }, r.variants.map(variantToJson), []);
}

/**
 * The whole --json document from its parts: the model, its variants' documents in the model's
 * order, and its matrices' tables (matrixJson.ts). One machine's run and a merge of shards both
 * make it here, so that the two cannot drift apart.
 */
export function modelJson(
  model: { readonly name: string; readonly description?: string; readonly parameterValues?: Readonly<Record<string, number>> },
  variants: readonly Json[],
  matrices: readonly Json[],
): Json {
  return {
    model: model.name,
    description: model.description ?? null,
    ...(model.parameterValues ? { parameters: model.parameterValues } : {}),
    variants: [...variants],
    ...(matrices.length > 0 ? { matrices: [...matrices] } : {}),
  };
}
