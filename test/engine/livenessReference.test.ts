// Liveness checking compared with a brute-force reference on thousands of small random models
// (test/helpers/livenessReference.ts), with fixed seeds so that every run checks the same ones.
//
// The reference is independent of src/engine/search/liveness.ts: it enumerates every subset of the
// reachable states as a candidate cycle and tests it directly for strong connection, fairness and
// violation, where the checker finds Tarjan components and refines them for strong fairness
// (Streett conditions), then builds one cycle inside. For each property the two must agree on the
// verdict, and each lasso the checker reports must be real, fair, violating and of the shortest
// prefix. A failure names the seed: generate(seed, options) rebuilds that model.
//
// With a state constraint, the reference reads fairness as TLC does (a group is enabled by a step
// out of the constraint too) and the checker must also say which verdicts rest on the constraint:
// a property that holds while no fair behaviour stays inside it is vacuous, and one that holds
// only because the constrained graph read alone would break it is warned of (issue 52).
import { describe, expect, it } from 'vitest';
import { checkVariant, type VariantResult } from 'modelcheck';
import {
  SHAPES,
  cut,
  fairCycles,
  generate,
  lassoProblems,
  propertyName,
  shortestViolation,
  variantOf,
  withDistinctParameters,
  type GenerateOptions,
  type RandomModel,
} from '../helpers/livenessReference.ts';

interface Summary {
  models: number;
  properties: number;
  /** `shape:holds` / `shape:violated` -> count, by the reference. */
  verdicts: Record<string, number>;
  /** Properties whose verdict would change without fairness, with strong made weak, with
   * per-parameter made one constraint, or with parameter values made distinct per action. */
  decisive: { fairness: number; strong: number; perParameter: number; sharedValues: number };
  selfLoopModels: number;
  multipleInitModels: number;
  /** With a state constraint: properties that hold vacuously (no fair behaviour), and that hold only because of it. */
  constrained: { vacuous: number; decided: number };
  problems: string[];
}

function compare(firstSeed: number, count: number, options: GenerateOptions): Summary {
  const sum: Summary = {
    models: 0,
    properties: 0,
    verdicts: {},
    decisive: { fairness: 0, strong: 0, perParameter: 0, sharedValues: 0 },
    selfLoopModels: 0,
    multipleInitModels: 0,
    constrained: { vacuous: 0, decided: 0 },
    problems: [],
  };
  for (let seed = firstSeed; seed < firstSeed + count; seed++) {
    const m = generate(seed, options);
    sum.models++;
    if (m.init.length > 1) sum.multipleInitModels++;
    if (m.actions.some((a) => a.next.some((row) => row.some((t, s) => t === s)))) sum.selfLoopModels++;
    let r: VariantResult<number>;
    try {
      r = checkVariant(variantOf(m));
    } catch (e) {
      sum.problems.push(`seed ${seed}: the checker threw ${(e as Error).message}`);
      continue;
    }
    if (r.verdict === 'incomplete') sum.problems.push(`seed ${seed}: incomplete search`);
    const cycles = fairCycles(m);
    const variants = alternatives(m).map(([k, alt]) => [k, alt, fairCycles(alt)] as const);
    const graphOnly = cut(m);
    const graphCycles = fairCycles(graphOnly);
    m.properties.forEach((prop, i) => {
      const name = propertyName(m, i);
      const shortest = shortestViolation(m, prop, cycles);
      const holds = shortest === undefined;
      sum.properties++;
      const verdict = `${prop.shape}:${holds ? 'holds' : 'violated'}`;
      sum.verdicts[verdict] = (sum.verdicts[verdict] ?? 0) + 1;
      for (const [k, alt, c] of variants) if ((shortestViolation(alt, alt.properties[i], c) === undefined) !== holds) sum.decisive[k]++;
      const status = r.properties.find((x) => x.name === name)?.status;
      const v = r.violations.find((x) => x.property === name);
      if (status !== (holds ? 'holds' : 'violated'))
        sum.problems.push(`seed ${seed} ${name}: reference ${holds ? 'holds' : 'violated'}, checker ${status}`);
      if (status === 'violated' && !v) sum.problems.push(`seed ${seed} ${name}: violated with no lasso`);
      if (status === 'holds' && v) sum.problems.push(`seed ${seed} ${name}: holds but has a lasso`);
      if (v) for (const p of lassoProblems(m, prop, v, shortest)) sum.problems.push(`seed ${seed} ${name}: ${p}`);
      // What rests on the constraint: no fair behaviour at all, or a violation only on the graph read alone.
      const vacuous = holds && cycles.length === 0;
      const decided = holds && !vacuous && shortestViolation(graphOnly, graphOnly.properties[i], graphCycles) !== undefined;
      if (vacuous) sum.constrained.vacuous++;
      if (decided) sum.constrained.decided++;
      const said = {
        // (A leadsTo whose premise never holds is vacuous for that reason first: the warning says both.)
        vacuous: r.warnings.some((w) => w.startsWith(`${name} holds only vacuously: no fair behaviour stays inside the state constraint`)),
        decided: r.warnings.some((w) => w.startsWith(`${name} holds only because of the state constraint`)),
      };
      if (said.vacuous !== vacuous || said.decided !== decided)
        sum.problems.push(`seed ${seed} ${name}: reference ${JSON.stringify({ vacuous, decided })}, checker ${JSON.stringify(said)}`);
    });
  }
  return sum;
}

/** The model with one feature of its fairness taken away, where it has that feature. */
function alternatives(m: RandomModel): [keyof Summary['decisive'], RandomModel][] {
  const out: [keyof Summary['decisive'], RandomModel][] = [];
  if (m.fairness.length > 0) out.push(['fairness', { ...m, fairness: [] }]);
  if (m.fairness.some((f) => f.kind === 'strong')) {
    out.push(['strong', { ...m, fairness: m.fairness.map((f) => ({ ...f, kind: 'weak' as const })) }]);
  }
  if (m.fairness.some((f) => f.perParameter)) {
    out.push(['perParameter', { ...m, fairness: m.fairness.map((f) => ({ ...f, perParameter: false })) }]);
    out.push(['sharedValues', withDistinctParameters(m)]);
  }
  return out;
}

function expectAgreement(sum: Summary, models: number) {
  // Few enough to read: the first failures and how many there are.
  expect({ problems: sum.problems.length, first: sum.problems.slice(0, 20) }).toEqual({ problems: 0, first: [] });
  expect(sum.models).toBe(models);
  expect(sum.properties).toBe(models * SHAPES.length);
  for (const shape of SHAPES) {
    expect(sum.verdicts[`${shape}:holds`], `${shape} holds somewhere`).toBeGreaterThan(0);
    expect(sum.verdicts[`${shape}:violated`], `${shape} is violated somewhere`).toBeGreaterThan(0);
  }
  expect(sum.decisive.fairness, 'fairness decides some verdicts').toBeGreaterThan(0);
}

describe('liveness agrees with a brute-force reference on random small models', () => {
  it('mixed: weak and strong, per group and per parameter, 0 to 3 constraints', () => {
    const sum = compare(1, 800, {});
    expectAgreement(sum, 800);
    expect(sum.decisive.strong).toBeGreaterThan(0);
    expect(sum.decisive.perParameter).toBeGreaterThan(0);
  });

  it('strong fairness: 2 to 4 constraints, mostly strong, on denser graphs', () => {
    const sum = compare(100_001, 400, { fairness: [2, 4], weak: 0.2, density: [0.3, 0.9], maxActions: 4 });
    expectAgreement(sum, 400);
    // Verdicts that weak fairness in its place would change.
    expect(sum.decisive.strong).toBeGreaterThan(20);
  });

  it('per-parameter fairness: instances are parameter values, shared by the actions of a group', () => {
    const sum = compare(200_001, 400, { fairness: [1, 3], perParameter: 0.9, maxParams: 4, density: [0.4, 0.9], maxActions: 4 });
    expectAgreement(sum, 400);
    expect(sum.decisive.perParameter).toBeGreaterThan(30);
    // Verdicts that change when each action gets parameter values of its own: these hold only
    // because two actions of a group share a value, or fail only because they do.
    expect(sum.decisive.sharedValues).toBeGreaterThan(0);
  });

  it('a state constraint: fairness enabled by steps out of it, as TLC reads ENABLED; vacuous and constraint-decided verdicts said', () => {
    const sum = compare(400_001, 600, { outside: 0.3, fairness: [1, 3], maxInit: 3 });
    expectAgreement(sum, 600);
    expect(sum.constrained.vacuous).toBeGreaterThan(0);
    expect(sum.constrained.decided).toBeGreaterThan(0);
  });

  it('self-loops and several initial states: a self-loop is stuttering, neither enabling nor taking a group', () => {
    const sum = compare(300_001, 400, { selfLoops: 0.4, maxInit: 4, fairness: [1, 3] });
    expectAgreement(sum, 400);
    expect(sum.selfLoopModels).toBeGreaterThan(300);
    expect(sum.multipleInitModels).toBeGreaterThan(200);
  });
});
