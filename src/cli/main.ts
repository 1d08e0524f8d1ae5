// The command line's entry: which command, then that command's module (src/cli/commands/), each
// of which parses its options, plans, runs and renders. The CLI touches process only through
// CliIo (io.ts), which bin/modelcheck.js hands in.
import type { CliIo } from './io.ts';
import type { ExitCode } from './exitCodes.ts';
import { runCheck } from './commands/check.ts';
import { subcommand } from './subcommands.ts';

export type { CliIo } from './io.ts';

/** Runs the CLI on `argv` (without node and script), returning the exit status. */
export async function runCli(argv: readonly string[], io: CliIo): Promise<ExitCode> {
  const command = subcommand(argv[0]);
  if (command !== undefined) return command.run(argv.slice(1), io);
  return runCheck(argv, io);
}
