// Past one machine: a plan splits a run's variants (a matrix's rows, every variant of a model's
// docs, or the ones named) over N shards, each shard runs its share where it is given to run
// (a Kubernetes Indexed Job's pod, or a local process), and a merge joins the shards' reports
// into the report one machine's run gives. The cluster schedules; the checker plans and merges.
// Nothing here knows Kubernetes but the name of the variable an Indexed Job sets.
import { createHash } from 'node:crypto';
import { generator, runSeed, type SimulationDraw } from '../engine/search/simulate.ts';
import { existsSync, readFileSync } from 'node:fs';
import { selectVariants } from '../engine/check.ts';
import type { Model } from '../engine/model.ts';
import type { Json } from '../report/stateJson.ts';
import type { VariantSummary } from '../report/text.ts';
import { pageFiles } from '../report/docs.ts';
import { searchInputsDigest } from './sourceDigests.ts';
import type { DocsManifest, VariantManifest } from '../report/manifest.ts';

export const PLAN_FORMAT = 1;

/** Which variants a plan covers, as the single machine's command would choose them: its default run, a matrix's rows, or every variant (the docs run). */
export type Selection = { readonly kind: 'default' } | { readonly kind: 'matrix'; readonly matrix: string } | { readonly kind: 'all' };

export interface Plan {
  readonly format: number;
  readonly kind: 'modelcheck-plan';
  /** The model file, as the plan's command named it (shards run from the same working directory, as a Job's image does). */
  readonly model: string;
  readonly modelName: string;
  readonly params: readonly string[];
  /**
   * The digest of everything that decides results (sourceDigests.ts searchInputs): the model's
   * module and the local modules it imports, modelcheck's own code, comments aside, and
   * immutable.js's version, named by their paths from the model's folder and modelcheck's, so that
   * a plan made in one checkout holds in another (a Job's image). A shard or a merge where they
   * differ is refused: reports of two versions must not make one report.
   */
  readonly inputs: string;
  readonly selection: Selection;
  /** The command that gives the same report on one machine. */
  readonly single: string;
  /** Each variant in the single run's order, with its estimated cost: the states it generated in the last record, if any. */
  readonly work: readonly { readonly variant: string; readonly estimate: number | null }[];
  /** The variants of each shard (index = JOB_COMPLETION_INDEX); in a swarm, every shard's are all of them. */
  readonly shards: readonly (readonly string[])[];
  /** A swarm simulation: how each shard draws its random runs. */
  readonly swarm?: Swarm;
}

/**
 * A swarm simulation (SPIN's swarm: many small searches, each diversified, within one budget):
 * every shard simulates every variant of the plan, with a seed of its own, its share of the runs,
 * a depth bound of its own, and some of the avoidable actions (the faults) left out of its runs.
 */
export interface Swarm {
  readonly runs: number;
  readonly depth: number;
  readonly seed: number;
  /** The actions a shard may leave out of its runs. */
  readonly avoidable: readonly string[];
  readonly shards: readonly SwarmShard[];
}

/** A shard's draw (its avoided actions always listed, none for shard 0). */
export type SwarmShard = SimulationDraw & { readonly avoid: readonly string[] };

/**
 * Each shard's draw: its seed runSeed(seed, k + 1); the runs split evenly (rounded up); shard 0
 * the plain simulation (depth `depth`, nothing avoided), the others a depth of depth, half of it
 * or twice it in turn, and each avoidable action left out with odds of one half, drawn from the
 * shard's seed.
 */
export function swarmShards(runs: number, depth: number, seed: number, avoidable: readonly string[], n: number): SwarmShard[] {
  return Array.from({ length: n }, (_, k) => {
    const own = runSeed(seed, k + 1);
    const draw = generator(own);
    return {
      seed: own,
      runs: Math.ceil(runs / n),
      depth: k === 0 ? depth : [depth, Math.max(2, Math.ceil(depth / 2)), 2 * depth][k % 3],
      avoid: k === 0 ? [] : avoidable.filter(() => draw() < 0.5),
    };
  });
}

/** What a shard writes: its variants' results, as the single run's report holds them. */
export interface ShardReport {
  readonly format: number;
  readonly kind: 'modelcheck-shard';
  /** The plan's identity (planId): reports of different plans are never merged. */
  readonly planId: string;
  readonly plan: Plan;
  readonly index: number;
  readonly variants: readonly {
    readonly name: string;
    /** The variant's --json document. */
    readonly json: Json;
    readonly summary: VariantSummary;
    /** Its entry in the docs record (docs/<model>.manifest.json). */
    readonly manifest: VariantManifest | null;
  }[];
  readonly seconds: number;
}

/** The variants a selection chooses, in the order the single run checks them. */
export function selectedVariants(model: Model, s: Selection): string[] {
  switch (s.kind) {
    case 'default':
      return selectVariants(model).map((v) => v.name);
    case 'matrix':
      return selectVariants(model, undefined, s.matrix).map((v) => v.name);
    case 'all':
      return model.variants.map((v) => v.name);
  }
}

/** The single machine's command for a selection (with `simulate`: the one simulation a swarm stands for). */
export function singleCommand(file: string, s: Selection, params: readonly string[], simulate?: SimulationDraw): string {
  const p =
    params.map((x) => ` --param ${x}`).join('') +
    (simulate ? ` --simulate --runs ${simulate.runs} --depth ${simulate.depth} --seed ${simulate.seed}` : '');
  switch (s.kind) {
    case 'default':
      return `modelcheck ${file}${p} --json`;
    case 'matrix':
      return `modelcheck ${file} --matrix ${s.matrix}${p} --json`;
    case 'all':
      return `modelcheck docs ${file}`;
  }
}

/** The states each variant generated in the model's docs record (beside the model's page), where it has one. */
export function recordedCosts(file: string): Map<string, number> {
  const out = new Map<string, number>();
  const path = pageFiles(file).manifest;
  if (!existsSync(path)) return out;
  try {
    const record = JSON.parse(readFileSync(path, 'utf8')) as DocsManifest;
    for (const [name, v] of Object.entries(record.variants ?? {})) {
      if (typeof v?.statesGenerated === 'number') out.set(name, v.statesGenerated);
    }
  } catch {
    // No estimates: every variant costs alike.
  }
  return out;
}

/**
 * Balances the work over `n` shards: the longest first, each to the shard with the least so far
 * (the lowest index at a tie), each shard's variants then in the single run's order. A variant
 * without an estimate counts as the mean of those with one (1 if none has).
 */
export function balance(work: readonly { variant: string; estimate: number | null }[], n: number): string[][] {
  const known = work.map((w) => w.estimate).filter((e): e is number => e !== null);
  const mean = known.length > 0 ? known.reduce((a, b) => a + b, 0) / known.length : 1;
  const cost = work.map((w) => w.estimate ?? mean);
  const order = work.map((_, i) => i).sort((a, b) => cost[b] - cost[a] || a - b);
  const load = new Array<number>(n).fill(0);
  const assigned: number[][] = Array.from({ length: n }, () => []);
  for (const i of order) {
    let best = 0;
    for (let k = 1; k < n; k++) if (load[k] < load[best]) best = k;
    load[best] += cost[i];
    assigned[best].push(i);
  }
  return assigned.map((list) => list.sort((a, b) => a - b).map((i) => work[i].variant));
}

/** A plan's identity: the digest of its contents. */
/** Whether the files that decide results are no longer those the plan was made from. */
export function inputsChanged(plan: Plan): boolean {
  return searchInputsDigest(plan.model) !== plan.inputs;
}

export function planId(plan: Plan): string {
  return createHash('sha256').update(JSON.stringify(plan)).digest('hex').slice(0, 16);
}

/** The arguments that decide a shard's results, as a checkpoint's manifest records them. */
export function shardArgs(plan: Plan, index: number): string[] {
  return [...plan.params.flatMap((p) => ['--param', p]), '--shard', String(index), ...plan.shards[index].flatMap((v) => ['--variant', v])];
}

/** A variant's --json document, as far as a swarm's merge reads and writes it. */
interface VariantJson {
  readonly name: string;
  readonly expectedViolations: readonly string[];
  readonly distinctStates: number;
  readonly statesGenerated: number;
  readonly depth: number;
  readonly seconds: number;
  readonly properties: readonly { readonly name: string; readonly status: string; readonly vacuous: boolean }[];
  readonly violations: readonly { readonly property: string; readonly trace: readonly unknown[] }[];
  readonly simulation: {
    readonly runs: number;
    readonly depth: number;
    readonly seed: number;
    readonly runsDone: number;
    readonly foundIn: Readonly<Record<string, number>>;
  };
  readonly warnings: readonly string[];
  readonly coverage: readonly { readonly action: string; readonly enabled: number; readonly newStates: number }[];
}

/**
 * One variant's swarm, its shards' simulations (in shard order) joined: of each property's
 * violations the shortest (the first shard's among equals), and what each shard tried (its seed,
 * runs, depth, the actions it avoided, what it found). States are counted per shard and summed:
 * a state two shards saw counts twice (`distinctStates` is the shards' sum, said in `swarm`), and
 * so is each action's coverage: an action with no successor in the merge was never enabled in any
 * shard's runs, and a shard's own figures say which shard exercised it (`swarm[k].coverage`).
 */
export function mergeSwarm(
  plan: Plan,
  shards: readonly { json: Json; summary: VariantSummary }[],
): { json: Json; summary: VariantSummary } {
  const docs = shards.map((s) => s.json as unknown as VariantJson);
  const base = docs[0];
  const chosen = new Map<string, { violation: VariantJson['violations'][number]; shard: number }>();
  docs.forEach((d, k) => {
    for (const v of d.violations) {
      const old = chosen.get(v.property);
      if (old === undefined || v.trace.length < old.violation.trace.length) chosen.set(v.property, { violation: v, shard: k });
    }
  });
  // In the order the variant reports its properties (deadlock among them).
  const order = [...base.properties.map((p) => p.name), ...[...chosen.keys()].filter((n) => !base.properties.some((p) => p.name === n))];
  const violated = order.filter((n) => chosen.has(n));
  const expected = base.expectedViolations;
  const metExpectations = violated.length === expected.length && expected.every((n) => violated.includes(n));
  const sum = (f: (d: VariantJson) => number) => docs.reduce((n, d) => n + f(d), 0);
  const swarm = plan.swarm!;
  const json = {
    ...base,
    verdict: violated.length > 0 ? 'violated' : 'incomplete',
    metExpectations,
    distinctStates: sum((d) => d.distinctStates),
    statesGenerated: sum((d) => d.statesGenerated),
    depth: Math.max(...docs.map((d) => d.depth)),
    seconds: sum((d) => d.seconds),
    statesPerSecond: sum((d) => d.seconds) > 0 ? sum((d) => d.distinctStates) / sum((d) => d.seconds) : sum((d) => d.distinctStates),
    properties: base.properties.map((p) => ({ ...p, status: chosen.has(p.name) ? 'violated' : 'unknown' })),
    violations: violated.map((n) => chosen.get(n)!.violation),
    simulation: {
      runs: sum((d) => d.simulation.runs),
      depth: Math.max(...docs.map((d) => d.simulation.depth)),
      seed: swarm.seed,
      runsDone: sum((d) => d.simulation.runsDone),
      // The run of the shard whose violation is reported (swarm[shard].seed repeats it).
      foundIn: Object.fromEntries(violated.map((n) => [n, docs[chosen.get(n)!.shard].simulation.foundIn[n]])),
    },
    warnings: [...new Set(docs.flatMap((d) => d.warnings))],
    // By action name: every shard loaded the plan's model with its parameters (the inputs are
    // checked), so each has the same actions, but the names say which figure is whose.
    coverage: base.coverage.map((c) => ({
      action: c.action,
      enabled: sum((d) => d.coverage.find((x) => x.action === c.action)?.enabled ?? 0),
      newStates: sum((d) => d.coverage.find((x) => x.action === c.action)?.newStates ?? 0),
    })),
    swarm: docs.map((d, k) => ({
      shard: k,
      seed: swarm.shards[k].seed,
      runs: d.simulation.runs,
      runsDone: d.simulation.runsDone,
      depth: d.simulation.depth,
      avoid: [...swarm.shards[k].avoid],
      distinctStates: d.distinctStates,
      violated: d.violations.map((v) => v.property),
      reported: violated.filter((n) => chosen.get(n)!.shard === k),
      coverage: d.coverage,
    })),
  };
  const s = shards[0].summary;
  const summary: VariantSummary = {
    ...s,
    verdict: violated.length > 0 ? 'violated' : 'incomplete',
    violated,
    metExpectations,
    distinctStates: json.distinctStates,
    depth: json.depth,
    properties: s.properties.map((p) => ({ ...p, status: chosen.has(p.name) ? 'violated' : 'unknown' })),
  };
  return { json: json as unknown as Json, summary };
}
