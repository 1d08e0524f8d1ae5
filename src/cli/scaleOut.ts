// Past one machine: a plan splits a run's variants (a matrix's rows, every variant of a model's
// docs, or the ones named) over N shards, each shard runs its share where it is given to run
// (a Kubernetes Indexed Job's pod, or a local process), and a merge joins the shards' reports
// into the report one machine's run gives. The cluster schedules; the checker plans and merges.
// Nothing here knows Kubernetes but the name of the variable an Indexed Job sets.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { selectVariants } from '../engine/check.ts';
import type { Model } from '../engine/model.ts';
import type { Json } from '../report/stateJson.ts';
import type { VariantSummary } from '../report/text.ts';
import { pageFiles } from '../report/docs.ts';
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
  readonly selection: Selection;
  /** The command that gives the same report on one machine. */
  readonly single: string;
  /** Each variant in the single run's order, with its estimated cost: the states it generated in the last record, if any. */
  readonly work: readonly { readonly variant: string; readonly estimate: number | null }[];
  /** The variants of each shard (index = JOB_COMPLETION_INDEX). */
  readonly shards: readonly (readonly string[])[];
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

/** The single machine's command for a selection. */
export function singleCommand(file: string, s: Selection, params: readonly string[]): string {
  const p = params.map((x) => ` --param ${x}`).join('');
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
export function planId(plan: Plan): string {
  return createHash('sha256').update(JSON.stringify(plan)).digest('hex').slice(0, 16);
}

/** The arguments that decide a shard's results, as a checkpoint's manifest records them. */
export function shardArgs(plan: Plan, index: number): string[] {
  return [...plan.params.flatMap((p) => ['--param', p]), '--shard', String(index), ...plan.shards[index].flatMap((v) => ['--variant', v])];
}
