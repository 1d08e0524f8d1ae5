// The commands other than the default one (a check of a model file): each one's module, loaded
// only when it is named (a check does not wait for the modules they import), and whether the
// search thread bin/modelcheck.js may start before the CLI loads (earlyWorker.ts) is for it. One
// table, so that a new command is dispatched and classed in one place.
import type { CliIo } from './io.ts';
import type { ExitCode } from './exitCodes.ts';

export interface Subcommand {
  /**
   * Whether earlyWorker.ts reads this command's thread count off the raw arguments and starts its
   * first search thread early, for the command to claim (workerPool.ts claimSpare), as it does for
   * a check: shard's only. docs, explore and resume have been left out since the early thread came in
   * (4fab7c1): resume's thread count is its manifest's, not its arguments', and docs and explore
   * start their searches after set-up of their own (not measured with an early thread). plan,
   * merge and init search nothing, and conform replays on its main thread: a spare thread there
   * loaded the engine for nothing, 0.7-0.8 s of CPU and 0.2-0.3 s of wall-clock time on plan's and
   * merge's runs (bench/README.md, thirty-eighth run).
   */
  readonly earlyThread: boolean;
  readonly run: (argv: readonly string[], io: CliIo) => Promise<ExitCode>;
}

const SUBCOMMANDS = new Map<string, Subcommand>([
  ['docs', { earlyThread: false, run: async (argv, io) => (await import('./commands/docs.ts')).runDocs(argv, io) }],
  ['explore', { earlyThread: false, run: async (argv, io) => (await import('./commands/explore.ts')).runExplore(argv, io) }],
  ['resume', { earlyThread: false, run: async (argv, io) => (await import('./commands/resume.ts')).runResume(argv, io) }],
  ['conform', { earlyThread: false, run: async (argv, io) => (await import('./commands/conform.ts')).runConform(argv, io) }],
  ['plan', { earlyThread: false, run: async (argv, io) => (await import('./commands/plan.ts')).runPlan(argv, io) }],
  ['shard', { earlyThread: true, run: async (argv, io) => (await import('./commands/shard.ts')).runShard(argv, io) }],
  ['merge', { earlyThread: false, run: async (argv, io) => (await import('./commands/merge.ts')).runMerge(argv, io) }],
  ['init', { earlyThread: false, run: async (argv, io) => (await import('./commands/init.ts')).runInit(argv, io) }],
]);

/** The command named by `name` (the first argument), or undefined: a model file to check, or anything else the check's parser then reads (an option, a misspelt command). */
export function subcommand(name: string | undefined): Subcommand | undefined {
  return name === undefined ? undefined : SUBCOMMANDS.get(name);
}
