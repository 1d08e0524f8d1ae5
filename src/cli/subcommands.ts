// The commands other than the default one (a check of a model file): each one's module, loaded
// only when it is named (a check does not wait for the modules they import), and whether
// bin/modelcheck.js starts a search thread for it before the CLI has loaded (earlyWorker.ts). One
// table, so that a new command is dispatched and classed in one place.
import type { CliIo } from './io.ts';
import type { ExitCode } from './exitCodes.ts';

export interface Subcommand {
  /**
   * Whether the command's searches run in the pool's threads (workerPool.ts), so that one started
   * early is used: shard's are. docs, explore and resume start their searches their own way; plan,
   * merge and init search nothing, and conform replays on its main thread. A spare thread loaded
   * the engine for nothing there: plan's and merge's runs took 0.7-0.8 s of CPU and 0.2-0.3 s of
   * wall-clock time more with it (bench/README.md, thirty-eighth run).
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

/** The command `name` names (the first argument), or undefined for a model file to check. */
export function subcommand(name: string | undefined): Subcommand | undefined {
  return name === undefined ? undefined : SUBCOMMANDS.get(name);
}
