// `modelcheck plan <model> --shards N`: the work list of a run split over N shards (scaleOut.ts),
// written as JSON for `modelcheck shard` and `modelcheck merge`.
import { Command, InvalidArgumentError } from 'commander';
import { Chalk } from 'chalk';
import { exitForFailure } from '../failure.ts';
import { EXIT, type ExitCode } from '../exitCodes.ts';
import { loadModel } from '../loadModel.ts';
import { parseCommand } from '../parseCommand.ts';
import type { CliIo } from '../io.ts';
import { nonNegativeInt, positiveInt } from '../options.ts';
import { jobManifest } from '../jobManifest.ts';
import {
  balance,
  PLAN_FORMAT,
  planId,
  recordedCosts,
  selectedVariants,
  singleCommand,
  swarmShards,
  type Plan,
  type Selection,
} from '../scaleOut.ts';
import { searchInputsDigest } from '../sourceDigests.ts';
import { writeWhole } from '../wholeFile.ts';
import { typecheckModelFiles } from '../workerPool.ts';
import { randomSeed, typeError } from './check.ts';

interface Options {
  matrix?: string;
  all?: boolean;
  param: string[];
  shards: number;
  out?: string;
  emitJob?: string;
  image: string;
  claim: string;
  cpu: number;
  memory: number;
  typecheck: boolean;
  simulate?: boolean;
  runs: number;
  depth: number;
  seed?: number;
  avoidSome: string[];
}

export async function runPlan(argv: readonly string[], io: CliIo): Promise<ExitCode> {
  const cmd = new Command()
    .name('modelcheck plan')
    .description(
      "Split a run's variants over N shards, balanced by the states each generated in the model's docs record, and write the plan as JSON: run each shard with 'modelcheck shard PLAN --index I' (a Kubernetes Indexed Job sets $JOB_COMPLETION_INDEX), join their reports with 'modelcheck merge'.",
    )
    .argument('<model>', 'the model file')
    .option('--matrix <name>', "the rows of this matrix (the variants 'modelcheck MODEL --matrix NAME' checks)")
    .option('--all', "every variant (the ones 'modelcheck docs MODEL' checks; default: those 'modelcheck MODEL' checks)")
    .option('--param <name=value>', "set one of the model's parameters (repeat for several)", (v: string, all: string[]) => [...all, v], [])
    .requiredOption('--shards <n>', 'how many shards', positiveInt)
    .option('--out <file>', 'write the plan here (default: stdout)')
    .option(
      '--emit-job <file>',
      'also write the Kubernetes objects that run the plan (a ConfigMap with it, an Indexed Job of one pod per shard) as JSON for kubectl apply -f',
    )
    .option('--image <ref>', 'with --emit-job: the image with Node and the project (deploy/kubernetes/Containerfile)', 'modelcheck:latest')
    .option('--claim <name>', "with --emit-job: the PersistentVolumeClaim for the shards' checkpoints and reports", 'modelcheck-runs')
    .option('--cpu <n>', "with --emit-job: each shard's cores (its search threads)", positiveInt, 2)
    .option('--memory <GiB>', "with --emit-job: each shard's memory", positiveInt, 8)
    .option(
      '--no-typecheck',
      'plan without type-checking the model first (a shard reports what the model does, not what the compiler says)',
    )
    .option(
      '--simulate',
      'a swarm simulation: every shard draws random runs of every variant, each shard diversified (its seed, depth and the actions it avoids)',
    )
    .option('--runs <n>', 'with --simulate: the runs of each variant, shared among the shards', positiveInt, 1000)
    .option('--depth <n>', 'with --simulate: the most states in one run (shards vary it: half, the same, twice)', positiveInt, 100)
    .option(
      '--seed <n>',
      'with --simulate: the seed the shards draw theirs from (default: a random one, recorded in the plan)',
      nonNegativeInt,
    )
    .option(
      '--avoid-some <actions>',
      'with --simulate: actions (the faults, comma-separated) each shard but the first leaves out of its runs with odds of one half',
      (v: string, all: string[]) => [...all, ...v.split(',').filter((x) => x !== '')],
      [],
    )
    .exitOverride()
    .configureOutput({ writeOut: () => undefined, writeErr: () => undefined });
  const parsed = parseCommand<Options>(cmd, argv, io, 'modelcheck plan', (o) => {
    if (!o.simulate && (o.seed !== undefined || o.avoidSome.length > 0))
      throw new InvalidArgumentError('--seed and --avoid-some are for --simulate');
    if (o.matrix !== undefined && o.all === true)
      throw new InvalidArgumentError('--matrix and --all each choose the variants: give one of them');
    if (o.all === true && o.param.length > 0) throw new InvalidArgumentError('--all plans the docs run, which sets no parameters');
  });
  if ('exit' in parsed) return parsed.exit;
  const { file, opts } = parsed;
  try {
    const model = await loadModel(file, opts.param);
    // A plan of a model the compiler rejects would merge into a report one machine refuses to give.
    const errors = opts.typecheck ? await typecheckModelFiles(file) : [];
    if (errors.length > 0) throw typeError(file, model.name, errors);
    const selection: Selection =
      opts.matrix !== undefined ? { kind: 'matrix', matrix: opts.matrix } : opts.all ? { kind: 'all' } : { kind: 'default' };
    const names = selectedVariants(model, selection);
    const unknown = opts.avoidSome.filter(
      (a) => !model.variants.some((v) => names.includes(v.name) && v.actions.some((x) => x.name === a)),
    );
    if (unknown.length > 0) {
      io.stderr(`modelcheck plan: no variant planned has an action ${unknown.join(', ')} (--avoid-some names actions)\n`);
      return EXIT.ERROR;
    }
    const costs = recordedCosts(file);
    const work = names.map((variant) => ({ variant, estimate: opts.simulate ? null : (costs.get(variant) ?? null) }));
    // More shards than variants would leave pods with nothing to do (a swarm's shards each run every variant).
    const shards = opts.simulate ? opts.shards : Math.min(opts.shards, names.length);
    if (shards < opts.shards) io.stderr(`modelcheck plan: ${names.length} variants make ${shards} shards, not ${opts.shards}\n`);
    const seed = opts.seed ?? randomSeed();
    const plan: Plan = {
      format: PLAN_FORMAT,
      kind: 'modelcheck-plan',
      model: file,
      modelName: model.name,
      params: opts.param,
      inputs: searchInputsDigest(file),
      selection,
      single: singleCommand(file, selection, opts.param, opts.simulate ? { runs: opts.runs, depth: opts.depth, seed } : undefined),
      work,
      shards: opts.simulate ? Array.from({ length: shards }, () => names) : balance(work, shards),
      ...(opts.simulate
        ? {
            swarm: {
              runs: opts.runs,
              depth: opts.depth,
              seed,
              avoidable: opts.avoidSome,
              shards: swarmShards(opts.runs, opts.depth, seed, opts.avoidSome, shards),
            },
          }
        : {}),
    };
    const text = `${JSON.stringify(plan, null, 2)}\n`;
    if (opts.emitJob !== undefined) {
      const manifest = jobManifest(plan, planId(plan), { image: opts.image, claim: opts.claim, cpu: opts.cpu, memoryGiB: opts.memory });
      writeWhole(opts.emitJob, `${JSON.stringify(manifest, null, 2)}\n`);
    }
    if (opts.out === undefined) io.stdout(text);
    else {
      writeWhole(opts.out, text);
      const loads = plan.shards.map((s) => s.length);
      io.stderr(
        `modelcheck plan: wrote ${opts.out}: ${names.length} variant${names.length === 1 ? '' : 's'} over ${shards} shard${shards === 1 ? '' : 's'} (${loads.join(', ')} each)\n`,
      );
    }
    return EXIT.OK;
  } catch (e) {
    return exitForFailure(e, io, file, new Chalk({ level: 0 }));
  }
}
