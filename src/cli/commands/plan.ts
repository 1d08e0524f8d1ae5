// `modelcheck plan <model> --shards N`: the work list of a run split over N shards (scaleOut.ts),
// written as JSON for `modelcheck shard` and `modelcheck merge`.
import { Command, InvalidArgumentError } from 'commander';
import { Chalk } from 'chalk';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { exitForFailure } from '../failure.ts';
import { EXIT, type ExitCode } from '../exitCodes.ts';
import { loadModel } from '../loadModel.ts';
import { parseCommand } from '../parseCommand.ts';
import type { CliIo } from '../io.ts';
import { positiveInt } from '../options.ts';
import { jobManifest } from '../jobManifest.ts';
import { balance, PLAN_FORMAT, planId, recordedCosts, selectedVariants, singleCommand, type Plan, type Selection } from '../scaleOut.ts';

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
    .exitOverride()
    .configureOutput({ writeOut: () => undefined, writeErr: () => undefined });
  const parsed = parseCommand<Options>(cmd, argv, io, 'modelcheck plan', (o) => {
    if (o.matrix !== undefined && o.all === true)
      throw new InvalidArgumentError('--matrix and --all each choose the variants: give one of them');
    if (o.all === true && o.param.length > 0) throw new InvalidArgumentError('--all plans the docs run, which sets no parameters');
  });
  if ('exit' in parsed) return parsed.exit;
  const { file, opts } = parsed;
  try {
    const model = await loadModel(file, opts.param);
    const selection: Selection =
      opts.matrix !== undefined ? { kind: 'matrix', matrix: opts.matrix } : opts.all ? { kind: 'all' } : { kind: 'default' };
    const names = selectedVariants(model, selection);
    const costs = recordedCosts(file);
    const work = names.map((variant) => ({ variant, estimate: costs.get(variant) ?? null }));
    const plan: Plan = {
      format: PLAN_FORMAT,
      kind: 'modelcheck-plan',
      model: file,
      modelName: model.name,
      params: opts.param,
      selection,
      single: singleCommand(file, selection, opts.param),
      work,
      shards: balance(work, opts.shards),
    };
    const text = `${JSON.stringify(plan, null, 2)}\n`;
    if (opts.emitJob !== undefined) {
      const manifest = jobManifest(plan, planId(plan), { image: opts.image, claim: opts.claim, cpu: opts.cpu, memoryGiB: opts.memory });
      mkdirSync(dirname(resolve(opts.emitJob)), { recursive: true });
      writeFileSync(opts.emitJob, `${JSON.stringify(manifest, null, 2)}\n`);
    }
    if (opts.out === undefined) io.stdout(text);
    else {
      mkdirSync(dirname(resolve(opts.out)), { recursive: true });
      writeFileSync(opts.out, text);
      const loads = plan.shards.map((s) => s.length);
      io.stderr(`modelcheck plan: wrote ${opts.out}: ${names.length} variants over ${opts.shards} shards (${loads.join(', ')} each)\n`);
    }
    return EXIT.OK;
  } catch (e) {
    return exitForFailure(e, io, file, new Chalk({ level: 0 }));
  }
}
