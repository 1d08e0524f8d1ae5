// The command line's entry: which command, then that command's module (src/cli/commands/), each
// of which parses its options, plans, runs and renders. The CLI touches process only through
// CliIo (io.ts), which bin/modelcheck.js hands in.
import type { CliIo } from './io.ts';
import type { ExitCode } from './exitCodes.ts';
import { runCheck } from './commands/check.ts';

export type { CliIo } from './io.ts';

/** Runs the CLI on `argv` (without node and script), returning the exit status. */
export async function runCli(argv: readonly string[], io: CliIo): Promise<ExitCode> {
  // (Loaded only for their commands: a check does not wait for the modules they import.)
  if (argv[0] === 'docs') return (await import('./commands/docs.ts')).runDocs(argv.slice(1), io);
  if (argv[0] === 'explore') return (await import('./commands/explore.ts')).runExplore(argv.slice(1), io);
  if (argv[0] === 'resume') return (await import('./commands/resume.ts')).runResume(argv.slice(1), io);
  if (argv[0] === 'conform') return (await import('./commands/conform.ts')).runConform(argv.slice(1), io);
  if (argv[0] === 'plan') return (await import('./commands/plan.ts')).runPlan(argv.slice(1), io);
  if (argv[0] === 'shard') return (await import('./commands/shard.ts')).runShard(argv.slice(1), io);
  if (argv[0] === 'merge') return (await import('./commands/merge.ts')).runMerge(argv.slice(1), io);
  if (argv[0] === 'init') return (await import('./commands/init.ts')).runInit(argv.slice(1), io);
  return runCheck(argv, io);
}
