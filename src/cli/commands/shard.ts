// `modelcheck shard PLAN --index I`: runs one shard of a plan (scaleOut.ts) and writes its report.
// Made to be a Kubernetes Indexed Job's command: the index is $JOB_COMPLETION_INDEX when not
// given, the searches write checkpoints under the directory the Job mounts, a pod restarted
// after a preemption or a crash resumes from them, and one that finds its report written has
// nothing to do. Exit 0 once the report is written, whatever the verdicts (they are the merge's
// to judge: a Job must not retry a shard for finding a bug); 3 when a search was stopped before
// its end (its checkpoint kept); 2 for bad input.
import { Command, InvalidArgumentError } from 'commander';
import { Chalk } from 'chalk';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ModelError } from '../../engine/errors.ts';
import { stoppedEarly } from '../../engine/result.ts';
import { planCheckpoints } from '../checkpointDir.ts';
import { exitForFailure } from '../failure.ts';
import { EXIT, type ExitCode } from '../exitCodes.ts';
import { parseCommand } from '../parseCommand.ts';
import type { CliIo } from '../io.ts';
import { nonNegativeInt, nonNegativeNumber, positiveInt } from '../options.ts';
import type { RenderOptions } from '../render.ts';
import { inputsChanged, PLAN_FORMAT, planId, shardArgs, type Plan, type ShardReport } from '../scaleOut.ts';
import { writeWhole } from '../wholeFile.ts';
import { checkInWorkers, threadPlan } from '../workerPool.ts';

interface Options {
  index?: number;
  dir?: string;
  workers?: number;
  checkpointEvery: number;
  maxMemory?: number;
}

/** Where a shard's report goes in the plan's directory. */
export function reportFile(dir: string, index: number): string {
  return join(dir, `shard-${index}.json`);
}

/** Reads a plan file, or says why it is none. */
export function readPlan(file: string): Plan {
  let plan: Plan;
  try {
    plan = JSON.parse(readFileSync(file, 'utf8')) as Plan;
  } catch (e) {
    throw new ModelError('MC002_MODEL_LOAD_FAILED', `cannot read the plan ${file}: ${(e as Error).message}`, { model: file });
  }
  if (plan?.kind !== 'modelcheck-plan' || plan.format !== PLAN_FORMAT || !Array.isArray(plan.shards)) {
    throw new ModelError('MC002_MODEL_LOAD_FAILED', `${file} is not a plan of this modelcheck (format ${PLAN_FORMAT})`, {
      model: file,
      hint: 'write one with modelcheck plan MODEL --shards N --out FILE',
    });
  }
  return plan;
}

export async function runShard(argv: readonly string[], io: CliIo, env: NodeJS.ProcessEnv = process.env): Promise<ExitCode> {
  const cmd = new Command()
    .name('modelcheck shard')
    .description(
      "Run one shard of a plan (modelcheck plan) with checkpoints, and write its report beside the plan (shard-I.json) for 'modelcheck merge'. Run again, it resumes from its checkpoints, or does nothing if its report is written.",
    )
    .argument('<plan>', 'the plan file')
    .option('--index <i>', "the shard's index (default: $JOB_COMPLETION_INDEX, as a Kubernetes Indexed Job sets it)", nonNegativeInt)
    .option('--dir <dir>', "where the shard's checkpoints and report go (default: the plan's directory)")
    .option('--workers <n>', 'variants checked at once (default: the number of cores)', positiveInt)
    .option('--checkpoint-every <minutes>', 'the least time between two checkpoints of a search (0: at every level)', nonNegativeNumber, 10)
    .option(
      '--max-memory <MiB>',
      "stop, with a checkpoint, when the process's resident memory passes this many MiB (a pod's limit less a margin: a clean stop rather than an out-of-memory kill)",
      positiveInt,
    )
    .exitOverride()
    .configureOutput({ writeOut: () => undefined, writeErr: () => undefined });
  const parsed = parseCommand<Options>(cmd, argv, io, 'modelcheck shard', (o) => {
    if (o.index === undefined && env.JOB_COMPLETION_INDEX === undefined) {
      throw new InvalidArgumentError('give the shard with --index I, or run where $JOB_COMPLETION_INDEX is set');
    }
    if (o.index === undefined && !/^\d+$/.test(env.JOB_COMPLETION_INDEX ?? '')) {
      throw new InvalidArgumentError(`$JOB_COMPLETION_INDEX is ${JSON.stringify(env.JOB_COMPLETION_INDEX)}, not a shard's index`);
    }
  });
  if ('exit' in parsed) return parsed.exit;
  const { file, opts } = parsed;
  const chalk = new Chalk({ level: 0 });
  try {
    const plan = readPlan(file);
    const index = opts.index ?? Number(env.JOB_COMPLETION_INDEX);
    if (index >= plan.shards.length) {
      io.stderr(`modelcheck shard: the plan ${file} has ${plan.shards.length} shards (0 to ${plan.shards.length - 1}), not ${index}\n`);
      return EXIT.ERROR;
    }
    if (inputsChanged(plan)) {
      io.stderr(
        `modelcheck shard: the model's files or modelcheck itself changed since the plan ${file} was made; plan again (a report of another version must not be merged with this plan's)\n`,
      );
      return EXIT.ERROR;
    }
    const id = planId(plan);
    const dir = opts.dir ?? dirname(file);
    const out = reportFile(dir, index);
    if (existsSync(out) && (JSON.parse(readFileSync(out, 'utf8')) as ShardReport).planId === id) {
      io.stdout(`modelcheck shard: shard ${index} of ${file} is done already (${out})\n`);
      return EXIT.OK;
    }
    const variants = plan.shards[index];
    const started = performance.now();
    // A swarm's shard simulates, which takes no checkpoints: run again, it draws the same runs.
    const simulate = plan.swarm?.shards[index];
    // Of this plan's shard: another plan's in the same directory is not resumed.
    const checkpointDir = join(dir, `checkpoints-${id.slice(0, 8)}-${index}`);
    const resume = existsSync(join(checkpointDir, 'manifest.json'));
    const checkpoints =
      simulate === undefined
        ? planCheckpoints(checkpointDir, plan.model, shardArgs(plan, index), resume, opts.checkpointEvery * 60)
        : undefined;
    if (resume && simulate === undefined) io.stderr(`modelcheck shard: resuming shard ${index} from ${checkpointDir}\n`);
    const render: RenderOptions = {
      colorLevel: 0,
      trace: 'changes',
      coverage: false,
      json: true,
      itf: false,
      mermaid: false,
      modelFile: plan.model,
      docs: simulate === undefined,
    };
    const interrupt = new Int32Array(new SharedArrayBuffer(4));
    const stopInterrupt = io.onInterrupt?.(() => Atomics.store(interrupt, 0, 1));
    const { workers, threadsPerSearch } = threadPlan(opts.workers, variants.length, simulate !== undefined);
    const rendered =
      variants.length === 0
        ? []
        : await checkInWorkers(
            plan.model,
            variants,
            {
              params: plan.params,
              search: { storage: 'auto', interrupt, ...(opts.maxMemory !== undefined ? { maxMemoryMiB: opts.maxMemory } : {}) },
              render,
              ...(simulate !== undefined ? { simulate } : {}),
              ...(checkpoints !== undefined ? { checkpoint: checkpoints.forVariant } : {}),
            },
            workers,
            undefined,
            threadsPerSearch,
          ).finally(() => stopInterrupt?.());
    // (A variant's own bounds make an incomplete result, not a stopped search.)
    const stopped = rendered.filter((r) => stoppedEarly(r.summary.incompleteReason));
    if (stopped.length > 0) {
      const names = stopped.map((r) => `${r.summary.variant} (${r.summary.incompleteReason})`).join(', ');
      io.stderr(`modelcheck shard: shard ${index} did not finish: ${names}; run it again to resume from ${checkpointDir}\n`);
      return EXIT.INCOMPLETE;
    }
    const report: ShardReport = {
      format: PLAN_FORMAT,
      kind: 'modelcheck-shard',
      planId: id,
      plan,
      index,
      variants: rendered.map((r) => ({ name: r.summary.variant, json: r.json, summary: r.summary, manifest: r.docs?.manifest ?? null })),
      seconds: (performance.now() - started) / 1000,
    };
    // (Two pods of one index may run at once: each writes a file of its own, then renames it.)
    writeWhole(out, `${JSON.stringify(report)}\n`);
    // The report says all the checkpoints could: they would only fill the volume.
    rmSync(checkpointDir, { recursive: true, force: true });
    io.stdout(
      `modelcheck shard: shard ${index} of ${file}: ${variants.length} variant${variants.length === 1 ? '' : 's'} checked; wrote ${out}\n`,
    );
    return EXIT.OK;
  } catch (e) {
    return exitForFailure(e, io, file, chalk);
  }
}
